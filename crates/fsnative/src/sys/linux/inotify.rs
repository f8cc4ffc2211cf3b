//! inotify: a watch per listed directory, its pending events read without blocking.
//!
//! The kernel queues an event during the system call that makes the change, so reading the
//! instance until it is empty, at the start of a query, sees every change whose call
//! returned before the query began. Nothing sits between the kernel's queue and the query.

use std::collections::HashMap;
use std::io;
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, AsRawFd};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
use rustix::io::Errno;

use crate::sys::{is_below_or_at, Change, DirKey, Event, Handle, HandleRef};

/// The events each directory is watched for.
fn watched_events() -> WatchFlags {
    WatchFlags::CREATE
        | WatchFlags::DELETE
        | WatchFlags::MOVED_FROM
        | WatchFlags::MOVED_TO
        | WatchFlags::MODIFY
        | WatchFlags::CLOSE_WRITE
        | WatchFlags::ATTRIB
        | WatchFlags::DELETE_SELF
        | WatchFlags::MOVE_SELF
        | WatchFlags::ONLYDIR
        | WatchFlags::EXCL_UNLINK
        // Watching a directory again (every listing does) must not replace its mask: the kernel
        // clears a replaced mask before setting it, and an event raised in between is lost (a
        // rename's MOVED_TO, say, while its MOVED_FROM was being applied).
        | WatchFlags::MASK_ADD
}

/// The inotify instance and which directory each watch is on.
pub(crate) struct Inotify {
    fd: Handle,
    dirs: HashMap<i32, DirKey>,
}

impl Inotify {
    pub fn new() -> io::Result<Inotify> {
        let fd = inotify::init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC)?;
        Ok(Inotify { fd, dirs: HashMap::new() })
    }

    /// Watches the directory open as `dir` (the watch is on the directory the walk listed,
    /// whatever its path leads to now: the kernel resolves the descriptor's `/proc` link to it).
    pub fn watch(&mut self, dir: HandleRef<'_>, key: DirKey) -> bool {
        let path = format!("/proc/self/fd/{}", dir.as_raw_fd());
        match inotify::add_watch(&self.fd, path, watched_events()) {
            Ok(wd) => {
                self.dirs.insert(wd, key);
                true
            }
            Err(_) => false,
        }
    }

    pub fn forget_below(&mut self, root: usize, dir: &[u8]) {
        let gone: Vec<i32> =
            self.dirs.iter().filter(|(_, key)| is_below_or_at(key, root, dir)).map(|(&wd, _)| wd).collect();
        for wd in gone {
            let _ = inotify::remove_watch(&self.fd, wd);
            self.dirs.remove(&wd);
        }
    }

    pub fn watched(&self) -> usize {
        self.dirs.len()
    }

    pub fn pending(&self) -> bool {
        let mut fds = [PollFd::new(&self.fd, PollFlags::IN)];
        let now = Timespec { tv_sec: 0, tv_nsec: 0 };
        poll(&mut fds, Some(&now)).map_or(true, |ready| ready > 0)
    }

    pub fn handle(&self) -> HandleRef<'_> {
        self.fd.as_fd()
    }

    pub fn drain(&mut self, sink: &mut dyn FnMut(Event<'_>)) {
        let mut buffer = [MaybeUninit::<u8>::uninit(); 16 * 1024];
        let mut reader = inotify::Reader::new(&self.fd, &mut buffer);
        loop {
            let event = match reader.next() {
                Ok(event) => event,
                Err(Errno::INTR) => continue,
                Err(Errno::WOULDBLOCK) => return,
                Err(_) => return sink(Event::Overflow),
            };
            let flags = event.events();
            if flags.contains(ReadFlags::QUEUE_OVERFLOW) {
                sink(Event::Overflow);
                continue;
            }
            let wd = event.wd();
            if flags.contains(ReadFlags::IGNORED) {
                if let Some(key) = self.dirs.remove(&wd) {
                    sink(Event::Gone(&key));
                }
                continue;
            }
            let Some(key) = self.dirs.get(&wd) else {
                continue;
            };
            if flags.intersects(ReadFlags::DELETE_SELF | ReadFlags::MOVE_SELF) {
                sink(Event::Gone(key));
                continue;
            }
            let Some(name) = event.file_name().map(|n| n.to_bytes()).filter(|n| !n.is_empty()) else {
                continue;
            };
            let change = if flags.intersects(ReadFlags::CREATE | ReadFlags::MOVED_TO) {
                Change::Appeared
            } else if flags.intersects(ReadFlags::DELETE | ReadFlags::MOVED_FROM) {
                Change::Vanished
            } else {
                Change::Modified
            };
            sink(Event::Entry { dir: key, name, is_dir: flags.contains(ReadFlags::ISDIR), change });
        }
    }
}
