//! Every weight of the evaluation, as `S(middlegame, endgame)` pairs in centipawns.
//!
//! GENERATED FILE: `tarpon tune` writes it, so that a tuning run is one reviewable diff.
//! The names, shapes, documentation and meaning of the weights are declared in
//! `params.rs`; this file holds only their numbers, and a test checks that it is exactly
//! what the generator writes for those numbers.
//!
//! Values: initial hand-set values; material and piece-square tables from PeSTO.

use super::S;

/// What each piece is worth: pawn, knight, bishop, rook, queen (the king is never
/// traded, so it has no value). Started from PeSTO (Ronald Friederich's Texel-tuned
/// tables, as published on the Chess Programming Wiki).
#[rustfmt::skip]
pub const PIECE_VALUE: [S; 5] = [
    S(  82,   94), S( 337,  281), S( 365,  297), S( 477,  512), S(1025,  936),
];

/// Bonus for a pawn on each square. All six tables are laid out as printed, from
/// White's side with rank 8 first (a8..h8, then a7..h7, ...); a Black piece reads its
/// mirrored square. Started from PeSTO; the rank 1 and rank 8 entries are never used.
#[rustfmt::skip]
pub const PAWN_PST: [S; 64] = [
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
    S(  98,  178), S( 134,  173), S(  61,  158), S(  95,  134), S(  68,  147), S( 126,  132), S(  34,  165), S( -11,  187),
    S(  -6,   94), S(   7,  100), S(  26,   85), S(  31,   67), S(  65,   56), S(  56,   53), S(  25,   82), S( -20,   84),
    S( -14,   32), S(  13,   24), S(   6,   13), S(  21,    5), S(  23,   -2), S(  12,    4), S(  17,   17), S( -23,   17),
    S( -27,   13), S(  -2,    9), S(  -5,   -3), S(  12,   -7), S(  17,   -7), S(   6,   -8), S(  10,    3), S( -25,   -1),
    S( -26,    4), S(  -4,    7), S(  -4,   -6), S( -10,    1), S(   3,    0), S(   3,   -5), S(  33,   -1), S( -12,   -8),
    S( -35,   13), S(  -1,    8), S( -20,    8), S( -23,   10), S( -15,   13), S(  24,    0), S(  38,    2), S( -22,   -7),
    S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0), S(   0,    0),
];

/// Bonus for a knight on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const KNIGHT_PST: [S; 64] = [
    S(-167,  -58), S( -89,  -38), S( -34,  -13), S( -49,  -28), S(  61,  -31), S( -97,  -27), S( -15,  -63), S(-107,  -99),
    S( -73,  -25), S( -41,   -8), S(  72,  -25), S(  36,   -2), S(  23,   -9), S(  62,  -25), S(   7,  -24), S( -17,  -52),
    S( -47,  -24), S(  60,  -20), S(  37,   10), S(  65,    9), S(  84,   -1), S( 129,   -9), S(  73,  -19), S(  44,  -41),
    S(  -9,  -17), S(  17,    3), S(  19,   22), S(  53,   22), S(  37,   22), S(  69,   11), S(  18,    8), S(  22,  -18),
    S( -13,  -18), S(   4,   -6), S(  16,   16), S(  13,   25), S(  28,   16), S(  19,   17), S(  21,    4), S(  -8,  -18),
    S( -23,  -23), S(  -9,   -3), S(  12,   -1), S(  10,   15), S(  19,   10), S(  17,   -3), S(  25,  -20), S( -16,  -22),
    S( -29,  -42), S( -53,  -20), S( -12,  -10), S(  -3,   -5), S(  -1,   -2), S(  18,  -20), S( -14,  -23), S( -19,  -44),
    S(-105,  -29), S( -21,  -51), S( -58,  -23), S( -33,  -15), S( -17,  -22), S( -28,  -18), S( -19,  -50), S( -23,  -64),
];

/// Bonus for a bishop on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const BISHOP_PST: [S; 64] = [
    S( -29,  -14), S(   4,  -21), S( -82,  -11), S( -37,   -8), S( -25,   -7), S( -42,   -9), S(   7,  -17), S(  -8,  -24),
    S( -26,   -8), S(  16,   -4), S( -18,    7), S( -13,  -12), S(  30,   -3), S(  59,  -13), S(  18,   -4), S( -47,  -14),
    S( -16,    2), S(  37,   -8), S(  43,    0), S(  40,   -1), S(  35,   -2), S(  50,    6), S(  37,    0), S(  -2,    4),
    S(  -4,   -3), S(   5,    9), S(  19,   12), S(  50,    9), S(  37,   14), S(  37,   10), S(   7,    3), S(  -2,    2),
    S(  -6,   -6), S(  13,    3), S(  13,   13), S(  26,   19), S(  34,    7), S(  12,   10), S(  10,   -3), S(   4,   -9),
    S(   0,  -12), S(  15,   -3), S(  15,    8), S(  15,   10), S(  14,   13), S(  27,    3), S(  18,   -7), S(  10,  -15),
    S(   4,  -14), S(  15,  -18), S(  16,   -7), S(   0,   -1), S(   7,    4), S(  21,   -9), S(  33,  -15), S(   1,  -27),
    S( -33,  -23), S(  -3,   -9), S( -14,  -23), S( -21,   -5), S( -13,   -9), S( -12,  -16), S( -39,   -5), S( -21,  -17),
];

/// Bonus for a rook on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const ROOK_PST: [S; 64] = [
    S(  32,   13), S(  42,   10), S(  32,   18), S(  51,   15), S(  63,   12), S(   9,   12), S(  31,    8), S(  43,    5),
    S(  27,   11), S(  32,   13), S(  58,   13), S(  62,   11), S(  80,   -3), S(  67,    3), S(  26,    8), S(  44,    3),
    S(  -5,    7), S(  19,    7), S(  26,    7), S(  36,    5), S(  17,    4), S(  45,   -3), S(  61,   -5), S(  16,   -3),
    S( -24,    4), S( -11,    3), S(   7,   13), S(  26,    1), S(  24,    2), S(  35,    1), S(  -8,   -1), S( -20,    2),
    S( -36,    3), S( -26,    5), S( -12,    8), S(  -1,    4), S(   9,   -5), S(  -7,   -6), S(   6,   -8), S( -23,  -11),
    S( -45,   -4), S( -25,    0), S( -16,   -5), S( -17,   -1), S(   3,   -7), S(   0,  -12), S(  -5,   -8), S( -33,  -16),
    S( -44,   -6), S( -16,   -6), S( -20,    0), S(  -9,    2), S(  -1,   -9), S(  11,   -9), S(  -6,  -11), S( -71,   -3),
    S( -19,   -9), S( -13,    2), S(   1,    3), S(  17,   -1), S(  16,   -5), S(   7,  -13), S( -37,    4), S( -26,  -20),
];

/// Bonus for a queen on each square (layout as for `PAWN_PST`).
#[rustfmt::skip]
pub const QUEEN_PST: [S; 64] = [
    S( -28,   -9), S(   0,   22), S(  29,   22), S(  12,   27), S(  59,   27), S(  44,   19), S(  43,   10), S(  45,   20),
    S( -24,  -17), S( -39,   20), S(  -5,   32), S(   1,   41), S( -16,   58), S(  57,   25), S(  28,   30), S(  54,    0),
    S( -13,  -20), S( -17,    6), S(   7,    9), S(   8,   49), S(  29,   47), S(  56,   35), S(  47,   19), S(  57,    9),
    S( -27,    3), S( -27,   22), S( -16,   24), S( -16,   45), S(  -1,   57), S(  17,   40), S(  -2,   57), S(   1,   36),
    S(  -9,  -18), S( -26,   28), S(  -9,   19), S( -10,   47), S(  -2,   31), S(  -4,   34), S(   3,   39), S(  -3,   23),
    S( -14,  -16), S(   2,  -27), S( -11,   15), S(  -2,    6), S(  -5,    9), S(   2,   17), S(  14,   10), S(   5,    5),
    S( -35,  -22), S(  -8,  -23), S(  11,  -30), S(   2,  -16), S(   8,  -16), S(  15,  -23), S(  -3,  -36), S(   1,  -32),
    S(  -1,  -33), S( -18,  -28), S(  -9,  -22), S(  10,  -43), S( -15,   -5), S( -25,  -32), S( -31,  -20), S( -50,  -41),
];

/// Bonus for the king on each square (layout as for `PAWN_PST`): sheltered in the
/// middlegame, central in the endgame.
#[rustfmt::skip]
pub const KING_PST: [S; 64] = [
    S( -65,  -74), S(  23,  -35), S(  16,  -18), S( -15,  -18), S( -56,  -11), S( -34,   15), S(   2,    4), S(  13,  -17),
    S(  29,  -12), S(  -1,   17), S( -20,   14), S(  -7,   17), S(  -8,   17), S(  -4,   38), S( -38,   23), S( -29,   11),
    S(  -9,   10), S(  24,   17), S(   2,   23), S( -16,   15), S( -20,   20), S(   6,   45), S(  22,   44), S( -22,   13),
    S( -17,   -8), S( -20,   22), S( -12,   24), S( -27,   27), S( -30,   26), S( -25,   33), S( -14,   26), S( -36,    3),
    S( -49,  -18), S(  -1,   -4), S( -27,   21), S( -39,   24), S( -46,   27), S( -44,   23), S( -33,    9), S( -51,  -11),
    S( -14,  -19), S( -14,   -3), S( -22,   11), S( -46,   21), S( -44,   23), S( -30,   16), S( -15,    7), S( -27,   -9),
    S(   1,  -27), S(   7,  -11), S(  -8,    4), S( -64,   13), S( -43,   14), S( -16,    4), S(   9,   -5), S(   8,  -17),
    S( -15,  -53), S(  36,  -34), S(  12,  -21), S( -54,  -11), S(   8,  -28), S( -28,  -14), S(  24,  -24), S(  14,  -43),
];

/// Per pawn with another pawn of its own side in front of it on the same file.
pub const DOUBLED_PAWN: S = S(-10, -20);

/// Per pawn with no pawn of its own side on either adjacent file: no pawn can ever
/// defend it.
pub const ISOLATED_PAWN: S = S(-8, -12);

/// Per pawn whose neighbours have all advanced past it, so none can defend it, and
/// whose square in front is attacked by an enemy pawn, so it cannot safely catch up.
pub const BACKWARD_PAWN: S = S(-6, -8);

/// Per pawn defended by a pawn of its own side, by the pawn's relative rank (index 0 =
/// its own back rank).
#[rustfmt::skip]
pub const CONNECTED_PAWN: [S; 8] = [
    S(   0,    0), S(   0,    0), S(   6,    4), S(   8,    6), S(  12,   12), S(  25,   30), S(  50,   60), S(   0,    0),
];

/// Per pawn with a pawn of its own side beside it on the same rank, by relative rank.
#[rustfmt::skip]
pub const PHALANX_PAWN: [S; 8] = [
    S(   0,    0), S(   3,    1), S(   5,    3), S(   8,    6), S(  15,   15), S(  30,   40), S(  50,   70), S(   0,    0),
];

/// Per passed pawn (no enemy pawn in front of it on its own or an adjacent file), by
/// relative rank.
#[rustfmt::skip]
pub const PASSED_PAWN: [S; 8] = [
    S(   0,    0), S(   0,    5), S(   0,    8), S(   5,   15), S(  15,   30), S(  30,   60), S(  50,  100), S(   0,    0),
];

/// Per passed pawn whose path to promotion is empty, by relative rank.
#[rustfmt::skip]
pub const PASSED_FREE_PATH: [S; 8] = [
    S(   0,    0), S(   0,    0), S(   0,    2), S(   0,    5), S(   3,   10), S(   6,   20), S(  10,   35), S(   0,    0),
];

/// Per passed pawn whose path to promotion no enemy piece or pawn attacks, by
/// relative rank.
#[rustfmt::skip]
pub const PASSED_SAFE_PATH: [S; 8] = [
    S(   0,    0), S(   0,    0), S(   0,    3), S(   0,    6), S(   5,   12), S(  10,   25), S(  15,   45), S(   0,    0),
];

/// Per passed pawn that a piece or pawn of its own side defends, by relative rank.
#[rustfmt::skip]
pub const PASSED_DEFENDED: [S; 8] = [
    S(   0,    0), S(   0,    0), S(   0,    2), S(   2,    4), S(   4,    8), S(   6,   15), S(  10,   25), S(   0,    0),
];

/// Per passed pawn, times the distance (in king moves) from its own king to the
/// square in front of it, by relative rank: an escorting king helps.
#[rustfmt::skip]
pub const PASSED_OWN_KING_DISTANCE: [S; 8] = [
    S(   0,    0), S(   0,    0), S(   0,   -1), S(   0,   -2), S(   0,   -4), S(   0,   -6), S(   0,   -8), S(   0,    0),
];

/// Per passed pawn, times the distance from the enemy king to the square in front of
/// it, by relative rank: a far-away defender cannot stop it.
#[rustfmt::skip]
pub const PASSED_ENEMY_KING_DISTANCE: [S; 8] = [
    S(   0,    0), S(   0,    0), S(   0,    2), S(   0,    4), S(   0,    8), S(   0,   12), S(   0,   16), S(   0,    0),
];

/// Per passed pawn that the enemy king cannot catch (rule of the square) when the
/// enemy has only king and pawns and the pawn's path is empty.
pub const UNSTOPPABLE_PASSER: S = S(0, 250);

/// Knight mobility: indexed by the number of safe squares it attacks (not attacked by
/// enemy pawns, not occupied by its own pawns or king).
#[rustfmt::skip]
pub const KNIGHT_MOBILITY: [S; 9] = [
    S( -30,  -40), S( -20,  -26), S( -10,  -14), S(  -4,   -6), S(   2,    2), S(   7,    7), S(  12,   12), S(  16,   15),
    S(  20,   18),
];

/// Bishop mobility, indexed by safe squares attacked (as for knights).
#[rustfmt::skip]
pub const BISHOP_MOBILITY: [S; 14] = [
    S( -30,  -40), S( -20,  -28), S( -10,  -16), S(  -4,   -8), S(   2,    0), S(   7,    6), S(  12,   11), S(  16,   15),
    S(  19,   18), S(  22,   21), S(  24,   23), S(  26,   25), S(  28,   27), S(  30,   29),
];

/// Rook mobility, indexed by safe squares attacked (as for knights).
#[rustfmt::skip]
pub const ROOK_MOBILITY: [S; 15] = [
    S( -20,  -40), S( -14,  -28), S(  -9,  -18), S(  -5,  -10), S(  -2,   -4), S(   0,    2), S(   2,    7), S(   4,   12),
    S(   6,   16), S(   8,   20), S(  10,   23), S(  12,   26), S(  13,   28), S(  14,   30), S(  15,   32),
];

/// Queen mobility, indexed by safe squares attacked (as for knights).
#[rustfmt::skip]
pub const QUEEN_MOBILITY: [S; 28] = [
    S( -20,  -30), S( -14,  -20), S( -12,  -16), S( -10,  -13), S(  -8,  -11), S(  -7,   -8), S(  -6,   -6), S(  -5,   -5),
    S(  -4,   -3), S(  -3,   -1), S(  -2,    0), S(  -1,    2), S(   0,    3), S(   1,    5), S(   2,    6), S(   2,    7),
    S(   3,    8), S(   4,   10), S(   4,   11), S(   5,   12), S(   6,   13), S(   6,   14), S(   7,   15), S(   8,   16),
    S(   8,   17), S(   9,   18), S(   9,   19), S(  10,   20),
];

/// For having bishops on both colours of square.
pub const BISHOP_PAIR: S = S(30, 50);

/// Per rook on a file without pawns.
pub const ROOK_OPEN_FILE: S = S(25, 10);

/// Per rook on a file with enemy pawns only.
pub const ROOK_SEMI_OPEN_FILE: S = S(12, 6);

/// Per rook on the seventh rank (relative) while the enemy king is on the eighth or
/// enemy pawns are still on the seventh.
pub const ROOK_ON_SEVENTH: S = S(10, 25);

/// Per knight on an outpost: relative rank 4 to 6, defended by a pawn, and out of reach
/// of every enemy pawn now and later.
pub const KNIGHT_OUTPOST: S = S(20, 10);

/// Per bishop on an outpost (as for knights).
pub const BISHOP_OUTPOST: S = S(12, 6);

/// Per file of the king's three whose nearest own pawn in front of the king is 1, 2
/// or 3+ ranks ahead.
#[rustfmt::skip]
pub const PAWN_SHIELD: [S; 3] = [
    S(  18,   -4), S(  10,   -2), S(   4,    0),
];

/// Per file of the king's three whose nearest enemy pawn in front of the king is 1,
/// 2, 3 or 4 ranks ahead and free to advance.
#[rustfmt::skip]
pub const PAWN_STORM: [S; 4] = [
    S(  -4,    0), S( -20,   -4), S( -12,   -2), S(  -6,    0),
];

/// Per file of the king's three where the nearest enemy pawn, 1 to 4 ranks ahead, is
/// stopped by an own pawn right in front of it (a blocked storm opens nothing).
pub const BLOCKED_STORM: S = S(-4, 0);

/// Per file of the king's three with no pawn of either side in front of the king.
pub const KING_OPEN_FILE: S = S(-25, 0);

/// Per file of the king's three with enemy pawns but no own pawn in front of the king.
pub const KING_SEMI_OPEN_FILE: S = S(-12, 0);

/// Danger per enemy knight, bishop, rook or queen attacking the king zone (the king's
/// square, its neighbours, and one more rank towards the enemy).
#[rustfmt::skip]
pub const KING_ATTACKER_WEIGHT: [S; 4] = [
    S(  40,   30), S(  25,   20), S(  30,   10), S(  25,   10),
];

/// Danger per attack of an enemy piece on a square of the king zone.
pub const KING_ZONE_ATTACK: S = S(12, 8);

/// Danger per king-zone square the enemy attacks and we defend at most once, with the
/// king or the queen only.
pub const KING_WEAK_SQUARE: S = S(25, 15);

/// Danger per square from which an enemy knight, bishop, rook or queen could give a
/// check that we do not attack (a safe check).
#[rustfmt::skip]
pub const SAFE_CHECK: [S; 4] = [
    S(  90,   60), S(  60,   40), S(  80,   50), S(  60,   40),
];

/// Danger (negative) when the enemy has no queen: attacks rarely break through
/// without one.
pub const NO_ENEMY_QUEEN: S = S(-200, -200);

/// Per enemy knight, bishop, rook or queen that we attack and nobody defends.
pub const HANGING_PIECE: S = S(25, 15);

/// Per enemy knight, bishop, rook or queen attacked by one of our pawns.
#[rustfmt::skip]
pub const THREAT_BY_PAWN: [S; 4] = [
    S(  50,   25), S(  50,   25), S(  60,   30), S(  50,   30),
];

/// Per enemy rook or queen attacked by one of our knights or bishops.
#[rustfmt::skip]
pub const THREAT_BY_MINOR: [S; 2] = [
    S(  30,   20), S(  35,   20),
];

/// Per enemy queen attacked by one of our rooks.
pub const THREAT_BY_ROOK: S = S(35, 15);

/// Per safe square in our half of the four centre files (counted twice behind our own
/// pawns): room for the pieces to manoeuvre.
pub const SPACE: S = S(2, 0);

/// For having the move.
pub const TEMPO: S = S(15, 8);

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
