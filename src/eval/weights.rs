//! Every weight of the evaluation, as `S(middlegame, endgame)` pairs in centipawns.
//!
//! GENERATED FILE: `tarpon tune` writes it, so that a tuning run is one reviewable diff.
//! The names, shapes, documentation and meaning of the weights are declared in
//! `params.rs`; this file holds only their numbers, and a test checks that it is exactly
//! what the generator writes for those numbers.
//!
//! Values: tuned by `tarpon tune` on 2814298 quiet positions, k = 0.006103, 15 epochs, lr 1, loss 0.029597 -> 0.029403.

use super::S;

/// What each piece is worth: pawn, knight, bishop, rook, queen (the king is never
/// traded, so it has no value). Started from PeSTO (Ronald Friederich's Texel-tuned
/// tables, as published on the Chess Programming Wiki).
#[rustfmt::skip]
pub const PIECE_VALUE: [S; 5] = [
    S(  77,   85), S( 343,  323), S( 359,  343), S( 476,  577), S(1149,  964),
];

/// Bonus for a pawn on each square. All six tables are laid out as printed, from
/// White's side with rank 8 first (a8..h8, then a7..h7, ...); a Black piece reads its
/// mirrored square. Started from PeSTO; the rank 1 and rank 8 entries are never used.
#[rustfmt::skip]
pub const PAWN_PST: [S; 64] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    S( 112,   54), S( 126,   92), S(  83,   98), S(  75,  115), S( 104,  110), S(  83,   95), S(   2,  112), S(  25,  110),
    S(   9,   43), S(  12,   43), S(   3,   40), S(  10,   29), S(  23,   24), S(   8,   24), S(  21,   28), S(  26,   42),
    S(  -5,   36), S(   6,   17), S(   0,    6), S(  11,   -9), S(  11,  -11), S(  -5,    2), S(  12,    6), S( -17,   27),
    S( -14,   26), S( -12,   20), S(   3,    8), S(   7,   -4), S(   6,   -4), S(   3,    9), S(   1,   10), S( -21,   26),
    S( -11,   14), S( -13,   15), S(  -2,   17), S(  -8,   16), S(  -2,   23), S(  -3,   20), S(  22,    0), S( -16,    7),
    S( -14,   21), S(   2,   21), S(  -7,   23), S( -11,   38), S( -10,   35), S(  21,   27), S(  25,   14), S( -18,   13),
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// Bonus for a knight on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const KNIGHT_PST: [S; 64] = [
    S(-170,   -8), S( -33,  -16), S(-107,    5), S(  21,  -15), S( 104,  -48), S(-164,   16), S( -15,  -63), S( -40, -122),
    S( -24,  -16), S(  -8,  -13), S(  17,  -15), S(  56,  -18), S(  39,  -16), S(  26,  -23), S( -26,  -10), S(   5,  -43),
    S( -14,   -9), S(  20,  -17), S(  36,    7), S(  35,   16), S(  75,   -1), S(  67,  -10), S(  29,   -9), S(   6,  -21),
    S(  18,   -4), S(   8,  -11), S(  21,   12), S(  29,   15), S(  17,   22), S(  30,   14), S(   9,   -1), S(  34,    0),
    S(  -3,    2), S(  -8,   -2), S(   7,   16), S(  12,   21), S(  21,   15), S(  17,   18), S(  12,   -2), S(  10,   -7),
    S( -12,  -26), S(   4,    3), S(   1,   -3), S(   8,   11), S(  13,    1), S(  12,   -6), S(  15,  -18), S( -14,  -15),
    S( -13,  -63), S( -23,   -3), S(  -3,  -40), S(   5,  -10), S(   3,    2), S(  12,  -33), S(  23,  -23), S(  12,  -22),
    S( -94,  -48), S(  -2,  -51), S( -13,    2), S( -17,  -15), S(  13,  -26), S(  -2,  -26), S(  -6,  -25), S( -24,   11),
];

/// Bonus for a bishop on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const BISHOP_PST: [S; 64] = [
    S(  -4,   25), S(-111,   40), S( -25,   21), S( -28,   20), S( -38,    1), S( -54,   14), S(   8,   17), S(   2,  -13),
    S( -54,   23), S( -14,    9), S( -13,   19), S(  -3,    6), S(  16,    5), S(  15,   -4), S(  -3,   -2), S( -35,    3),
    S( -11,  -15), S(  -4,    2), S(  22,    2), S(  18,   -1), S(  28,    5), S(  30,   12), S(   7,   21), S(  13,   11),
    S( -15,    4), S(  11,   10), S(   6,    6), S(  22,   15), S(  19,   20), S(  12,    9), S(  12,   14), S(  -6,    7),
    S(   7,   -6), S(  -2,    7), S(  10,    7), S(  17,   12), S(  14,   14), S(   4,   16), S(  -6,    6), S(  11,   -6),
    S(  -2,   -4), S(  11,    9), S(  15,    6), S(  11,   -1), S(  11,   13), S(  13,   -5), S(   9,    0), S(  -3,   15),
    S(  14,   -8), S(  17,  -19), S(  19,  -11), S(   5,   -5), S(  11,   -2), S(  25,  -17), S(  27,  -15), S(  -1,  -34),
    S( -12,    1), S(  21,   -9), S(   4,  -16), S(  -9,   -7), S(  10,  -12), S(  -4,    3), S(   8,  -14), S(  -1,  -28),
];

/// Bonus for a rook on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const ROOK_PST: [S; 64] = [
    S(  17,   33), S(  35,   27), S(  25,   27), S(  35,   23), S(  11,   29), S(  27,   27), S(  39,   24), S(   5,   32),
    S(  12,   28), S(  18,   21), S(  34,   23), S(  68,    4), S(  23,   16), S(  66,    2), S(  32,    7), S(  14,   13),
    S(  -9,   35), S( -11,   25), S(  35,   20), S(  38,   16), S(  39,   11), S(  46,   12), S(  26,   17), S( -18,   39),
    S( -10,   26), S( -25,   34), S(   5,   23), S(   8,   24), S(  18,   14), S(  25,    7), S(  -7,   24), S(  -1,   22),
    S( -20,   16), S( -13,   17), S(  -2,   10), S( -32,   23), S( -13,    3), S(   6,    6), S( -26,   17), S( -22,   10),
    S( -36,   -1), S( -24,    2), S( -23,    9), S( -16,    2), S( -21,   -6), S( -13,   -5), S(  11,  -16), S( -21,   -1),
    S( -22,    0), S( -12,  -17), S( -25,   -7), S( -13,  -13), S(  -4,  -19), S(   7,  -33), S(   0,  -23), S( -40,  -14),
    S( -14,   -9), S( -10,  -16), S(   3,  -17), S(   4,  -12), S(   7,  -20), S(   0,  -17), S( -26,   -5), S(  -3,  -30),
];

/// Bonus for a queen on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const QUEEN_PST: [S; 64] = [
    S( -57,   75), S(   9,   30), S(  -8,   48), S(  53,    4), S(  80,   12), S(  45,   17), S(  24,   24), S(  -7,   53),
    S( -17,   34), S( -36,   64), S(   5,   63), S(   6,   29), S(  48,   28), S(   3,   75), S(   1,   57), S(  24,    3),
    S( -20,   47), S(   2,   50), S( -12,   73), S(  11,   37), S(  33,   56), S(  36,   17), S(  21,   52), S(  33,    9),
    S(  -3,   22), S( -20,   56), S( -25,   62), S( -17,   87), S( -24,   93), S(  -2,   57), S(  -2,   44), S(  12,   35),
    S(  -2,   -8), S( -23,   44), S( -25,   56), S( -17,   75), S(  -1,   64), S(  -1,   44), S(   3,   25), S(  10,   21),
    S( -14,    2), S(  -2,  -27), S( -21,   32), S(   1,    0), S(   1,   22), S(   0,   37), S(  20,  -18), S(  11,  -24),
    S( -26,  -13), S(   1,  -38), S(  14,  -75), S(   7,  -48), S(  19,  -50), S(  20,  -43), S(  25,  -90), S(  12,  -71),
    S(  -9,  -37), S( -20,  -42), S(   7,  -82), S(  11,  -54), S(   4,  -67), S(  14, -106), S(   8,  -84), S(  24,  -75),
];

/// Bonus for the king on each square (layout as for `PAWN_PST`): sheltered in the
/// middlegame, central in the endgame.
#[rustfmt::skip]
pub const KING_PST: [S; 64] = [
    S( -53, -122), S( 109,  -29), S( -28,  -26), S(   2,  -13), S(  47,   48), S(  44,   35), S(  88,    5), S(  15,  -93),
    S(  97,  -64), S( -37,   14), S(  12,    2), S(  17,   19), S( 125,    4), S(-115,   46), S(  40,   31), S(   9,   -4),
    S(   3,    1), S( -35,   31), S(  -3,   31), S( -49,   40), S(  13,   29), S(  39,   33), S( -51,   46), S( -18,   39),
    S( -22,    3), S( -47,   34), S(  11,   30), S( -41,   30), S( -21,   37), S(  -5,   29), S( -70,   28), S(  -7,   -2),
    S(-101,   10), S(   8,    8), S( -31,   29), S( -90,   45), S( -49,   32), S( -32,   25), S(  41,    8), S( -47,   -4),
    S( -34,  -21), S( -14,    7), S(   5,    8), S( -24,   19), S( -27,   19), S( -11,   12), S(  -2,    3), S( -41,   -4),
    S( -11,  -11), S(  18,  -16), S( -27,    4), S( -23,   -7), S( -26,    1), S(  -9,    2), S(   9,   -6), S(   1,  -16),
    S( -66,  -36), S(  21,  -20), S(   5,  -24), S( -60,  -15), S(  -7,  -30), S( -26,  -17), S(  29,  -30), S(  24,  -57),
];

/// Per pawn with another pawn of its own side in front of it on the same file.
pub const DOUBLED_PAWN: S = S(-7, -5);

/// Per pawn with no pawn of its own side on either adjacent file: no pawn can ever
/// defend it.
pub const ISOLATED_PAWN: S = S(-4, -15);

/// Per pawn whose neighbours have all advanced past it, so none can defend it, and
/// whose square in front is attacked by an enemy pawn, so it cannot safely catch up.
pub const BACKWARD_PAWN: S = S(0, -19);

/// Per pawn defended by a pawn of its own side, by the pawn's relative rank (index 0 =
/// its own back rank).
#[rustfmt::skip]
pub const CONNECTED_PAWN: [S; 8] = [
    S(   0,    0), S(   0,    0), S(   9,   15), S(  12,    6), S(  14,   18), S(  46,   54), S( 155,   34), S(   0,    0),
];

/// Per pawn with a pawn of its own side beside it on the same rank, by relative rank.
#[rustfmt::skip]
pub const PHALANX_PAWN: [S; 8] = [
    S(   0,    0), S(   4,   -1), S(   6,   -1), S(   9,   12), S(  15,   33), S( 104,   65), S(  50,   70), S(   0,    0),
];

/// Per passed pawn (no enemy pawn in front of it on its own or an adjacent file), by
/// relative rank.
#[rustfmt::skip]
pub const PASSED_PAWN: [S; 8] = [
    S(   0,    0), S( -33,   34), S(  10,   28), S( -50,   41), S(  11,   47), S(  47,   36), S(  67,  -33), S(   0,    0),
];

/// Per passed pawn whose path to promotion is empty, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [S; 8] = [
    S(   0,    0), S(   4,    6), S(  -2,    4), S(   4,   11), S(   9,   18), S(  32,   27), S(  98,   60), S(   0,    0),
];

/// Per passed pawn whose path to promotion no enemy piece or pawn attacks, by
/// relative rank.
#[rustfmt::skip]
pub const PASSED_SAFE_PATH: [S; 8] = [
    S(   0,    0), S( -43,   19), S( -32,   19), S( -69,   28), S( -38,   30), S(  24,   27), S(  18,   51), S(   0,    0),
];

/// Per passed pawn that a piece or pawn of its own side defends, by relative rank.
#[rustfmt::skip]
pub const PASSED_DEFENDED: [S; 8] = [
    S(   0,    0), S(  23,    2), S(  25,   -7), S(  16,   -1), S(  27,   -2), S(  44,   -6), S( 104,  -23), S(   0,    0),
];

/// Per passed pawn, times the distance (in king moves) from its own king to the
/// square in front of it, by relative rank: an escorting king helps.
#[rustfmt::skip]
pub const PASSED_OWN_KING_DISTANCE: [S; 8] = [
    S(   0,    0), S(  -1,   -1), S(   6,   -5), S(  12,  -12), S(   0,  -13), S( -10,  -11), S( -17,  -10), S(   0,    0),
];

/// Per passed pawn, times the distance from the enemy king to the square in front of
/// it, by relative rank: a far-away defender cannot stop it.
#[rustfmt::skip]
pub const PASSED_ENEMY_KING_DISTANCE: [S; 8] = [
    S(   0,    0), S(   2,   -3), S( -12,    4), S(  -4,   13), S(  -5,   22), S(  -1,   34), S( -11,   45), S(   0,    0),
];

/// Per passed pawn that the enemy king cannot catch (rule of the square) when the
/// enemy has only king and pawns and the pawn's path is empty.
pub const UNSTOPPABLE_PASSER: S = S(-189, 188);

/// Knight mobility: indexed by the number of safe squares it attacks (not attacked by
/// enemy pawns, not occupied by its own pawns or king).
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [S; 9] = [
    S( -26, -109), S( -20,  -29), S( -12,    8), S(  -4,   14), S(   3,   24), S(   8,   38), S(  16,   30), S(  22,   24),
    S(  32,    4),
];

/// Bishop mobility, indexed by safe squares attacked (as for knights).
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [S; 14] = [
    S( -26,  -73), S( -18,  -19), S(  -8,  -18), S(  -3,    3), S(   1,   19), S(   6,   22), S(   8,   27), S(   9,   33),
    S(  15,   29), S(  13,   36), S(  18,   30), S(  10,   36), S(  28,   19), S(   3,   26),
];

/// Rook mobility, indexed by safe squares attacked (as for knights).
#[rustfmt::skip]
pub const ROOK_MOBILITY: [S; 15] = [
    S( -73,  -93), S( -24,  -42), S( -10,   -6), S(  -7,    5), S(   1,    9), S(   2,   17), S(   3,   25), S(  10,   27),
    S(  12,   32), S(  13,   38), S(  17,   39), S(  26,   38), S(  22,   41), S(  36,   35), S(  60,   21),
];

/// Queen mobility, indexed by safe squares attacked (as for knights).
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [S; 28] = [
    S( -20,  -30), S( -16,    8), S( -13,  -59), S( -10,  -26), S(  -9,   -7), S( -10,   21), S(  -9,   39), S(  -6,   34),
    S(  -3,   39), S(  -1,   46), S(   0,   56), S(   1,   69), S(   3,   67), S(   5,   69), S(   6,   75), S(   5,   74),
    S(  10,   67), S(   8,   64), S(  20,   48), S(  31,   31), S(  49,   10), S(  89,  -52), S( 129,  -67), S( 217, -180),
    S( 212, -204), S( 284, -323), S(   9,   19), S(-111, -360),
];

/// For having bishops on both colours of square.
pub const BISHOP_PAIR: S = S(23, 55);

/// Per rook on a file without pawns.
pub const ROOK_OPEN_FILE: S = S(35, -5);

/// Per rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: S = S(10, 14);

/// Per rook on the seventh rank (relative) while the enemy king is on the eighth or
/// enemy pawns are still on the seventh.
pub const ROOK_ON_SEVENTH: S = S(-5, 20);

/// Per knight on an outpost: relative rank 4 to 6, defended by a pawn, and out of reach
/// of every enemy pawn now and later.
pub const KNIGHT_OUTPOST: S = S(25, 12);

/// Per bishop on an outpost (as for knights).
pub const BISHOP_OUTPOST: S = S(24, 9);

/// Per file of the king's three whose nearest own pawn in front of the king is 1, 2
/// or 3+ ranks ahead.
#[rustfmt::skip]
pub const PAWN_SHIELD: [S; 3] = [
    S(  15,   -1), S(   7,   -2), S(   4,   -3),
];

/// Per file of the king's three whose nearest enemy pawn in front of the king is 1,
/// 2, 3 or 4 ranks ahead and free to advance.
#[rustfmt::skip]
pub const PAWN_STORM: [S; 4] = [
    S(  45,    0), S( -20,    6), S( -11,    3), S(  -6,    8),
];

/// Per file of the king's three where the nearest enemy pawn, 1 to 4 ranks ahead, is
/// stopped by an own pawn right in front of it (a blocked storm opens nothing).
pub const BLOCKED_STORM: S = S(-1, -5);

/// Per file of the king's three with no pawn of either side in front of the king.
pub const KING_OPEN_FILE: S = S(-24, 2);

/// Per file of the king's three with enemy pawns but no own pawn in front of the king.
pub const KING_SEMI_OPEN_FILE: S = S(-8, -1);

/// Danger per enemy knight, bishop, rook or queen attacking the king zone (the king's
/// square, its neighbours, and one more rank towards the enemy).
#[rustfmt::skip]
pub const KING_ATTACKER_WEIGHT: [S; 4] = [
    S(  37,  320), S(  35,   96), S(  44,  -48), S(  29,  -49),
];

/// Danger per attack of an enemy piece on a square of the king zone.
pub const KING_ZONE_ATTACK: S = S(10, 48);

/// Danger per king-zone square the enemy attacks and we defend at most once, with the
/// king or the queen only.
pub const KING_WEAK_SQUARE: S = S(28, -43);

/// Danger per square from which an enemy knight, bishop, rook or queen could give a
/// check that we do not attack (a safe check).
#[rustfmt::skip]
pub const SAFE_CHECK: [S; 4] = [
    S(  73,    0), S(  51,  377), S( 105,  123), S(  56,    7),
];

/// Danger (negative) when the enemy has no queen: attacks rarely break through
/// without one.
pub const NO_ENEMY_QUEEN: S = S(-124, -571);

/// Per enemy knight, bishop, rook or queen that we attack and nobody defends.
pub const HANGING_PIECE: S = S(18, 18);

/// Per enemy knight, bishop, rook or queen attacked by one of our pawns.
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [S; 4] = [
    S(  52,   28), S(  47,   45), S(  60,    5), S(  41,   -8),
];

/// Per enemy rook or queen attacked by one of our knights or bishops.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [S; 2] = [
    S(  45,   12), S(  40,   13),
];

/// Per enemy queen attacked by one of our rooks.
pub const THREAT_BY_ROOK: S = S(68, -4);

/// Per safe square in our half of the four centre files (counted twice behind our own
/// pawns): room for the pieces to manoeuvre.
pub const SPACE: S = S(2, 3);

/// For having the move.
pub const TEMPO: S = S(15, 2);

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
