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
        /// How many files matched in all, also past the limit.
        total,
        /// Why `entries` is incomplete: `"limit"`, `"timeout"`, `"cancelled"`, or None.
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
        /// Absolute path (the canonical base joined with `relative_path`).
        path,
        /// Path relative to the directory searched (`/`-separated): what the query matched.
        relative_path,
        /// The rank: the sum of the parts. Higher is better.
        score,
        /// The fuzzy match of the query on the relative path (typos allowed).
        fuzzy,
        /// The query (after its last `/`) matched inside the file name.
        filename_bonus,
        /// The query (after its last `/`) is the file name, or the name without its extension.
        exact_bonus,
        /// The thesaurus concepts the path mentions, times the weight, capped; 0 without one.
        path_boost,
        /// The file's frecency in points (4 per unit, rounded); 0 without a database.
        frecency,
        /// Query characters the best alignment left unmatched or matched to another one.
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
        /// Files the query was matched against (after `path` and constraints).
        candidates,
        /// The files came from the warm index (else from a walk).
        indexed,
        /// Wall-clock time of the call in milliseconds.
        elapsed_ms,
    }

    fn __repr__(&self) -> String {
        let s = self.record();
        format!("FindStats(candidates={}, elapsed_ms={:.3})", s.candidates, s.elapsed_ms)
    }
}
