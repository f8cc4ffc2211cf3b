//! The results of `Sandbox.find`: the ranked files and the search's counters, views over one
//! shared core result (declared by [`view!`] as in `views`).

use std::sync::Arc;

use fsnative::host::OptionsOf;
use fsnative::render;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::options::{render_format, Arg, Kwargs};
use crate::plain_data::{path_str, repr_of};
use crate::view_list::untracked_views;
use crate::views::{truncation_repr, view};

impl FindResult {
    pub fn new(result: fsnative::FindResult) -> FindResult {
        FindResult { result: Arc::new(result) }
    }
}

view! {
    /// The answer to `Sandbox.find`: the best matches, best first.
    FindResult over fsnative::FindResult => fsnative::FindResult = |view| &view.result;
    attributes {
        total,
        truncated,
    }

    /// The best matches, at most `limit`; ties go to the shorter path, then path order (a new
    /// list of views each time).
    #[getter]
    fn entries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let entries = (0..self.result.entries.len()).map(|index| FindEntry { result: self.result.clone(), index });
        untracked_views(py, entries)
    }

    /// What the search did.
    #[getter]
    fn stats(&self) -> FindStats {
        FindStats { result: self.result.clone() }
    }

    /// The result as Terraphim's FFF `find_files` tool prints it: `format="fff"` (the only
    /// one), options `query` and `path`.
    #[pyo3(signature = (format = None, **options), text_signature = "($self, /, format='fff', **options)")]
    fn render(&self, py: Python<'_>, format: Option<Arg>, options: Option<Kwargs>) -> PyResult<String> {
        let format = render_format(py, OptionsOf::RenderFind, format, options, render::FindFormat::from_options)?;
        Ok(render::render_find(&self.result, &format))
    }

    fn __repr__(&self) -> String {
        let r = &self.result;
        format!("<FindResult entries={} total={} truncated={}>", r.entries.len(), r.total, truncation_repr(r.truncated))
    }
}

view! {
    /// One file a find ranked: `score` is the sum of the additive parts (`fuzzy`,
    /// `filename_bonus`, `exact_bonus`, `path_boost`, `frecency`).
    FindEntry over fsnative::FindResult { index: usize } => fsnative::FindEntry = |view| &view.result.entries[view.index];
    attributes {
        path,
        relative_path,
        score,
        fuzzy,
        filename_bonus,
        exact_bonus,
        path_boost,
        frecency,
        typos,
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let entry = self.record();
        format!("FindEntry(relative_path={}, score={})", repr_of(&path_str(py, &entry.relative_path)), entry.score)
    }
}

view! {
    /// Counters of what a find did.
    FindStats over fsnative::FindResult => fsnative::FindStats = |view| &view.result.stats;
    attributes {
        candidates,
        indexed,
        elapsed_ms,
    }

    fn __repr__(&self) -> String {
        let s = self.record();
        format!("FindStats(candidates={}, elapsed_ms={:.3})", s.candidates, s.elapsed_ms)
    }
}
