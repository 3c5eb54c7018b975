//! Build script: chooses the network file the engine embeds, and checks its header; and
//! describes the build for `tarpon --version` and the UCI `id name` (`src/version.rs`).
//!
//! The engine is written for one network shape, the constants of `src/eval/nnue/shape.rs`
//! (the hidden width its vector loops are compiled for, the king buckets, the outputs).
//! The build embeds `nets/default.nnue`, or the file the environment variable `TARPON_NET`
//! names (absolute, or relative to the repository root), which is how a candidate network
//! is played without committing it:
//!
//! ```text
//! TARPON_NET=/path/candidate.nnue cargo build --release --target-dir target/candidate
//! ```
//!
//! and checks here that the file's header is that shape. A file that cannot be embedded
//! (missing, not a network, a format this source does not read, another shape than
//! `shape.rs` declares) stops the build with a message that names the file and the
//! difference; a network of another shape is embedded by changing `shape.rs` to match.
//!
//! A binary copied to another machine, or a bench figure from someone else, is only useful
//! when it says what it is, so the build also sets, for `src/version.rs`:
//!
//! - `TARPON_COMMIT`: the commit (`git rev-parse --short HEAD`), `-dirty` when tracked files
//!   differ from it, `unknown` outside a git work tree (a source archive).
//! - `TARPON_CPU_LEVEL`: the x86-64 level the compiler was allowed to assume (from the target
//!   features it enables, so `-C target-cpu=native` reports the level it resolves to), or
//!   the architecture elsewhere; `TARPON_TARGET_CPU`, the `target-cpu` it was given; and
//!   `TARPON_PGO`, `yes` for a profile-guided build (`scripts/pgo.sh`).
//! - `TARPON_NET_FILE` and `TARPON_NET_SHA256`: the embedded network's file name and SHA-256
//!   (what `sha256sum` prints for the file, so a network can be matched to a binary).

use std::path::{Path, PathBuf};
use std::process::Command;

/// What every network file starts with (`format::MAGIC`).
const MAGIC: &[u8; 8] = b"TARPNNUE";
/// The format versions `format.rs` reads.
const VERSIONS: [u32; 2] = [2, 3];
/// The hidden width must be a whole number of the widest vector registers (AVX-512: 32
/// `i16` lanes), since the kernels step through it a register at a time.
const LANE_MULTIPLE: usize = 32;
/// The widest hidden layer the engine is built for (the trainer's limit too).
const MAX_HIDDEN: usize = 4096;
/// Flag bit of a mirrored network (`format.rs`).
const FLAG_MIRRORED: u32 = 1;

/// The shape the engine is written for: the very file the engine compiles.
#[allow(dead_code)]
mod shape {
    include!("src/eval/nnue/shape.rs");
}

fn main() {
    println!("cargo:rerun-if-env-changed=TARPON_NET");
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let path = match std::env::var_os("TARPON_NET") {
        Some(path) if !path.is_empty() => root.join(path),
        _ => root.join("nets").join("default.nnue"),
    };
    println!("cargo:rerun-if-changed={}", path.display());
    println!("cargo:rerun-if-changed=src/eval/nnue/shape.rs");
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
    let file = path.file_name().unwrap_or_default().to_string_lossy();
    println!("cargo:rustc-env=TARPON_NET_FILE={file}");
    let digest: String = sha256(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    println!("cargo:rustc-env=TARPON_NET_SHA256={digest}");
    let commit = commit(&root).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=TARPON_COMMIT={commit}");
    println!("cargo:rustc-env=TARPON_CPU_LEVEL={}", cpu_level());
    println!(
        "cargo:rustc-env=TARPON_TARGET_CPU={}",
        codegen_option("target-cpu")
    );
    let pgo = !codegen_option("profile-use").is_empty();
    println!(
        "cargo:rustc-env=TARPON_PGO={}",
        if pgo { "yes" } else { "" }
    );
}

/// Whether the header of the network to embed is the shape of `shape.rs`; `format.rs`
/// checks everything else when the engine loads the file.
fn check_header(bytes: &[u8]) -> Result<(), String> {
    if shape::HIDDEN == 0
        || shape::HIDDEN > MAX_HIDDEN
        || !shape::HIDDEN.is_multiple_of(LANE_MULTIPLE)
    {
        return Err(format!(
            "src/eval/nnue/shape.rs says HIDDEN = {}; the engine needs a multiple of {LANE_MULTIPLE} up to {MAX_HIDDEN}",
            shape::HIDDEN
        ));
    }
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
    if version >= 3 && bytes.len() < 92 {
        return Err("the file ends inside its header".into());
    }
    // A version 2 file has one bucket, not mirrored.
    let (buckets, mirrored, map) = if version >= 3 {
        let map: [u8; 64] = bytes[28..92].try_into().unwrap();
        (u32_at(20) as usize, u32_at(24) & FLAG_MIRRORED != 0, map)
    } else {
        (1, false, [0; 64])
    };
    let file = [
        ("HIDDEN", u32_at(12).to_string(), shape::HIDDEN.to_string()),
        (
            "OUTPUT_BUCKETS",
            u32_at(16).to_string(),
            shape::OUTPUT_BUCKETS.to_string(),
        ),
        (
            "KING_BUCKETS",
            buckets.to_string(),
            shape::KING_BUCKETS.to_string(),
        ),
        (
            "KING_MIRRORED",
            mirrored.to_string(),
            shape::KING_MIRRORED.to_string(),
        ),
        (
            "KING_BUCKET_MAP",
            format!("{map:?}"),
            format!("{:?}", shape::KING_BUCKET_MAP),
        ),
    ];
    let differences: Vec<String> = file
        .iter()
        .filter(|(_, in_file, in_code)| in_file != in_code)
        .map(|(name, in_file, in_code)| {
            format!("{name} is {in_file} in the file, {in_code} in shape.rs")
        })
        .collect();
    if !differences.is_empty() {
        return Err(format!(
            "its shape is not the one src/eval/nnue/shape.rs declares ({}); change shape.rs to embed it",
            differences.join("; ")
        ));
    }
    Ok(())
}

/// The short hash of the checked-out commit, with `-dirty` if tracked files were changed;
/// `None` when `root` is not the top of a git work tree (or git is missing).
fn commit(root: &Path) -> Option<String> {
    let git = |args: &[&str]| {
        // No optional locks: `status` would otherwise refresh the index, and a build that
        // writes to the repository could race the person working in it.
        let out = Command::new("git")
            .arg("--no-optional-locks")
            .arg("-C")
            .arg(root)
            .args(args)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        out.status.success().then(|| text.trim().to_string())
    };
    // A source archive unpacked inside some other repository must not report its commit.
    let top = git(&["rev-parse", "--show-toplevel"])?;
    if std::fs::canonicalize(top).ok()? != std::fs::canonicalize(root).ok()? {
        return None;
    }
    let hash = git(&["rev-parse", "--short", "HEAD"])?;
    // Build again when the commit changes: HEAD names a branch (or a commit), whose ref is
    // a file of its own or a line of packed-refs. `--git-path` finds them in a linked work
    // tree too. Only files that exist are named: cargo reruns on every build for a missing one.
    let mut watched = vec!["HEAD".to_string(), "packed-refs".to_string()];
    watched.extend(git(&["symbolic-ref", "-q", "HEAD"]));
    for name in watched {
        if let Some(file) = git(&["rev-parse", "--git-path", &name]).map(|p| root.join(p))
            && file.is_file()
        {
            println!("cargo:rerun-if-changed={}", file.display());
        }
    }
    // And when the sources change, which can make the work tree dirty or clean again
    // (cargo checks a folder's files); changes elsewhere (the documentation) do not
    // rebuild the binary, which keeps the marker it had.
    for source in ["src", "Cargo.toml", "Cargo.lock", ".cargo"] {
        if root.join(source).exists() {
            println!("cargo:rerun-if-changed={}", root.join(source).display());
        }
    }
    let changes = git(&["status", "--porcelain", "--untracked-files=no"])?;
    Some(if changes.is_empty() {
        hash
    } else {
        format!("{hash}-dirty")
    })
}

/// The x86-64 microarchitecture level (the psABI's) whose instructions the compiler may
/// use, from the target features it enables; the architecture's name on other processors.
fn cpu_level() -> String {
    let arch = std::env::var("CARGO_CFG_TARGET_ARCH").unwrap_or_default();
    if arch != "x86_64" {
        return arch;
    }
    let features = std::env::var("CARGO_CFG_TARGET_FEATURE").unwrap_or_default();
    let enabled: Vec<&str> = features.split(',').collect();
    let has_all = |level: &[&str]| level.iter().all(|f| enabled.contains(f));
    // Each level's features that rustc reports (v2 also has LAHF/SAHF, which it does not).
    const V2: [&str; 6] = ["cmpxchg16b", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3"];
    const V3: [&str; 9] = [
        "avx", "avx2", "bmi1", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave",
    ];
    const V4: [&str; 5] = ["avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"];
    let level = match (has_all(&V2), has_all(&V3), has_all(&V4)) {
        (true, true, true) => "x86-64-v4",
        (true, true, false) => "x86-64-v3",
        (true, false, _) => "x86-64-v2",
        (false, _, _) => "x86-64",
    };
    level.into()
}

/// The value of the codegen option `name` (`-C name=value`) the compiler was given (the
/// last one wins, as in rustc), or "": `target-cpu`, or `profile-use` (a profile-guided
/// build, `scripts/pgo.sh`).
fn codegen_option(name: &str) -> String {
    let flags = std::env::var("CARGO_ENCODED_RUSTFLAGS").unwrap_or_default();
    let flags: Vec<&str> = flags.split('\x1f').collect();
    let mut found = "";
    for (i, flag) in flags.iter().enumerate() {
        let codegen = match *flag {
            "-C" | "--codegen" => flags.get(i + 1).copied().unwrap_or_default(),
            _ => flag
                .strip_prefix("-C")
                .or_else(|| flag.strip_prefix("--codegen="))
                .unwrap_or_default(),
        };
        if let Some(value) = codegen
            .strip_prefix(name)
            .and_then(|rest| rest.strip_prefix('='))
        {
            found = value;
        }
    }
    found.into()
}

/// SHA-256 (FIPS 180-4), written out rather than taken from a crate: the build needs it
/// once per build, and a build dependency would be compiled for every build of Tarpon.
fn sha256(data: &[u8]) -> [u8; 32] {
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];
    let mut hash: [u32; 8] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab,
        0x5be0cd19,
    ];
    // The message, a 1 bit, zeros up to 8 bytes short of a whole block, its length in bits.
    let mut message = data.to_vec();
    message.push(0x80);
    message.resize(message.len().next_multiple_of(64), 0);
    if message.len() - data.len() < 9 {
        message.resize(message.len() + 64, 0);
    }
    let length = message.len();
    message[length - 8..].copy_from_slice(&(data.len() as u64 * 8).to_be_bytes());
    for block in message.chunks_exact(64) {
        let mut w = [0u32; 64];
        for (i, word) in block.chunks_exact(4).enumerate() {
            w[i] = u32::from_be_bytes(word.try_into().unwrap());
        }
        for i in 16..64 {
            let s0 = w[i - 15].rotate_right(7) ^ w[i - 15].rotate_right(18) ^ (w[i - 15] >> 3);
            let s1 = w[i - 2].rotate_right(17) ^ w[i - 2].rotate_right(19) ^ (w[i - 2] >> 10);
            w[i] = w[i - 16]
                .wrapping_add(s0)
                .wrapping_add(w[i - 7])
                .wrapping_add(s1);
        }
        let [mut a, mut b, mut c, mut d, mut e, mut f, mut g, mut h] = hash;
        for (k, w) in K.iter().zip(w) {
            let s1 = e.rotate_right(6) ^ e.rotate_right(11) ^ e.rotate_right(25);
            let choice = (e & f) ^ (!e & g);
            let t1 = h
                .wrapping_add(s1)
                .wrapping_add(choice)
                .wrapping_add(*k)
                .wrapping_add(w);
            let s0 = a.rotate_right(2) ^ a.rotate_right(13) ^ a.rotate_right(22);
            let majority = (a & b) ^ (a & c) ^ (b & c);
            let t2 = s0.wrapping_add(majority);
            (h, g, f, e, d, c, b, a) = (g, f, e, d.wrapping_add(t1), c, b, a, t1.wrapping_add(t2));
        }
        for (word, add) in hash.iter_mut().zip([a, b, c, d, e, f, g, h]) {
            *word = word.wrapping_add(add);
        }
    }
    let mut digest = [0u8; 32];
    for (bytes, word) in digest.chunks_exact_mut(4).zip(hash) {
        bytes.copy_from_slice(&word.to_be_bytes());
    }
    digest
}
