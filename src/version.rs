//! What a build of Tarpon is, for `tarpon --version` and the UCI `id name`: the release,
//! the commit it was built from, the processors it runs on, and the network it embeds.
//! A binary copied to another machine, or a result someone reports, then says which
//! engine it is. `build.rs` finds the parts out when building.

use crate::eval::nnue::shape::{HIDDEN, KING_BUCKETS};
use std::sync::OnceLock;

/// The release (`Cargo.toml`'s version).
pub const RELEASE: &str = env!("CARGO_PKG_VERSION");
/// The commit's short hash, `-dirty` when tracked files had changes, or `unknown` when
/// built outside a git work tree (from a source archive).
pub const COMMIT: &str = env!("TARPON_COMMIT");
/// The x86-64 level the build needs (`x86-64`, `x86-64-v2`, `-v3`, `-v4`; a native build
/// reports the level of the machine it was built on), or the architecture on others.
pub const CPU_LEVEL: &str = env!("TARPON_CPU_LEVEL");
/// The embedded network's SHA-256, in hex: what `sha256sum` prints for its file.
pub const NET_SHA256: &str = env!("TARPON_NET_SHA256");

/// The first digits of a network's SHA-256 that name it (as many as Stockfish's `nn-`
/// file names have): unique among any networks one compares.
const NET_ID_DIGITS: usize = 12;

/// The one-line description, as in `id name`:
/// `0.1.0 (a1b2c3d, x86-64-v3, net dc995cf7c43a)`.
pub fn version() -> &'static str {
    static LINE: OnceLock<String> = OnceLock::new();
    LINE.get_or_init(|| {
        format!(
            "{RELEASE} ({COMMIT}, {CPU_LEVEL}, net {})",
            &NET_SHA256[..NET_ID_DIGITS]
        )
    })
}

/// [`version`], then a line for each part with what it means (`tarpon --version`).
pub fn details() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let commit = if COMMIT == "unknown" {
            "unknown (not built in a git work tree)".to_string()
        } else if COMMIT.ends_with("-dirty") {
            format!("{COMMIT} (with changes not committed)")
        } else {
            COMMIT.to_string()
        };
        // Whether the binary runs on another machine depends on what it was built for.
        let cpu = match env!("TARPON_TARGET_CPU") {
            "" => CPU_LEVEL.to_string(),
            "native" => {
                format!("{CPU_LEVEL}, and whatever else the build machine has (target-cpu=native)")
            }
            given => format!("{CPU_LEVEL} (target-cpu={given})"),
        };
        // A profile-guided build (scripts/pgo.sh) is faster; it searches the same tree.
        let cpu = if env!("TARPON_PGO").is_empty() {
            cpu
        } else {
            format!("{cpu}; profile-guided")
        };
        // Slider lookups by `pext` where the processor has a fast one (src/chess/attacks.rs):
        // the same moves, found faster.
        let cpu = if crate::chess::attacks::USE_PEXT {
            format!("{cpu}; sliders by pext")
        } else {
            cpu
        };
        let buckets = match KING_BUCKETS {
            1 => "no king buckets".to_string(),
            n => format!("{n} king buckets"),
        };
        format!(
            "{}\ncommit:  {commit}\ncpu:     {cpu}\nnetwork: {} ({HIDDEN} hidden neurons, \
             {buckets})\n         sha256 {NET_SHA256}",
            version(),
            env!("TARPON_NET_FILE"),
        )
    })
}
