//! Checkpoints: everything a run needs to go on exactly where it stopped, the float
//! parameters, Adam's moments and step count, and the number of epochs done. (The batch
//! order of each epoch comes from the seed and the epoch's number, so it needs no state.)
//!
//! # File format (little-endian)
//!
//! | bytes  | content                                     |
//! |--------|---------------------------------------------|
//! | 0..8   | magic `TARPCKPT`                            |
//! | 8..12  | `u32` format version, 3                     |
//! | 12..16 | `u32` hidden size                           |
//! | 16..20 | `u32` output buckets                        |
//! | 20..24 | `u32` epochs done                           |
//! | 24..32 | `u64` Adam steps done                       |
//! | 32..36 | `u32` king input buckets                    |
//! | 36..40 | `u32` flags: bit 0, mirrored; bit 1, factorised |
//! | 40..104 | `u8` × 64: the king bucket map, as in the network file (`format.rs`) |
//! | then   | `f32` parameters, Adam's `m`, Adam's `v`, each in the layout of [`super::model`] |
//!
//! Version 2 checkpoints (before king buckets) are the same without bytes 32..104, and
//! are read as networks without king buckets.

use super::adam::Adam;
use super::model::{Layout, Net};
use crate::eval::nnue::format::{KingBuckets, OUTPUT_BUCKETS};
use std::path::Path;

const MAGIC: &[u8; 8] = b"TARPCKPT";
const VERSION: u32 = 3;
/// The version before king buckets, still read.
const VERSION_2: u32 = 2;
/// The header of a version 2 checkpoint; version 3 adds the king buckets.
const HEADER_V2: usize = 32;
const HEADER: usize = HEADER_V2 + 4 + 4 + 64;
/// Flag bit of mirrored king buckets.
const FLAG_MIRRORED: u32 = 1;
/// Flag bit of factorised king buckets (the factor rows follow the buckets' rows).
const FLAG_FACTORISED: u32 = 2;

/// A training run's state after some epochs.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub net: Net,
    pub adam: Adam,
    /// Epochs completed.
    pub epoch: u32,
}

impl State {
    /// The start of a run: a fresh network (see [`Net::new`]) and a fresh optimiser.
    pub fn new(layout: Layout, seed: u64) -> State {
        State {
            net: Net::new(layout, seed),
            adam: Adam::new(layout.parameter_count()),
            epoch: 0,
        }
    }

    /// The bytes of a checkpoint file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let n = self.net.params.len();
        let mut out = Vec::with_capacity(HEADER + 12 * n);
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.net.layout.hidden as u32).to_le_bytes());
        out.extend_from_slice(&(self.net.layout.buckets as u32).to_le_bytes());
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.adam.step.to_le_bytes());
        let kings = &self.net.layout.kings;
        out.extend_from_slice(&(kings.count() as u32).to_le_bytes());
        let flags = if kings.mirrored() { FLAG_MIRRORED } else { 0 }
            | if self.net.layout.factorised {
                FLAG_FACTORISED
            } else {
                0
            };
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(kings.map());
        for x in self
            .net
            .params
            .iter()
            .chain(&self.adam.m)
            .chain(&self.adam.v)
        {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// Parses a checkpoint file.
    pub fn from_bytes(bytes: &[u8]) -> Result<State, String> {
        if bytes.len() < HEADER_V2 || &bytes[0..8] != MAGIC {
            return Err("not a tarpon train checkpoint".to_string());
        }
        let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap_or([0; 4]));
        let version = u32_at(8);
        let header = match version {
            VERSION => HEADER,
            VERSION_2 => HEADER_V2,
            _ => {
                return Err(format!(
                    "checkpoint format {version}, expected {VERSION_2} or {VERSION}"
                ));
            }
        };
        if bytes.len() < header {
            return Err(format!(
                "checkpoint of {} bytes, shorter than its header",
                bytes.len()
            ));
        }
        let (kings, factorised) = if version == VERSION {
            let flags = u32_at(36);
            let map = bytes[40..104].try_into().unwrap_or([0; 64]);
            if flags & !(FLAG_MIRRORED | FLAG_FACTORISED) != 0 {
                return Err(format!("checkpoint with unknown flags {flags:#x}"));
            }
            let kings = KingBuckets::new(u32_at(32), flags & FLAG_MIRRORED != 0, map)
                .map_err(|e| format!("checkpoint: {e}"))?;
            let factorised = flags & FLAG_FACTORISED != 0;
            if factorised && kings == KingBuckets::NONE {
                return Err("checkpoint factorised without king buckets".to_string());
            }
            (kings, factorised)
        } else {
            (KingBuckets::NONE, false)
        };
        let layout = Layout {
            hidden: u32_at(12) as usize,
            buckets: u32_at(16) as usize,
            kings,
            factorised,
        };
        if !(1..=4096).contains(&layout.hidden) || !(1..=OUTPUT_BUCKETS).contains(&layout.buckets) {
            return Err(format!(
                "checkpoint of {} hidden neurons and {} output buckets: not a shape the trainer makes",
                layout.hidden, layout.buckets
            ));
        }
        let n = layout.parameter_count();
        if bytes.len() != header + 12 * n {
            return Err(format!(
                "checkpoint of {} bytes does not match its shape ({} hidden neurons, {} output buckets)",
                bytes.len(),
                layout.hidden,
                layout.buckets
            ));
        }
        let floats: Vec<f32> = bytes[header..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(State {
            net: Net {
                layout,
                params: floats[..n].to_vec(),
            },
            adam: Adam {
                m: floats[n..2 * n].to_vec(),
                v: floats[2 * n..].to_vec(),
                step: u64::from_le_bytes(bytes[24..32].try_into().unwrap_or([0; 8])),
            },
            epoch: u32_at(20),
        })
    }

    pub fn load(path: &Path) -> Result<State, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        State::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }
}

/// Writes a file through a temporary one beside it, so that an interrupted run never
/// leaves half a file under the real name.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = std::path::PathBuf::from(tmp);
    std::fs::write(&tmp, bytes).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_other_files() {
        let four = crate::learn::train::king_layouts::named("4").unwrap();
        for (kings, factorised) in [(KingBuckets::NONE, false), (four, false), (four, true)] {
            round_trips(kings, factorised);
        }
    }

    fn round_trips(kings: KingBuckets, factorised: bool) {
        let layout = Layout {
            hidden: 3,
            buckets: 5,
            kings,
            factorised,
        };
        let mut state = State {
            net: Net::new(layout, 9),
            adam: Adam::new(layout.parameter_count()),
            epoch: 7,
        };
        state.adam.step = 1234;
        state.adam.m[5] = 0.25;
        state.adam.v[6] = 1e-9;
        let bytes = state.to_bytes();
        assert_eq!(State::from_bytes(&bytes), Ok(state));
        assert!(State::from_bytes(&bytes[..bytes.len() - 4]).is_err());
        assert!(State::from_bytes(b"TARPNNUE").is_err());
        let mut bad = bytes.clone();
        bad[8] = 1;
        assert!(State::from_bytes(&bad).unwrap_err().contains("format"));
        let mut too_many_buckets = bytes.clone();
        too_many_buckets[16] = 9;
        assert!(
            State::from_bytes(&too_many_buckets)
                .unwrap_err()
                .contains("shape")
        );
        let mut bad_map = bytes.clone();
        bad_map[40] = 200;
        assert!(
            State::from_bytes(&bad_map)
                .unwrap_err()
                .contains("bucket 200"),
        );
        assert!(
            State::from_bytes(&bytes[..50])
                .unwrap_err()
                .contains("header")
        );
        if kings != KingBuckets::NONE {
            // The factor rows change the length: the other flag does not fit the file.
            let mut other = bytes.clone();
            other[36] ^= FLAG_FACTORISED as u8;
            assert!(State::from_bytes(&other).unwrap_err().contains("shape"));
            let mut unknown = bytes.clone();
            unknown[36] |= 4;
            assert!(State::from_bytes(&unknown).unwrap_err().contains("flags"));
        }
    }

    #[test]
    fn version_2_checkpoints_are_read_as_networks_without_king_buckets() {
        let layout = Layout {
            hidden: 3,
            buckets: 2,
            kings: KingBuckets::NONE,
            factorised: false,
        };
        let state = State::new(layout, 5);
        let v3 = state.to_bytes();
        let mut v2 = v3[..HEADER_V2].to_vec();
        v2[8..12].copy_from_slice(&VERSION_2.to_le_bytes());
        v2.extend_from_slice(&v3[HEADER..]);
        assert_eq!(State::from_bytes(&v2), Ok(state));
    }
}
