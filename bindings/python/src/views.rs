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
//!
//! A field's meaning is documented once, on the core's type; the stub (`_views.pyi`) gives
//! its Python type. The attributes here carry no docs of their own.

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
        attributes { $($field:ident,)* }
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
        total_matches,
        truncated,
        next_cursor,
        mode,
        context_enabled,
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
        path,
        relative_path,
        count,
        bytes_searched,
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
        line_number,
        column,
        byte_offset,
        text,
        truncated,
        submatches,
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
        line_number,
        byte_offset,
        text,
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
        files_walked,
        files_searched,
        files_matched,
        skipped_binary,
        skipped_special,
        skipped_outside,
        skipped_errors,
        bytes_searched,
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
        total,
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
        path,
        relative_path,
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
        entries_walked,
        skipped_special,
        skipped_outside,
        skipped_errors,
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
        state,
        files,
        dirs,
        bytes,
        memory_bytes,
        watching,
        watched_dirs,
        unwatched_dirs,
        rescans,
        content_files,
        content_pending,
        list_ms,
        content_ms,
        searches,
        error,
        store,
        store_error,
        store_bytes,
        store_changes,
        cache_bytes,
        cache_files,
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
        path,
        terms,
        concepts,
        reloads,
        last_error,
        weight_per_term,
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
