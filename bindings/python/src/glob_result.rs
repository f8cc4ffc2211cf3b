//! The result of `Sandbox.glob`: views over one shared core result (see `grep_result`).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::plain_data::{path_str, repr_of, serde_name, to_dict, to_json};
use crate::view_list::untracked_views;

/// The answer to `Sandbox.glob`: matching entries, in the requested order.
#[pyclass(frozen, module = "fsnative")]
pub struct GlobResult {
    result: Arc<fsnative::GlobResult>,
}

impl GlobResult {
    pub fn new(result: fsnative::GlobResult) -> GlobResult {
        GlobResult { result: Arc::new(result) }
    }
}

#[pymethods]
impl GlobResult {
    /// Matching entries, at most `limit` (a new list of views each time).
    #[getter]
    fn entries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let views =
            (0..self.result.entries.len()).map(|index| GlobEntry { result: self.result.clone(), index });
        untracked_views(py, views)
    }

    /// How many entries matched in all, also past the limit.
    #[getter]
    fn total(&self) -> u64 {
        self.result.total
    }

    /// Why `entries` is incomplete: `"limit"`, `"timeout"`, `"cancelled"`, or None.
    #[getter]
    fn truncated(&self) -> Option<String> {
        self.result.truncated.as_ref().map(serde_name)
    }

    /// What the walk did.
    #[getter]
    fn stats(&self) -> GlobStats {
        GlobStats { result: self.result.clone() }
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
            "<GlobResult entries={} total={} truncated={}>",
            r.entries.len(),
            r.total,
            r.truncated.as_ref().map_or("None".to_owned(), |t| format!("'{}'", serde_name(t)))
        )
    }
}

/// One entry yielded by a glob.
#[pyclass(frozen, module = "fsnative")]
pub struct GlobEntry {
    result: Arc<fsnative::GlobResult>,
    index: usize,
}

impl GlobEntry {
    fn entry(&self) -> &fsnative::GlobEntry {
        &self.result.entries[self.index]
    }
}

#[pymethods]
impl GlobEntry {
    /// Absolute path (the canonical base joined with `relative_path`).
    #[getter]
    fn path<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        path_str(py, &self.entry().path)
    }

    /// Path relative to the base directory it was matched from (`/`-separated).
    #[getter]
    fn relative_path<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        path_str(py, &self.entry().relative_path)
    }

    /// The entry is a directory.
    #[getter]
    fn is_dir(&self) -> bool {
        self.entry().is_dir
    }

    /// The core's serde JSON of this entry.
    fn to_json(&self, py: Python<'_>) -> PyResult<String> {
        to_json(py, self.entry())
    }

    /// `json.loads(self.to_json())`.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        to_dict(py, self.entry())
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let entry = self.entry();
        let is_dir = if entry.is_dir { "True" } else { "False" };
        format!("GlobEntry(relative_path={}, is_dir={is_dir})", repr_of(&path_str(py, &entry.relative_path)))
    }
}

/// Counters of what a glob did.
#[pyclass(frozen, module = "fsnative")]
pub struct GlobStats {
    result: Arc<fsnative::GlobResult>,
}

impl GlobStats {
    fn stats(&self) -> &fsnative::GlobStats {
        &self.result.stats
    }
}

#[pymethods]
impl GlobStats {
    /// Entries the walk visited.
    #[getter]
    fn entries_walked(&self) -> u64 {
        self.stats().entries_walked
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

    /// Directories that could not be read.
    #[getter]
    fn skipped_errors(&self) -> u64 {
        self.stats().skipped_errors
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
        format!("GlobStats(entries_walked={}, elapsed_ms={:.3})", s.entries_walked, s.elapsed_ms)
    }
}
