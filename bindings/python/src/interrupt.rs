//! Runs a core call with the GIL released, so other Python threads run meanwhile, and
//! interruptible by Ctrl-C.

use std::thread;
use std::time::Duration;

use fsnative::{catch_panic, CancelToken, Error, ErrorCode};
use pyo3::prelude::*;

use crate::errors::to_py_err;

/// How often the waiting thread looks for a pending signal (Ctrl-C).
const SIGNAL_CHECK_INTERVAL: Duration = Duration::from_millis(20);

/// Runs `work` on a helper thread while the calling thread, detached from the interpreter,
/// waits for it in short slices and runs Python's signal handlers between them. When a
/// handler raises (`KeyboardInterrupt` on Ctrl-C) `cancel` is cancelled, the helper winds
/// down within moments, and that exception is raised. A panic in `work` becomes `INTERNAL`.
pub fn run_interruptible<T, W>(py: Python<'_>, cancel: &CancelToken, work: W) -> PyResult<T>
where
    T: Send,
    W: FnOnce() -> fsnative::Result<T> + Send,
{
    thread::scope(|scope| {
        let waiter = thread::current();
        let helper = thread::Builder::new()
            .name("fsnative-search".to_owned())
            .spawn_scoped(scope, move || {
                let outcome = catch_panic(work);
                waiter.unpark();
                outcome
            })
            .map_err(|e| to_py_err(py, &Error::new(ErrorCode::Io, format!("cannot start a thread: {e}"))))?;
        while !helper.is_finished() {
            py.detach(|| thread::park_timeout(SIGNAL_CHECK_INTERVAL));
            if let Err(signal) = py.check_signals() {
                cancel.cancel();
                // The cancelled helper returns soon; its partial result is dropped.
                py.detach(|| helper.join()).ok();
                return Err(signal);
            }
        }
        py.detach(|| helper.join())
            .unwrap_or_else(|_| Err(Error::new(ErrorCode::Internal, "the search thread panicked")))
            .map_err(|e| to_py_err(py, &e))
    })
}

/// Runs a short core call (no cancellation needed) with the GIL released, panics caught.
pub fn run_detached<T, W>(py: Python<'_>, work: W) -> PyResult<T>
where
    T: Send,
    W: FnOnce() -> fsnative::Result<T> + Send,
{
    py.detach(|| catch_panic(work)).map_err(|e| to_py_err(py, &e))
}
