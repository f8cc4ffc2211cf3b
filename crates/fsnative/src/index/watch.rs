//! The watcher: one inotify instance, a watch per listed directory, and its pending events
//! read without blocking and turned into [`Changes`].
//!
//! The kernel queues an event during the system call that makes the change, so reading the
//! instance until it is empty, at the start of a query, sees every change whose call
//! returned before the query began. Nothing sits between the kernel's queue and the query.

use std::collections::{BTreeSet, HashMap};
use std::mem::MaybeUninit;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, OwnedFd};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};
use rustix::io::Errno;

/// A watched directory: its root and its path below it ("" for the root).
pub(super) type DirKey = (usize, Box<[u8]>);

/// What the pending events say changed.
#[derive(Debug, Default)]
pub(super) struct Changes {
    /// Directories whose names changed (created, deleted or renamed entries): list again.
    pub relist: BTreeSet<DirKey>,
    /// Entries whose whole subtree must be walked again (a directory created, moved in or
    /// changed permissions; a directory whose ignore files changed).
    pub rescan: BTreeSet<DirKey>,
    /// Files whose contents or metadata changed, and names that now lead elsewhere.
    pub touched: BTreeSet<DirKey>,
    /// Events were lost: everything must be walked again.
    pub overflow: bool,
}

impl Changes {
    pub fn is_empty(&self) -> bool {
        self.relist.is_empty() && self.rescan.is_empty() && self.touched.is_empty() && !self.overflow
    }
}

/// Names whose change changes what the walk admits in their directory and below.
const IGNORE_FILES: [&[u8]; 3] = [b".gitignore", b".ignore", b".rgignore"];

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
pub(super) struct Watcher {
    fd: OwnedFd,
    dirs: HashMap<i32, DirKey>,
    /// Directories that could not be watched (the kernel's limit, say): listed again before
    /// every query instead.
    pub unwatched: BTreeSet<DirKey>,
    /// Tests: behave as when the kernel's queue overflows (every event lost, and said to be).
    #[cfg(test)]
    pub lose_events: bool,
    /// Tests: behave as when the kernel refuses a watch on directories with this name.
    #[cfg(test)]
    pub refuse: Option<&'static [u8]>,
}

impl Watcher {
    pub fn new() -> std::io::Result<Watcher> {
        let fd = inotify::init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC)?;
        Ok(Watcher {
            fd,
            dirs: HashMap::new(),
            unwatched: BTreeSet::new(),
            #[cfg(test)]
            lose_events: false,
            #[cfg(test)]
            refuse: None,
        })
    }

    /// Watches the directory open as `dir` (opened beneath its root, so the watch is on the
    /// directory the walk listed, whatever its path leads to now: the kernel resolves the
    /// descriptor's `/proc` link to it).
    pub fn watch(&mut self, dir: BorrowedFd<'_>, key: DirKey) {
        let path = format!("/proc/self/fd/{}", dir.as_raw_fd());
        let added = inotify::add_watch(&self.fd, path, watched_events());
        #[cfg(test)]
        let added = added.and_then(|wd| match self.refuse {
            Some(name) if key.1.rsplit(|&b| b == b'/').next() == Some(name) => {
                let _ = inotify::remove_watch(&self.fd, wd);
                Err(Errno::NOSPC)
            }
            _ => Ok(wd),
        });
        match added {
            Ok(wd) => {
                self.unwatched.remove(&key);
                self.dirs.insert(wd, key);
            }
            Err(_) => {
                self.unwatched.insert(key);
            }
        }
    }

    /// Stops watching every directory at or below `dir` of `root`.
    pub fn forget_below(&mut self, root: usize, dir: &[u8]) {
        let inside =
            |key: &DirKey| key.0 == root && (key.1.as_ref() == dir || super::tree::is_below(&key.1, dir));
        let gone: Vec<i32> = self.dirs.iter().filter(|(_, key)| inside(key)).map(|(&wd, _)| wd).collect();
        for wd in gone {
            let _ = inotify::remove_watch(&self.fd, wd);
            self.dirs.remove(&wd);
        }
        self.unwatched.retain(|key| !inside(key));
    }

    pub fn watched(&self) -> usize {
        self.dirs.len()
    }

    /// Events wait to be read, or directories that cannot be watched wait to be listed: a
    /// view must catch up first.
    pub fn behind(&self) -> bool {
        #[cfg(test)]
        if self.lose_events {
            return true;
        }
        let mut fds = [PollFd::new(&self.fd, PollFlags::IN)];
        let now = Timespec { tv_sec: 0, tv_nsec: 0 };
        !self.unwatched.is_empty() || poll(&mut fds, Some(&now)).map_or(true, |ready| ready > 0)
    }

    /// The instance, for waiting on it.
    pub fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_fd()
    }

    /// Reads every pending event into `changes`.
    pub fn drain(&mut self, changes: &mut Changes) {
        self.read_events(changes);
        #[cfg(test)]
        if self.lose_events {
            *changes = Changes { overflow: true, ..Changes::default() };
        }
    }

    fn read_events(&mut self, changes: &mut Changes) {
        let mut buffer = [MaybeUninit::<u8>::uninit(); 16 * 1024];
        let mut reader = inotify::Reader::new(&self.fd, &mut buffer);
        loop {
            let event = match reader.next() {
                Ok(event) => event,
                Err(Errno::INTR) => continue,
                Err(Errno::WOULDBLOCK) => return,
                Err(_) => {
                    changes.overflow = true;
                    return;
                }
            };
            let flags = event.events();
            if flags.contains(ReadFlags::QUEUE_OVERFLOW) {
                changes.overflow = true;
                continue;
            }
            let wd = event.wd();
            if flags.contains(ReadFlags::IGNORED) {
                self.dirs.remove(&wd);
                continue;
            }
            let Some((root, dir)) = self.dirs.get(&wd) else {
                continue;
            };
            let Some(name) = event.file_name().map(|n| n.to_bytes()).filter(|n| !n.is_empty()) else {
                // The directory itself was deleted or moved: its parent's watch says so.
                continue;
            };
            let child: Box<[u8]> = if dir.is_empty() {
                name.into()
            } else {
                [dir.as_ref(), b"/", name].concat().into_boxed_slice()
            };
            let is_dir = flags.contains(ReadFlags::ISDIR);
            let renamed = flags.intersects(
                ReadFlags::CREATE | ReadFlags::DELETE | ReadFlags::MOVED_FROM | ReadFlags::MOVED_TO,
            );
            if IGNORE_FILES.contains(&name) {
                changes.rescan.insert((*root, dir.clone()));
            }
            if renamed {
                changes.relist.insert((*root, dir.clone()));
            }
            if is_dir && flags.intersects(ReadFlags::CREATE | ReadFlags::MOVED_TO | ReadFlags::ATTRIB) {
                changes.rescan.insert((*root, child));
            } else if !is_dir {
                changes.touched.insert((*root, child));
            }
        }
    }
}
