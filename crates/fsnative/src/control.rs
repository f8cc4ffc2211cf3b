//! Cancellation and deadlines for long-running calls.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crate::result::Truncation;

/// A handle that stops a running grep or glob from another thread. Clones share one flag.
///
/// A cancelled call returns the results found so far, flagged
/// [`Truncation::Cancelled`](crate::Truncation::Cancelled), with a cursor to continue.
#[derive(Clone, Default)]
pub struct CancelToken {
    flag: Arc<AtomicBool>,
    /// Asked on every check, when set (see [`CancelToken::polling`]).
    poll: Option<Arc<dyn Fn() -> bool + Send + Sync>>,
}

impl std::fmt::Debug for CancelToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CancelToken")
            .field("cancelled", &self.flag.load(Ordering::Relaxed))
            .field("polling", &self.poll.is_some())
            .finish()
    }
}

impl CancelToken {
    /// A token that has not been cancelled.
    pub fn new() -> CancelToken {
        CancelToken::default()
    }

    /// A token that also asks `poll` whether to stop each time a call checks it, and is
    /// cancelled once `poll` says yes. Calls check often and from every thread they use, so
    /// `poll` must be cheap; a host with something slow to run (an interpreter's signal
    /// handlers) limits how often it really does so.
    pub fn polling(poll: impl Fn() -> bool + Send + Sync + 'static) -> CancelToken {
        CancelToken { flag: Arc::default(), poll: Some(Arc::new(poll)) }
    }

    /// Asks every call holding this token to stop as soon as it can.
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }

    /// True once [`cancel`](CancelToken::cancel) was called, or the poll said to stop.
    pub fn is_cancelled(&self) -> bool {
        if self.flag.load(Ordering::Relaxed) {
            return true;
        }
        let stop = self.poll.as_ref().is_some_and(|poll| poll());
        if stop {
            self.cancel();
        }
        stop
    }
}

/// The stop conditions of one call: its cancel token and its deadline.
#[derive(Clone, Debug)]
pub(crate) struct Control {
    cancel: CancelToken,
    deadline: Option<Instant>,
}

impl Control {
    pub fn new(cancel: &CancelToken, timeout_ms: Option<u64>) -> Control {
        let deadline = timeout_ms.map(|ms| Instant::now() + Duration::from_millis(ms));
        Control { cancel: cancel.clone(), deadline }
    }

    /// The control of work nobody can cancel and that has no deadline (the index's own).
    pub fn unlimited() -> Control {
        Control { cancel: CancelToken::new(), deadline: None }
    }

    /// Why the call must stop now, if it must.
    pub fn interruption(&self) -> Option<Truncation> {
        if self.cancel.is_cancelled() {
            return Some(Truncation::Cancelled);
        }
        match self.deadline {
            Some(deadline) if Instant::now() >= deadline => Some(Truncation::Timeout),
            _ => None,
        }
    }

    /// Time left before the deadline (`None`: no deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline.map(|d| d.saturating_duration_since(Instant::now()))
    }
}

/// The thread count when a request does not give one: the CPUs this process may use (read
/// once; finding out costs a dozen system calls).
pub(crate) fn default_threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(2, |n| n.get()))
}
