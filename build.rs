//! Build script: chooses the network file the engine embeds, and checks its header.
//!
//! The engine's hot loops need the hidden layer's width as a compile-time constant, so the
//! build takes it from the network it embeds (`src/eval/nnue/network.rs` reads the header
//! of the same file in a `const`): `nets/default.nnue`, or the file the environment variable
//! `TARPON_NET` names (absolute, or relative to the repository root), which is how a
//! candidate network of another shape is played without committing it:
//!
//! ```text
//! TARPON_NET=/path/candidate.nnue cargo build --release --target-dir target/candidate
//! ```
//!
//! A file that cannot be embedded (missing, not a network, a format this source does not
//! read, a width the vector kernels cannot take) stops the build here with a message that
//! names it, rather than as an obscure error in a `const` evaluation.

use std::path::PathBuf;

/// What every network file starts with (`network::MAGIC`).
const MAGIC: &[u8; 8] = b"TARPNNUE";
/// The format versions `network.rs` reads.
const VERSIONS: [u32; 2] = [2, 3];
/// The hidden width must be a whole number of the widest vector registers (AVX-512: 32
/// `i16` lanes), since the kernels step through it a register at a time.
const LANE_MULTIPLE: u32 = 32;
/// The widest hidden layer the engine is built for (the trainer's limit too).
const MAX_HIDDEN: u32 = 4096;

fn main() {
    println!("cargo:rerun-if-env-changed=TARPON_NET");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let path = match std::env::var_os("TARPON_NET") {
        Some(path) if !path.is_empty() => root.join(path),
        _ => root.join("nets").join("default.nnue"),
    };
    println!("cargo:rerun-if-changed={}", path.display());
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the network to embed, {} ({e}); set TARPON_NET to a network file",
            path.display()
        )
    });
    if let Err(problem) = check_header(&bytes) {
        panic!("cannot embed {}: {problem}", path.display());
    }
    println!("cargo:rustc-env=TARPON_EMBEDDED_NET={}", path.display());
}

/// The header checks that the `const` reading of the header relies on; `network.rs`
/// checks everything else when the engine loads the file.
fn check_header(bytes: &[u8]) -> Result<(), String> {
    if bytes.len() < 20 || &bytes[..8] != MAGIC {
        return Err("not a Tarpon network (it does not start with TARPNNUE)".into());
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let version = u32_at(8);
    if !VERSIONS.contains(&version) {
        return Err(format!(
            "format version {version}, this source reads {VERSIONS:?}"
        ));
    }
    let hidden = u32_at(12);
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(LANE_MULTIPLE) {
        return Err(format!(
            "{hidden} hidden neurons; the engine needs a multiple of {LANE_MULTIPLE} up to {MAX_HIDDEN}"
        ));
    }
    Ok(())
}
