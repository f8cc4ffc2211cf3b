//! The results of `Sandbox.grep`, `Sandbox.glob`, `Sandbox.index_status` and
//! `Sandbox.thesaurus_status` (those of `Sandbox.find` are in `find_views`): views over one
//! shared core result.
//!
//! The core's result moves into an `Arc` without a copy; `files`, `matches`, `before`,
//! `after` and `entries` hand out small view objects (the `Arc` and indices), and every field
//! is converted only when it is read. A search with 100k matches therefore costs 100k views
//! at most, and only for the parts a caller walks.
//!
//! Each view class is written once, by [`view!`]: which core record it shows, and which of
//! the record's fields are plain attributes (converted by [`Attribute`]). What is left by
//! hand is what differs: the lists of child views, `render`, and each class's `repr`.

use std::path::PathBuf;
use std::sync::Arc;

use fsnative::host::OptionsOf;
use fsnative::render;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;

use crate::interrupt::run_detached;
use crate::options::{render_format, Arg, Kwargs};
use crate::plain_data::{path_str, repr_of, serde_name};
use crate::view_list::untracked_views;

/// A core value as the Python attribute that shows it.
pub trait Attribute {
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>>;
}

macro_rules! plain_attributes {
    ($($kind:ty),+) => {$(
        impl Attribute for $kind {
            fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                self.into_bound_py_any(py)
            }
        }
    )+};
}

plain_attributes!(u64, i64, u32, bool, f64, String);

/// Paths as `str`, decoded like `os.fsdecode`.
impl Attribute for PathBuf {
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(path_str(py, self).into_any())
    }
}

/// Enums as their serde names (`"content"`, `"limit"`).
macro_rules! named_attributes {
    ($($kind:ty),+) => {$(
        impl Attribute for $kind {
            fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                Ok(PyString::new(py, &serde_name(self)).into_any())
            }
        }
    )+};
}

/// How an index with a store started: the dict of its serde shape.
impl Attribute for fsnative::StoreStart {
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        crate::plain_data::to_dict(py, self)
    }
}

named_attributes!(fsnative::Truncation, fsnative::OutputMode, fsnative::IndexState, fsnative::Watching);

impl<T: Attribute> Attribute for Option<T> {
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Some(value) => value.to_py(py),
            None => Ok(py.None().into_bound(py)),
        }
    }
}

/// Submatches: `(start, end)` tuples.
impl Attribute for Vec<[usize; 2]> {
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let ranges = self.iter().map(|&[start, end]| PyTuple::new(py, [start, end]));
        Ok(PyList::new(py, ranges.collect::<PyResult<Vec<_>>>()?)?.into_any())
    }
}

/// Declares a frozen view class over a shared core result `$root`: its indices, how it finds
/// its core record, one getter per listed field, `to_json` and `to_dict` of the record, and
/// the methods given by hand. It names this crate's items by path, so a module using it needs
/// only the PyO3 prelude.
macro_rules! view {
    (
        $(#[$doc:meta])*
        $view:ident over $root:ty $({ $($index:ident: $index_kind:ty),+ })? => $record:ty = |$this:ident| $find:expr;
        attributes { $($(#[$field_doc:meta])* $field:ident,)* }
        $($methods:tt)*
    ) => {
        $(#[$doc])*
        #[pyclass(frozen, module = "fsnative")]
        pub struct $view {
            result: ::std::sync::Arc<$root>,
            $($($index: $index_kind,)+)?
        }

        impl $view {
            fn record(&self) -> &$record {
                let $this = self;
                $find
            }
        }

        #[pymethods]
        impl $view {
            $(
                $(#[$field_doc])*
                #[getter]
                fn $field<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                    $crate::views::Attribute::to_py(&self.record().$field, py)
                }
            )*

            /// The core's serde JSON of this record (snake_case; a non-UTF-8 path is
            /// `{"bytes": "<base64>"}`).
            fn to_json(&self, py: Python<'_>) -> PyResult<String> {
                $crate::plain_data::to_json(py, self.record())
            }

            /// `json.loads(self.to_json())`: the core's serde shape as dicts and lists.
            fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
                $crate::plain_data::to_dict(py, self.record())
            }

            $($methods)*
        }
    };
}

pub(crate) use view;

/// `'limit'`, or `None`, as a repr shows a truncation.
pub fn truncation_repr(truncated: Option<fsnative::Truncation>) -> String {
    truncated.map_or("None".to_owned(), |t| format!("'{}'", serde_name(&t)))
}

impl GrepResult {
    pub fn new(result: fsnative::GrepResult) -> GrepResult {
        GrepResult { result: Arc::new(result) }
    }
}

view! {
    /// The answer to `Sandbox.grep`: files with matches, in the requested order.
    GrepResult over fsnative::GrepResult => fsnative::GrepResult = |view| &view.result;
    attributes {
        /// Sum of `count` over `files`.
        total_matches,
        /// Why the page stopped early: `"limit"`, `"timeout"`, `"cancelled"`, or None.
        truncated,
        /// Pass back as `cursor=` with the same arguments to get the next page.
        next_cursor,
        /// The mode the search ran in: `"content"`, `"files"` or `"count"`.
        mode,
        /// Context lines were requested (ripgrep then separates groups with `--`).
        context_enabled,
        /// The scope was exactly one regular file (ripgrep then prints no path prefix).
        single_file,
    }

    /// Files with matches (a new list of views each time).
    #[getter]
    fn files<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let files = (0..self.result.files.len()).map(|file| FileMatches { result: self.result.clone(), file });
        untracked_views(py, files)
    }

    /// What the search did.
    #[getter]
    fn stats(&self) -> GrepStats {
        GrepStats { result: self.result.clone() }
    }

    /// The result as ripgrep prints it: `format="standard"` (options `path_style`,
    /// `with_filename`, `heading`, `line_number`) or `format="json"` (`rg --json` lines;
    /// option `path_style`); or as Terraphim's FFF grep tools print it: `format="fff"`
    /// (options `path`, `base`, `patterns`).
    // `format=None` leaves the format to the core's default ("standard"); the text signature
    // shows that default (a `str` default needs CPython 3.10's limited API).
    #[pyo3(signature = (format = None, **options), text_signature = "($self, /, format='standard', **options)")]
    fn render(&self, py: Python<'_>, format: Option<Arg>, options: Option<Kwargs>) -> PyResult<String> {
        let format = render_format(py, OptionsOf::Render, format, options, render::Format::from_options)?;
        run_detached(py, || Ok(render::render(&self.result, &format)))
    }

    /// `render` as bytes, with file names and lines that are not UTF-8 as they are on disk, as
    /// ripgrep prints them (`render` replaces those bytes with U+FFFD).
    #[pyo3(signature = (format = None, **options), text_signature = "($self, /, format='standard', **options)")]
    fn render_bytes<'py>(
        &self,
        py: Python<'py>,
        format: Option<Arg>,
        options: Option<Kwargs>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let format = render_format(py, OptionsOf::Render, format, options, render::Format::from_options)?;
        let bytes = run_detached(py, || Ok(render::render_bytes(&self.result, &format)))?;
        Ok(PyBytes::new(py, &bytes))
    }

    fn __repr__(&self) -> String {
        let r = &self.result;
        let (mode, truncated) = (serde_name(&r.mode), truncation_repr(r.truncated));
        format!("<GrepResult mode='{mode}' files={} total_matches={} truncated={truncated}>", r.files.len(), r.total_matches)
    }
}

view! {
    /// All that one file contributed to a grep.
    FileMatches over fsnative::GrepResult { file: usize } => fsnative::FileMatches = |view| &view.result.files[view.file];
    attributes {
        /// Absolute path (the canonical root joined with the walked path).
        path,
        /// Path relative to the sandbox root it lies in (`/`-separated).
        relative_path,
        /// Matching lines in this page (content and count modes), 1 in files mode.
        count,
        /// Bytes the searcher read from this file (ripgrep's per-file `bytes_searched`).
        bytes_searched,
        /// The offset of the NUL byte at which the search of this file stopped after it had
        /// found matches (ripgrep's `binary_offset`), or `None`.
        binary_offset,
    }

    /// The matches, in content mode; empty otherwise (a new list of views each time).
    #[getter]
    fn matches<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let (result, file) = (&self.result, self.file);
        let matches = (0..self.record().matches.len()).map(|index| Match { result: result.clone(), file, index });
        untracked_views(py, matches)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let file = self.record();
        format!("FileMatches(relative_path={}, count={})", repr_of(&path_str(py, &file.relative_path)), file.count)
    }
}

view! {
    /// One matching line (or, in multiline mode, one group of lines matched together).
    Match over fsnative::GrepResult { file: usize, index: usize } => fsnative::Match =
        |view| &view.result.files[view.file].matches[view.index];
    attributes {
        /// 1-based number of the (first) line.
        line_number,
        /// 1-based byte column of the first submatch (1 when inverted).
        column,
        /// Byte offset of the line's start in the file.
        byte_offset,
        /// The line(s) without the final terminator, invalid UTF-8 replaced by U+FFFD, cut at
        /// `max_columns`.
        text,
        /// The text was longer than `max_columns` and holds only its beginning.
        truncated,
        /// `(start, end)` byte ranges of each match within the UTF-8 encoded `text`.
        submatches,
        /// With `section_end_patterns`: the first later line matching one of them, or `None`.
        section_end,
    }

    /// Context lines just before this match.
    #[getter]
    fn before<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        untracked_views(py, self.context(Side::Before))
    }

    /// Context lines just after this match.
    #[getter]
    fn after<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        untracked_views(py, self.context(Side::After))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let found = self.record();
        let text = repr_of(&PyString::new(py, &found.text));
        format!("Match(line_number={}, column={}, text={text})", found.line_number, found.column)
    }
}

impl Match {
    /// Views of the context lines on one side of this match.
    fn context(&self, side: Side) -> impl Iterator<Item = ContextLine> + '_ {
        let count = match side {
            Side::Before => self.record().before.len(),
            Side::After => self.record().after.len(),
        };
        (0..count).map(move |line| ContextLine {
            result: self.result.clone(),
            file: self.file,
            index: self.index,
            side,
            line,
        })
    }
}

/// Which context list of a match a [`ContextLine`] points into.
#[derive(Clone, Copy)]
enum Side {
    Before,
    After,
}

view! {
    /// One line of context around a match.
    ContextLine over fsnative::GrepResult { file: usize, index: usize, side: Side, line: usize } => fsnative::ContextLine =
        |view| {
            let found = &view.result.files[view.file].matches[view.index];
            match view.side {
                Side::Before => &found.before[view.line],
                Side::After => &found.after[view.line],
            }
        };
    attributes {
        /// 1-based line number.
        line_number,
        /// Byte offset of the line's start in the file.
        byte_offset,
        /// The line without its terminator, invalid UTF-8 replaced by U+FFFD, cut at
        /// `max_columns`.
        text,
        /// The line was longer than `max_columns` and `text` holds only its beginning.
        truncated,
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let line = self.record();
        format!("ContextLine(line_number={}, text={})", line.line_number, repr_of(&PyString::new(py, &line.text)))
    }
}

view! {
    /// Counters of what a grep did.
    GrepStats over fsnative::GrepResult => fsnative::GrepStats = |view| &view.result.stats;
    attributes {
        /// Files the walk yielded as candidates (after ignore, glob and type filters).
        files_walked,
        /// Files opened and searched.
        files_searched,
        /// Files with at least one match.
        files_matched,
        /// Files skipped because they contain a NUL byte.
        skipped_binary,
        /// Entries skipped because they are FIFOs, sockets or devices.
        skipped_special,
        /// Symlinks not followed because their target resolves outside the sandbox.
        skipped_outside,
        /// Files or directories that could not be read.
        skipped_errors,
        /// Bytes read by the searcher.
        bytes_searched,
        /// Wall-clock time of the call in milliseconds.
        elapsed_ms,
    }

    fn __repr__(&self) -> String {
        let s = self.record();
        format!(
            "GrepStats(files_searched={}, files_matched={}, skipped_binary={}, bytes_searched={}, elapsed_ms={:.3})",
            s.files_searched, s.files_matched, s.skipped_binary, s.bytes_searched, s.elapsed_ms
        )
    }
}

impl GlobResult {
    pub fn new(result: fsnative::GlobResult) -> GlobResult {
        GlobResult { result: Arc::new(result) }
    }
}

view! {
    /// The answer to `Sandbox.glob`: matching entries, in the requested order.
    GlobResult over fsnative::GlobResult => fsnative::GlobResult = |view| &view.result;
    attributes {
        /// How many entries matched in all, also past the limit.
        total,
        /// Why `entries` is incomplete: `"limit"`, `"timeout"`, `"cancelled"`, or None.
        truncated,
    }

    /// Matching entries, at most `limit` (a new list of views each time).
    #[getter]
    fn entries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let entries = (0..self.result.entries.len()).map(|index| GlobEntry { result: self.result.clone(), index });
        untracked_views(py, entries)
    }

    /// What the walk did.
    #[getter]
    fn stats(&self) -> GlobStats {
        GlobStats { result: self.result.clone() }
    }

    fn __repr__(&self) -> String {
        let r = &self.result;
        format!("<GlobResult entries={} total={} truncated={}>", r.entries.len(), r.total, truncation_repr(r.truncated))
    }
}

view! {
    /// One entry yielded by a glob.
    GlobEntry over fsnative::GlobResult { index: usize } => fsnative::GlobEntry = |view| &view.result.entries[view.index];
    attributes {
        /// Absolute path (the canonical base joined with `relative_path`).
        path,
        /// Path relative to the base directory it was matched from (`/`-separated).
        relative_path,
        /// The entry is a directory.
        is_dir,
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let entry = self.record();
        let is_dir = if entry.is_dir { "True" } else { "False" };
        format!("GlobEntry(relative_path={}, is_dir={is_dir})", repr_of(&path_str(py, &entry.relative_path)))
    }
}

view! {
    /// Counters of what a glob did.
    GlobStats over fsnative::GlobResult => fsnative::GlobStats = |view| &view.result.stats;
    attributes {
        /// Entries the walk visited.
        entries_walked,
        /// Entries skipped because they are FIFOs, sockets or devices.
        skipped_special,
        /// Symlinks not followed because their target resolves outside the sandbox.
        skipped_outside,
        /// Directories that could not be read.
        skipped_errors,
        /// Wall-clock time of the call in milliseconds.
        elapsed_ms,
    }

    fn __repr__(&self) -> String {
        let s = self.record();
        format!("GlobStats(entries_walked={}, elapsed_ms={:.3})", s.entries_walked, s.elapsed_ms)
    }
}

impl IndexStatus {
    pub fn new(status: fsnative::IndexStatus) -> IndexStatus {
        IndexStatus { result: Arc::new(status) }
    }
}

view! {
    /// A snapshot of a sandbox's warm index (`Sandbox.index_status()`).
    IndexStatus over fsnative::IndexStatus => fsnative::IndexStatus = |view| &view.result;
    attributes {
        /// `"building"`, `"ready"`, `"failed"` or `"closed"`.
        state,
        /// Files listed.
        files,
        /// Directories listed.
        dirs,
        /// Bytes of the files read into the content prefilter.
        bytes,
        /// Memory the index holds, in bytes (the content cache included).
        memory_bytes,
        /// How changes are heard of: `"live"`, `"partial"` or `"off"`.
        watching,
        /// Directories watched.
        watched_dirs,
        /// Directories that could not be watched (listed again before every search).
        unwatched_dirs,
        /// Times the whole tree was listed again because the kernel dropped events.
        rescans,
        /// Files whose content the prefilter knows.
        content_files,
        /// Files waiting to be read (they are searched meanwhile).
        content_pending,
        /// Milliseconds it took to list the roots, once done.
        list_ms,
        /// Milliseconds from the start until every file was first read, once done.
        content_ms,
        /// Searches answered from the index so far.
        searches,
        /// Why the index failed, or None.
        error,
        /// With `persist`: how the index started, `{"outcome": "loaded"}` or
        /// `{"outcome": "rebuilt", "reason": …}`; None without.
        store,
        /// Why the last write of the store failed, or None.
        store_error,
        /// Size in bytes of the store last loaded or written.
        store_bytes,
        /// Files and directories the check at load found changed while nothing watched.
        store_changes,
        /// Bytes of file contents the content cache holds.
        cache_bytes,
        /// Files the content cache holds.
        cache_files,
        /// Files searched from the content cache instead of read from disk, so far.
        cache_hits,
    }

    fn __repr__(&self) -> String {
        let s = self.record();
        format!(
            "IndexStatus(state='{}', files={}, dirs={}, content_pending={}, memory_bytes={}, watching='{}')",
            serde_name(&s.state), s.files, s.dirs, s.content_pending, s.memory_bytes, serde_name(&s.watching)
        )
    }
}

impl ThesaurusStatus {
    pub fn new(status: fsnative::BoostStatus) -> ThesaurusStatus {
        ThesaurusStatus { result: Arc::new(status) }
    }
}

view! {
    /// A snapshot of a sandbox's thesaurus (`Sandbox.thesaurus_status()`).
    ThesaurusStatus over fsnative::BoostStatus => fsnative::BoostStatus = |view| &view.result;
    attributes {
        /// The thesaurus file (absolute), or None for a thesaurus given as a mapping.
        path,
        /// Terms in the thesaurus in use.
        terms,
        /// Distinct concepts in the thesaurus in use.
        concepts,
        /// Reloads of the file that succeeded.
        reloads,
        /// Why the last reload failed (the last good thesaurus stays in use), or None.
        last_error,
        /// The boost per distinct concept a path mentions.
        weight_per_term,
        /// The cap on a path's boost.
        max_boost,
    }

    fn __repr__(&self) -> String {
        let s = self.record();
        format!(
            "ThesaurusStatus(terms={}, concepts={}, reloads={}, last_error={})",
            s.terms, s.concepts, s.reloads, s.last_error.as_deref().map_or("None".to_owned(), |e| format!("{e:?}"))
        )
    }
}
