//! The parallel half of a search: worker threads searching batches of files in any order, and
//! their outcomes put back in sequence for the page.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::thread::Scope;
use std::time::Duration;

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError, Sender, TryRecvError};

use super::job::{Done, Job, JobSearch};
use super::page::Page;
use crate::control::Control;

/// How many files may be queued, searched or waiting to be put back in order at once. This
/// bounds memory: each waiting file holds at most `limit + 1` matches.
const WINDOW: u64 = 256;

/// The most files handed to a worker at once. Batches grow only while the workers are busy,
/// so an idle worker gets the next file as soon as the walk finds it.
const BATCH: usize = 8;

/// How often a thread waiting for workers looks at the cancel token.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// Worker threads searching batches of files, and the outcomes waiting to be put back in
/// sequence.
pub(super) struct Workers<'a> {
    control: &'a Control,
    /// The job queue; `None` once closed, which lets idle workers end.
    jobs: Option<Sender<Vec<Job>>>,
    done: Receiver<Vec<Done>>,
    /// The batch being filled.
    batch: Vec<Job>,
    /// Finished batches that came back ahead of their turn, by their first sequence number.
    waiting: BTreeMap<u64, Vec<Done>>,
    /// The sequence number to accept next.
    next: u64,
    /// The sequence number of the next job handed out.
    sent: u64,
}

impl<'env> Workers<'env> {
    /// Starts up to `count` worker threads, the first job they get being number `next`; `None`
    /// when no thread could be started (the search then goes on inline).
    pub fn start<'scope>(
        search: &'env JobSearch<'env>,
        scope: &'scope Scope<'scope, 'env>,
        count: usize,
        next: u64,
    ) -> Option<Workers<'env>> {
        let (jobs, queue) = unbounded::<Vec<Job>>();
        let (done_sender, done) = unbounded::<Vec<Done>>();
        let mut started = 0;
        for _ in 0..count {
            let queue = queue.clone();
            let done_sender = done_sender.clone();
            let spawned = std::thread::Builder::new()
                .name("fsnative-grep".to_owned())
                .spawn_scoped(scope, move || work(search, &queue, &done_sender));
            if spawned.is_err() {
                break;
            }
            started += 1;
        }
        (started > 0).then(|| Workers {
            control: search.control,
            jobs: Some(jobs),
            done,
            batch: Vec::with_capacity(BATCH),
            waiting: BTreeMap::new(),
            next,
            sent: next,
        })
    }

    /// Queues `job`, takes back what is finished, and waits while [`WINDOW`] files are in
    /// flight. False when the page is done.
    pub fn hand_out(&mut self, job: Job, page: &mut Page<'_>) -> bool {
        self.batch.push(job);
        self.sent += 1;
        if self.batch.len() >= BATCH || self.jobs.as_ref().is_some_and(Sender::is_empty) {
            self.flush();
        }
        self.take_back(page, false);
        while !page.is_done() && self.sent - self.next >= WINDOW {
            self.flush();
            self.take_back(page, true);
        }
        !page.is_done()
    }

    /// Hands the batch being filled to the workers.
    fn flush(&mut self) {
        if let (false, Some(jobs)) = (self.batch.is_empty(), &self.jobs) {
            let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
            // Sending fails only if every worker is gone (a panic, which the scope re-raises).
            let _ = jobs.send(batch);
        }
    }

    /// Takes back every outcome of the jobs handed out, until the page is done.
    pub fn finish(mut self, page: &mut Page<'_>) {
        self.flush();
        self.jobs = None;
        while !page.is_done() && self.next < self.sent {
            if !self.take_back(page, true) {
                return;
            }
        }
    }

    /// Receives finished batches (waiting for one when `block`) and accepts every outcome
    /// whose turn has come. False when the workers are gone.
    fn take_back(&mut self, page: &mut Page<'_>, block: bool) -> bool {
        loop {
            let received = if block {
                let wait = self.control.remaining().map_or(CANCEL_POLL, |left| left.min(CANCEL_POLL));
                self.done.recv_timeout(wait)
            } else {
                self.done.try_recv().map_err(|err| match err {
                    TryRecvError::Empty => RecvTimeoutError::Timeout,
                    TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                })
            };
            match received {
                Ok(batch) => {
                    if let Some(first) = batch.first() {
                        self.waiting.insert(first.job.seq, batch);
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return false,
                Err(RecvTimeoutError::Timeout) => {
                    page.truncated = page.truncated.or_else(|| self.control.interruption());
                    return true;
                }
            }
            self.accept_in_order(page);
            if block || page.is_done() {
                page.truncated = page.truncated.or_else(|| self.control.interruption());
                return true;
            }
        }
    }

    /// Accepts the waiting outcomes whose turn has come, until the page is done.
    fn accept_in_order(&mut self, page: &mut Page<'_>) {
        while let Some(batch) = self.waiting.remove(&self.next) {
            for item in batch {
                self.next = item.job.seq + 1;
                if page.accept(item) {
                    return;
                }
            }
        }
    }
}

/// A worker: searches batches until the channel closes, sending each batch's outcomes back
/// whole.
fn work(search: &JobSearch<'_>, jobs: &Receiver<Vec<Job>>, done: &Sender<Vec<Done>>) {
    let mut searcher = search.searcher();
    for batch in jobs.iter() {
        if search.stop.load(Ordering::Relaxed) {
            continue;
        }
        let outcomes = batch.into_iter().map(|job| Done { outcome: search.search(&mut searcher, &job), job });
        if done.send(outcomes.collect()).is_err() {
            return;
        }
    }
}
