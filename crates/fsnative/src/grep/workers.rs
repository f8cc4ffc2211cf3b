//! The parallel half of a search: workers on helper threads searching batches of files in any
//! order, the calling thread searching queued batches too while it would otherwise wait, and
//! their outcomes put back in sequence for the page.

use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crossbeam_channel::{unbounded, Receiver, RecvTimeoutError, Sender, TryRecvError};

use super::file::FileSearcher;
use super::job::{Done, Job, JobSearch};
use super::page::Page;
use crate::control::Control;
use crate::pool::Scope;

/// How many files may be queued, searched or waiting to be put back in order at once. This
/// bounds memory: each waiting file holds at most `limit + 1` matches.
const WINDOW: u64 = 256;

/// The most files handed to a worker at once. Batches grow only while the workers are busy,
/// so an idle worker gets the next file as soon as the walk finds it.
const BATCH: usize = 8;

/// How often a thread waiting for workers looks at the cancel token.
const CANCEL_POLL: Duration = Duration::from_millis(20);

/// Workers searching batches of files, and the outcomes waiting to be put back in sequence.
pub(super) struct Workers<'a> {
    search: &'a JobSearch<'a>,
    control: &'a Control,
    /// The job queue; `None` once closed, which lets idle workers end.
    jobs: Option<Sender<Vec<Job>>>,
    /// The other end of the job queue, from which the calling thread takes batches while it
    /// would otherwise wait.
    queue: Receiver<Vec<Job>>,
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
    /// Starts up to `count` workers on helper threads, the first job they get being number
    /// `next`; `None` when no thread could be had (the search then goes on inline).
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
            if !scope.spawn(move || work(search, &queue, &done_sender)) {
                break;
            }
            started += 1;
        }
        (started > 0).then(|| Workers {
            search,
            control: search.control,
            jobs: Some(jobs),
            queue,
            done,
            batch: Vec::with_capacity(BATCH),
            waiting: BTreeMap::new(),
            next,
            sent: next,
        })
    }

    /// Queues `job`, takes back what is finished, and waits while [`WINDOW`] files are in
    /// flight (searching with `searcher` meanwhile, see [`Workers::take_back`]). False when
    /// the page is done.
    pub fn hand_out(&mut self, job: Job, page: &mut Page<'_>, searcher: &mut FileSearcher) -> bool {
        self.batch.push(job);
        self.sent += 1;
        if self.batch.len() >= BATCH || self.jobs.as_ref().is_some_and(Sender::is_empty) {
            self.flush();
        }
        self.take_back(page, None);
        while !page.is_done() && self.sent - self.next >= WINDOW {
            self.flush();
            self.take_back(page, Some(searcher));
        }
        !page.is_done()
    }

    /// Hands the batch being filled to the workers.
    fn flush(&mut self) {
        if let (false, Some(jobs)) = (self.batch.is_empty(), &self.jobs) {
            let batch = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
            // Sending cannot fail: `queue` keeps the channel open.
            let _ = jobs.send(batch);
        }
    }

    /// Takes back every outcome of the jobs handed out, until the page is done, searching
    /// with `searcher` meanwhile.
    pub fn finish(mut self, page: &mut Page<'_>, searcher: &mut FileSearcher) {
        self.flush();
        self.jobs = None;
        while !page.is_done() && self.next < self.sent {
            if !self.take_back(page, Some(&mut *searcher)) {
                return;
            }
        }
    }

    /// Receives finished batches and accepts every outcome whose turn has come. Given a
    /// searcher, the calling thread makes progress before it returns: it searches a queued
    /// batch itself (workers that are slow to get a CPU then hold nothing up), or else waits
    /// for one to come back. False when the workers are gone.
    fn take_back(&mut self, page: &mut Page<'_>, searcher: Option<&mut FileSearcher>) -> bool {
        let block = searcher.is_some();
        if let Some(searcher) = searcher {
            if let Ok(batch) = self.queue.try_recv() {
                self.file(search_batch(self.search, searcher, batch));
                self.accept_in_order(page);
                page.truncated = page.truncated.or_else(|| self.control.interruption());
                return true;
            }
        }
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
                Ok(batch) => self.file(batch),
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

    /// Files a finished batch until its turn comes.
    fn file(&mut self, batch: Vec<Done>) {
        if let Some(first) = batch.first() {
            self.waiting.insert(first.job.seq, batch);
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
        if done.send(search_batch(search, &mut searcher, batch)).is_err() {
            return;
        }
    }
}

/// The outcomes of a batch's jobs, in its order.
fn search_batch(search: &JobSearch<'_>, searcher: &mut FileSearcher, batch: Vec<Job>) -> Vec<Done> {
    batch.into_iter().map(|job| Done { outcome: search.search(searcher, &job), job }).collect()
}
