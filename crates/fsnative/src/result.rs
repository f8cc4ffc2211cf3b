//! Result types of [`grep`](crate::Sandbox::grep), [`glob`](crate::Sandbox::glob) and
//! [`find`](crate::Sandbox::find).
//!
//! They serialize (serde) to the shape the shared conformance vectors compare and the
//! bindings expose. Paths that are valid UTF-8 serialize as strings; others as
//! `{"bytes": "<base64>"}`, as `rg --json` does, so that no name is silently rewritten.

use std::path::{Path, PathBuf};

use serde::{Serialize, Serializer};

use crate::request::OutputMode;

/// Why a result stopped early. A truncated result always carries a cursor (grep) or a
/// total (glob) so the caller knows what is missing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Truncation {
    /// The `limit` was reached and more results exist.
    Limit,
    /// The `timeout_ms` deadline passed.
    Timeout,
    /// The search was cancelled through its [`CancelToken`](crate::CancelToken).
    Cancelled,
}

/// One line of context around a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ContextLine {
    /// 1-based line number.
    pub line_number: u64,
    /// Byte offset of the line's start in the file.
    pub byte_offset: u64,
    /// The line without its terminator, decoded lossily as UTF-8, cut at `max_columns`.
    pub text: String,
    /// The line was longer than `max_columns` and `text` holds only its beginning.
    pub truncated: bool,
    /// The line is the file's last and has no terminator (`rg --json` shows that).
    #[serde(skip)]
    pub(crate) unterminated: bool,
    /// In an inverted search, where the pattern matches in this line (`rg --json` lists
    /// those); empty otherwise.
    #[serde(skip)]
    pub(crate) submatches: Vec<[usize; 2]>,
    /// The line as read, when it is not valid UTF-8 (the renderers print it as ripgrep does).
    #[serde(skip)]
    pub(crate) raw: Option<Box<RawText>>,
}

/// A line's bytes as read, kept beside its lossy `text` when they are not valid UTF-8 (and
/// the line was not cut), so that the renderers can print them as ripgrep does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RawText {
    /// The bytes, without the final terminator.
    pub bytes: Vec<u8>,
    /// The submatch ranges within `bytes`.
    pub submatches: Vec<[usize; 2]>,
}

/// One matching line (or, in multiline mode, one group of lines matched together).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Match {
    /// 1-based number of the (first) line.
    pub line_number: u64,
    /// 1-based byte column of the first submatch (1 when inverted).
    pub column: u64,
    /// Byte offset of the line's start in the file.
    pub byte_offset: u64,
    /// The line(s) without the final terminator, decoded lossily as UTF-8, cut at
    /// `max_columns`.
    pub text: String,
    /// The text was longer than `max_columns` and `text` holds only its beginning.
    pub truncated: bool,
    /// The text is the file's last line and has no terminator (`rg --json` shows that).
    #[serde(skip)]
    pub(crate) unterminated: bool,
    /// `[start, end)` byte ranges of each match within `text` (all of them, also those past
    /// a cut; none when inverted). In multiline mode a match may take in the record's final
    /// line terminator, which `text` leaves out: its `end` is then `text.len() + 1`. So does
    /// a match that runs on past the record, where `max_count_per_file` stopped the search.
    pub submatches: Vec<[usize; 2]>,
    /// The text as read, when it is not valid UTF-8 (the renderers print it as ripgrep does).
    #[serde(skip)]
    pub(crate) raw: Option<Box<RawText>>,
    /// With `section_end_patterns`: the number of the first line after this match that
    /// matches one of them; `None` when no later line does (the section runs to the end of
    /// the file) or when no such patterns were given.
    pub section_end: Option<u64>,
    /// Context lines just before this match.
    pub before: Vec<ContextLine>,
    /// Context lines just after this match.
    pub after: Vec<ContextLine>,
    /// The file's search stopped at a NUL byte on the first line of the next group, past a
    /// gap: ripgrep had already printed that group's `--` separator, and the standard
    /// renderer prints it too, before the binary warning.
    #[serde(skip)]
    pub(crate) break_after: bool,
}

/// All that one file contributed to a grep.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileMatches {
    /// Absolute path: the canonical root joined with the walked relative path (a followed
    /// symlink keeps its own name).
    #[serde(serialize_with = "serialize_path")]
    pub path: PathBuf,
    /// Path relative to the sandbox root it lies in (`/`-separated; empty for the root).
    #[serde(serialize_with = "serialize_relative_path")]
    pub relative_path: PathBuf,
    /// Matching lines in this page: `matches.len()` in content mode, the count in count
    /// mode, 1 in files mode (the search of a file stops at its first match).
    pub count: u64,
    /// The matches, in content mode; empty otherwise.
    pub matches: Vec<Match>,
    /// Bytes the searcher read from this file (ripgrep's per-file `bytes_searched`).
    pub bytes_searched: u64,
    /// Set when the search of this file stopped at a NUL byte after it had found matches:
    /// the offset ripgrep reports for it (`binary_offset` in `rg --json`; a "stopped
    /// searching binary file after match" warning in its standard output). The matches are
    /// those before it. ripgrep reads a file in 64 KiB blocks and gives up on the whole
    /// block in which it meets the NUL, and so does this search.
    pub binary_offset: Option<u64>,
}

/// Counters of what a grep did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GrepStats {
    /// Files the walk yielded as candidates (after ignore, glob and type filters).
    pub files_walked: u64,
    /// Files opened and searched.
    pub files_searched: u64,
    /// Files with at least one match.
    pub files_matched: u64,
    /// Files given up on at a NUL byte with nothing to report: the NUL lay in the first block
    /// read, or (count and files modes) anywhere before the search ended. See `search_binary`
    /// and [`FileMatches::binary_offset`].
    pub skipped_binary: u64,
    /// Entries skipped because they are FIFOs, sockets or devices, or (grep) cloud
    /// placeholders whose contents are not on this machine (macOS: reading one downloads it).
    pub skipped_special: u64,
    /// Symlinks not followed because their target resolves outside the sandbox.
    pub skipped_outside: u64,
    /// Files or directories that could not be read (permissions, vanished, loops).
    pub skipped_errors: u64,
    /// Bytes read by the searcher.
    pub bytes_searched: u64,
    /// Wall-clock time of the call in milliseconds.
    pub elapsed_ms: f64,
}

/// The answer to a [`GrepRequest`](crate::GrepRequest).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GrepResult {
    /// Files with matches, in the requested order.
    pub files: Vec<FileMatches>,
    /// Sum of `count` over `files`.
    pub total_matches: u64,
    /// Set when the page stopped early; `next_cursor` then continues it.
    pub truncated: Option<Truncation>,
    /// Pass back as `cursor` with the same request to get the next page.
    pub next_cursor: Option<String>,
    /// The mode the search ran in (the renderers follow it).
    pub mode: OutputMode,
    /// Context lines were requested (ripgrep then separates groups with `--`).
    pub context_enabled: bool,
    /// True when the scope was exactly one regular file (ripgrep then prints no path
    /// prefix in its standard output).
    pub single_file: bool,
    /// What the search did.
    pub stats: GrepStats,
}

/// One entry yielded by a glob.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GlobEntry {
    /// Absolute path: the canonical base joined with `relative_path` (a symlink keeps its
    /// own name).
    #[serde(serialize_with = "serialize_path")]
    pub path: PathBuf,
    /// Path relative to the base directory it was matched from (`/`-separated).
    #[serde(serialize_with = "serialize_relative_path")]
    pub relative_path: PathBuf,
    /// The entry is a directory.
    pub is_dir: bool,
}

/// Counters of what a glob did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct GlobStats {
    /// Entries the walk visited.
    pub entries_walked: u64,
    /// Entries skipped because they are FIFOs, sockets or devices, or matched entries that are
    /// cloud placeholders, listed all the same (a grep would not read them; macOS and Windows
    /// tell them while listing: docs/platforms.md).
    pub skipped_special: u64,
    /// Symlinks not followed because their target resolves outside the sandbox.
    pub skipped_outside: u64,
    /// Directories that could not be read.
    pub skipped_errors: u64,
    /// Wall-clock time of the call in milliseconds.
    pub elapsed_ms: f64,
}

/// The answer to a [`GlobRequest`](crate::GlobRequest).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GlobResult {
    /// Matching entries, in the requested order, at most `limit`.
    pub entries: Vec<GlobEntry>,
    /// How many entries matched in all, also past the limit.
    pub total: u64,
    /// Set when `entries` holds fewer than `total` (limit) or the walk stopped early.
    pub truncated: Option<Truncation>,
    /// What the walk did.
    pub stats: GlobStats,
}

/// One file found by a fuzzy [`find`](crate::Sandbox::find), with its score and the parts the
/// score adds up from.
///
/// `score` is the sum of the additive parts: the match's (`fuzzy`, `filename_bonus`,
/// `exact_bonus`) and the sandbox's ranking signals (`path_boost`, `frecency`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct FindEntry {
    /// Absolute path: the canonical base joined with `relative_path` (a symlink keeps its
    /// own name).
    #[serde(serialize_with = "serialize_path")]
    pub path: PathBuf,
    /// Path relative to the directory searched (`/`-separated): what the query was matched
    /// against.
    #[serde(serialize_with = "serialize_relative_path")]
    pub relative_path: PathBuf,
    /// The rank: the sum of the parts below. Higher is better.
    pub score: i64,
    /// The fuzzy match of the query on the relative path (Smith-Waterman, typos allowed);
    /// the sum over the query's parts.
    pub fuzzy: i64,
    /// The query (after its last `/`) matched inside the file name, rather than in the
    /// directories: up to a sixth of `fuzzy`, at most 30.
    pub filename_bonus: i64,
    /// The query (after its last `/`) is the file name (two fifths of `fuzzy`) or the name
    /// without its extension (a quarter), ignoring case.
    pub exact_bonus: i64,
    /// The thesaurus concepts the path (relative to its root) mentions, times the weight,
    /// capped (Sandbox options `thesaurus`, `boost_weight`, `max_boost`); 0 without one.
    pub path_boost: i64,
    /// The file's frecency (Sandbox option `frecency`) in points:
    /// [`FRECENCY_POINTS`](crate::FRECENCY_POINTS) per unit, rounded; 0 without a database.
    pub frecency: i64,
    /// Query characters the best alignment left unmatched or matched to another character
    /// (0 for a clean fuzzy match).
    pub typos: u32,
}

/// Counters of what a find did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[non_exhaustive]
pub struct FindStats {
    /// Files the query was matched against (after `path` and constraints).
    pub candidates: u64,
    /// The candidates came from the warm index (else from a walk).
    pub indexed: bool,
    /// Wall-clock time of the call in milliseconds.
    pub elapsed_ms: f64,
}

/// The answer to a [`FindRequest`](crate::FindRequest).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[non_exhaustive]
pub struct FindResult {
    /// The best matches, best first, at most `limit`; ties go to the shorter relative path,
    /// then to path order.
    pub entries: Vec<FindEntry>,
    /// How many files matched in all, also past the limit.
    pub total: u64,
    /// Set when `entries` holds fewer than `total` (limit) or the search stopped early.
    pub truncated: Option<Truncation>,
    /// What the search did.
    pub stats: FindStats,
}

/// `relative` with `/` between its names on every OS (Windows' `\` becomes `/`), as every
/// result's `relative_path` is spelled, in Rust and in each binding alike.
pub(crate) fn slashed_relative(relative: PathBuf) -> PathBuf {
    match crate::sys::slashed(relative.as_os_str().as_encoded_bytes()) {
        std::borrow::Cow::Borrowed(_) => relative,
        std::borrow::Cow::Owned(bytes) => crate::sys::path_buf(bytes),
    }
}

/// Serializes a path below a root as [`serialize_path`] does, `/`-separated on every OS.
pub(crate) fn serialize_relative_path<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    let bytes = crate::sys::slashed(path.as_os_str().as_encoded_bytes());
    serialize_path(&crate::sys::path_buf(bytes.into_owned()), s)
}

/// Serializes a path as a string when it is UTF-8, else as `{"bytes": base64}`.
pub(crate) fn serialize_path<S: Serializer>(path: &Path, s: S) -> Result<S::Ok, S::Error> {
    use base64::Engine as _;
    use serde::ser::SerializeMap;
    match path.to_str() {
        Some(text) => s.serialize_str(text),
        None => {
            let encoded =
                base64::engine::general_purpose::STANDARD.encode(path.as_os_str().as_encoded_bytes());
            let mut map = s.serialize_map(Some(1))?;
            map.serialize_entry("bytes", &encoded)?;
            map.end()
        }
    }
}
