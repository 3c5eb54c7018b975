//! Pawn structure and passed pawns.
//!
//! The pawn skeleton changes far less often than the rest of the position (most moves are
//! piece moves), so everything that depends on the pawns alone is computed once per pawn
//! structure and kept in a small hash table keyed by the board's pawn key. Passed-pawn
//! terms that depend on pieces too (a free path, the kings' distances, the rule of the
//! square) are computed on every evaluation, from the passed pawns the table remembers.

use super::masks::{
    ADJACENT_FILES, ATTACK_SPAN, FRONT_SPAN, PASSED_SPAN, distance, forward, forward_ranks_of,
    pawn_attack_sides, relative_rank,
};
use super::params::{Weight, w};
use super::{Eval, S, Tracer};
use crate::chess::attacks::pawn_attacks;
use crate::chess::{Bitboard, Board, Color, PieceType, Square};

/// What the pawn structure alone says, for both colours (indexed by colour).
#[derive(Copy, Clone, Debug, Default)]
pub struct PawnEntry {
    key: u64,
    /// Whether this slot holds an entry at all (a position without pawns has key 0).
    filled: bool,
    /// The pawn-structure score of each colour, from its own point of view.
    pub score: [S; 2],
    pub passed: [Bitboard; 2],
    /// Squares attacked by each colour's pawns.
    pub attacks: [Bitboard; 2],
    /// Squares attacked by two pawns of that colour.
    pub double_attacks: [Bitboard; 2],
    /// Squares each colour's pawns attack now or could attack after advancing: a piece
    /// outside the enemy's span can never be chased away by a pawn.
    pub attack_span: [Bitboard; 2],
}

/// A direct-mapped cache of pawn entries (the last entry for each slot wins).
///
/// The entries are allocated at the first lookup, not when the table is made: a search
/// with the network never looks up a pawn structure, and some callers make a new table
/// for every search (`search::think`, once per move of every datagen game), where
/// allocating and zeroing 1.6 MB each time made datagen 6-11 % slower (median time
/// ratios of paired `tarpon datagen --threads 1` runs before and after the change).
#[derive(Default)]
pub struct PawnTable {
    entries: Vec<PawnEntry>,
}

/// 2^14 entries of about 100 bytes: comfortably more than the pawn structures one
/// search visits between captures, and small enough to stay in the L2 cache.
const TABLE_ENTRIES: usize = 1 << 14;

impl PawnTable {
    /// The entry for `board`'s pawns, computed (untraced) and stored on a miss.
    pub fn get(&mut self, board: &Board) -> PawnEntry {
        if self.entries.is_empty() {
            self.entries = vec![PawnEntry::default(); TABLE_ENTRIES];
        }
        let key = board.pawn_key();
        let slot = &mut self.entries[(key as usize) & (TABLE_ENTRIES - 1)];
        if !(slot.filled && slot.key == key) {
            *slot = compute(board, &mut super::NoTrace);
        }
        *slot
    }
}

/// Evaluates the pawn structure of `board`, reporting every weight used to `t`.
pub fn compute<T: Tracer>(board: &Board, t: &mut T) -> PawnEntry {
    let mut entry = PawnEntry {
        key: board.pawn_key(),
        filled: true,
        ..PawnEntry::default()
    };
    for color in Color::ALL {
        let pawns = board.pieces(color, PieceType::Pawn);
        let (a, h) = pawn_attack_sides(color, pawns);
        entry.attacks[color.index()] = a | h;
        entry.double_attacks[color.index()] = a & h;
        entry.attack_span[color.index()] = pawns.into_iter().fold(Bitboard::EMPTY, |span, sq| {
            span | ATTACK_SPAN[color.index()][sq.index()]
        });
    }
    for color in Color::ALL {
        for sq in board.pieces(color, PieceType::Pawn) {
            pawn_terms(board, &mut entry, t, color, sq);
        }
    }
    entry
}

/// Adds a weight `n` times to `color`'s pawn score.
#[inline(always)]
fn add<T: Tracer>(entry: &mut PawnEntry, t: &mut T, color: Color, w: Weight, n: i32) {
    entry.score[color.index()] += w.value * n;
    t.add(color, w.index, n);
}

/// The structure terms of one pawn.
fn pawn_terms<T: Tracer>(
    board: &Board,
    entry: &mut PawnEntry,
    t: &mut T,
    color: Color,
    sq: Square,
) {
    let c = color.index();
    let ours = board.pieces(color, PieceType::Pawn);
    let theirs = board.pieces(color.flip(), PieceType::Pawn);
    let rank = relative_rank(color, sq);
    let neighbours = ours & ADJACENT_FILES[sq.file() as usize];
    let front = FRONT_SPAN[c][sq.index()];

    if (front & ours).is_nonempty() {
        add(entry, t, color, w!(DOUBLED_PAWN), 1);
    }
    if neighbours.is_empty() {
        add(entry, t, color, w!(ISOLATED_PAWN), 1);
    } else if is_backward(color, sq, neighbours, entry.attacks[1 - c]) {
        add(entry, t, color, w!(BACKWARD_PAWN), 1);
    }
    // Pawns of ours that defend this one stand where an enemy pawn on `sq` would attack.
    let defenders = pawn_attacks(color.flip(), sq) & ours;
    if defenders.is_nonempty() {
        add(entry, t, color, w!(CONNECTED_PAWN[rank]), 1);
    }
    let beside = Bitboard::rank(sq.rank()) & neighbours;
    if beside.is_nonempty() {
        add(entry, t, color, w!(PHALANX_PAWN[rank]), 1);
    }
    // The rear pawn of a doubled pair is not passed: its own pawn blocks it.
    if (PASSED_SPAN[c][sq.index()] & theirs).is_empty() && (front & ours).is_empty() {
        entry.passed[c] |= sq;
        add(entry, t, color, w!(PASSED_PAWN[rank]), 1);
    }
}

/// A pawn is backward when every pawn of its own side on the adjacent files has advanced
/// past it (so none can come to defend it) and the square in front of it is attacked by
/// an enemy pawn (so it cannot safely advance to meet them).
fn is_backward(color: Color, sq: Square, neighbours: Bitboard, enemy_attacks: Bitboard) -> bool {
    let at_or_behind = !forward_ranks_of(color, sq.rank());
    let stop = forward(color, Bitboard::from_square(sq));
    (neighbours & at_or_behind).is_empty() && (stop & enemy_attacks).is_nonempty()
}

/// The passed-pawn terms that depend on more than the pawns: path, defence, the kings'
/// distances and the rule of the square.
pub fn passed<T: Tracer>(e: &mut Eval<'_, T>) {
    for color in Color::ALL {
        for sq in e.pawns.passed[color.index()] {
            passer(e, color, sq);
        }
    }
}

fn passer<T: Tracer>(e: &mut Eval<'_, T>, color: Color, sq: Square) {
    let them = color.flip();
    let rank = relative_rank(color, sq);
    let path = FRONT_SPAN[color.index()][sq.index()];
    let stop = sq.offset(8 * color.forward());
    let free = (path & e.board.occupied()).is_empty();

    if free {
        e.add(color, w!(PASSED_FREE_PATH[rank]), 1);
    }
    if (path & e.attacked[them.index()]).is_empty() {
        e.add(color, w!(PASSED_SAFE_PATH[rank]), 1);
    }
    if e.attacked[color.index()].contains(sq) {
        e.add(color, w!(PASSED_DEFENDED[rank]), 1);
    }
    let own = distance(e.king[color.index()], stop);
    let enemy = distance(e.king[them.index()], stop);
    e.add(color, w!(PASSED_OWN_KING_DISTANCE[rank]), own);
    e.add(color, w!(PASSED_ENEMY_KING_DISTANCE[rank]), enemy);
    if free && !e.board.has_non_pawn_material(them) && outside_square(e, color, sq) {
        e.add(color, w!(UNSTOPPABLE_PASSER), 1);
    }
}

/// The rule of the square: the enemy king catches a lone passed pawn only if it can reach
/// the promotion square in time. A pawn on its starting rank can advance two squares at
/// once, and the king gains a move when it is its turn.
fn outside_square<T: Tracer>(e: &Eval<'_, T>, color: Color, sq: Square) -> bool {
    let rank = relative_rank(color, sq) as i32;
    let promotion = Square::from_coords(sq.file(), color.relative_rank(7));
    let pawn_moves = (7 - rank).min(5);
    let tempo = (e.board.side_to_move() != color) as i32;
    distance(e.king[color.flip().index()], promotion) - tempo > pawn_moves
}
