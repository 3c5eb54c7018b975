//! Every weight of the evaluation, as `S(middlegame, endgame)` pairs in centipawns.
//!
//! GENERATED FILE: `tarpon tune` writes it, so that a tuning run is one reviewable diff.
//! The names, shapes, documentation and meaning of the weights are declared in
//! `params.rs`; this file holds only their numbers, and a test checks that it is exactly
//! what the generator writes for those numbers.
//!
//! Values: tuned by `tarpon tune` on 1382597 quiet positions, k = 0.005635, 15 epochs, lr 1, loss 0.031820 -> 0.030049.

use super::S;

/// What each piece is worth: pawn, knight, bishop, rook, queen (the king is never
/// traded, so it has no value). Started from PeSTO (Ronald Friederich's Texel-tuned
/// tables, as published on the Chess Programming Wiki).
#[rustfmt::skip]
pub const PIECE_VALUE: [S; 5] = [
    S(  76,   91), S( 344,  317), S( 361,  341), S( 470,  579), S(1111,  991),
];

/// Bonus for a pawn on each square. All six tables are laid out as printed, from
/// White's side with rank 8 first (a8..h8, then a7..h7, ...); a Black piece reads its
/// mirrored square. Started from PeSTO; the rank 1 and rank 8 entries are never used.
#[rustfmt::skip]
pub const PAWN_PST: [S; 64] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    S(  86,   87), S( 141,  115), S(  79,  103), S(  66,  123), S( 125,  137), S(  54,  110), S( -10,  112), S(  -9,  155),
    S(   8,   48), S(  10,   46), S(   8,   33), S(  10,   30), S(  25,   18), S(   9,   27), S(  23,   35), S(  27,   51),
    S( -13,   41), S(   6,   23), S(   7,   10), S(  10,   -3), S(  13,    0), S(  -5,    2), S(  14,    9), S( -19,   29),
    S( -16,   24), S( -14,   21), S(   2,    3), S(   9,   -2), S(   7,   -5), S(   2,    8), S(  -2,   12), S( -22,   21),
    S( -12,   11), S( -13,   18), S(  -1,    9), S(  -9,   10), S(   0,   15), S(  -2,   14), S(  25,   -4), S( -14,    3),
    S( -15,   18), S(   4,   20), S(  -5,   16), S( -12,   33), S( -12,   37), S(  19,   25), S(  27,   11), S( -18,   14),
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// Bonus for a knight on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const KNIGHT_PST: [S; 64] = [
    S(-194,   14), S( -89,  -38), S( -98,    3), S( -21,  -11), S(  78,  -40), S( -97,  -27), S( -15,  -63), S( -52, -107),
    S(  -9,  -23), S(   1,  -16), S(  30,  -12), S(  76,  -23), S(  64,  -28), S(  45,  -26), S( -28,    9), S(  14,  -38),
    S( -57,   31), S(  28,  -23), S(  40,    8), S(  41,   16), S(  79,   -6), S(  95,   -7), S(  32,    5), S(  -5,  -15),
    S(   9,  -16), S(  11,  -11), S(  15,   25), S(  28,   27), S(  21,   18), S(  20,   20), S(  13,    3), S(  31,    2),
    S(   0,   -1), S( -14,    1), S(   7,   17), S(  11,   18), S(  26,   12), S(  19,   16), S(  23,   -3), S(   9,   -5),
    S( -15,  -26), S(   3,   10), S(   3,    3), S(   5,   12), S(  12,   11), S(  13,   -6), S(  20,  -23), S( -16,  -11),
    S(  -9,  -53), S( -32,   10), S(  -2,  -37), S(   4,   -3), S(   0,    5), S(  17,  -38), S(  17,  -17), S(   3,  -36),
    S(-115,  -38), S(  -3,  -52), S( -23,    3), S(  -7,  -11), S(  10,  -28), S(  -9,   -9), S(  -8,  -40), S( -13,  -54),
];

/// Bonus for a bishop on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const BISHOP_PST: [S; 64] = [
    S(  -5,    1), S(-137,   48), S( -65,   22), S( -31,   10), S( -39,  -10), S(  -1,    5), S(  33,   -8), S(  18,  -33),
    S( -43,   15), S( -38,   26), S( -13,   18), S(   2,    7), S(  56,  -17), S(  11,  -12), S( -23,    4), S( -27,  -22),
    S( -23,   -7), S(  12,   -6), S(  27,    6), S(  15,    4), S(  17,   10), S(  20,    8), S(   4,   15), S(  18,   12),
    S( -11,    1), S(  15,    9), S(  13,    8), S(  17,   19), S(  23,   22), S(  16,   14), S(  10,   17), S(  -9,   -1),
    S(  -1,   -8), S(  -2,   15), S(  10,    7), S(  23,    9), S(  15,   14), S(   5,   20), S(  -9,   12), S(   1,   -8),
    S(  -2,    2), S(   9,    9), S(  20,    0), S(   9,    5), S(  12,   16), S(  16,   -6), S(   3,    1), S(  -7,   27),
    S(  22,   11), S(  17,  -19), S(  24,  -12), S(   3,   -5), S(   8,   -2), S(  31,  -20), S(  25,  -12), S(  -3,  -39),
    S( -15,   -4), S(  32,   -2), S(   4,  -15), S( -13,  -11), S(  26,  -18), S(  -6,    6), S(  -9,  -37), S(  -4,  -35),
];

/// Bonus for a rook on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const ROOK_PST: [S; 64] = [
    S(   7,   36), S(  27,   34), S(  48,   22), S(  61,    6), S(  15,   26), S(  18,   42), S(  26,   38), S(   0,   43),
    S(   7,   29), S(  14,   24), S(  39,   17), S(  98,  -10), S(  33,   12), S(  80,   -5), S(  39,   -3), S(  16,   11),
    S(  -4,   28), S(  -7,   17), S(  25,   20), S(  33,   12), S(  48,    3), S(  54,    5), S(  28,   10), S( -20,   44),
    S( -11,   19), S( -21,   24), S(  -5,   22), S(   0,   24), S(  18,   18), S(  26,   10), S( -12,   27), S(  -6,   25),
    S( -19,    9), S(  -7,   11), S(  -3,    9), S( -31,   20), S( -16,    1), S(   6,   13), S( -10,   -5), S( -14,    2),
    S( -42,   -7), S( -26,    6), S( -18,    2), S( -22,    6), S( -18,   -7), S(  -9,   -6), S(   8,   -3), S( -14,   -3),
    S( -24,    3), S( -10,  -19), S( -23,   -6), S( -15,  -12), S(  -1,  -14), S(   6,  -26), S(  -3,  -24), S( -48,   -7),
    S( -15,   -2), S(  -9,  -15), S(   1,  -15), S(   3,   -4), S(   5,  -17), S(  -4,  -10), S( -29,   -3), S(  -4,  -29),
];

/// Bonus for a queen on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const QUEEN_PST: [S; 64] = [
    S( -51,   87), S(  15,   51), S(   7,   36), S(  31,   39), S(  87,   10), S(  47,   19), S(  24,   45), S( -18,   79),
    S(  -4,    9), S( -50,   62), S(   3,   65), S(  10,    3), S(  54,   12), S(   7,   66), S(  -7,   68), S(  33,   -7),
    S( -28,   56), S( -14,   73), S(  -6,   48), S(  18,   20), S(  45,   54), S(  47,   10), S(  46,   19), S(  15,   51),
    S(  -7,   33), S( -19,   65), S( -17,   26), S( -15,   90), S( -22,   77), S(   9,   37), S(   2,   25), S(  16,   29),
    S(  -2,   13), S( -25,   54), S( -28,   61), S( -16,   64), S(   2,   62), S(   4,   38), S(   6,   20), S(   4,   33),
    S( -26,   38), S(  -3,  -14), S( -29,   53), S(   2,    1), S(  -3,   27), S(   1,   39), S(  22,  -40), S(   6,  -14),
    S( -40,   40), S(   0,  -37), S(  16,  -69), S(   6,  -53), S(  19,  -49), S(  22,  -56), S(  37, -120), S(   7,  -74),
    S( -25,    0), S( -23,   -6), S(   8,  -92), S(  12,  -59), S(  -2,  -82), S(  25, -146), S( -35,  -38), S(   1,  -34),
];

/// Bonus for the king on each square (layout as for `PAWN_PST`): sheltered in the
/// middlegame, central in the endgame.
#[rustfmt::skip]
pub const KING_PST: [S; 64] = [
    S( -65,  -74), S( 139,   25), S( -10,  -26), S( -15,  -18), S( -56,  -11), S(  -7,   -4), S(  30,  -34), S( -39,  -96),
    S(  51,  -20), S( 104,   45), S(  22,   36), S(  28,   25), S(  91,    1), S(-113,   13), S( -23,   28), S( -31,   -5),
    S(  57,   25), S(   2,   52), S(  26,   41), S( -42,   45), S( -30,   38), S(  16,   24), S( -77,   29), S( -23,   26),
    S(  -2,   26), S( -59,   39), S(   6,   35), S( -25,   35), S( -61,   45), S( -35,   23), S( -78,   19), S(  -8,   -1),
    S( -65,   14), S(  -5,   12), S( -16,   22), S(-117,   49), S( -51,   28), S( -24,   26), S(  47,    5), S( -70,   -9),
    S( -26,  -27), S( -53,   15), S( -12,    9), S( -34,   19), S( -31,   19), S(  -7,    8), S(   1,    2), S( -24,  -16),
    S(   2,  -25), S(  23,  -29), S( -27,    3), S( -30,   -7), S( -27,    3), S(  -8,    0), S(  11,   -7), S(   5,  -18),
    S( -52,  -65), S(  29,  -30), S(   4,  -20), S( -63,  -14), S(  -8,  -31), S( -31,  -14), S(  30,  -30), S(  23,  -59),
];

/// Per pawn with another pawn of its own side in front of it on the same file.
pub const DOUBLED_PAWN: S = S(-8, -12);

/// Per pawn with no pawn of its own side on either adjacent file: no pawn can ever
/// defend it.
pub const ISOLATED_PAWN: S = S(-7, -11);

/// Per pawn whose neighbours have all advanced past it, so none can defend it, and
/// whose square in front is attacked by an enemy pawn, so it cannot safely catch up.
pub const BACKWARD_PAWN: S = S(-1, -12);

/// Per pawn defended by a pawn of its own side, by the pawn's relative rank (index 0 =
/// its own back rank).
#[rustfmt::skip]
pub const CONNECTED_PAWN: [S; 8] = [
    S(   0,    0), S(   0,    0), S(   7,   16), S(  12,    7), S(  14,   15), S(  40,   46), S( 130,   35), S(   0,    0),
];

/// Per pawn with a pawn of its own side beside it on the same rank, by relative rank.
#[rustfmt::skip]
pub const PHALANX_PAWN: [S; 8] = [
    S(   0,    0), S(   3,    2), S(   7,   -1), S(   8,   13), S(  13,   34), S(  76,   87), S(  50,   70), S(   0,    0),
];

/// Per passed pawn (no enemy pawn in front of it on its own or an adjacent file), by
/// relative rank.
#[rustfmt::skip]
pub const PASSED_PAWN: [S; 8] = [
    S(   0,    0), S(  -7,   26), S(  10,   31), S( -22,   28), S(  13,   37), S(  32,   57), S(  39,   17), S(   0,    0),
];

/// Per passed pawn whose path to promotion is empty, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [S; 8] = [
    S(   0,    0), S(   6,    9), S(  -6,    5), S(  -2,   15), S(  10,   20), S(  35,   25), S(  84,   47), S(   0,    0),
];

/// Per passed pawn whose path to promotion no enemy piece or pawn attacks, by
/// relative rank.
#[rustfmt::skip]
pub const PASSED_SAFE_PATH: [S; 8] = [
    S(   0,    0), S( -12,    7), S( -27,   16), S( -64,   25), S( -30,   25), S(  34,   26), S(  14,   45), S(   0,    0),
];

/// Per passed pawn that a piece or pawn of its own side defends, by relative rank.
#[rustfmt::skip]
pub const PASSED_DEFENDED: [S; 8] = [
    S(   0,    0), S(  24,    3), S(  22,  -10), S(   2,    7), S(  21,    4), S(  38,   -6), S(  88,  -29), S(   0,    0),
];

/// Per passed pawn, times the distance (in king moves) from its own king to the
/// square in front of it, by relative rank: an escorting king helps.
#[rustfmt::skip]
pub const PASSED_OWN_KING_DISTANCE: [S; 8] = [
    S(   0,    0), S(  -2,    0), S(   5,   -4), S(  13,  -12), S(   1,  -12), S(  -7,  -13), S(  -8,  -13), S(   0,    0),
];

/// Per passed pawn, times the distance from the enemy king to the square in front of
/// it, by relative rank: a far-away defender cannot stop it.
#[rustfmt::skip]
pub const PASSED_ENEMY_KING_DISTANCE: [S; 8] = [
    S(   0,    0), S(  -1,   -5), S( -10,    3), S(  -7,   12), S(  -4,   22), S(   0,   31), S(  -7,   41), S(   0,    0),
];

/// Per passed pawn that the enemy king cannot catch (rule of the square) when the
/// enemy has only king and pawns and the pawn's path is empty.
pub const UNSTOPPABLE_PASSER: S = S(-63, 187);

/// Knight mobility: indexed by the number of safe squares it attacks (not attacked by
/// enemy pawns, not occupied by its own pawns or king).
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [S; 9] = [
    S( -26, -118), S( -17,  -28), S( -10,    6), S(  -4,   11), S(   4,   21), S(   8,   37), S(  16,   28), S(  22,   25),
    S(  20,    6),
];

/// Bishop mobility, indexed by safe squares attacked (as for knights).
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [S; 14] = [
    S( -25,  -68), S( -18,  -17), S(  -8,  -15), S(  -4,    3), S(   2,   17), S(   6,   21), S(   8,   28), S(  11,   34),
    S(  14,   28), S(  15,   35), S(  13,   32), S(   7,   36), S(  34,    8), S(   6,   23),
];

/// Rook mobility, indexed by safe squares attacked (as for knights).
#[rustfmt::skip]
pub const ROOK_MOBILITY: [S; 15] = [
    S( -71, -107), S( -24,  -42), S( -10,   -8), S(  -8,    7), S(   0,   13), S(  -1,   20), S(   5,   24), S(  13,   25),
    S(  12,   31), S(  10,   38), S(  16,   38), S(  25,   37), S(  18,   40), S(  29,   39), S(  54,   23),
];

/// Queen mobility, indexed by safe squares attacked (as for knights).
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [S; 28] = [
    S( -20,  -30), S( -13,   19), S( -12,  -46), S(  -9,  -23), S(  -7,  -23), S( -11,   25), S(  -8,   27), S(  -7,   10),
    S(  -3,   22), S(  -2,   30), S(   1,   47), S(   2,   53), S(   5,   41), S(   5,   52), S(   6,   54), S(   4,   56),
    S(  13,   44), S(   6,   49), S(  22,   31), S(  44,    9), S(  34,    9), S(  47,  -19), S(  70,  -32), S( 119, -121),
    S(  46, -148), S(  37, -192), S(   9,   19), S(  10,   20),
];

/// For having bishops on both colours of square.
pub const BISHOP_PAIR: S = S(25, 52);

/// Per rook on a file without pawns.
pub const ROOK_OPEN_FILE: S = S(34, -4);

/// Per rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: S = S(8, 18);

/// Per rook on the seventh rank (relative) while the enemy king is on the eighth or
/// enemy pawns are still on the seventh.
pub const ROOK_ON_SEVENTH: S = S(-3, 27);

/// Per knight on an outpost: relative rank 4 to 6, defended by a pawn, and out of reach
/// of every enemy pawn now and later.
pub const KNIGHT_OUTPOST: S = S(26, 15);

/// Per bishop on an outpost (as for knights).
pub const BISHOP_OUTPOST: S = S(27, 7);

/// Per file of the king's three whose nearest own pawn in front of the king is 1, 2
/// or 3+ ranks ahead.
#[rustfmt::skip]
pub const PAWN_SHIELD: [S; 3] = [
    S(  16,   -3), S(   7,   -3), S(   4,   -2),
];

/// Per file of the king's three whose nearest enemy pawn in front of the king is 1,
/// 2, 3 or 4 ranks ahead and free to advance.
#[rustfmt::skip]
pub const PAWN_STORM: [S; 4] = [
    S(  40,   -3), S( -21,    5), S( -12,    0), S(  -7,    6),
];

/// Per file of the king's three where the nearest enemy pawn, 1 to 4 ranks ahead, is
/// stopped by an own pawn right in front of it (a blocked storm opens nothing).
pub const BLOCKED_STORM: S = S(-2, -5);

/// Per file of the king's three with no pawn of either side in front of the king.
pub const KING_OPEN_FILE: S = S(-25, 1);

/// Per file of the king's three with enemy pawns but no own pawn in front of the king.
pub const KING_SEMI_OPEN_FILE: S = S(-12, 2);

/// Danger per enemy knight, bishop, rook or queen attacking the king zone (the king's
/// square, its neighbours, and one more rank towards the enemy).
#[rustfmt::skip]
pub const KING_ATTACKER_WEIGHT: [S; 4] = [
    S(  39,  167), S(  39,   53), S(  38,  -25), S(  29,  -29),
];

/// Danger per attack of an enemy piece on a square of the king zone.
pub const KING_ZONE_ATTACK: S = S(8, 24);

/// Danger per king-zone square the enemy attacks and we defend at most once, with the
/// king or the queen only.
pub const KING_WEAK_SQUARE: S = S(26, -18);

/// Danger per square from which an enemy knight, bishop, rook or queen could give a
/// check that we do not attack (a safe check).
#[rustfmt::skip]
pub const SAFE_CHECK: [S; 4] = [
    S(  78,  -11), S(  50,  144), S( 102,   77), S(  58,   -2),
];

/// Danger (negative) when the enemy has no queen: attacks rarely break through
/// without one.
pub const NO_ENEMY_QUEEN: S = S(-104, -290);

/// Per enemy knight, bishop, rook or queen that we attack and nobody defends.
pub const HANGING_PIECE: S = S(19, 18);

/// Per enemy knight, bishop, rook or queen attacked by one of our pawns.
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [S; 4] = [
    S(  53,   31), S(  50,   54), S(  71,  -10), S(  41,    8),
];

/// Per enemy rook or queen attacked by one of our knights or bishops.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [S; 2] = [
    S(  45,   14), S(  42,   -5),
];

/// Per enemy queen attacked by one of our rooks.
pub const THREAT_BY_ROOK: S = S(67, -5);

/// Per safe square in our half of the four centre files (counted twice behind our own
/// pawns): room for the pieces to manoeuvre.
pub const SPACE: S = S(1, 2);

/// For having the move.
pub const TEMPO: S = S(16, 0);

/// Times how far the lone enemy king is from the centre (0 to 6), when we have mating
/// material against a bare king: drive it to the edge.
pub const MATE_EDGE: S = S(0, 10);

/// Times how close our king is to the lone enemy king (14 minus their distance in
/// files plus ranks), when mating a bare king: the attacking king must help.
pub const MATE_KING_PROXIMITY: S = S(0, 4);

/// With king, bishop and knight against a bare king: times how close the enemy king is
/// to a corner of the bishop's colour (14 minus files plus ranks), the only corners
/// where mate can be forced.
pub const KBN_CORNER: S = S(0, 15);
