//! Runs a core call with the GIL released, so other Python threads run meanwhile, and
//! interruptible by Ctrl-C.

use std::sync::mpsc;
use std::sync::Mutex;
use std::thread;
use std::time::Duration;

use crossbeam_channel::RecvTimeoutError;
use fsnative::{catch_panic, CancelToken, Error, ErrorCode};
use pyo3::intern;
use pyo3::prelude::*;

use crate::errors::to_py_err;

/// How often the waiting thread looks for a pending signal (Ctrl-C).
const SIGNAL_CHECK_INTERVAL: Duration = Duration::from_millis(20);

/// A call handed to the helper thread.
type Job = Box<dyn FnOnce() + Send>;

/// The thread that runs the main thread's calls, and the process it was started in (a forked
/// child has to start its own).
struct Helper {
    pid: u32,
    jobs: mpsc::Sender<Job>,
}

static HELPER: Mutex<Option<Helper>> = Mutex::new(None);

/// Runs `work` with the GIL released. On Python's main thread, which is where signal handlers
/// run, `work` goes to a long-lived helper thread while the main thread waits in short slices
/// and runs the handlers between them: when one raises (`KeyboardInterrupt` on Ctrl-C),
/// `cancel` is cancelled, the search winds down within moments, and that exception is raised.
/// Other threads run `work` themselves (no handler would run there). A panic in `work` becomes
/// `INTERNAL`.
pub fn run_interruptible<T, W>(py: Python<'_>, cancel: &CancelToken, work: W) -> PyResult<T>
where
    T: Send + 'static,
    W: FnOnce() -> fsnative::Result<T> + Send + 'static,
{
    if !on_main_thread(py)? {
        return run_detached(py, work);
    }
    let (done, outcome) = crossbeam_channel::bounded(1);
    let job: Job = Box::new(move || {
        let _ = done.send(catch_panic(work));
    });
    if let Err(job) = hand_to_helper(job) {
        // No helper thread could be started: search here, not interruptible.
        py.detach(job);
    }
    loop {
        match py.detach(|| outcome.recv_timeout(SIGNAL_CHECK_INTERVAL)) {
            Ok(result) => return result.map_err(|e| to_py_err(py, &e)),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signal) = py.check_signals() {
                    cancel.cancel();
                    // The cancelled search returns soon; its partial result is dropped.
                    py.detach(|| outcome.recv()).ok();
                    return Err(signal);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(to_py_err(py, &Error::new(ErrorCode::Internal, "the search thread ended")));
            }
        }
    }
}

/// Whether the calling thread is Python's main thread.
fn on_main_thread(py: Python<'_>) -> PyResult<bool> {
    let threading = py.import(intern!(py, "threading"))?;
    let current = threading.call_method0(intern!(py, "get_ident"))?;
    let main = threading.call_method0(intern!(py, "main_thread"))?.getattr(intern!(py, "ident"))?;
    current.eq(main)
}

/// Queues `job` on the helper thread, starting it first if needed; gives `job` back when no
/// thread can be started.
fn hand_to_helper(job: Job) -> Result<(), Job> {
    let mut helper = HELPER.lock().unwrap_or_else(|e| e.into_inner());
    let pid = std::process::id();
    if !matches!(helper.as_ref(), Some(h) if h.pid == pid) {
        let (jobs, queue) = mpsc::channel::<Job>();
        let spawned = thread::Builder::new().name("fsnative-search".to_owned()).spawn(move || {
            for job in queue {
                job();
            }
        });
        if spawned.is_err() {
            return Err(job);
        }
        *helper = Some(Helper { pid, jobs });
    }
    let Some(current) = helper.as_ref() else {
        return Err(job);
    };
    if let Err(mpsc::SendError(job)) = current.jobs.send(job) {
        *helper = None;
        return Err(job);
    }
    Ok(())
}

/// Runs a short core call (no cancellation needed) with the GIL released, panics caught.
pub fn run_detached<T, W>(py: Python<'_>, work: W) -> PyResult<T>
where
    T: Send,
    W: FnOnce() -> fsnative::Result<T> + Send,
{
    py.detach(|| catch_panic(work)).map_err(|e| to_py_err(py, &e))
}
