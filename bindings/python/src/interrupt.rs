//! Runs a core call with the GIL released, so other Python threads run meanwhile, and
//! interruptible by Ctrl-C.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fsnative::host::catch_panic;
use fsnative::CancelToken;
use pyo3::intern;
use pyo3::prelude::*;

use crate::errors::to_py_err;

/// How often a call on the main thread runs Python's signal handlers (Ctrl-C).
const SIGNAL_CHECK_INTERVAL: Duration = Duration::from_millis(20);

thread_local! {
    /// Set on the thread that runs an interruptible call, for the length of the call: only
    /// that thread may run the signal handlers (the search's helper threads must not).
    static RUNS_SIGNAL_CHECKS: Cell<bool> = const { Cell::new(false) };
}

/// Runs `work` on the calling thread with the GIL released, handing it the token to search
/// with. On Python's main thread, where signal handlers run, that token also runs them every
/// [`SIGNAL_CHECK_INTERVAL`] (taking the GIL back for a moment): when one raises
/// (`KeyboardInterrupt` on Ctrl-C) the search is cancelled and that exception is raised. A
/// panic in `work` becomes `INTERNAL`.
pub fn run_interruptible<T, W>(py: Python<'_>, cancel: &CancelToken, work: W) -> PyResult<T>
where
    T: Send,
    W: FnOnce(&CancelToken) -> fsnative::Result<T> + Send,
{
    if !on_main_thread(py)? {
        return run_detached(py, || work(cancel));
    }
    let raised: Arc<Mutex<Option<PyErr>>> = Arc::default();
    let token = checking_signals(cancel.clone(), Arc::clone(&raised));
    // A signal handler may itself search: restore what the outer call had.
    let outer = RUNS_SIGNAL_CHECKS.with(|runs| runs.replace(true));
    let outcome = py.detach(|| catch_panic(|| work(&token)));
    RUNS_SIGNAL_CHECKS.with(|runs| runs.set(outer));
    if let Some(err) = raised.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(err);
    }
    outcome.map_err(|e| to_py_err(py, &e))
}

/// A token that stops when `caller` does, or when a signal handler raises (kept in `raised`;
/// `caller` is then cancelled too).
fn checking_signals(caller: CancelToken, raised: Arc<Mutex<Option<PyErr>>>) -> CancelToken {
    let started = Instant::now();
    let next_check = AtomicU64::new(0);
    CancelToken::polling(move || {
        if caller.is_cancelled() {
            return true;
        }
        if !RUNS_SIGNAL_CHECKS.with(Cell::get) {
            return false;
        }
        let now = started.elapsed().as_nanos() as u64;
        if now < next_check.load(Ordering::Relaxed) {
            return false;
        }
        next_check.store(now + SIGNAL_CHECK_INTERVAL.as_nanos() as u64, Ordering::Relaxed);
        Python::attach(|py| match py.check_signals() {
            Ok(()) => false,
            Err(err) => {
                *raised.lock().unwrap_or_else(|e| e.into_inner()) = Some(err);
                caller.cancel();
                true
            }
        })
    })
}

/// Whether the calling thread is Python's main thread.
fn on_main_thread(py: Python<'_>) -> PyResult<bool> {
    let threading = py.import(intern!(py, "threading"))?;
    let current = threading.call_method0(intern!(py, "get_ident"))?;
    let main = threading.call_method0(intern!(py, "main_thread"))?.getattr(intern!(py, "ident"))?;
    current.eq(main)
}

/// Runs a short core call (no cancellation needed) with the GIL released, panics caught.
pub fn run_detached<T, W>(py: Python<'_>, work: W) -> PyResult<T>
where
    T: Send,
    W: FnOnce() -> fsnative::Result<T> + Send,
{
    py.detach(|| catch_panic(work)).map_err(|e| to_py_err(py, &e))
}
