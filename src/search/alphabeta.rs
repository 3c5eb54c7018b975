//! The principal variation search, from the root down, and the quiescence search.
//!
//! `alphabeta` is a negamax alpha-beta search that expects the first move to be best: it
//! searches it with the full window and every later move with a null window (can it beat
//! alpha at all?), re-searching only the moves that surprise. Around that core, pruning
//! skips what cannot matter (hash-table cutoffs, reverse futility, razoring, null move,
//! late move, futility, history and SEE pruning), late moves are searched
//! shallower (LMR, quiet moves and late captures alike), and checks and singular hash moves
//! deeper.
//! At the root (ply 0) the same loop searches the root moves (`Searcher::root_moves`), in
//! their order, and records each one's score, line and nodes; the steps that do something
//! else there say why.
//! `quiescence` extends the leaves with captures until the position is quiet, so that the
//! static evaluation is never taken in the middle of an exchange; at its first ply it also
//! tries the quiet checks, whose threats a leaf's evaluation cannot see.
//! With tablebases loaded, `alphabeta` also takes exact results from them for positions
//! with few pieces (`probe_tablebase`).
//!
//! What the steps are worth. A step measured on its own, with a 95 % interval clear of
//! zero, carries "(~N Elo, S-ID)": the gain it brought when it was measured, and the row
//! S-ID of docs/log/search.md that says how. Unless that row says otherwise the
//! conditions are the same for every figure: fastchess, fixed nodes (10,000 to 25,000 a
//! move) or 2+0.02, UHO openings with both colours, one thread, the engine with the step
//! against the engine without it at the time. A step measured only together with others,
//! or whose interval includes zero, cites its row alone, "(S-ID)". The figures are
//! history: what a step gave the engine of its day, not a promise for today's. The
//! numbers in `params.rs` cite the same rows, without figures.

use super::history::{self, CONTINUATION_PLIES, Context, Histories, PieceTo};
use super::movepick::{MovePicker, captured_kind, is_noisy};
use super::params::*;
use super::score::{
    self, DRAW, INFINITE, MAX_PLY, TB_WIN_BOUND, mate_in, mated_in, tb_loss_in, tb_win_in,
};
use super::searcher::Searcher;
use super::see::{self, see_ge};
use super::tt::{Bound, TtEntry};
use crate::chess::movegen::CheckInfo;
use crate::chess::notation::to_uci;
use crate::chess::{Bitboard, Move, MoveList};
use crate::eval::endgame;

impl Searcher<'_> {
    /// Whether the position at `ply` is a draw by the rules (repetition, fifty moves,
    /// insufficient material).
    fn is_draw(&self, ply: usize) -> bool {
        if self.pos.halfmove_clock() >= 100 {
            // A mate on the hundredth ply still counts.
            return !self.pos.in_check()
                || !crate::chess::movegen::legal_moves(&self.pos).is_empty();
        }
        self.pos.is_insufficient_material() || self.pos.is_repetition_draw(ply)
    }

    /// The score of a draw by the rules at `ply`: zero, or with `Contempt` that much below
    /// zero for the side to move at the root (it is to move at even plies) and as much
    /// above for its opponent, so that the root side steers away from draws.
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            DRAW - self.options.contempt
        } else {
            DRAW + self.options.contempt
        }
    }

    /// The score of the position at `ply` with `depth` plies left, within `(alpha, beta)`.
    /// `cut_node` marks nodes expected to fail high (the null-window children of a PV node
    /// and their grandchildren), where more aggressive reductions pay off.
    /// At ply 0 this is one search of the root moves of the current MultiPV line (those
    /// from `pv_index` on): each move the search proves better than alpha gets its score
    /// and line in `root_moves`, the others `-INFINITE`.
    pub(super) fn alphabeta(
        &mut self,
        mut alpha: i32,
        mut beta: i32,
        depth: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        // Step 1. Leaves, the clock, draws by the rules, the deepest ply. The root is a PV
        // node whatever its aspiration window, and is not scored as a draw even when it is
        // one: a move must still be chosen.
        let root = ply == 0;
        let pv_node = root || beta - alpha > 1;
        self.pv_len[ply] = 0;
        if depth <= 0 {
            return self.quiescence(alpha, beta, ply, true);
        }
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if !root && self.is_draw(ply) {
            return self.draw_score(ply);
        }
        if ply >= MAX_PLY - PLY_HEADROOM {
            return self.evaluate();
        }
        // Step 2. Mate distance pruning: no line from here can beat a mate already found nearer
        // the root. (Nothing is nearer the root than the root.)
        if !root {
            alpha = alpha.max(mated_in(ply));
            beta = beta.min(mate_in(ply + 1));
            if alpha >= beta {
                return alpha;
            }
        }

        // Step 3. The hash table (its PV flag: S-20). Inside a
        // singular-extension search (`excluded` is set) this node is the same position
        // searched without one move: the table's result for the position does not apply to
        // it, and its own result must not be stored as the position's. At the root, the
        // first root move (the previous iteration's best) takes the hash move's place; a PV
        // node takes no cutoff from the table.
        let excluded = self.stack[ply].excluded;
        let key = self.pos.key();
        let in_check = self.pos.in_check();
        // (A node in check has no static evaluation to correct: Step 5.)
        if !in_check && !root {
            self.prefetch_corrections(ply);
        }
        // The network's evaluation (Step 5) is computed before the probe, though the table
        // may end the node or hold it: the entry is still on its way from memory, and the
        // processor does the network's work while it waits (3 % faster at the same tree,
        // S-124).
        let fresh = if in_check || root {
            -INFINITE
        } else {
            self.evaluate()
        };
        let entry = self.tt.probe(key);
        let tt_move = if root {
            self.root_moves[self.pv_index].mv
        } else {
            entry.map_or(Move::NONE, |e| e.mv)
        };
        // A position that is or was on a principal variation ("tt-PV") is one the result
        // may hinge on: its late moves are reduced less, and its entry remembers it.
        let tt_pv = pv_node || entry.is_some_and(|e| e.pv);
        if let Some(e) = entry
            && !pv_node
            && excluded.is_none()
            && e.depth >= depth
            && let Some(s) = tt_cutoff(e.score, e.bound, ply, alpha, beta)
        {
            return s;
        }

        // Step 4. Tablebases: a win (loss) is a lower (upper) bound, since a faster win (slower
        // loss) may exist; a bound that settles the window, or a draw, ends the node. In
        // a PV node an unsettled bound still limits what the moves can score. A root in
        // the tables had its moves ranked by them instead (`setup_tablebases`).
        let mut tb_floor = -INFINITE;
        let mut tb_ceiling = INFINITE;
        if !root
            && excluded.is_none()
            && let Some((score, bound)) = self.probe_tablebase(depth, ply)
        {
            let settles = match bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if settles {
                self.store_tablebase_result(key, score, bound, depth, ply);
                return score;
            }
            if pv_node && bound == Bound::Lower {
                tb_floor = score;
                alpha = alpha.max(score);
            } else if pv_node {
                tb_ceiling = score;
            }
        }

        let previous = self.previous_moves(ply);
        // Step 5. The static evaluation, as the table saved it or computed above (the network's
        // score scaled by the material left, `Searcher::evaluate`, ~18 Elo, S-48), and corrected
        // by what the search has learned of its errors (`correction.rs`, ~21 Elo, S-13): the
        // corrected one drives the pruning below, the raw one is what the table keeps. The
        // root, where nothing is pruned, goes without one.
        let (raw_eval, static_eval) = if in_check || root {
            (-INFINITE, -INFINITE)
        } else {
            let raw = entry.map_or(fresh, |e| e.eval);
            (raw, self.corrected(raw, &previous))
        };
        self.stack[ply].static_eval = static_eval;
        // The quiet move that led here is judged by how it moved the evaluation for its
        // mover (~22 Elo, S-40).
        if excluded.is_none() {
            self.judge_quiet_move_by_eval(ply, static_eval);
        }
        // "Improving": better than two plies ago, when we last had the move. Pruning is
        // more careful when it is, since the position is heading somewhere.
        // When the node two plies up has no evaluation (it was in check, or it is the
        // root), the node four plies up stands in, rather than every evaluation counting as
        // better than the missing one (~10 Elo, S-49).
        let improving = !in_check
            && ply >= 2
            && if self.stack[ply - 2].static_eval == -INFINITE {
                ply >= 4 && static_eval > self.stack[ply - 4].static_eval
            } else {
                static_eval > self.stack[ply - 2].static_eval
            };
        // The grandchildren's killers start afresh, except below the root, whose next
        // search (a wider window, the next iteration) meets the same positions again.
        if !root {
            self.stack[ply + 2].killers = [Move::NONE; 2];
        }
        // The hash score, where its bound says it is nearer the truth, is a better guess of
        // this node's value than the static evaluation: a search found it (S-15).
        let eval = if in_check {
            static_eval
        } else {
            eval_with_tt_score(entry, static_eval, ply)
        };

        // Step 6. Whole-node pruning, where the evaluation says the node is settled (never in
        // a PV node, the root included).
        if !pv_node && !in_check && excluded.is_none() {
            // Reverse futility pruning (~56 Elo, S-3).
            if depth <= RFP_MAX_DEPTH
                && eval.abs() < TB_WIN_BOUND
                && eval - RFP_MARGIN.get() * (depth - improving as i32) >= beta
            {
                return eval;
            }
            // Razoring: so far below alpha this close to the leaves, only winning material
            // could help; when the quiescence search finds that nothing does, stop here
            // (S-15).
            if depth <= RAZOR_MAX_DEPTH && eval + RAZOR_MARGIN.get() * depth < alpha {
                let score = self.quiescence(alpha, beta, ply, true);
                if self.stopped {
                    return 0;
                }
                if score <= alpha {
                    return score;
                }
            }
            // Null-move pruning (~108 Elo, S-1).
            if depth >= NMP_MIN_DEPTH
                && eval >= beta
                && beta.abs() < TB_WIN_BOUND
                && ply >= self.nmp_min_ply
                && self.stack[ply - 1].moved.is_some()
                && self.pos.has_non_pawn_material(self.pos.side_to_move())
            {
                let reduction = NMP_BASE_REDUCTION
                    + depth / NMP_DEPTH_DIVISOR
                    + ((eval - beta) / NMP_EVAL_DIVISOR.get()).min(NMP_MAX_EVAL_REDUCTION);
                self.stack[ply].moved = None;
                self.stack[ply].quiet = None;
                self.make_null_move();
                self.nodes += 1;
                let score =
                    -self.alphabeta(-beta, -beta + 1, depth - reduction, ply + 1, !cut_node);
                self.unmake_move();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    // Not a proven mate or tablebase win: the null move is not legal chess.
                    let score = if score >= TB_WIN_BOUND { beta } else { score };
                    if depth < NMP_VERIFY_DEPTH {
                        return score;
                    }
                    // Deep cut: verify with a real search, null moves off for a while.
                    self.nmp_min_ply =
                        ply + (NMP_VERIFY_OFF_QUARTERS * (depth - reduction) / 4) as usize;
                    let verified = self.alphabeta(beta - 1, beta, depth - reduction, ply, false);
                    self.nmp_min_ply = 0;
                    if verified >= beta {
                        return score;
                    }
                }
            }
        }

        // Step 7. Internal iterative reduction: without a hash move this node's ordering is
        // poor; search it shallower now, and the next iteration will have a move to start
        // with. (The root always has one.) (S-5)
        // An expected cut node that deep loses two plies: its first good move will do
        // (S-41).
        let depth = if tt_move == Move::NONE && depth >= IIR_MIN_DEPTH && excluded.is_none() {
            depth - 1 - (cut_node && depth >= IIR_CUT_MIN_DEPTH) as i32
        } else {
            depth
        };

        // Step 8. The moves, best first (`movepick.rs`; at the root, the root moves in their
        // order): each is pruned (8a), extended (8b) or searched, reduced when late (8c).
        let mut root_index = self.pv_index;
        let mut picker = MovePicker::new(tt_move, self.stack[ply].killers, previous);
        let rows = Histories::context_rows(&previous);
        let check_info = CheckInfo::new(&self.pos);
        let us = self.pos.side_to_move();
        let original_alpha = alpha;
        // When the best move known here is a capture, the quiet moves are unlikely to be
        // better: they are reduced one ply more (S-20).
        let tt_capture = tt_move.is_some() && is_noisy(&self.pos, tt_move);
        let mut best_score = tb_floor;
        let mut best_move = Move::NONE;
        let mut moves_searched = 0;
        let mut quiets_tried = MoveList::new();
        let mut noisy_tried = MoveList::new();

        while let Some(m) = if root {
            self.next_root_move(&mut root_index)
        } else {
            picker.next(&self.pos, self.histories)
        } {
            if m == excluded {
                continue;
            }
            // The child's hash-table bucket is asked for as soon as the move is known: the
            // pruning decisions below give main memory time to deliver it before the child
            // probes (`make_move` would ask only then, too late to hide the wait). A pruned
            // move's fetch is wasted, and still the bench runs 2-7 % faster (S-116).
            self.tt.prefetch(self.pos.key_after(m));
            // For GUIs that show which root move is being searched (once a search is long
            // enough for a person to look, as Stockfish does).
            if root && self.is_main() && self.time.elapsed() >= CURRMOVE_AFTER {
                self.report(&format!(
                    "info depth {depth} currmove {} currmovenumber {root_index}",
                    to_uci(&self.pos, m),
                ));
            }
            let noisy = is_noisy(&self.pos, m);
            let checks = check_info.gives_check(&self.pos, m);
            let piece = self
                .pos
                .piece_on(m.from())
                .expect("a move starts on a piece");
            let moved = PieceTo { piece, to: m.to() };
            // A quiet move's history is keyed by the squares the opponent attacks; the key
            // is kept for the child, which judges the move by its evaluation (Step 5).
            // It is looked up only by the steps that read it (history pruning, the late-move
            // reduction), which most moves near the leaves never reach. (The histories do
            // not change in between: only the singular test searches first, and only for
            // the hash move, which comes first and is never reduced.)
            let threats = if noisy {
                Bitboard::EMPTY
            } else {
                picker.threats(&self.pos)
            };
            let quiet = (!noisy).then_some((m, threats));
            let mut history =
                noisy.then(|| self.histories.capture(moved, captured_kind(&self.pos, m)));
            let quiet_history =
                |histories: &Histories| histories.quiet_score(us, m, threats, moved, &rows);

            // Step 8a. Pruning, once a move has shown we are not simply lost here. (A tablebase
            // floor raises `best_score` before any move: one move must still be searched,
            // or "no move searched" would read as stalemate.) Every root move is searched:
            // each needs a score of its own.
            if !root && moves_searched > 0 && best_score > -TB_WIN_BOUND {
                // Quiet checks are left out of the pruning by move count, evaluation and
                // history: a check can mate or win material in ways none of them foresee
                // (S-15; a mate in two found at depth 5 instead of 10).
                // (`skip_quiets` keeps handing them out.)
                if !noisy && !checks {
                    let lmp_divisor = if improving {
                        1
                    } else {
                        LMP_NOT_IMPROVING_DIVISOR
                    };
                    let lmp_limit = (LMP_BASE + depth * depth) / lmp_divisor;
                    // Late move pruning (~131 Elo, S-4).
                    if depth <= LMP_MAX_DEPTH && quiets_tried.len() as i32 >= lmp_limit {
                        picker.skip_quiets(&check_info);
                        continue;
                    }
                    // Futility pruning, judged at the depth this move would be searched to
                    // after its late-move reduction. Not against a proven win in alpha: no
                    // evaluation reaches it, and only a faster mate (often a quiet move) can
                    // (~72 Elo, S-8).
                    let lmr_depth =
                        (depth - 1 - self.late_move_reduction(depth, moves_searched + 1)).max(0);
                    if !pv_node
                        && !in_check
                        && alpha < TB_WIN_BOUND
                        && lmr_depth <= FUTILITY_MAX_DEPTH
                        && static_eval + FUTILITY_BASE.get() + FUTILITY_PER_DEPTH.get() * lmr_depth
                            <= alpha
                    {
                        picker.skip_quiets(&check_info);
                        continue;
                    }
                    // History pruning: a quiet move that has failed again and again in
                    // this kind of position is not worth a search this close to the leaves
                    // (S-15).
                    if !pv_node
                        && lmr_depth <= HISTORY_PRUNE_MAX_DEPTH
                        && *history.get_or_insert_with(|| quiet_history(self.histories))
                            < -HISTORY_PRUNE_MARGIN.get() * depth
                    {
                        continue;
                    }
                }
                // SEE pruning: a move that loses too much material in the exchange on its
                // square (~84 Elo, S-6). A quiet check is held to the captures' wider margin:
                // what it gives up may come back with interest.
                if !noisy && !checks {
                    if depth <= SEE_PRUNE_MAX_DEPTH
                        && !see_ge(&self.pos, m, -SEE_QUIET_MARGIN.get() * depth)
                    {
                        continue;
                    }
                } else if depth <= SEE_PRUNE_MAX_DEPTH
                    && !see_ge(&self.pos, m, -SEE_CAPTURE_MARGIN.get() * depth)
                {
                    continue;
                }
            }

            // Step 8b. Extensions. A hash move that proves to be the only good move is searched
            // deeper (singular extension: S-14), one that is
            // not may be searched shallower; a checking move is searched a ply deeper, since
            // checks force replies and often lead somewhere decisive (S-11). (Not the
            // singular test at the root: searching the root without its first move would be
            // another root search, scoring the root moves.)
            let mut extension = checks as i32;
            self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
            if !root
                && m == tt_move
                && let Some(e) = entry
                && let Some(singular) = self.singular_extension(e, depth, ply, beta, cut_node)
            {
                match singular {
                    Singular::Extend(plies) => {
                        extension = plies;
                        if plies >= 2 {
                            self.stack[ply + 1].double_extensions += 1;
                        }
                    }
                    Singular::MultiCut(score) => return score,
                }
            }
            let new_depth = depth - 1 + extension;
            self.stack[ply].moved = Some(moved);
            self.stack[ply].quiet = quiet;
            let nodes_before = self.nodes;
            self.make_prefetched_move(m);
            self.nodes += 1;
            moves_searched += 1;

            // Step 8c. The search of the move: the first with the full window, the others
            // with a null window (and reduced when late), searched again when they surprise.
            let mut score;
            if moves_searched == 1 {
                score = -self.alphabeta(-beta, -alpha, new_depth, ply + 1, !pv_node && !cut_node);
            } else {
                // Late move reductions: a move this far down the list rarely matters, so
                // it is searched shallower unless it proves interesting (~78 Elo, S-2).
                // A late capture (a losing one, or one after the quiet moves) is reduced
                // too, less than a quiet move and as far as its capture history says
                // (S-16).
                // Not at the root, where every move is searched to the full depth.
                let mut reduction = 0;
                if !root
                    && depth >= LMR_MIN_DEPTH
                    && moves_searched > LMR_MIN_MOVES + pv_node as usize
                {
                    let history = history.unwrap_or_else(|| quiet_history(self.histories));
                    reduction = self.late_move_reduction(depth, moves_searched);
                    // A ply less on a (once) principal variation and for a check, a ply
                    // more where the node is not improving and at an expected cut node
                    // (the tt-PV ply: S-20).
                    reduction -= tt_pv as i32;
                    reduction -= checks as i32;
                    reduction += !improving as i32;
                    reduction += cut_node as i32;
                    if noisy {
                        reduction -= CAPTURE_LMR_LESS + history / CAPTURE_LMR_HISTORY_DIVISOR.get();
                    } else {
                        reduction -= history / LMR_HISTORY_DIVISOR.get();
                        reduction += tt_capture as i32;
                    }
                    reduction = reduction.clamp(0, new_depth - 1);
                }
                score = -self.alphabeta(-alpha - 1, -alpha, new_depth - reduction, ply + 1, true);
                if score > alpha && reduction > 0 {
                    score = -self.alphabeta(-alpha - 1, -alpha, new_depth, ply + 1, !cut_node);
                }
                if pv_node && score > alpha && score < beta {
                    score = -self.alphabeta(-beta, -alpha, new_depth, ply + 1, false);
                }
            }
            self.unmake_move();
            if root {
                self.root_moves[root_index - 1].nodes += self.nodes - nodes_before;
            }
            if self.stopped {
                return 0;
            }
            if root {
                let scored = moves_searched == 1 || score > alpha;
                let bound = bound_of(score, alpha, beta);
                self.record_root_move(root_index - 1, score, scored, depth, bound);
            }

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
            if noisy {
                noisy_tried.push(m);
            } else {
                quiets_tried.push(m);
            }
        }

        // Step 9. The result: mate or stalemate without moves, then what the search
        // learns from it (histories, correction history) and the hash table entry.
        if moves_searched == 0 {
            // Without the excluded move there is nothing else: the move is singular.
            return if excluded.is_some() {
                alpha
            } else if in_check {
                mated_in(ply)
            } else {
                self.draw_score(ply)
            };
        }
        if excluded.is_some() {
            return best_score;
        }

        // (The root's result is kept in `root_moves`; the root learns nothing from it.)
        if best_score >= beta && !root {
            // Quiet history is keyed by the squares the opponent attacks (~20 Elo,
            // S-32; only a quiet cutoff touches it).
            let threats = if is_noisy(&self.pos, best_move) {
                Bitboard::EMPTY
            } else {
                picker.threats(&self.pos)
            };
            self.reward_cutoff(ply, depth, best_move, threats, &quiets_tried, &noisy_tried);
        }
        best_score = best_score.min(tb_ceiling);

        let bound = bound_of(best_score, original_alpha, beta);
        // Correction history learns from results that say how far off the evaluation was:
        // not in check (no evaluation), not when a capture was best (the evaluation cannot
        // see it coming, and need not: quiescence does), and only when the bound points
        // the way the error goes (a fail-high above the evaluation proves it too low, a
        // fail-low below it too high).
        let capture_was_best = best_move.is_some() && is_noisy(&self.pos, best_move);
        if !(in_check || capture_was_best || root)
            && best_score.abs() < TB_WIN_BOUND
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.histories.corrections.update(
                self.pos.board(),
                &[previous[0], previous[1]],
                depth,
                best_score,
                raw_eval,
            );
        }
        if !root {
            self.tt.store_entry(
                key,
                TtEntry {
                    mv: best_move,
                    score: score::to_tt(best_score, ply),
                    eval: raw_eval,
                    depth,
                    bound,
                    pv: tt_pv,
                },
            );
        }
        best_score
    }

    /// The quiet move that led to `ply` judged by how the static evaluation moved across it:
    /// the mover's evaluation before it against the one after (the child's, negated). A
    /// move that made things worse by the evaluation is ordered later next time, one that
    /// made them better earlier, before any search has said so.
    fn judge_quiet_move_by_eval(&mut self, ply: usize, static_eval: i32) {
        if ply == 0 || static_eval == -INFINITE {
            return;
        }
        let parent = &self.stack[ply - 1];
        let (Some((m, threats)), parent_eval) = (parent.quiet, parent.static_eval) else {
            return;
        };
        if parent_eval == -INFINITE {
            return;
        }
        let bonus = (-EVAL_DIFF_HISTORY_MULT.get() * (parent_eval + static_eval))
            .clamp(-EVAL_DIFF_HISTORY_MAX.get(), EVAL_DIFF_HISTORY_MAX.get());
        let mover = self.pos.side_to_move().flip();
        self.histories.update_quiet_only(mover, m, threats, bonus);
    }

    /// The late-move reduction (`LMR_*`) of the `moves`-th move of a node at `depth`.
    fn late_move_reduction(&self, depth: i32, moves: usize) -> i32 {
        let last = LMR_TABLE_SIZE - 1;
        self.lmr[depth.min(last as i32) as usize][moves.min(last)]
    }

    /// Singular extension of the hash move, whose table entry is `e`: is it the only
    /// move that holds this node? The other moves are searched, half as deep, against a
    /// bound a little below the hash score. `None` when the test does not apply.
    fn singular_extension(
        &mut self,
        e: TtEntry,
        depth: i32,
        ply: usize,
        beta: i32,
        cut_node: bool,
    ) -> Option<Singular> {
        let tt_score = score::from_tt(e.score, ply);
        let applies = depth >= SE_MIN_DEPTH
            && self.stack[ply].excluded.is_none()
            && e.bound != Bound::Upper
            && e.depth >= depth - SE_TT_DEPTH_MARGIN
            && tt_score.abs() < TB_WIN_BOUND
            // A window at mate scores asks whether a mate is there, which a search below
            // the (not mate) hash score cannot tell; and that search, with no mate distance
            // to bound it, would grow with every iteration after a mate is found.
            && beta.abs() < TB_WIN_BOUND
            // The line is not already SE_MAX_LINE_FACTOR times the iteration's depth.
            && (ply as i32) < SE_MAX_LINE_FACTOR * (self.completed_depth + 1);
        if !applies {
            return None;
        }
        let singular_beta = tt_score - SE_MARGIN_PER_DEPTH.get() * depth / SE_MARGIN_DIVISOR;
        self.stack[ply].excluded = e.mv;
        let score = self.alphabeta(
            singular_beta - 1,
            singular_beta,
            (depth - 1) / SE_DEPTH_DIVISOR,
            ply,
            cut_node,
        );
        self.stack[ply].excluded = Move::NONE;
        Some(if score < singular_beta {
            // Nothing else comes close: extend, twice when far below.
            let double = score < singular_beta - SE_DOUBLE_MARGIN.get()
                && self.stack[ply].double_extensions < SE_MAX_DOUBLE;
            Singular::Extend(1 + double as i32)
        } else if singular_beta >= beta {
            // Multi-cut: another move also beats beta, even searched this shallow; the
            // node will fail high whatever the hash move does.
            Singular::MultiCut(singular_beta)
        } else if tt_score >= beta {
            // The hash move is not alone, and its score is only a bound above beta: the
            // others will probably cut too, so spend less on it.
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        })
    }

    /// The moves one, two and four plies before `ply` (`None` for a null move or before
    /// the root): the context of continuation history; continuation correction reads the
    /// first two.
    fn previous_moves(&self, ply: usize) -> Context {
        CONTINUATION_PLIES.map(|back| {
            if ply >= back {
                self.stack[ply - back].moved
            } else {
                None
            }
        })
    }

    /// Starts loading the correction-history entries of the position at `ply`, so that
    /// they arrive while the hash table is probed (`corrected` reads them after).
    #[inline(always)]
    fn prefetch_corrections(&self, ply: usize) {
        let previous = self.previous_moves(ply);
        self.histories
            .corrections
            .prefetch(self.pos.board(), &[previous[0], previous[1]]);
    }

    /// A static evaluation corrected by the correction history, kept clear of the scores
    /// that mean a proven result.
    fn corrected(&self, raw_eval: i32, previous: &Context) -> i32 {
        // A known win's score is exact knowledge, its drive the only way to the mate: the
        // corrections (one pawnless key for every such position) would flatten the drive.
        // A known draw is exact too.
        let board = self.pos.board();
        if endgame::lone_king_against_mating_material(board) || endgame::known_draw(board) {
            return raw_eval;
        }
        let eval = self.histories.corrections.correct(
            self.pos.board(),
            &[previous[0], previous[1]],
            raw_eval,
        );
        eval.clamp(-TB_WIN_BOUND + 1, TB_WIN_BOUND - 1)
    }

    /// The tablebase result of the position at `ply` (reached with `depth` plies to go) as a
    /// score and what it bounds, when the position qualifies: no castling rights, at most
    /// `cardinality` pieces (and at least `probe_depth` to go when it is exactly that many,
    /// since the largest tables cost the most to read), and right after a capture or pawn
    /// move, where the tables' value is exact (later, the fifty-move count may have eaten
    /// into the win).
    fn probe_tablebase(&mut self, depth: i32, ply: usize) -> Option<(i32, Bound)> {
        let pieces = self.pos.occupied().count() as usize;
        if pieces > self.tb.cardinality
            || (pieces == self.tb.cardinality && depth < self.tb.probe_depth)
            || self.pos.halfmove_clock() != 0
            || self.pos.castling_rights() != 0
        {
            return None;
        }
        let wdl = match self.tb.tables.as_ref()?.probe_wdl(&self.pos) {
            Ok(wdl) => wdl.value(),
            Err(miss) => {
                self.report_miss(miss);
                return None;
            }
        };
        self.tb.hits += 1;
        // Under the fifty-move rule, cursed wins and blessed losses are draws (scored a
        // hair off zero so the search still prefers the better side of them).
        let draw = self.tb.rule50 as i32;
        Some(if wdl < -draw {
            (tb_loss_in(ply), Bound::Upper)
        } else if wdl > draw {
            (tb_win_in(ply), Bound::Lower)
        } else {
            (DRAW + TB_CURSED_SCORE * wdl * draw, Bound::Exact)
        })
    }

    fn store_tablebase_result(
        &mut self,
        key: u64,
        score: i32,
        bound: Bound,
        depth: i32,
        ply: usize,
    ) {
        let static_eval = if self.pos.in_check() {
            -INFINITE
        } else {
            self.evaluate()
        };
        self.tt.store(
            key,
            Move::NONE,
            score::to_tt(score, ply),
            static_eval,
            (depth + TB_STORE_DEPTH_BONUS).min(MAX_PLY as i32 - 1),
            bound,
        );
    }

    /// Move `m` caused a beta cutoff: raise its history and lower that of the moves tried
    /// before it in vain. A quiet move also becomes a killer, and the quiet moves before it
    /// lose history; the captures before it lose capture history whatever `m` was, since
    /// they were tried first and did not cut.
    fn reward_cutoff(
        &mut self,
        ply: usize,
        depth: i32,
        m: Move,
        threats: Bitboard,
        quiets_tried: &MoveList,
        noisy_tried: &MoveList,
    ) {
        let us = self.pos.side_to_move();
        let previous = &self.previous_moves(ply);
        let bonus = history::bonus(depth);
        let piece_to = |m: Move| PieceTo {
            piece: self
                .pos
                .piece_on(m.from())
                .expect("a move starts on a piece"),
            to: m.to(),
        };
        if is_noisy(&self.pos, m) {
            let captured = captured_kind(&self.pos, m);
            self.histories.update_capture(piece_to(m), captured, bonus);
        } else {
            let frame = &mut self.stack[ply];
            if frame.killers[0] != m {
                frame.killers = [m, frame.killers[0]];
            }
            self.histories
                .update_quiet(us, m, threats, piece_to(m), previous, bonus);
            for &q in quiets_tried.iter().filter(|&&q| q != m) {
                self.histories
                    .update_quiet(us, q, threats, piece_to(q), previous, -bonus);
            }
        }
        for &c in noisy_tried.iter().filter(|&&c| c != m) {
            let captured = captured_kind(&self.pos, c);
            self.histories.update_capture(piece_to(c), captured, -bonus);
        }
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let child_len = self.pv_len[ply + 1];
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = m;
        head[ply][1..=child_len].copy_from_slice(&tail[0][..child_len]);
        self.pv_len[ply] = child_len + 1;
    }

    /// Captures (and, in check, every evasion) until the position is quiet; at its first
    /// ply (`quiet_checks`), quiet moves that give check too.
    fn quiescence(&mut self, mut alpha: i32, beta: i32, ply: usize, quiet_checks: bool) -> i32 {
        self.pv_len[ply] = 0;
        if self.check_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // The fifty-move rule too: a root at a clock of 100 is searched at depth 1 straight
        // into quiescence, whose leaves would otherwise score on.
        if self.pos.is_insufficient_material()
            || (self.pos.halfmove_clock() >= 100 && self.is_draw(ply))
        {
            return self.draw_score(ply);
        }
        let in_check = self.pos.in_check();
        if ply >= MAX_PLY - PLY_HEADROOM {
            return if in_check { DRAW } else { self.evaluate() };
        }

        let key = self.pos.key();
        if !in_check {
            self.prefetch_corrections(ply);
        }
        // The network's evaluation is computed before the probe, though the table may cut
        // the node off or hold the evaluation: the entry, prefetched when the move was
        // made, is still on its way from memory, and the processor does the network's work
        // while it waits (2 % faster at the same tree, S-123).
        let fresh = if in_check { -INFINITE } else { self.evaluate() };
        let entry = self.tt.probe(key);
        if let Some(e) = entry
            && let Some(s) = tt_cutoff(e.score, e.bound, ply, alpha, beta)
        {
            return s;
        }

        let original_alpha = alpha;
        let mut best_score = -INFINITE;
        let mut raw_eval = -INFINITE;
        let mut static_eval = -INFINITE;
        let mut stand_pat_from_tt = false;
        if !in_check {
            // Stand pat: the side to move need not capture, so the (corrected) static
            // evaluation is taken as a lower bound on the score.
            raw_eval = entry.map_or(fresh, |e| e.eval);
            static_eval = self.corrected(raw_eval, &self.previous_moves(ply));
            // The hash score, where its bound allows, is the better stand pat: a search
            // found it (~11 Elo, S-24).
            let stand_pat = eval_with_tt_score(entry, static_eval, ply);
            stand_pat_from_tt = stand_pat != static_eval;
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
        }

        let tt_move = entry.map_or(Move::NONE, |e| e.mv);
        let mut picker =
            MovePicker::quiescence(&self.pos, tt_move, self.previous_moves(ply), quiet_checks);
        let futility_base = best_score + QS_FUTILITY_MARGIN.get();
        let mut best_move = Move::NONE;
        let mut moves_searched = 0;
        let mut quiet_evasions = 0;
        while let Some(m) = picker.next(&self.pos, self.histories) {
            let noisy = is_noisy(&self.pos, m);
            if !in_check && !noisy {
                // A quiet check (first ply only: even in games over 3,960, WAC at 200 ms
                // +9): one that loses material in the exchange is left out.
                if !see_ge(&self.pos, m, 0) {
                    continue;
                }
            } else if !in_check {
                let promotion = m.promotion_piece().is_some();
                // Delta pruning: even winning the captured piece for free would not
                // bring the score up to alpha. (Out of check every move here captures,
                // en passant a pawn.)
                if !promotion {
                    let victim = captured_kind(&self.pos, m).map_or(0, see::value);
                    if static_eval + victim + DELTA_MARGIN.get() <= alpha {
                        continue;
                    }
                }
                // Only captures that lose nothing in the exchange, the hash move aside (the
                // picker hands out all of them; tested here, after the delta test, fewer
                // need the exchange worked out: S-141).
                if m != tt_move && !see_ge(&self.pos, m, 0) {
                    continue;
                }
                // Futility by SEE: short of alpha even with a margin, a capture that
                // wins nothing in the exchange will not get there (S-41).
                if !promotion && futility_base <= alpha && !see_ge(&self.pos, m, 1) {
                    best_score = best_score.max(futility_base);
                    continue;
                }
            }
            // In check, once a reply has shown we are not mated, the quiet evasions
            // after the first `QS_QUIET_EVASIONS` (the best by history) are left out: the
            // quiescence search looks for tactics, not for every defence (in a batch).
            if in_check && !noisy {
                if best_score > -TB_WIN_BOUND && quiet_evasions >= QS_QUIET_EVASIONS {
                    continue;
                }
                quiet_evasions += 1;
            }
            self.stack[ply].moved = None;
            self.make_move(m);
            self.nodes += 1;
            moves_searched += 1;
            let score = -self.quiescence(-beta, -alpha, ply + 1, false);
            self.unmake_move();
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = m;
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && moves_searched == 0 {
            return mated_in(ply);
        }
        // A stand pat taken from the table that no capture beat is the table's own result:
        // storing it back at depth 0 (as an exact score, should it lie inside the window)
        // would overwrite the deeper search that found it.
        if stand_pat_from_tt && best_move.is_none() {
            return best_score;
        }
        let bound = bound_of(best_score, original_alpha, beta);
        self.tt.store_entry(
            key,
            TtEntry {
                mv: best_move,
                score: score::to_tt(best_score, ply),
                eval: raw_eval,
                depth: 0,
                bound,
                pv: entry.is_some_and(|e| e.pv),
            },
        );
        best_score
    }
}

/// The static evaluation, or the hash score where its bound says the true score lies
/// beyond the evaluation in that direction: a search found it, so it is the better guess.
/// Proven results (mates, tablebase wins) stay out: as a guess of a static value they would
/// only mislead the pruning.
fn eval_with_tt_score(entry: Option<TtEntry>, static_eval: i32, ply: usize) -> i32 {
    let Some(e) = entry else {
        return static_eval;
    };
    let stored = score::from_tt(e.score, ply);
    let nearer = match e.bound {
        Bound::Exact => true,
        Bound::Lower => stored > static_eval,
        Bound::Upper => stored < static_eval,
    };
    if nearer && stored.abs() < TB_WIN_BOUND {
        stored
    } else {
        static_eval
    }
}

/// What the singular-extension test decided for the hash move.
enum Singular {
    /// Search it this many plies deeper (negative: shallower).
    Extend(i32),
    /// Cut the node with this score.
    MultiCut(i32),
}

/// The stored result decides this node without searching when its bound settles the
/// question for the window: an exact score always, a lower bound at or above beta, an
/// upper bound at or below alpha.
fn tt_cutoff(stored: i32, bound: Bound, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score::from_tt(stored, ply);
    let usable = match bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    usable.then_some(s)
}

/// What a search result says about the true score, given the window it was searched with.
fn bound_of(best_score: i32, original_alpha: i32, beta: i32) -> Bound {
    if best_score >= beta {
        Bound::Lower
    } else if best_score > original_alpha {
        Bound::Exact
    } else {
        Bound::Upper
    }
}
