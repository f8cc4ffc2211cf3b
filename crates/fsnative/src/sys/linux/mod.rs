//! Linux: `getdents64` listings, an eventfd wake-up, per-thread niceness, and inotify (or, for
//! tests, a simulation of macOS's FSEvents built on it).

mod inotify;
mod simulated;

use std::io;
use std::mem::MaybeUninit;
use std::path::Path;

use rustix::event::{eventfd, EventfdFlags};
use rustix::fs::{RawDir, Stat};
use rustix::process::setpriority_process;
use rustix::thread::gettid;

use super::unix::listed;
use super::{DirKey, Event, Handle, HandleRef, ListedEntry};

/// The buffer one `getdents` call fills: most directories are read in one call (and one more
/// that finds the end).
const LISTING_BUFFER: usize = 32 * 1024;

/// Calls `visit` with every entry of the open directory `dir` but `.` and `..`: its name, and
/// its type when the listing tells it (never a placeholder: Linux keeps none).
pub(crate) fn list_dir(dir: HandleRef<'_>, mut visit: impl FnMut(ListedEntry<'_>)) -> io::Result<()> {
    let mut buffer = vec![MaybeUninit::<u8>::uninit(); LISTING_BUFFER];
    let mut listing = RawDir::new(dir, &mut buffer);
    while let Some(entry) = listing.next() {
        let entry = entry?;
        listed(entry.file_name(), entry.file_type(), &mut visit);
    }
    Ok(())
}

/// Linux's file systems compare names byte for byte: NFC and NFD spellings are two names.
pub(crate) const NAMES_IGNORE_NORMALIZATION: bool = false;

/// Linux keeps no cloud placeholders in `stat`.
pub(super) fn is_dataless(_stat: &Stat) -> bool {
    false
}

/// Lowers the calling thread's priority below the host's threads (best effort: where it
/// cannot be set, the thread runs all the same).
pub(crate) fn lower_thread_priority() {
    /// A helper's niceness: the host's own threads, and searches, take the cores first.
    const HELPER_NICENESS: i32 = 10;
    let _ = setpriority_process(Some(gettid()), HELPER_NICENESS);
}

/// A wake-up another thread can send to one that waits on [`Wake::handle`]: an eventfd.
#[derive(Debug)]
pub(crate) struct Wake(Handle);

impl Wake {
    pub fn new() -> io::Result<Wake> {
        Ok(Wake(eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK)?))
    }

    /// Wakes the waiting thread, now and at every later wait.
    pub fn wake(&self) {
        let _ = rustix::io::write(&self.0, &1u64.to_ne_bytes());
    }

    /// What to wait on.
    pub fn handle(&self) -> HandleRef<'_> {
        std::os::fd::AsFd::as_fd(&self.0)
    }
}

/// The change watcher: inotify, or (when `FSNATIVE_WATCHER=simulated-fsevents`, for tests)
/// the simulation of macOS's FSEvents.
pub(crate) enum Watcher {
    Inotify(inotify::Inotify),
    Simulated(Box<simulated::Simulated>),
}

impl Watcher {
    /// A watcher with nothing watched yet.
    pub fn new() -> io::Result<Watcher> {
        match std::env::var("FSNATIVE_WATCHER").as_deref() {
            Ok("simulated-fsevents") => Ok(Watcher::Simulated(Box::new(simulated::Simulated::new()?))),
            _ => Ok(Watcher::Inotify(inotify::Inotify::new()?)),
        }
    }

    /// Watches the directory open as `dir`, at `path`, as `key`; false when it cannot be.
    pub fn watch(&mut self, dir: HandleRef<'_>, path: &Path, key: DirKey) -> bool {
        match self {
            Watcher::Inotify(w) => w.watch(dir, key),
            Watcher::Simulated(w) => w.watch(dir, path, key),
        }
    }

    /// Stops watching every directory at or below `dir` of `root`.
    pub fn forget_below(&mut self, root: usize, dir: &[u8]) {
        match self {
            Watcher::Inotify(w) => w.forget_below(root, dir),
            Watcher::Simulated(w) => w.forget_below(root, dir),
        }
    }

    /// How many directories are watched.
    pub fn watched(&self) -> usize {
        match self {
            Watcher::Inotify(w) => w.watched(),
            Watcher::Simulated(w) => w.watched(),
        }
    }

    /// Events may be waiting: [`Watcher::drain`] before answering.
    pub fn pending(&self) -> bool {
        match self {
            Watcher::Inotify(w) => w.pending(),
            Watcher::Simulated(w) => w.pending(),
        }
    }

    /// Hands every event that happened before this call to `sink`.
    pub fn drain(&mut self, sink: &mut dyn FnMut(Event<'_>)) {
        match self {
            Watcher::Inotify(w) => w.drain(sink),
            Watcher::Simulated(w) => w.drain(sink),
        }
    }

    /// Readable when events wait.
    pub fn handle(&self) -> HandleRef<'_> {
        match self {
            Watcher::Inotify(w) => w.handle(),
            Watcher::Simulated(w) => w.handle(),
        }
    }
}
