//! The index's side of the watcher: which directories it watches, those it could not, and what
//! the OS layer's events ([`sys::Event`]) mean for the lists ([`Changes`]).
//!
//! Reading the watcher's pending events at the start of a query sees every change whose system
//! call returned before it (on Linux the kernel queues each event during that call; on
//! macOS the streams are flushed first: see `sys`). On Windows nearly so: a change's record may
//! become readable a moment after its call returned, and NTFS may report a write's new size
//! and time only when the writer closes the file (`sys::windows::watcher` says exactly what).

use std::collections::BTreeSet;
use std::path::Path;

use crate::sys::{self, Change, Event, HandleRef};

pub(crate) use crate::sys::DirKey;

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

    /// Adds what `event` means.
    fn add(&mut self, event: Event<'_>) {
        match event {
            Event::Overflow => self.overflow = true,
            Event::Rescan(dir) => {
                self.rescan.insert(dir.clone());
            }
            // The directory's parent hears of it; a root gone fails the next search's open.
            Event::Gone(_) => {}
            Event::Entry { dir, name, is_dir, change } => {
                let child: Box<[u8]> = if dir.1.is_empty() {
                    name.into()
                } else {
                    [dir.1.as_ref(), b"/", name].concat().into_boxed_slice()
                };
                if IGNORE_FILES.contains(&name) {
                    self.rescan.insert(dir.clone());
                }
                if change != Change::Modified {
                    self.relist.insert(dir.clone());
                }
                if is_dir && change != Change::Vanished {
                    self.rescan.insert((dir.0, child));
                } else if !is_dir {
                    self.touched.insert((dir.0, child));
                }
            }
        }
    }
}

/// Names whose change changes what the walk admits in their directory and below.
const IGNORE_FILES: [&[u8]; 3] = [b".gitignore", b".ignore", b".rgignore"];

/// The OS's watcher and the directories it could not watch.
pub(super) struct Watcher {
    os: sys::Watcher,
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
        Ok(Watcher {
            os: sys::Watcher::new()?,
            unwatched: BTreeSet::new(),
            #[cfg(test)]
            lose_events: false,
            #[cfg(test)]
            refuse: None,
        })
    }

    /// Watches the directory open as `dir`, at `path`, as `key`.
    pub fn watch(&mut self, dir: HandleRef<'_>, path: &Path, key: DirKey) {
        #[cfg(test)]
        if self.refuse.is_some_and(|name| key.1.rsplit(|&b| b == b'/').next() == Some(name)) {
            self.unwatched.insert(key);
            return;
        }
        if self.os.watch(dir, path, key.clone()) {
            self.unwatched.remove(&key);
        } else {
            self.unwatched.insert(key);
        }
    }

    /// Stops watching every directory at or below `dir` of `root`.
    pub fn forget_below(&mut self, root: usize, dir: &[u8]) {
        self.os.forget_below(root, dir);
        self.unwatched.retain(|key| !sys::is_below_or_at(key, root, dir));
    }

    pub fn watched(&self) -> usize {
        self.os.watched()
    }

    /// Events wait to be read, or directories that cannot be watched wait to be listed: a
    /// view must catch up first.
    pub fn behind(&self) -> bool {
        #[cfg(test)]
        if self.lose_events {
            return true;
        }
        !self.unwatched.is_empty() || self.os.pending()
    }

    /// What to wait on for events.
    pub fn handle(&self) -> HandleRef<'_> {
        self.os.handle()
    }

    /// Reads every pending event into `changes`.
    pub fn drain(&mut self, changes: &mut Changes) {
        self.os.drain(&mut |event| changes.add(event));
        #[cfg(test)]
        if self.lose_events {
            *changes = Changes { overflow: true, ..Changes::default() };
        }
    }
}
