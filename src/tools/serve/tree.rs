//! The moves of a game as a tree: every line played or read on an analysis board, with the
//! comments and NAGs of a PGN. Node 0 is the start; each other node is one move with its
//! parent (the node before it) and its children (the moves played after it, the first
//! being the main continuation and the others variations). A game against Tarpon has a
//! single line.
//!
//! Nodes are numbered by their place in a vector; a removal renumbers the nodes left (the
//! page reads the numbers anew from each answer).

use crate::chess::{Board, Move};
use crate::tools::pgn::{GameMove, Line};
use serde::Serialize;

/// A tree is refused more moves than this (a long game with its variations is a few
/// hundred).
pub const MAX_NODES: usize = 5000;

#[derive(Clone, Debug)]
pub struct Node {
    /// `Move::NONE` at the start.
    pub mv: Move,
    pub parent: usize,
    pub children: Vec<usize>,
    pub nags: Vec<u8>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Comments before the move: the game's opening comments on the first move of the
    /// main line, a variation's opening comments on its first move.
    pub before: Vec<String>,
}

impl Node {
    fn new(mv: Move, parent: usize) -> Node {
        Node {
            mv,
            parent,
            children: Vec::new(),
            nags: Vec::new(),
            comments: Vec::new(),
            before: Vec::new(),
        }
    }
}

/// `comment` without its `[%cal ...]` and `[%csl ...]` commands, trimmed.
fn without_shapes(comment: &str) -> String {
    let mut rest = comment.to_string();
    for command in ["[%cal", "[%csl"] {
        while let Some(start) = rest.find(command) {
            let end = rest[start..]
                .find(']')
                .map_or(rest.len(), |e| start + e + 1);
            rest.replace_range(start..end, "");
        }
    }
    rest.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[derive(Clone, Debug)]
pub struct Tree {
    nodes: Vec<Node>,
}

/// A node as the page draws the move list.
#[derive(Serialize, Debug)]
pub struct NodeView {
    pub id: usize,
    pub parent: usize,
    pub san: String,
    pub uci: String,
    /// How many moves lead to it (1 for the first move).
    pub ply: usize,
    pub children: Vec<usize>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub nags: Vec<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub comments: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub before: Vec<String>,
}

impl Default for Tree {
    fn default() -> Tree {
        Tree {
            nodes: vec![Node::new(Move::NONE, 0)],
        }
    }
}

impl Tree {
    /// The tree of a PGN's main line with its variations, comments and NAGs.
    pub fn from_line(line: &Line) -> Tree {
        let mut tree = Tree::default();
        tree.add_line(0, line);
        tree
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn node(&self, id: usize) -> Option<&Node> {
        self.nodes.get(id)
    }

    /// Replaces the arrows and circles drawn on the position after move `id` (PGN's
    /// `[%cal ...]` and `[%csl ...]` commands in its comments) by `cal` and `csl`, which are
    /// already checked; the rest of its comments stays. False if there is no such move.
    pub fn set_shapes(&mut self, id: usize, cal: &str, csl: &str) -> bool {
        let Some(node) = self.nodes.get_mut(id).filter(|_| id != 0) else {
            return false;
        };
        node.comments = node
            .comments
            .iter()
            .map(|c| without_shapes(c))
            .filter(|c| !c.is_empty())
            .collect();
        let mut commands = Vec::new();
        if !cal.is_empty() {
            commands.push(format!("[%cal {cal}]"));
        }
        if !csl.is_empty() {
            commands.push(format!("[%csl {csl}]"));
        }
        if !commands.is_empty() {
            node.comments.push(commands.join(" "));
        }
        true
    }

    /// Adds a line after `parent`: each move after the one before, and each variation of a
    /// move beside it.
    fn add_line(&mut self, parent: usize, line: &Line) {
        let mut at = parent;
        for (i, game_move) in line.moves.iter().enumerate() {
            let id = self.push(at, game_move.mv);
            let node = &mut self.nodes[id];
            node.nags = game_move.nags.clone();
            node.comments = game_move.comments.clone();
            if i == 0 {
                node.before = line.comments.clone();
            }
            for variation in &game_move.variations {
                if !variation.moves.is_empty() {
                    self.add_line(at, variation);
                }
            }
            at = id;
        }
    }

    fn push(&mut self, parent: usize, mv: Move) -> usize {
        let id = self.nodes.len();
        self.nodes.push(Node::new(mv, parent));
        self.nodes[parent].children.push(id);
        id
    }

    /// The child of `parent` that plays `mv`, added if there is none (as the main
    /// continuation where `parent` has no child yet, otherwise as a variation).
    pub fn child(&mut self, parent: usize, mv: Move) -> usize {
        match self.nodes[parent]
            .children
            .iter()
            .find(|&&c| self.nodes[c].mv == mv)
        {
            Some(&child) => child,
            None => self.push(parent, mv),
        }
    }

    /// The nodes from the start to `id` (without the start).
    pub fn path_to(&self, mut id: usize) -> Vec<usize> {
        let mut path = Vec::new();
        while id != 0 {
            path.push(id);
            id = self.nodes[id].parent;
        }
        path.reverse();
        path
    }

    /// The line through `id`: the moves to it, then its main continuation to the end.
    pub fn line_through(&self, id: usize) -> Vec<usize> {
        let mut line = self.path_to(id);
        let mut at = id;
        while let Some(&next) = self.nodes[at].children.first() {
            line.push(next);
            at = next;
        }
        line
    }

    /// Removes `id` and everything after it; the nodes left are renumbered, and `keep`
    /// (nodes the caller holds) is renumbered with them, losing any that were removed.
    pub fn remove(&mut self, id: usize, keep: &mut Vec<usize>) {
        if id == 0 || id >= self.nodes.len() {
            return;
        }
        let parent = self.nodes[id].parent;
        self.nodes[parent].children.retain(|&c| c != id);
        self.compact(keep);
    }

    /// Makes the variation holding `id` the main continuation where it branches off (the
    /// nearest place where it is not the first child).
    pub fn promote(&mut self, id: usize) -> bool {
        let mut at = id;
        while at != 0 {
            let parent = self.nodes[at].parent;
            let children = &mut self.nodes[parent].children;
            if let Some(place) = children.iter().position(|&c| c == at)
                && place > 0
            {
                children.remove(place);
                children.insert(0, at);
                return true;
            }
            at = parent;
        }
        false
    }

    /// Renumbers the nodes reachable from the start, in order, dropping the others.
    fn compact(&mut self, keep: &mut Vec<usize>) {
        let mut new_id = vec![usize::MAX; self.nodes.len()];
        let mut order = vec![0];
        let mut i = 0;
        while i < order.len() {
            let id = order[i];
            new_id[id] = i;
            order.extend(self.nodes[id].children.iter().copied());
            i += 1;
        }
        let mut nodes = Vec::with_capacity(order.len());
        for &old in &order {
            let mut node = self.nodes[old].clone();
            node.parent = new_id[node.parent];
            for child in &mut node.children {
                *child = new_id[*child];
            }
            nodes.push(node);
        }
        self.nodes = nodes;
        keep.retain(|&id| new_id[id] != usize::MAX);
        for id in keep.iter_mut() {
            *id = new_id[*id];
        }
    }

    /// The main line with its variations, comments and NAGs, as PGN writes it.
    pub fn to_line(&self) -> Line {
        let Some(&first) = self.nodes[0].children.first() else {
            return Line::default();
        };
        Line {
            comments: self.nodes[first].before.clone(),
            moves: self.moves_from(0, 0),
        }
    }

    /// The moves from `parent`'s child number `index` along the main continuations; each
    /// move carries the other children of the node before it as variations (the first
    /// move of a variation does not: its siblings belong to the line it branches from).
    fn moves_from(&self, parent: usize, index: usize) -> Vec<GameMove> {
        let mut moves = Vec::new();
        let mut before = parent;
        let mut at = self.nodes[parent].children[index];
        let mut first = true;
        loop {
            let node = &self.nodes[at];
            let variations = if first && index > 0 {
                Vec::new()
            } else {
                let siblings = &self.nodes[before].children;
                (1..siblings.len())
                    .map(|i| Line {
                        comments: self.nodes[siblings[i]].before.clone(),
                        moves: self.moves_from(before, i),
                    })
                    .collect()
            };
            moves.push(GameMove {
                mv: node.mv,
                nags: node.nags.clone(),
                comments: node.comments.clone(),
                variations,
            });
            first = false;
            match node.children.first() {
                Some(&next) => {
                    before = at;
                    at = next;
                }
                None => return moves,
            }
        }
    }

    /// Every node but the start, for the page, with its SAN from `start`.
    pub fn views(&self, start: &Board) -> Vec<NodeView> {
        let mut boards = vec![*start; self.nodes.len()];
        let mut plies = vec![0; self.nodes.len()];
        let mut out = Vec::with_capacity(self.nodes.len());
        out.push(NodeView {
            id: 0,
            parent: 0,
            san: String::new(),
            uci: String::new(),
            ply: 0,
            children: self.nodes[0].children.clone(),
            nags: Vec::new(),
            comments: Vec::new(),
            before: Vec::new(),
        });
        // Parents come before their children in the vector except after promotions and
        // additions, so the nodes are visited from the start down.
        let mut stack: Vec<usize> = self.nodes[0].children.iter().rev().copied().collect();
        let mut views: Vec<Option<NodeView>> = (0..self.nodes.len()).map(|_| None).collect();
        while let Some(id) = stack.pop() {
            let node = &self.nodes[id];
            let before = boards[node.parent];
            let mut after = before;
            after.play(node.mv);
            boards[id] = after;
            plies[id] = plies[node.parent] + 1;
            views[id] = Some(NodeView {
                id,
                parent: node.parent,
                san: crate::chess::notation::to_san(&before, node.mv),
                uci: crate::chess::notation::to_uci(&before, node.mv),
                ply: plies[id],
                children: node.children.clone(),
                nags: node.nags.clone(),
                comments: node.comments.clone(),
                before: node.before.clone(),
            });
            stack.extend(node.children.iter().rev().copied());
        }
        out.extend(views.into_iter().skip(1).flatten());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::pgn;

    #[test]
    fn a_pgn_goes_through_the_tree_unchanged() {
        let text = "[Event \"x\"]\n\n{Start} 1. e4 $1 {best} (1. d4 {queen} d5 (1... Nf6 2. c4) 2. c4) \
                    1... e5 2. Nf3 (2. f4 exf4) 2... Nc6 {[%eval 0.3] [%clk 0:05:00]} 1-0\n";
        let game = pgn::read_games(text).unwrap().remove(0);
        let tree = Tree::from_line(&Line {
            comments: game.comments.clone(),
            moves: game.moves.clone(),
        });
        let line = tree.to_line();
        assert_eq!(line.comments, game.comments);
        assert_eq!(line.moves, game.moves);
        assert_eq!(tree.line_through(0).len(), 4);
    }

    #[test]
    fn removing_and_promoting_variations() {
        let text = "1. e4 e5 (1... c5 2. Nf3 (2. c3)) 2. Nf3 *";
        let game = pgn::read_games(text).unwrap().remove(0);
        let mut tree = Tree::from_line(&Line {
            comments: Vec::new(),
            moves: game.moves.clone(),
        });
        let c5 = tree.node(1).unwrap().children[1];
        let mut keep = tree.line_through(c5);
        assert_eq!(keep.len(), 3);
        assert!(tree.promote(c5));
        let main = tree.line_through(0);
        assert_eq!(main, keep);
        tree.remove(c5, &mut keep);
        assert_eq!(keep.len(), 1, "only 1. e4 is left of the line");
        assert_eq!(tree.line_through(0).len(), 3, "1. e4 e5 2. Nf3");
        assert_eq!(tree.len(), 4);
    }
}
