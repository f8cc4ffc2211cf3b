//! Python binding of fsnative (PyO3): converts types and errors, nothing more.
//!
//! Built by maturin as the private module `fsnative._fsnative`; the public package
//! (`python/fsnative`) re-exports it, declares the exception classes and adds the asyncio
//! variants. Every call into the core releases the GIL and catches panics.

mod cancel;
mod errors;
mod find_views;
mod interrupt;
mod options;
mod plain_data;
mod sandbox;
mod view_list;
mod views;

/// The compiled part of fsnative; import `fsnative` instead.
#[pyo3::pymodule]
mod _fsnative {
    use pyo3::prelude::*;
    use pyo3::types::PyTuple;

    #[pymodule_export]
    use crate::cancel::CancelToken;
    #[pymodule_export]
    use crate::find_views::{FindEntry, FindResult, FindStats};
    #[pymodule_export]
    use crate::sandbox::Sandbox;
    #[pymodule_export]
    use crate::views::{
        ContextLine, FileMatches, GlobEntry, GlobResult, GlobStats, GrepResult, GrepStats, IndexStatus,
        Match, ThesaurusStatus,
    };

    /// Whether `path` is one of `dirs` or lies below one, by their text alone (the MCP
    /// filesystem server's `isPathWithinAllowedDirectories`).
    #[pyfunction]
    fn is_path_within(path: &str, dirs: Vec<String>) -> bool {
        let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
        fsnative::host::is_path_within(path, &dirs)
    }

    #[pymodule_init]
    fn init(module: &Bound<'_, PyModule>) -> PyResult<()> {
        // The package version, single-sourced from Cargo.
        module.add("__version__", env!("CARGO_PKG_VERSION"))?;
        // Every core error code, so the Python side can check it has a class for each.
        let codes = fsnative::ErrorCode::ALL.iter().map(|code| code.as_str());
        module.add("ERROR_CODES", PyTuple::new(module.py(), codes)?)?;
        // The core's index defaults, for `fsnative.IndexOptions` to show.
        let defaults = crate::plain_data::to_dict(module.py(), &fsnative::IndexOptions::default())?;
        module.add("INDEX_DEFAULTS", defaults)?;
        // The FFF drop-in's tools (descriptions, arguments) and limits, for `fsnative.fff`.
        let catalog = fsnative::render::fff::tools::catalog();
        module.add("FFF_CATALOG", crate::plain_data::to_dict(module.py(), &catalog)?)
    }
}
