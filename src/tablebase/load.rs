//! Finding the table files named by `SyzygyPath` and checking them before use.
//!
//! Bad input must not stop the engine: a directory that does not exist or holds no tables,
//! a file cut short or not a table at all is reported (each report becomes an `info
//! string`) and left out; the rest is used. The checks, cheapest first:
//! 1. the name is a material (`KQvKR.rtbw`) and the size is what every table has (a
//!    multiple of 64 bytes plus a 16-byte checksum: most truncations break it);
//! 2. the first four bytes are the Syzygy magic number of the file's kind;
//! 3. each table is opened by probing one position of its material, which reads its
//!    header and one block of data. A failure there drops the table.
//!
//! Step 3 also means that tables are already open when the search starts, so a probe in
//! the search never opens one (opening allocates).

use super::convert::{MaterialKey, material_key_of_name, piece_count_of_name};
use super::{MAX_PIECES, Tablebases};
use shakmaty::{CastlingMode, Chess, Color, FromSetup, Piece, Position, Role, Setup, Square};
use shakmaty_syzygy::{Metric, SyzygyError, Tablebase, Wdl};
use std::collections::HashSet;
use std::ffi::OsStr;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

const WDL_MAGIC: [u8; 4] = [0x71, 0xe8, 0x23, 0x5d];
const DTZ_MAGIC: [u8; 4] = [0xd7, 0x66, 0x0c, 0xa5];

/// Random placements tried to find a position that opens a table (one without captures,
/// so that only this table is read; for DTZ also a decided one). A few tries suffice
/// almost always; the limit only bounds the work for materials that are all draws.
const OPENING_ATTEMPTS: usize = 400;

/// The separator between directories in `SyzygyPath`: `;` on Windows (where `:` follows
/// the drive letter), `:` elsewhere, as in Stockfish.
pub const fn path_separator() -> char {
    if cfg!(windows) { ';' } else { ':' }
}

/// One table file that passed the name, size and magic checks.
#[derive(Clone, Debug)]
struct TableFile {
    path: PathBuf,
    /// The file name without extension, e.g. `KRPvKR`.
    name: String,
    key: MaterialKey,
    wdl: bool,
}

/// Loads the tables in the directories of `paths` (separated by [`path_separator`]).
/// Returns them (`None` when nothing usable was found) and the lines to report.
/// A directory's name need not be UTF-8 (the file system takes its bytes as they are).
pub fn load(paths: impl AsRef<OsStr>) -> (Option<Tablebases>, Vec<String>) {
    let mut notes = Vec::new();
    // `split_paths` splits at `path_separator()`, on the bytes: a name that is not UTF-8
    // stays whole. The spaces around a UTF-8 name are not part of it.
    let dirs: Vec<PathBuf> = std::env::split_paths(paths.as_ref())
        .map(|d| match d.to_str() {
            Some(text) => PathBuf::from(text.trim()),
            None => d,
        })
        .filter(|d| !d.as_os_str().is_empty() && d.as_os_str() != "<empty>")
        .collect();
    if dirs.is_empty() {
        notes.push("Syzygy tablebases off (SyzygyPath is empty)".to_string());
        return (None, notes);
    }
    let mut files = Vec::new();
    for dir in dirs {
        scan_dir(&dir, &mut files, &mut notes);
    }
    let Some(tables) = build(files, &mut notes) else {
        notes.push("Syzygy: no usable tables; tablebases off".to_string());
        return (None, notes);
    };
    let dtz = tables.files.iter().filter(|f| !f.wdl).count();
    let tables = tables.into_tablebases();
    notes.push(format!(
        "Syzygy: {} WDL and {dtz} DTZ tables, up to {} pieces",
        tables.wdl_count(),
        tables.max_pieces()
    ));
    (Some(tables), notes)
}

/// Adds the table files of `dir` that pass the cheap checks; notes the others and a
/// directory that cannot be read or has no tables. A material already found in an
/// earlier directory is not added again.
fn scan_dir(dir: &Path, files: &mut Vec<TableFile>, notes: &mut Vec<String>) {
    let shown = dir.display();
    let entries = match fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) => return notes.push(format!("Syzygy: cannot read directory '{shown}': {e}")),
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let mut found = 0;
    for path in paths {
        let Some(file) = table_file(&path) else {
            continue;
        };
        found += 1;
        if files.iter().any(|f| f.key == file.key && f.wdl == file.wdl) {
            continue;
        }
        match check_file(&path, file.wdl) {
            Ok(()) => files.push(file),
            Err(problem) => notes.push(format!("Syzygy: {}: {problem}; left out", path.display())),
        }
    }
    if found == 0 {
        notes.push(format!(
            "Syzygy: no table files (.rtbw, .rtbz) in '{shown}'"
        ));
    }
}

/// The table a file name stands for, if it is one (`KQvKR.rtbw` or `.rtbz`).
fn table_file(path: &Path) -> Option<TableFile> {
    let wdl = match path.extension()?.to_str()? {
        "rtbw" => true,
        "rtbz" => false,
        _ => return None,
    };
    let name = path.file_stem()?.to_str()?.to_string();
    let key = material_key_of_name(&name)?;
    (piece_count_of_name(&name) <= MAX_PIECES).then(|| TableFile {
        path: path.to_path_buf(),
        name,
        key,
        wdl,
    })
}

/// The size and magic-number checks.
fn check_file(path: &Path, wdl: bool) -> Result<(), String> {
    let size = fs::metadata(path).map_err(|e| e.to_string())?.len();
    if size % 64 != 16 {
        return Err(format!(
            "size {size} bytes is not that of a Syzygy table (truncated?)"
        ));
    }
    let mut magic = [0; 4];
    fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .map_err(|e| e.to_string())?;
    let expected = if wdl { WDL_MAGIC } else { DTZ_MAGIC };
    if magic != expected {
        return Err("not a Syzygy table (wrong magic bytes)".to_string());
    }
    Ok(())
}

/// The tables being assembled, before they are handed to the search.
struct Assembled {
    tables: Tablebase<Chess>,
    files: Vec<TableFile>,
}

impl Assembled {
    fn into_tablebases(self) -> Tablebases {
        let wdl: Vec<&TableFile> = self.files.iter().filter(|f| f.wdl).collect();
        let mut wdl_materials: Vec<MaterialKey> = wdl.iter().map(|f| f.key).collect();
        wdl_materials.sort_unstable();
        let max_pieces = wdl
            .iter()
            .map(|f| piece_count_of_name(&f.name))
            .max()
            .unwrap_or(0);
        Tablebases {
            tables: self.tables,
            wdl_materials,
            max_pieces,
            reported: Mutex::new(Vec::new()),
        }
    }
}

/// Builds the prober from `files` and opens every table; a table that fails to open is
/// noted and the prober rebuilt without it (the prober cannot drop a table).
fn build(mut files: Vec<TableFile>, notes: &mut Vec<String>) -> Option<Assembled> {
    loop {
        // Positioned reads through the OS, no memory maps: see the module `tablebase`.
        let mut tables = Tablebase::new();
        files.retain(|f| match tables.add_file(&f.path) {
            Ok(()) => true,
            Err(e) => {
                notes.push(format!("Syzygy: {}: {e}; left out", f.path.display()));
                false
            }
        });
        if !files.iter().any(|f| f.wdl) {
            return None;
        }
        match open_all(&tables, &files) {
            Ok(()) => return Some(Assembled { tables, files }),
            Err((bad, problem)) => {
                notes.push(format!(
                    "Syzygy: {}: {problem}; left out",
                    files[bad].path.display()
                ));
                files.remove(bad);
            }
        }
    }
}

/// Opens the tables of every material by probing one of its positions. On a failure,
/// the index of the bad file in `files` and what is wrong.
fn open_all(tables: &Tablebase<Chess>, files: &[TableFile]) -> Result<(), (usize, String)> {
    let with_dtz: HashSet<MaterialKey> = files.iter().filter(|f| !f.wdl).map(|f| f.key).collect();
    for file in files.iter().filter(|f| f.wdl) {
        open_material(tables, &file.name, with_dtz.contains(&file.key)).map_err(|e| {
            let culprit = culprit(files, &e).unwrap_or(file);
            let index = files
                .iter()
                .position(|f| f.path == culprit.path)
                .unwrap_or(0);
            (index, describe(&e))
        })?;
    }
    Ok(())
}

/// The file a prober error names, if it is one of ours.
fn culprit<'a>(files: &'a [TableFile], e: &SyzygyError) -> Option<&'a TableFile> {
    let SyzygyError::ProbeFailed {
        metric, material, ..
    } = e
    else {
        return None;
    };
    let key = material_key_of_name(&material.to_string())?;
    let wdl = *metric == Metric::Wdl;
    files.iter().find(|f| f.key == key && f.wdl == wdl)
}

fn describe(e: &SyzygyError) -> String {
    match e {
        SyzygyError::ProbeFailed { error, .. } => match error.as_ref() {
            shakmaty_syzygy::ProbeError::Read { error } => format!("read error ({error})"),
            shakmaty_syzygy::ProbeError::Magic { .. } => "wrong magic bytes".to_string(),
            shakmaty_syzygy::ProbeError::CorruptedTable { .. } => {
                "corrupt or truncated table".to_string()
            }
        },
        other => other.to_string(),
    }
}

/// Probes positions of the material `name` until its WDL table (and DTZ table, if
/// `dtz`, which needs a decided position) has been read. Only a read failure is an error:
/// a position that needs some other, missing table is simply skipped.
fn open_material(tables: &Tablebase<Chess>, name: &str, dtz: bool) -> Result<(), SyzygyError> {
    // Any fixed non-zero seed will do; mixing in the name varies the tries per material.
    let mut rng = name.bytes().fold(0x2545_F491_4F6C_DD1D_u64, |h, b| {
        h.rotate_left(5) ^ u64::from(b)
    });
    let (mut wdl_open, mut dtz_open) = (false, !dtz);
    for _ in 0..OPENING_ATTEMPTS {
        if wdl_open && dtz_open {
            break;
        }
        let Some(pos) = quiet_position(name, &mut rng) else {
            continue;
        };
        match tables.probe_wdl_after_zeroing(&pos) {
            Ok(wdl) => {
                wdl_open = true;
                if !dtz_open && wdl != Wdl::Draw {
                    dtz_open = ok_unless_broken(tables.probe_dtz(&pos))?;
                }
            }
            Err(e @ SyzygyError::ProbeFailed { .. }) => return Err(e),
            Err(_) => {}
        }
    }
    Ok(())
}

/// `Ok(true)` for a successful probe, `Ok(false)` for one that needed a missing table.
fn ok_unless_broken<T>(result: Result<T, SyzygyError>) -> Result<bool, SyzygyError> {
    match result {
        Ok(_) => Ok(true),
        Err(e @ SyzygyError::ProbeFailed { .. }) => Err(e),
        Err(_) => Ok(false),
    }
}

/// A random legal position of the material `name` (the first side White, White to move)
/// in which no capture is possible and no pawn can promote: probing it reads this
/// material's tables only. `None` when the placement drawn is not such a position.
fn quiet_position(name: &str, rng: &mut u64) -> Option<Chess> {
    let (white, black) = name.split_once('v')?;
    let mut setup = Setup::empty();
    for (side, color) in [(white, Color::White), (black, Color::Black)] {
        for c in side.chars() {
            let role = Role::from_char(c)?;
            let square = random_square(&setup, role, color, rng)?;
            setup.board.set_piece_at(square, Piece { color, role });
        }
    }
    let pos = Chess::from_setup(setup, CastlingMode::Standard).ok()?;
    pos.capture_moves().is_empty().then_some(pos)
}

/// A random empty square for the piece; pawns stay off the back ranks and off the rank
/// before promotion.
fn random_square(setup: &Setup, role: Role, color: Color, rng: &mut u64) -> Option<Square> {
    for _ in 0..64 {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let square = Square::try_from(*rng % 64).ok()?;
        let rank = square.rank().to_u32();
        let pawn_ok = match color {
            Color::White => (1..=5).contains(&rank),
            Color::Black => (2..=6).contains(&rank),
        };
        if setup.board.piece_at(square).is_none() && (role != Role::Pawn || pawn_ok) {
            return Some(square);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_positions_have_the_material_and_no_captures() {
        let mut rng = 7;
        let mut found = 0;
        for _ in 0..200 {
            if let Some(pos) = quiet_position("KRPvKR", &mut rng) {
                assert_eq!(pos.board().occupied().count(), 5);
                assert!(pos.capture_moves().is_empty());
                found += 1;
            }
        }
        assert!(found > 10, "only {found} of 200 placements usable");
    }

    #[test]
    fn empty_paths_turn_tablebases_off() {
        for paths in ["", "  ", "<empty>"] {
            let (tables, notes) = load(paths);
            assert!(tables.is_none());
            assert!(notes[0].contains("off"), "{notes:?}");
        }
    }

    #[test]
    fn a_missing_directory_is_reported() {
        let (tables, notes) = load("/no/such/directory/anywhere");
        assert!(tables.is_none());
        assert!(
            notes
                .iter()
                .any(|n| n.contains("/no/such/directory/anywhere")),
            "{notes:?}"
        );
    }
}
