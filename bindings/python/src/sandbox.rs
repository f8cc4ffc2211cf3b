//! `Sandbox`: the Python face of `fsnative::Sandbox`.

use std::time::Duration;

use fsnative::host::{wait_timeout, OptionsOf};
use fsnative::options::Options;
use fsnative::render::fff::tools::{self as fff_tools, FffTool};
use fsnative::{FindRequest, GlobRequest, GrepRequest, Intent, SandboxOptions};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};

use crate::cancel::CancelToken;
use crate::errors::to_py_err;
use crate::find_views::FindResult;
use crate::interrupt::{run_detached, run_interruptible};
use crate::options::{build, collect, fs_path};
use crate::plain_data::{path_str, repr_of};
use crate::views::{GlobResult, GrepResult, IndexStatus, ThesaurusStatus};

/// A set of allowed root directories; every path and search stays inside them.
#[pyclass(frozen, subclass, module = "fsnative")]
pub struct Sandbox {
    sandbox: fsnative::Sandbox,
}

#[pymethods]
impl Sandbox {
    /// Builds a sandbox from root directories (each must exist; each is canonicalised), with
    /// a warm index when `index` is True or index options, a frecency database and a
    /// thesaurus when asked for.
    #[new]
    #[pyo3(signature = (roots, **options), text_signature = "(roots, **options)")]
    fn new(py: Python<'_>, roots: &Bound<'_, PyAny>, options: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        if roots.is_instance_of::<PyString>() || roots.is_instance_of::<PyBytes>() {
            return Err(PyTypeError::new_err(
                "Sandbox() argument 'roots' must be a list of paths, not one path",
            ));
        }
        let roots = roots
            .try_iter()
            .map_err(|_| PyTypeError::new_err("Sandbox() argument 'roots' must be a list of paths"))?
            .map(|root| fs_path("Sandbox", "roots", &root?))
            .collect::<PyResult<Vec<_>>>()?;
        let options = build(py, &collect(OptionsOf::Sandbox, &[], options)?, SandboxOptions::from_options)?;
        let sandbox = run_detached(py, || fsnative::Sandbox::with_options(&roots, &options))?;
        Ok(Sandbox { sandbox })
    }

    /// The warm index's state, or None without an index.
    fn index_status(&self, py: Python<'_>) -> PyResult<Option<IndexStatus>> {
        let status = run_detached(py, || Ok(self.sandbox.index_status()))?;
        Ok(status.map(IndexStatus::new))
    }

    /// Waits until the index is ready and has read every file, at most `timeout_ms`
    /// milliseconds (None: no limit), with the GIL released; True when it is. False at once
    /// without an index, or when it failed or was closed. Ctrl-C stops the wait on the main
    /// thread. `timeout` (seconds, by position or keyword) is the deprecated former argument.
    #[pyo3(signature = (timeout = None, *, timeout_ms = None))]
    fn wait_for_index(
        &self,
        py: Python<'_>,
        timeout: Option<f64>,
        timeout_ms: Option<f64>,
    ) -> PyResult<bool> {
        let timeout = match (timeout, timeout_ms) {
            (Some(_), Some(_)) => {
                return Err(PyTypeError::new_err("wait_for_index() takes `timeout_ms` or the deprecated `timeout`, not both"))
            }
            (Some(seconds), None) => {
                let warning = py.get_type::<pyo3::exceptions::PyDeprecationWarning>();
                let message = c"wait_for_index(timeout=seconds) is deprecated; use wait_for_index(timeout_ms=milliseconds)";
                PyErr::warn(py, &warning, message, 1)?;
                wait_timeout("timeout", Some(seconds), Duration::from_secs(1))
            }
            (None, milliseconds) => wait_timeout("timeout_ms", milliseconds, Duration::from_millis(1)),
        }
        .map_err(|error| to_py_err(py, &error))?;
        let cancel = fsnative::CancelToken::new();
        run_interruptible(py, &cancel, |token| Ok(self.sandbox.wait_for_index_cancellable(timeout, token)))
    }

    /// Stops the index (its thread and watcher) and frees its memory; searches walk from then
    /// on. Closing twice, or without an index, does nothing.
    fn close(&self, py: Python<'_>) -> PyResult<()> {
        run_detached(py, || {
            self.sandbox.close();
            Ok(())
        })
    }

    fn __enter__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// Closes the sandbox's index at the end of a `with` block (exceptions go on).
    fn __exit__(
        &self,
        py: Python<'_>,
        exc_type: &Bound<'_, PyAny>,
        exc_value: &Bound<'_, PyAny>,
        traceback: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let _ = (exc_type, exc_value, traceback);
        self.close(py)
    }

    /// Records an access to `path` (validated first) in the frecency database.
    fn record_access(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<()> {
        let path = fs_path("record_access", "path", path)?;
        run_detached(py, || self.sandbox.record_access(&path))
    }

    /// The frecency score of `path` (validated first); 0.0 when it was never recorded.
    fn frecency_score(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<f64> {
        let path = fs_path("frecency_score", "path", path)?;
        run_detached(py, || self.sandbox.frecency_score(&path))
    }

    /// The thesaurus boost of `path` (validated first).
    fn path_boost(&self, py: Python<'_>, path: &Bound<'_, PyAny>) -> PyResult<u32> {
        let path = fs_path("path_boost", "path", path)?;
        run_detached(py, || self.sandbox.path_boost(&path))
    }

    /// The frecency database's `{"path", "profile"}`, or None without one (the sandbox then
    /// refuses `sort="frecency"`).
    fn frecency_status<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.sandbox.frecency_status().map(|status| crate::plain_data::to_dict(py, &status)).transpose()
    }

    /// The thesaurus's state, or None without a thesaurus.
    fn thesaurus_status(&self, py: Python<'_>) -> PyResult<Option<ThesaurusStatus>> {
        let status = run_detached(py, || Ok(self.sandbox.thesaurus_status()))?;
        Ok(status.map(ThesaurusStatus::new))
    }

    /// The canonical root directories.
    #[getter]
    fn roots<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.sandbox.roots().iter().map(|root| path_str(py, root)))
    }

    /// The canonical absolute path of `path`, or an `FsnativeError` saying why it is refused.
    // `intent=None` leaves the intent to the core's default ("read"): see `GrepResult.render`.
    #[pyo3(signature = (path, intent = None), text_signature = "($self, /, path, intent='read')")]
    fn validate<'py>(
        &self,
        py: Python<'py>,
        path: &Bound<'py, PyAny>,
        intent: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyString>> {
        let path = fs_path(OptionsOf::Validate.name(), "path", path)?;
        let intent =
            build(py, &collect(OptionsOf::Validate, &[("intent", intent)], None)?, Intent::from_options)?;
        let valid = run_detached(py, || self.sandbox.validate(&path, intent))?;
        Ok(path_str(py, &valid))
    }

    /// Searches file contents; the keyword arguments are `GrepRequest`'s fields.
    #[pyo3(signature = (patterns = None, /, *, cancel = None, **options))]
    fn grep(
        &self,
        py: Python<'_>,
        patterns: Option<&Bound<'_, PyAny>>,
        cancel: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<GrepResult> {
        let request = build(
            py,
            &collect(OptionsOf::Grep, &[("patterns", patterns)], options)?,
            GrepRequest::from_options,
        )?;
        let cancel = cancel_token("grep", cancel)?;
        let result = run_interruptible(py, &cancel, |token| self.sandbox.grep_cancellable(&request, token))?;
        Ok(GrepResult::new(result))
    }

    /// Lists entries whose path matches glob patterns; the keyword arguments are
    /// `GlobRequest`'s fields.
    #[pyo3(signature = (patterns = None, /, *, cancel = None, **options))]
    fn glob(
        &self,
        py: Python<'_>,
        patterns: Option<&Bound<'_, PyAny>>,
        cancel: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<GlobResult> {
        let request = build(
            py,
            &collect(OptionsOf::Glob, &[("patterns", patterns)], options)?,
            GlobRequest::from_options,
        )?;
        let cancel = cancel_token("glob", cancel)?;
        let result = run_interruptible(py, &cancel, |token| self.sandbox.glob_cancellable(&request, token))?;
        Ok(GlobResult::new(result))
    }

    /// Fuzzy-finds files by path, typo-tolerant, best first; the keyword arguments are
    /// `FindRequest`'s fields (`path`, `limit`, `constraints`, `timeout_ms`).
    #[pyo3(signature = (query = None, /, *, cancel = None, **options))]
    fn find(
        &self,
        py: Python<'_>,
        query: Option<&Bound<'_, PyAny>>,
        cancel: Option<&Bound<'_, PyAny>>,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<FindResult> {
        let request =
            build(py, &collect(OptionsOf::Find, &[("query", query)], options)?, FindRequest::from_options)?;
        let cancel = cancel_token("find", cancel)?;
        let result = run_interruptible(py, &cancel, |token| self.sandbox.find_cancellable(&request, token))?;
        Ok(FindResult::new(result))
    }

    /// One call of the FFF drop-in's tool `tool` (`"find_files"`, `"grep"`, `"multi_grep"`)
    /// with Terraphim's `arguments`: its text, one line per MCP text block. `fsnative.fff`
    /// calls it; the core holds the tools' defaults and limits.
    #[pyo3(signature = (tool, arguments, /, *, cancel = None))]
    fn fff_tool(
        &self,
        py: Python<'_>,
        tool: &str,
        arguments: &Bound<'_, PyDict>,
        cancel: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        let tool = FffTool::named(tool).map_err(|error| to_py_err(py, &error))?;
        let arguments: Options = collect(OptionsOf::FffTool, &[], Some(arguments))?;
        let cancel = cancel_token(OptionsOf::FffTool.name(), cancel)?;
        run_interruptible(py, &cancel, |token| fff_tools::run(&self.sandbox, tool, &arguments, token))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let roots: Vec<String> =
            self.sandbox.roots().iter().map(|root| repr_of(&path_str(py, root))).collect();
        format!("Sandbox([{}])", roots.join(", "))
    }
}

/// The core token behind a `cancel=` argument (a fresh one for None).
fn cancel_token(call: &str, cancel: Option<&Bound<'_, PyAny>>) -> PyResult<fsnative::CancelToken> {
    match cancel.filter(|c| !c.is_none()) {
        None => Ok(fsnative::CancelToken::new()),
        Some(given) => match given.cast::<CancelToken>() {
            Ok(token) => Ok(token.get().token.clone()),
            Err(_) => {
                let kind = given.get_type().name().map(|n| n.to_string()).unwrap_or_default();
                Err(PyTypeError::new_err(format!(
                    "{call}() argument 'cancel' must be a CancelToken or None, not {kind}"
                )))
            }
        },
    }
}
