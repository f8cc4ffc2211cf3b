//! The thread that reloads a thesaurus file: an inotify watch on the file's directory (so a
//! file replaced by a rename is seen as well as one written in place), a 500 ms debounce,
//! and an eventfd that wakes it to stop.

use std::ffi::OsString;
use std::mem::MaybeUninit;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rustix::event::{eventfd, poll, EventfdFlags, PollFd, PollFlags, Timespec};
use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
use rustix::io::Errno;

use crate::error::{Error, ErrorCode, Result};

/// How long the file must stay unchanged before it is read again.
pub const RELOAD_DEBOUNCE: Duration = Duration::from_millis(500);

/// The reloading thread; dropping it stops the thread and waits for it.
#[derive(Debug)]
pub(super) struct Reloader {
    wake: OwnedFd,
    thread: Option<JoinHandle<()>>,
}

impl Reloader {
    /// Starts watching `path` (absolute): `reload` is called once the file has settled after
    /// a change, `stopped` when the watch ends by itself (its directory gone, say).
    pub fn start(
        path: &Path,
        reload: impl Fn() + Send + 'static,
        stopped: impl Fn(Error) + Send + 'static,
    ) -> Result<Reloader> {
        let dir = path.parent().unwrap_or(Path::new("/"));
        let name = path.file_name().unwrap_or_default().to_os_string();
        let failed = |e: Errno| Error::from_io(&e.into(), dir);
        let inotify = inotify::init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK).map_err(failed)?;
        let events = WatchFlags::CLOSE_WRITE
            | WatchFlags::MODIFY
            | WatchFlags::CREATE
            | WatchFlags::DELETE
            | WatchFlags::MOVED_FROM
            | WatchFlags::MOVED_TO
            | WatchFlags::DELETE_SELF
            | WatchFlags::MOVE_SELF
            | WatchFlags::ONLYDIR;
        inotify::add_watch(&inotify, dir, events).map_err(failed)?;
        let wake = eventfd(0, EventfdFlags::CLOEXEC | EventfdFlags::NONBLOCK).map_err(failed)?;
        let woken = wake.try_clone().map_err(|e| Error::from_io(&e, dir))?;
        let thread = std::thread::Builder::new()
            .name("fsnative-thesaurus".to_owned())
            .spawn(move || {
                if let Some(error) = watch(&inotify, &woken, &name, &reload) {
                    stopped(error);
                }
            })
            .map_err(|e| Error::new(ErrorCode::Io, format!("cannot start the thesaurus watcher: {e}")))?;
        Ok(Reloader { wake, thread: Some(thread) })
    }
}

impl Drop for Reloader {
    fn drop(&mut self) {
        let _ = rustix::io::write(&self.wake, &1u64.to_ne_bytes());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// What the pending events say.
#[derive(PartialEq)]
enum Seen {
    Nothing,
    /// The file (or what its name leads to) may have changed.
    Changed,
    /// The directory is gone: nothing more can be seen.
    Gone,
}

/// The thread: waits for events, and reloads once the file has been quiet for
/// [`RELOAD_DEBOUNCE`]; returns when woken through `wake`, or with why it cannot go on.
fn watch(inotify: &OwnedFd, wake: &OwnedFd, name: &OsString, reload: &dyn Fn()) -> Option<Error> {
    let mut due: Option<Instant> = None;
    loop {
        let timeout = due.map(|due| {
            let left = due.saturating_duration_since(Instant::now());
            Timespec { tv_sec: left.as_secs() as i64, tv_nsec: i64::from(left.subsec_nanos()) }
        });
        let mut fds = [PollFd::new(inotify, PollFlags::IN), PollFd::new(wake, PollFlags::IN)];
        match poll(&mut fds, timeout.as_ref()) {
            Ok(_) | Err(Errno::INTR) => {}
            Err(error) => {
                return Some(Error::new(ErrorCode::Io, format!("the thesaurus watcher stopped: {error}")));
            }
        }
        if !fds[1].revents().is_empty() {
            return None;
        }
        match drain(inotify, name.as_bytes()) {
            Seen::Changed => due = Some(Instant::now() + RELOAD_DEBOUNCE),
            Seen::Gone => {
                let message = "the thesaurus's directory was removed or moved; it is no longer watched";
                return Some(Error::new(ErrorCode::NotFound, message));
            }
            Seen::Nothing => {}
        }
        if due.is_some_and(|due| Instant::now() >= due) {
            due = None;
            reload();
        }
    }
}

/// Reads every pending event; what they say about the file named `name`.
fn drain(inotify: &OwnedFd, name: &[u8]) -> Seen {
    let mut buffer = [MaybeUninit::<u8>::uninit(); 4096];
    let mut reader = inotify::Reader::new(inotify, &mut buffer);
    let mut seen = Seen::Nothing;
    loop {
        let event = match reader.next() {
            Ok(event) => event,
            Err(Errno::INTR) => continue,
            Err(_) => return seen,
        };
        let flags = event.events();
        if flags.intersects(ReadFlags::IGNORED | ReadFlags::DELETE_SELF | ReadFlags::MOVE_SELF) {
            return Seen::Gone;
        }
        let named = event.file_name().is_some_and(|file| file.to_bytes() == name);
        if named || flags.contains(ReadFlags::QUEUE_OVERFLOW) {
            seen = Seen::Changed;
        }
    }
}
