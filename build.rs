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

use sha2::{Digest, Sha256};
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
    let digest: String = Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
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
    println!("cargo:rustc-check-cfg=cfg(fast_pext)");
    if fast_pext(&codegen_option("target-cpu")) {
        println!("cargo:rustc-cfg=fast_pext");
    }
}

/// Whether the processor the build is for is known to have a fast `pext` (`USE_PEXT` in
/// `src/chess/attacks.rs`): a build for this very processor (`target-cpu=native`) on an
/// Intel one or an AMD one of Zen 3 or later (family 25 and up), or a build for such a Zen
/// by name. AMD's earlier processors with BMI2 (Excavator, Zen 1 and 2, Hygon's Dhyana)
/// run `pext` in microcode, tens of cycles. A build for a level (`x86-64-v3`) may reach any
/// of them, so it is not known there.
fn fast_pext(target_cpu: &str) -> bool {
    match target_cpu {
        "znver3" | "znver4" | "znver5" => true,
        "native" => host_has_fast_pext(),
        _ => false,
    }
}

#[cfg(target_arch = "x86_64")]
fn host_has_fast_pext() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let name: Vec<u8> = [vendor.ebx, vendor.edx, vendor.ecx]
        .iter()
        .flat_map(|r| r.to_le_bytes())
        .collect();
    let signature = __cpuid(1).eax;
    let base_family = (signature >> 8) & 0xf;
    let family = if base_family == 0xf {
        base_family + ((signature >> 20) & 0xff)
    } else {
        base_family
    };
    match &name[..] {
        b"GenuineIntel" => true,
        b"AuthenticAMD" => family >= 0x19,
        _ => false,
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn host_has_fast_pext() -> bool {
    false
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
