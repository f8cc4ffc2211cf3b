//! `CancelToken`: stops a running search from another thread or task.

use pyo3::prelude::*;

/// A handle that stops a running `grep` or `glob` from another thread or asyncio task. The
/// call then returns what it found so far, with `truncated == "cancelled"` and (grep) a
/// `next_cursor` to continue. A token stays cancelled; use a new one per search.
#[pyclass(frozen, module = "fsnative")]
#[derive(Default)]
pub struct CancelToken {
    pub(crate) token: fsnative::CancelToken,
}

#[pymethods]
impl CancelToken {
    /// A token that has not been cancelled.
    #[new]
    fn new() -> Self {
        CancelToken::default()
    }

    /// Asks every search holding this token to stop as soon as it can.
    fn cancel(&self) {
        self.token.cancel();
    }

    /// True once `cancel()` was called.
    #[getter]
    fn cancelled(&self) -> bool {
        self.token.is_cancelled()
    }

    fn __repr__(&self) -> String {
        format!("CancelToken(cancelled={})", if self.token.is_cancelled() { "True" } else { "False" })
    }
}
