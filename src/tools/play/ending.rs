//! How a game ended: its result, the reason in words and the PGN `Termination` tag.

use crate::chess::{Color, Outcome, Position};

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Ending {
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub(crate) result: &'static str,
    /// In words, for the announcement and the PGN.
    pub(crate) reason: String,
    /// The PGN `Termination` tag.
    pub(crate) termination: &'static str,
}

impl Ending {
    pub(crate) fn win(winner: Color, reason: String, termination: &'static str) -> Ending {
        Ending {
            result: if winner == Color::White { "1-0" } else { "0-1" },
            reason,
            termination,
        }
    }

    pub(crate) fn draw(reason: String, termination: &'static str) -> Ending {
        Ending {
            result: "1/2-1/2",
            reason,
            termination,
        }
    }

    pub(crate) fn from_outcome(outcome: Outcome) -> Ending {
        match outcome {
            Outcome::Checkmate { winner } => Ending::win(
                winner,
                format!("Checkmate: {} wins", name(winner)),
                "normal",
            ),
            Outcome::Stalemate => Ending::draw("Stalemate: draw".to_string(), "normal"),
            Outcome::ThreefoldRepetition => {
                Ending::draw("Draw by threefold repetition".to_string(), "normal")
            }
            Outcome::FiftyMoveRule => {
                Ending::draw("Draw by the fifty-move rule".to_string(), "normal")
            }
            Outcome::InsufficientMaterial => Ending::draw(
                "Draw: neither side has the material to checkmate".to_string(),
                "normal",
            ),
        }
    }

    /// `loser`'s flag fell: a loss, unless the opponent could never checkmate.
    pub(crate) fn time_forfeit(loser: Color, position: &Position) -> Ending {
        let winner = loser.flip();
        if position.has_insufficient_material(winner) {
            Ending::draw(
                format!(
                    "{} ran out of time, but {} cannot checkmate: draw",
                    name(loser),
                    name(winner)
                ),
                "time forfeit",
            )
        } else {
            Ending::win(
                winner,
                format!("{} ran out of time: {} wins", name(loser), name(winner)),
                "time forfeit",
            )
        }
    }
}

pub(crate) fn name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_out_of_time_against_a_lone_king_is_a_draw() {
        let lone = Position::from_fen("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", false).unwrap();
        let white_flag = Ending::time_forfeit(Color::White, &lone);
        assert_eq!(white_flag.result, "1/2-1/2");
        assert_eq!(Ending::time_forfeit(Color::Black, &lone).result, "1-0");
    }
}
