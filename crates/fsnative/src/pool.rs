//! Helper threads kept between calls. A search that wants helpers borrows idle threads that
//! earlier calls started instead of starting its own: starting a thread, and the allocator
//! warming a new thread's memory, cost more than a small search takes.
//!
//! [`scope`] works as `std::thread::scope` does: a task borrows from the caller's stack, and
//! the scope returns only once no task it handed out runs (one not started yet is dropped).
//! Each task runs on a thread of its own (an idle one, or one started for it), so a task may
//! block, and concurrent calls never wait for each other's tasks. Only as many threads as one
//! call uses (a background call and a helper per CPU) are kept idle; a thread started beyond
//! them, when calls overlap, ends with its task, so memory does not pile up in idle threads.
//! A process forked while helpers exist starts over with none (the threads did not follow
//! it).

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

use crossbeam_channel::{bounded, Receiver, Sender};

/// A task handed to a thread, its lifetime erased (see [`Scope::spawn`]).
type Task = Box<dyn FnOnce() + Send>;

/// Runs `work` with a [`Scope`] whose tasks may borrow what outlives the call; returns once
/// no task spawned in it runs any more. A task no thread has started by the time `work`
/// returns is dropped unrun, so a call never waits for a helper that did not get a CPU (the
/// calling thread does the work instead). A panic in `work` is raised again then, and a panic
/// in a task makes the scope panic too.
pub(crate) fn scope<'env, T>(work: impl for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> T) -> T {
    let scope =
        Scope { tasks: Arc::default(), handed_out: Mutex::default(), scope: PhantomData, env: PhantomData };
    let outcome = catch_unwind(AssertUnwindSafe(|| work(&scope)));
    let tasks = &scope.tasks;
    let handed_out = std::mem::take(&mut *scope.handed_out.lock().unwrap_or_else(|e| e.into_inner()));
    for task in handed_out {
        if task.take_back() {
            tasks.end_one();
        }
    }
    let mut running = tasks.lock();
    while *running > 0 {
        running = tasks.ended.wait(running).unwrap_or_else(|e| e.into_inner());
    }
    drop(running);
    match outcome {
        Err(payload) => resume_unwind(payload),
        Ok(_) if tasks.panicked.load(Ordering::Relaxed) => panic!("a helper thread panicked"),
        Ok(value) => value,
    }
}

/// Hands tasks to helper threads; see [`scope`].
pub(crate) struct Scope<'scope, 'env: 'scope> {
    tasks: Arc<Tasks>,
    /// Every task spawned, to take back those no thread started (its lifetime erased as the
    /// jobs' are: `scope` takes them all back before it returns).
    handed_out: Mutex<Vec<Arc<dyn TakeBack>>>,
    /// As in `std::thread::Scope`: invariant over both lifetimes.
    scope: PhantomData<&'scope mut &'scope ()>,
    env: PhantomData<&'env mut &'env ()>,
}

/// How many tasks of one scope run or wait to start, and whether one panicked.
#[derive(Default)]
struct Tasks {
    running: Mutex<usize>,
    ended: Condvar,
    panicked: AtomicBool,
}

impl Tasks {
    fn lock(&self) -> MutexGuard<'_, usize> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn end_one(&self) {
        let mut running = self.lock();
        *running -= 1;
        if *running == 0 {
            self.ended.notify_all();
        }
    }
}

/// A spawned task until a thread starts it or the scope takes it back, whichever comes first.
struct Slot<F>(Mutex<Option<F>>);

impl<F> Slot<F> {
    fn take(&self) -> Option<F> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}

/// A [`Slot`] of any task.
trait TakeBack: Send + Sync {
    /// Drops the task if no thread started it; true if it did so.
    fn take_back(&self) -> bool;
}

impl<F: Send> TakeBack for Slot<F> {
    fn take_back(&self) -> bool {
        self.take().is_some()
    }
}

impl<'scope> Scope<'scope, '_> {
    /// Runs `task` on a helper thread; false when there is none idle and none could be started.
    pub fn spawn(&'scope self, task: impl FnOnce() + Send + 'scope) -> bool {
        let slot = Arc::new(Slot(Mutex::new(Some(task))));
        *self.tasks.lock() += 1;
        let handle: Arc<dyn TakeBack + 'scope> = Arc::clone(&slot) as _;
        // SAFETY: as for the job below; `scope` takes the task back (or finds it taken) before
        // it returns, and after that the handle only reaches an empty slot.
        let handle = unsafe { std::mem::transmute::<Arc<dyn TakeBack + 'scope>, Arc<dyn TakeBack>>(handle) };
        self.handed_out.lock().unwrap_or_else(|e| e.into_inner()).push(handle);
        let tasks = Arc::clone(&self.tasks);
        let job: Box<dyn FnOnce() + Send + 'scope> = Box::new(move || {
            let Some(task) = slot.take() else { return };
            if catch_unwind(AssertUnwindSafe(task)).is_err() {
                tasks.panicked.store(true, Ordering::Relaxed);
            }
            tasks.end_one();
        });
        // SAFETY: the job runs the task, and so uses what it borrows, only if it takes the task
        // from its slot before `scope` does; `scope` then waits for it to end. Taken back by
        // `scope`, the task is dropped there, and the job only finds its slot empty.
        let job: Task = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + 'scope>, Task>(job) };
        Pool::get().run(job).is_ok()
    }
}

/// The most background calls ([`run_in_background`]) that run at once, as many as Node's own
/// thread pool runs by default; later calls wait their turn.
pub const BACKGROUND_CALLS: usize = 4;

/// Runs `call` on a helper thread, for a binding's asynchronous call: the thread that took a
/// call last is the one most likely idle, so a call usually starts on a thread whose memory
/// is warm. At most [`BACKGROUND_CALLS`] run at once and the others wait, in order; when no
/// thread can be had, `call` runs on the calling thread before this returns.
pub fn run_in_background(call: impl FnOnce() + Send + 'static) {
    let pool = Pool::get();
    let call: Task = Box::new(call);
    {
        let mut calls = pool.calls();
        if calls.running >= BACKGROUND_CALLS {
            calls.waiting.push_back(call);
            return;
        }
        calls.running += 1;
    }
    if let Err(runner) = pool.run(Box::new(move || pool.run_calls(call))) {
        runner();
    }
}

/// The helper threads of this process.
struct Pool {
    /// The process they belong to.
    pid: u32,
    /// How many idle threads are kept: those of one call (a background call, and a helper per
    /// CPU).
    keep: usize,
    /// Where to hand a task to each idle thread, the last one idle last.
    idle: Mutex<Vec<Sender<Task>>>,
    calls: Mutex<BackgroundCalls>,
}

/// The background calls running, and those waiting their turn.
#[derive(Default)]
struct BackgroundCalls {
    running: usize,
    waiting: VecDeque<Task>,
}

/// The pool of this process; another one's after a fork, which a fresh pool replaces.
static POOL: AtomicPtr<Pool> = AtomicPtr::new(ptr::null_mut());

impl Pool {
    /// The pool of this process, made on first use.
    fn get() -> &'static Pool {
        let pid = std::process::id();
        let current = POOL.load(Ordering::Acquire);
        // SAFETY: a pool, once published, is never freed.
        if let Some(pool) = unsafe { current.as_ref() }.filter(|pool| pool.pid == pid) {
            return pool;
        }
        let fresh = Box::into_raw(Box::new(Pool {
            pid,
            keep: crate::control::default_threads() + 1,
            idle: Mutex::new(Vec::new()),
            calls: Mutex::default(),
        }));
        match POOL.compare_exchange(current, fresh, Ordering::AcqRel, Ordering::Acquire) {
            // SAFETY: `fresh` was just published and is never freed.
            Ok(_) => unsafe { &*fresh },
            Err(other) => {
                // SAFETY: `fresh` was never published; `other`, published by another thread
                // of this process, is never freed.
                drop(unsafe { Box::from_raw(fresh) });
                unsafe { &*other }
            }
        }
    }

    fn idle(&self) -> MutexGuard<'_, Vec<Sender<Task>>> {
        self.idle.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn calls(&self) -> MutexGuard<'_, BackgroundCalls> {
        self.calls.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands `task` to the thread idle last, or to a thread started for it; gives it back
    /// when neither could be done.
    fn run(&'static self, task: Task) -> Result<(), Task> {
        let idle = self.idle().pop();
        let thread = match idle {
            // An idle thread leaves the list only under its lock, so this one is waiting.
            Some(thread) => thread,
            None => {
                let (thread, receiver) = bounded(1);
                let own = thread.clone();
                let started = std::thread::Builder::new()
                    .name("fsnative-helper".to_owned())
                    .spawn(move || self.serve(&own, &receiver));
                if started.is_err() {
                    return Err(task);
                }
                thread
            }
        };
        thread.send(task).map_err(|unsent| unsent.0)
    }

    /// A helper thread: runs each task handed to it, listed as idle between tasks.
    fn serve(&self, own: &Sender<Task>, tasks: &Receiver<Task>) {
        // `own` keeps the channel open, so only the thread itself ends the loop.
        while let Ok(task) = tasks.recv() {
            task();
            let mut idle = self.idle();
            if idle.len() >= self.keep {
                return;
            }
            idle.push(own.clone());
        }
    }

    /// Runs `call`, then each background call waiting its turn, until none is left.
    fn run_calls(&self, mut call: Task) {
        loop {
            // A call that panics must still give its turn to the next.
            let _ = catch_unwind(AssertUnwindSafe(call));
            let mut calls = self.calls();
            match calls.waiting.pop_front() {
                Some(next) => call = next,
                None => {
                    calls.running -= 1;
                    return;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_task_that_started_ends_before_the_scope_returns() {
        let ended = &AtomicBool::new(false);
        scope(|s| {
            let (started, wait) = bounded(0);
            assert!(s.spawn(move || {
                started.send(()).unwrap();
                std::thread::sleep(Duration::from_millis(20));
                ended.store(true, Ordering::Relaxed);
            }));
            wait.recv().unwrap();
        });
        assert!(ended.load(Ordering::Relaxed));
    }

    #[test]
    fn no_task_runs_after_its_scope_returned() {
        let ran = AtomicUsize::new(0);
        for _ in 0..20 {
            scope(|s| {
                for _ in 0..4 {
                    s.spawn(|| {
                        ran.fetch_add(1, Ordering::Relaxed);
                    });
                }
            });
            let after = ran.load(Ordering::Relaxed);
            std::thread::sleep(Duration::from_millis(1));
            assert_eq!(ran.load(Ordering::Relaxed), after);
        }
    }

    #[test]
    fn tasks_of_one_scope_run_at_once() {
        let (sender, receiver) = bounded::<u32>(0);
        let got = scope(|s| {
            let (result, returned) = bounded(1);
            assert!(s.spawn(move || result.send(receiver.recv().unwrap()).unwrap()));
            assert!(s.spawn(move || sender.send(7).unwrap()));
            returned.recv().unwrap()
        });
        assert_eq!(got, 7);
    }

    #[test]
    fn a_panicking_task_makes_the_scope_panic() {
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            scope(|s| {
                let (alive, gone) = bounded::<()>(0);
                s.spawn(move || {
                    let _alive = alive;
                    panic!("task");
                });
                // Disconnected once the task has unwound.
                let _ = gone.recv();
            });
        }));
        assert!(outcome.is_err());
    }

    #[test]
    fn background_calls_past_the_limit_wait_their_turn() {
        let calls = BACKGROUND_CALLS + 3;
        let (release, held) = bounded::<()>(0);
        let (done, finished) = bounded(calls);
        for _ in 0..calls {
            let (held, done) = (held.clone(), done.clone());
            run_in_background(move || {
                held.recv().unwrap();
                done.send(()).unwrap();
            });
        }
        for _ in 0..calls {
            release.send(()).unwrap();
        }
        for _ in 0..calls {
            finished.recv().unwrap();
        }
    }
}
