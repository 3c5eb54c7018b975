//! Move ordering: hands the search one move at a time, best-looking first, generating and
//! sorting a group of moves only when the search gets that far. Most cutoffs come from the
//! hash move or a good capture, so the quiet moves of most nodes are never generated.
//!
//! Order: hash move; captures and promotions that do not lose material (by SEE), most
//! valuable victim first, then by capture history; the two killers; quiet moves by history
//! and by whether they take a piece out of an attack by a cheaper piece or into one;
//! captures that lose material. Quiescence takes the hash move and the good captures only,
//! and at its first ply the quiet moves that give check after them (in generation order:
//! there are few).

use super::history::{Context, Histories, PieceTo};
use super::params::{
    CAPTURE_ORDER_VALUE_SCALE, QUIET_ESCAPE_MINOR, QUIET_ESCAPE_QUEEN, QUIET_ESCAPE_ROOK,
};
use super::see::{SEE_VALUES, see_ge};
use crate::chess::movegen::{
    CheckInfo, gives_check, is_legal, legal_moves_into, noisy_moves_into, quiet_checks_into,
    quiet_moves_into,
};
use crate::chess::{
    Bitboard, Board, GradedAttacks, MAX_MOVES, Move, MoveKind, MoveList, PieceType,
};
use arrayvec::ArrayVec;

#[derive(Copy, Clone, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    TtMove,
    GenerateNoisy,
    GoodNoisy,
    FirstKiller,
    SecondKiller,
    GenerateQuiet,
    Quiet,
    BadNoisy,
    /// Quiescence in check: every evasion, scored in one list.
    GenerateEvasions,
    Evasions,
    Done,
}

/// Whether a move captures or promotes (the moves quiescence search looks at).
pub fn is_noisy(board: &Board, m: Move) -> bool {
    m.kind() == MoveKind::EnPassant
        || m.kind() == MoveKind::Promotion
        || (m.kind() == MoveKind::Normal && board.piece_on(m.to()).is_some())
}

/// The type of piece a move captures, if any.
pub fn captured_kind(board: &Board, m: Move) -> Option<PieceType> {
    match m.kind() {
        MoveKind::EnPassant => Some(PieceType::Pawn),
        MoveKind::Castling => None,
        _ => board.piece_on(m.to()).map(|p| p.kind()),
    }
}

/// The order of captures and promotions: `CAPTURE_ORDER_VALUE_SCALE` times the value of
/// what they win (the victim, and the promoted piece) plus their capture history. The
/// history ranks captures of the same victim and, at its limit (`HISTORY_MAX`, the worth
/// of 20 pawns at this scale), can overturn any difference of victims.
fn noisy_score(board: &Board, m: Move, histories: &Histories) -> i32 {
    let captured = captured_kind(board, m);
    let gain = captured.map_or(0, |p| SEE_VALUES[p.index()])
        + m.promotion_piece().map_or(0, |p| SEE_VALUES[p.index()]);
    let piece = board.piece_on(m.from()).expect("a move starts on a piece");
    CAPTURE_ORDER_VALUE_SCALE.get() * gain
        + histories.capture(PieceTo { piece, to: m.to() }, captured)
}

/// Most valuable victim, least valuable attacker: capturing a queen with a pawn first.
fn mvv_lva(board: &Board, m: Move) -> i32 {
    const VALUE: [i32; 6] = [1, 3, 3, 5, 9, 0];
    let victim = match m.kind() {
        MoveKind::EnPassant => PieceType::Pawn,
        _ => board.piece_on(m.to()).map_or(PieceType::Pawn, |p| p.kind()),
    };
    let attacker = board
        .piece_on(m.from())
        .map_or(PieceType::Pawn, |p| p.kind());
    let promotion = m.promotion_piece().map_or(0, |p| VALUE[p.index()] * 100);
    promotion + VALUE[victim.index()] * 10 - attacker.index() as i32
}

/// A quiet move that takes a piece out of an attack by a cheaper piece goes up the order,
/// one that puts a piece into such an attack down, by the piece's worth: the exchange that
/// follows is lost (or saved) whatever history says.
fn escape_score(kind: PieceType, m: Move, attacks: &GradedAttacks) -> i32 {
    let (cheaper, worth) = match kind {
        PieceType::Knight | PieceType::Bishop => (attacks.by_pawns, QUIET_ESCAPE_MINOR.get()),
        PieceType::Rook => (attacks.by_minors, QUIET_ESCAPE_ROOK.get()),
        PieceType::Queen => (attacks.by_rooks, QUIET_ESCAPE_QUEEN.get()),
        _ => return 0,
    };
    match (cheaper.contains(m.from()), cheaper.contains(m.to())) {
        (true, false) => worth,
        (false, true) => -worth,
        _ => 0,
    }
}

/// A move's score and its place in the list in one number: the score in the upper 24 bits,
/// `255 - place` in the lowest 8 (a list holds at most `MAX_MOVES` = 256 moves). Of two
/// equal scores the earlier place packs higher, so the largest packed number is the first
/// of the highest scores, and one pass finds both the move and its place.
#[inline(always)]
fn pack(score: i32, place: usize) -> i32 {
    debug_assert!(
        place < 256 && score.abs() < 1 << 23,
        "{score} at {place} packs"
    );
    (score << 8) | (255 - place) as i32
}

/// The place a packed score names.
#[inline(always)]
fn place_of(packed: i32) -> usize {
    255 - (packed & 0xFF) as usize
}

const _: () = assert!(
    MAX_MOVES <= 256,
    "a place must fit in a packed score's low byte"
);

pub struct MovePicker {
    stage: Stage,
    tt_move: Move,
    killers: [Move; 2],
    /// The moves of the current group, their scores, and how many were handed out.
    moves: MoveList,
    scores: ArrayVec<i32, MAX_MOVES>,
    next: usize,
    bad_noisy: MoveList,
    bad_next: usize,
    /// Quiescence search: no quiet moves (unless in check, or `quiet_checks`).
    noisy_only: bool,
    /// Quiescence's first ply: quiet checks after the captures.
    quiet_checks: bool,
    /// Set by `skip_quiets`: from then on only quiet checks, found with this.
    skip_quiets: Option<CheckInfo>,
    history_context: Context,
    /// The squares the opponent attacks, by its cheapest attacker (quiet history is keyed
    /// by all of them): worked out when first needed (`threats`), since many nodes end
    /// before any quiet move.
    threats: Option<GradedAttacks>,
}

impl MovePicker {
    /// For the main search. `previous` are the moves one, two and four plies earlier, for
    /// continuation history.
    pub fn new(tt_move: Move, killers: [Move; 2], previous: Context) -> MovePicker {
        MovePicker {
            stage: Stage::TtMove,
            tt_move,
            killers,
            moves: MoveList::new(),
            scores: ArrayVec::new(),
            next: 0,
            bad_noisy: MoveList::new(),
            bad_next: 0,
            noisy_only: false,
            quiet_checks: false,
            skip_quiets: None,
            history_context: previous,
            threats: None,
        }
    }

    /// The squares the side not to move on `board` attacks (the node's board: the same
    /// at every call of one picker).
    #[inline]
    pub fn threats(&mut self, board: &Board) -> Bitboard {
        self.graded_threats(board).all
    }

    #[inline]
    fn graded_threats(&mut self, board: &Board) -> GradedAttacks {
        *self
            .threats
            .get_or_insert_with(|| board.graded_attacks(board.side_to_move().flip()))
    }

    /// For quiescence search: captures and promotions, losing ones included (quiescence
    /// leaves those out itself), or every evasion when in check (the quiet ones ordered
    /// by history in the context of the `previous` moves).
    /// With `quiet_checks` (the first ply of quiescence), quiet moves that give check
    /// follow the captures.
    pub fn quiescence(
        board: &Board,
        tt_move: Move,
        previous: Context,
        quiet_checks: bool,
    ) -> MovePicker {
        let mut picker = MovePicker::new(tt_move, [Move::NONE; 2], previous);
        picker.noisy_only = true;
        picker.quiet_checks = quiet_checks;
        // Out of check the hash move is kept only if quiescence would search it anyway.
        let searched_here = |m: Move| {
            is_noisy(board, m) || (quiet_checks && is_legal(board, m) && gives_check(board, m))
        };
        if board.in_check() {
            picker.stage = Stage::GenerateEvasions;
        } else if !searched_here(tt_move) {
            picker.tt_move = Move::NONE;
        }
        picker
    }

    /// Stops handing out quiet moves, except those that give check (pruning decided that
    /// no other quiet move can help; a check may still, in ways pruning cannot judge).
    pub fn skip_quiets(&mut self, checks: &CheckInfo) {
        self.skip_quiets = Some(*checks);
    }

    /// Whether quiet move `m` may still be handed out.
    fn quiet_allowed(&self, board: &Board, m: Move) -> bool {
        self.skip_quiets
            .is_none_or(|checks| checks.gives_check(board, m))
    }

    /// After `skip_quiets`: the next remaining quiet move that gives check, in list order
    /// (there are few, and they are not worth sorting).
    fn next_quiet_check(&mut self, board: &Board, checks: CheckInfo) -> Option<Move> {
        while self.next < self.moves.len() {
            let m = self.moves[self.next];
            self.next += 1;
            if checks.gives_check(board, m) {
                return Some(m);
            }
        }
        None
    }

    /// Takes the highest-scored move left in `moves` (selection sort, one step at a time:
    /// cheaper than sorting when a cutoff comes early).
    fn pick_best(&mut self) -> Option<Move> {
        if self.next >= self.moves.len() {
            return None;
        }
        // Every stage that generates `moves` scores each of them before it hands out any
        // (the quiet stage after `skip_quiets` scores none, and does not come here), and
        // swaps below keep moves and scores together.
        let left = &self.scores[self.next..self.moves.len()];
        // The maximum of the packed scores (a reduction the compiler does eight at a
        // time) is the first of the highest scores, and its low byte says where it is.
        let max = left.iter().fold(i32::MIN, |a, &b| a.max(b));
        let best = place_of(max);
        self.moves.as_mut_slice().swap(self.next, best);
        self.scores.swap(self.next, best);
        // The move that went from `next` to `best` takes that place's number.
        self.scores[best] = pack(self.scores[best] >> 8, best);
        self.next += 1;
        Some(self.moves[self.next - 1])
    }

    /// A killer is played only if it is a legal quiet move here and not
    /// one already handed out.
    fn usable_quiet(&self, board: &Board, m: Move, earlier: &[Move]) -> bool {
        m.is_some()
            && m != self.tt_move
            && !earlier.contains(&m)
            && !is_noisy(board, m)
            && is_legal(board, m)
    }

    // The three stages that generate moves live out of line: inlined into `next`, their
    // set-up (occupancy, attack tables) was hoisted to its entry and paid at every call,
    // though most calls only hand out the next move of a list already scored.

    /// Captures and promotions, scored by `noisy_score`.
    #[inline(never)]
    fn generate_noisy(&mut self, board: &Board, histories: &Histories) {
        noisy_moves_into(board, &mut self.moves);
        self.scores.clear();
        for (i, &m) in self.moves.iter().enumerate() {
            self.scores.push(pack(noisy_score(board, m, histories), i));
        }
        self.next = 0;
    }

    /// Quiet moves, scored by history and `escape_score` (after `skip_quiets`, only those
    /// that give check, unscored: they are handed out in list order).
    #[inline(never)]
    fn generate_quiet(&mut self, board: &Board, histories: &Histories) {
        self.next = 0;
        if let Some(checks) = self.skip_quiets {
            quiet_checks_into(board, &checks, &mut self.moves);
            return;
        }
        quiet_moves_into(board, &mut self.moves);
        let color = board.side_to_move();
        let graded = self.graded_threats(board);
        let rows = Histories::context_rows(&self.history_context);
        self.scores.clear();
        for (i, &m) in self.moves.iter().enumerate() {
            let piece = board.piece_on(m.from()).expect("a move starts on a piece");
            let current = PieceTo { piece, to: m.to() };
            let score = histories.quiet_score(color, m, graded.all, current, &rows)
                + escape_score(piece.kind(), m, &graded);
            self.scores.push(pack(score, i));
        }
    }

    /// Every legal move, for quiescence in check: the hash move, then captures by victim
    /// and attacker, then the quiet evasions by history (below every capture: the history
    /// scores stay within a few times `HISTORY_MAX`).
    #[inline(never)]
    fn generate_evasions(&mut self, board: &Board, histories: &Histories) {
        legal_moves_into(board, &mut self.moves);
        let color = board.side_to_move();
        let threats = self.threats(board);
        let rows = Histories::context_rows(&self.history_context);
        self.scores.clear();
        for (i, &m) in self.moves.iter().enumerate() {
            let score = if m == self.tt_move {
                1 << 22
            } else if is_noisy(board, m) {
                (1 << 21) + mvv_lva(board, m)
            } else {
                let piece = board.piece_on(m.from()).expect("a move starts on a piece");
                let current = PieceTo { piece, to: m.to() };
                histories.quiet_score(color, m, threats, current, &rows)
            };
            self.scores.push(pack(score, i));
        }
        self.next = 0;
    }

    /// The next move to search, or `None` when there are no more.
    pub fn next(&mut self, board: &Board, histories: &Histories) -> Option<Move> {
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateNoisy;
                    if self.tt_move.is_some() && is_legal(board, self.tt_move) {
                        return Some(self.tt_move);
                    }
                    self.tt_move = Move::NONE;
                }
                Stage::GenerateNoisy => {
                    self.generate_noisy(board, histories);
                    self.stage = Stage::GoodNoisy;
                }
                Stage::GoodNoisy => match self.pick_best() {
                    Some(m) if m == self.tt_move => {}
                    // Losing captures wait until after the quiet moves. Quiescence gets
                    // every capture untested: it wants only those that may gain something,
                    // and tests them itself, after a cheaper test that leaves many out.
                    Some(m) if !self.noisy_only && !see_ge(board, m, 0) => {
                        self.bad_noisy.push(m);
                    }
                    Some(m) => return Some(m),
                    None => {
                        self.stage = if self.quiet_checks {
                            // The quiet stage as after `skip_quiets`: checks only, in
                            // list order (quiescence has no killers or bad captures).
                            self.skip_quiets = Some(CheckInfo::new(board));
                            Stage::GenerateQuiet
                        } else if self.noisy_only {
                            Stage::Done
                        } else {
                            Stage::FirstKiller
                        };
                    }
                },
                Stage::FirstKiller => {
                    self.stage = Stage::SecondKiller;
                    let m = self.killers[0];
                    if self.usable_quiet(board, m, &[]) && self.quiet_allowed(board, m) {
                        return Some(m);
                    }
                }
                Stage::SecondKiller => {
                    self.stage = Stage::GenerateQuiet;
                    let m = self.killers[1];
                    if self.usable_quiet(board, m, &[self.killers[0]])
                        && self.quiet_allowed(board, m)
                    {
                        return Some(m);
                    }
                }
                Stage::GenerateQuiet => {
                    self.generate_quiet(board, histories);
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    let m = if let Some(checks) = self.skip_quiets {
                        self.next_quiet_check(board, checks)
                    } else {
                        self.pick_best()
                    };
                    match m {
                        Some(m) if m == self.tt_move || self.killers.contains(&m) => {}
                        Some(m) => return Some(m),
                        None => self.stage = Stage::BadNoisy,
                    }
                }
                Stage::BadNoisy => {
                    if self.bad_next < self.bad_noisy.len() {
                        self.bad_next += 1;
                        return Some(self.bad_noisy[self.bad_next - 1]);
                    }
                    self.stage = Stage::Done;
                }
                Stage::GenerateEvasions => {
                    self.generate_evasions(board, histories);
                    self.stage = Stage::Evasions;
                }
                Stage::Evasions => match self.pick_best() {
                    Some(m) => return Some(m),
                    None => self.stage = Stage::Done,
                },
                Stage::Done => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chess::{Color, fen};

    fn quiet(board: &Board, uci: &str) -> Move {
        let m = crate::chess::notation::parse_uci(board, uci).expect("a legal move");
        assert!(!is_noisy(board, m), "{uci} is quiet");
        m
    }

    /// Out of a cheaper piece's attack up, into one down, by the piece's worth; a pawn's
    /// attack on a queen counts, a queen's on a rook does not (no cheaper attacker).
    #[test]
    fn escape_score_follows_the_cheapest_attacker() {
        // The white knight on e5 is attacked by the pawn on d6; the bishop on g5 covers d2
        // and h4.
        let board = fen::parse("4k3/8/3p4/4N1b1/8/8/8/3QK2R w K - 0 1", false).unwrap();
        let attacks = board.graded_attacks(Color::Black);
        let score = |uci| {
            let m = quiet(&board, uci);
            escape_score(board.piece_on(m.from()).unwrap().kind(), m, &attacks)
        };
        assert_eq!(
            score("e5f3"),
            QUIET_ESCAPE_MINOR.get(),
            "out of the pawn's attack"
        );
        assert_eq!(
            score("d1d2"),
            -QUIET_ESCAPE_QUEEN.get(),
            "into the bishop's attack"
        );
        assert_eq!(score("d1e2"), 0, "safe to safe");
        assert_eq!(
            score("h1h4"),
            -QUIET_ESCAPE_ROOK.get(),
            "into the bishop's attack"
        );
        assert_eq!(score("h1h3"), 0, "safe to safe");
        assert_eq!(score("e1f2"), 0, "kings are not graded");
    }
}
