//! The result of `Sandbox.grep`: views over one shared core result.
//!
//! The core's `GrepResult` moves into an `Arc` without a copy; `files`, `matches`, `before`
//! and `after` hand out small view objects (the `Arc` and an index) and every field is
//! converted only when it is read. A search with 100k matches therefore costs 100k views at
//! most, and only for the parts a caller walks.

use std::sync::Arc;

use fsnative::render;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::interrupt::run_detached;
use crate::options::decode_kwargs;
use crate::plain_data::{path_str, repr_of, serde_name, to_dict, to_json};
use crate::view_list::untracked_views;

/// The answer to `Sandbox.grep`: files with matches, in the requested order.
#[pyclass(frozen, module = "fsnative")]
pub struct GrepResult {
    result: Arc<fsnative::GrepResult>,
}

impl GrepResult {
    pub fn new(result: fsnative::GrepResult) -> GrepResult {
        GrepResult { result: Arc::new(result) }
    }
}

#[pymethods]
impl GrepResult {
    /// Files with matches (a new list of views each time).
    #[getter]
    fn files<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let views =
            (0..self.result.files.len()).map(|index| FileMatches { result: self.result.clone(), index });
        untracked_views(py, views)
    }

    /// Sum of `count` over `files`.
    #[getter]
    fn total_matches(&self) -> u64 {
        self.result.total_matches
    }

    /// Why the page stopped early: `"limit"`, `"timeout"`, `"cancelled"`, or None.
    #[getter]
    fn truncated(&self) -> Option<String> {
        self.result.truncated.as_ref().map(serde_name)
    }

    /// Pass back as `cursor=` with the same arguments to get the next page.
    #[getter]
    fn next_cursor(&self) -> Option<&str> {
        self.result.next_cursor.as_deref()
    }

    /// The mode the search ran in: `"content"`, `"files"` or `"count"`.
    #[getter]
    fn mode(&self) -> String {
        serde_name(&self.result.mode)
    }

    /// Context lines were requested (ripgrep then separates groups with `--`).
    #[getter]
    fn context_enabled(&self) -> bool {
        self.result.context_enabled
    }

    /// The scope was exactly one regular file (ripgrep then prints no path prefix).
    #[getter]
    fn single_file(&self) -> bool {
        self.result.single_file
    }

    /// What the search did.
    #[getter]
    fn stats(&self) -> GrepStats {
        GrepStats { result: self.result.clone() }
    }

    /// The result as ripgrep prints it: `format="standard"` (options `path_style`,
    /// `with_filename`, `heading`, `line_number`) or `format="json"` (`rg --json` lines;
    /// option `path_style`).
    // `format=None` also means "standard" (a `str` default needs CPython 3.10's limited API),
    // hence the explicit text signature, which shows the real default.
    #[pyo3(
        signature = (format = None, **options),
        text_signature = "($self, /, format='standard', **options)"
    )]
    fn render(
        &self,
        py: Python<'_>,
        format: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<String> {
        let standard = PyString::new(py, "standard").into_any();
        let format = format.unwrap_or(&standard);
        let format: render::Format = decode_kwargs(py, "render", &[("format", format)], options)?;
        run_detached(py, || Ok(render::render(&self.result, &format)))
    }

    /// The core's serde JSON of the whole result.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        to_json(py, &*self.result)
    }

    /// `json.loads(self.to_json())`: the core's serde shape as dicts and lists.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_dict(py, &*self.result)
    }

    fn __repr__(&self) -> String {
        let r = &self.result;
        format!(
            "<GrepResult mode='{}' files={} total_matches={} truncated={}>",
            serde_name(&r.mode),
            r.files.len(),
            r.total_matches,
            r.truncated.as_ref().map_or("None".to_owned(), |t| format!("'{}'", serde_name(t)))
        )
    }
}

/// All that one file contributed to a grep.
#[pyclass(frozen, module = "fsnative")]
pub struct FileMatches {
    result: Arc<fsnative::GrepResult>,
    index: usize,
}

impl FileMatches {
    fn file(&self) -> &fsnative::FileMatches {
        &self.result.files[self.index]
    }
}

#[pymethods]
impl FileMatches {
    /// Absolute path (the canonical root joined with the walked path).
    #[getter]
    fn path<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        path_str(py, &self.file().path)
    }

    /// Path relative to the sandbox root it lies in (`/`-separated).
    #[getter]
    fn relative_path<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        path_str(py, &self.file().relative_path)
    }

    /// Matching lines in this page (content and count modes), 1 in files mode.
    #[getter]
    fn count(&self) -> u64 {
        self.file().count
    }

    /// The matches, in content mode; empty otherwise (a new list of views each time).
    #[getter]
    fn matches<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let views = (0..self.file().matches.len()).map(|index| Match {
            result: self.result.clone(),
            file: self.index,
            index,
        });
        untracked_views(py, views)
    }

    /// The core's serde JSON of this file's record.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        to_json(py, self.file())
    }

    /// `json.loads(self.to_json())`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_dict(py, self.file())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let file = self.file();
        format!(
            "FileMatches(relative_path={}, count={})",
            repr_of(&path_str(py, &file.relative_path)),
            file.count
        )
    }
}

/// One matching line (or, in multiline mode, one group of lines matched together).
#[pyclass(frozen, module = "fsnative")]
pub struct Match {
    result: Arc<fsnative::GrepResult>,
    file: usize,
    index: usize,
}

impl Match {
    fn found(&self) -> &fsnative::Match {
        &self.result.files[self.file].matches[self.index]
    }

    fn context(&self, side: Side) -> impl Iterator<Item = ContextLine> + '_ {
        let lines = match side {
            Side::Before => &self.found().before,
            Side::After => &self.found().after,
        };
        (0..lines.len()).map(move |line| ContextLine {
            result: self.result.clone(),
            file: self.file,
            index: self.index,
            side,
            line,
        })
    }
}

#[pymethods]
impl Match {
    /// 1-based number of the (first) line.
    #[getter]
    fn line_number(&self) -> u64 {
        self.found().line_number
    }

    /// 1-based byte column of the first submatch (1 when inverted).
    #[getter]
    fn column(&self) -> u64 {
        self.found().column
    }

    /// Byte offset of the line's start in the file.
    #[getter]
    fn byte_offset(&self) -> u64 {
        self.found().byte_offset
    }

    /// The line(s) without the final terminator, invalid UTF-8 replaced by U+FFFD, cut at
    /// `max_columns`.
    #[getter]
    fn text(&self) -> &str {
        &self.found().text
    }

    /// The text was longer than `max_columns` and holds only its beginning.
    #[getter]
    fn truncated(&self) -> bool {
        self.found().truncated
    }

    /// `(start, end)` byte ranges of each match within the UTF-8 encoded `text`.
    #[getter]
    fn submatches<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.found().submatches.iter().map(|&[start, end]| (start, end)))
    }

    /// With `section_end_patterns`: the first later line matching one of them, or `None`.
    #[getter]
    fn section_end(&self) -> Option<u64> {
        self.found().section_end
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

    /// The core's serde JSON of this match.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        to_json(py, self.found())
    }

    /// `json.loads(self.to_json())`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_dict(py, self.found())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let found = self.found();
        format!(
            "Match(line_number={}, column={}, text={})",
            found.line_number,
            found.column,
            repr_of(&PyString::new(py, &found.text))
        )
    }
}

/// Which context list of a match a [`ContextLine`] view points into.
#[derive(Clone, Copy)]
enum Side {
    Before,
    After,
}

/// One line of context around a match.
#[pyclass(frozen, module = "fsnative")]
pub struct ContextLine {
    result: Arc<fsnative::GrepResult>,
    file: usize,
    index: usize,
    side: Side,
    line: usize,
}

impl ContextLine {
    fn line(&self) -> &fsnative::ContextLine {
        let found = &self.result.files[self.file].matches[self.index];
        match self.side {
            Side::Before => &found.before[self.line],
            Side::After => &found.after[self.line],
        }
    }
}

#[pymethods]
impl ContextLine {
    /// 1-based line number.
    #[getter]
    fn line_number(&self) -> u64 {
        self.line().line_number
    }

    /// Byte offset of the line's start in the file.
    #[getter]
    fn byte_offset(&self) -> u64 {
        self.line().byte_offset
    }

    /// The line without its terminator, invalid UTF-8 replaced by U+FFFD, cut at
    /// `max_columns`.
    #[getter]
    fn text(&self) -> &str {
        &self.line().text
    }

    /// The line was longer than `max_columns` and `text` holds only its beginning.
    #[getter]
    fn truncated(&self) -> bool {
        self.line().truncated
    }

    /// The core's serde JSON of this line.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        to_json(py, self.line())
    }

    /// `json.loads(self.to_json())`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_dict(py, self.line())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let line = self.line();
        format!(
            "ContextLine(line_number={}, text={})",
            line.line_number,
            repr_of(&PyString::new(py, &line.text))
        )
    }
}

/// Counters of what a grep did.
#[pyclass(frozen, module = "fsnative")]
pub struct GrepStats {
    result: Arc<fsnative::GrepResult>,
}

impl GrepStats {
    fn stats(&self) -> &fsnative::GrepStats {
        &self.result.stats
    }
}

#[pymethods]
impl GrepStats {
    /// Files the walk yielded as candidates (after ignore, glob and type filters).
    #[getter]
    fn files_walked(&self) -> u64 {
        self.stats().files_walked
    }

    /// Files opened and searched.
    #[getter]
    fn files_searched(&self) -> u64 {
        self.stats().files_searched
    }

    /// Files with at least one match.
    #[getter]
    fn files_matched(&self) -> u64 {
        self.stats().files_matched
    }

    /// Files skipped because they contain a NUL byte.
    #[getter]
    fn skipped_binary(&self) -> u64 {
        self.stats().skipped_binary
    }

    /// Entries skipped because they are FIFOs, sockets or devices.
    #[getter]
    fn skipped_special(&self) -> u64 {
        self.stats().skipped_special
    }

    /// Symlinks not followed because their target resolves outside the sandbox.
    #[getter]
    fn skipped_outside(&self) -> u64 {
        self.stats().skipped_outside
    }

    /// Files or directories that could not be read.
    #[getter]
    fn skipped_errors(&self) -> u64 {
        self.stats().skipped_errors
    }

    /// Bytes read by the searcher.
    #[getter]
    fn bytes_searched(&self) -> u64 {
        self.stats().bytes_searched
    }

    /// Wall-clock time of the call in milliseconds.
    #[getter]
    fn elapsed_ms(&self) -> f64 {
        self.stats().elapsed_ms
    }

    /// The core's serde JSON of the counters.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        to_json(py, self.stats())
    }

    /// `json.loads(self.to_json())`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_dict(py, self.stats())
    }

    fn __repr__(&self) -> String {
        let s = self.stats();
        format!(
            "GrepStats(files_searched={}, files_matched={}, skipped_binary={}, bytes_searched={}, elapsed_ms={:.3})",
            s.files_searched, s.files_matched, s.skipped_binary, s.bytes_searched, s.elapsed_ms
        )
    }
}
