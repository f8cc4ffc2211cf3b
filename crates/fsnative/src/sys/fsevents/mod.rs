//! macOS's FSEvents without macOS: its flags, the roots it watches, and what each path event
//! it delivers means for the index, as a pure function ([`Paths::translate`]).
//!
//! FSEvents reports paths, not watches: one stream per root covers the whole tree below it, and
//! each event names the absolute path of an item with the flags of everything that befell it
//! since the last delivery (created, removed and modified may all be set at once, in no order).
//! So an event never says what is there now, only where to look: a name that came or went has
//! its directory listed again, and a file that may have changed is read again. What FSEvents
//! could not keep (events dropped by the kernel or by the daemon, a wrapped event counter)
//! becomes a walk of everything; what it says it did not follow in detail (`MustScanSubDirs`,
//! a mount, the root itself moved, which also says the root is gone) becomes a walk of that
//! directory.
//!
//! The macOS backend (`sys::macos`) and the Linux simulation of FSEvents (`sys::linux`) both
//! feed this module, so the tests of the one run the translation of the other.

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use super::{Change, DirKey, Event};

/// FSEvents' event flags (`kFSEventStreamEventFlag…`), as the CoreServices headers define them.
pub(crate) mod flag {
    pub const MUST_SCAN_SUB_DIRS: u32 = 0x0000_0001;
    pub const USER_DROPPED: u32 = 0x0000_0002;
    pub const KERNEL_DROPPED: u32 = 0x0000_0004;
    pub const EVENT_IDS_WRAPPED: u32 = 0x0000_0008;
    #[cfg(test)]
    pub const HISTORY_DONE: u32 = 0x0000_0010;
    pub const ROOT_CHANGED: u32 = 0x0000_0020;
    pub const MOUNT: u32 = 0x0000_0040;
    pub const UNMOUNT: u32 = 0x0000_0080;
    pub const ITEM_CREATED: u32 = 0x0000_0100;
    pub const ITEM_REMOVED: u32 = 0x0000_0200;
    pub const ITEM_INODE_META_MOD: u32 = 0x0000_0400;
    pub const ITEM_RENAMED: u32 = 0x0000_0800;
    pub const ITEM_MODIFIED: u32 = 0x0000_1000;
    pub const ITEM_FINDER_INFO_MOD: u32 = 0x0000_2000;
    pub const ITEM_CHANGE_OWNER: u32 = 0x0000_4000;
    pub const ITEM_XATTR_MOD: u32 = 0x0000_8000;
    #[cfg_attr(not(any(test, target_os = "linux")), allow(dead_code))]
    pub const ITEM_IS_FILE: u32 = 0x0001_0000;
    pub const ITEM_IS_DIR: u32 = 0x0002_0000;
    pub const ITEM_CLONED: u32 = 0x0040_0000;

    /// Events were lost, or the counter that orders them started again: trust nothing.
    pub const LOST: u32 = USER_DROPPED | KERNEL_DROPPED | EVENT_IDS_WRAPPED;
    /// The item's name came or went.
    pub const NAMED: u32 = ITEM_CREATED | ITEM_REMOVED | ITEM_RENAMED;
    /// The item's contents or metadata changed.
    pub const CHANGED: u32 = ITEM_MODIFIED
        | ITEM_INODE_META_MOD
        | ITEM_FINDER_INFO_MOD
        | ITEM_CHANGE_OWNER
        | ITEM_XATTR_MOD
        | ITEM_CLONED;
    /// The directory must be walked again, whole.
    pub const WALK: u32 = MUST_SCAN_SUB_DIRS | ROOT_CHANGED | MOUNT | UNMOUNT;
}

/// One event as FSEvents delivers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PathEvent {
    /// The item's absolute path, as the file system spells it.
    pub path: Vec<u8>,
    pub flags: u32,
    /// The event's number: they only grow, until [`flag::EVENT_IDS_WRAPPED`].
    pub id: u64,
}

/// The roots a path-level watcher covers, and the directories the index asked it to watch.
#[derive(Debug, Default)]
pub(crate) struct Paths {
    /// Each watched root's number and absolute path.
    roots: Vec<(usize, Vec<u8>)>,
    watched: BTreeSet<DirKey>,
}

impl Paths {
    /// Records the directory at the absolute `path` as watched under `key`. True when it is
    /// a root not covered before: the backend then starts a stream on it.
    pub fn watch(&mut self, path: &[u8], key: DirKey) -> bool {
        let new_root = key.1.is_empty() && !self.roots.iter().any(|(root, _)| *root == key.0);
        if new_root {
            self.roots.push((key.0, path.to_vec()));
        }
        self.watched.insert(key);
        new_root
    }

    /// Whether the root `root` is covered by a stream (the macOS backend's question).
    #[cfg_attr(not(any(test, target_os = "macos")), allow(dead_code))]
    pub fn covers(&self, root: usize) -> bool {
        self.roots.iter().any(|(covered, _)| *covered == root)
    }

    /// Stops counting every directory at or below `dir` of `root` as watched (the root's
    /// stream goes on: the index lists it again at once).
    pub fn forget_below(&mut self, root: usize, dir: &[u8]) {
        self.watched.retain(|key| !super::is_below_or_at(key, root, dir));
    }

    /// How many directories are watched.
    pub fn watched(&self) -> usize {
        self.watched.len()
    }

    /// The watched roots' paths, with their numbers (the simulation's question).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    pub fn roots(&self) -> impl Iterator<Item = (usize, &[u8])> {
        self.roots.iter().map(|(root, path)| (*root, path.as_slice()))
    }

    /// Hands `sink` what `event` means for the index.
    pub fn translate(&self, event: &PathEvent, sink: &mut dyn FnMut(Event<'_>)) {
        let flags = event.flags;
        if flags & flag::LOST != 0 {
            return sink(Event::Overflow);
        }
        let Some((root, relative)) = self.locate(&event.path) else {
            // Above every root: a walk requested there covers the roots below it.
            if flags & flag::WALK != 0 {
                for (root, path) in &self.roots {
                    if super::is_below(path, &event.path) {
                        sink(Event::Rescan(&(*root, Box::default())));
                    }
                }
            }
            return;
        };
        let item = flags & (flag::NAMED | flag::CHANGED) != 0;
        if relative.is_empty() && flags & flag::ROOT_CHANGED != 0 {
            // The root was moved or deleted: what watches it alone hears that it is gone.
            sink(Event::Gone(&(root, Box::default())));
        }
        if relative.is_empty() || flags & flag::WALK != 0 || !item {
            // The root itself, a directory FSEvents did not follow in detail, or (no item
            // flag) a directory whose contents changed.
            return sink(Event::Rescan(&(root, relative.into())));
        }
        let split = relative.iter().rposition(|&b| b == b'/');
        let dir: DirKey = (root, split.map_or(&[][..], |at| &relative[..at]).into());
        let name = split.map_or(relative, |at| &relative[at + 1..]);
        let is_dir = flags & flag::ITEM_IS_DIR != 0;
        if flags & flag::NAMED != 0 {
            // Whether it is there now, the directory's listing says; a directory found there
            // is walked whole.
            sink(Event::Entry { dir: &dir, name, is_dir, change: Change::Appeared });
        }
        if !is_dir || flags & flag::NAMED == 0 {
            // A file may have been written as well as named; a directory's metadata (its
            // permissions) decides what can be listed below it.
            sink(Event::Entry { dir: &dir, name, is_dir, change: Change::Modified });
        }
    }

    /// The root and the path below it of the absolute `path`.
    fn locate<'p>(&self, path: &'p [u8]) -> Option<(usize, &'p [u8])> {
        self.roots.iter().find_map(|(root, root_path)| {
            let rest = path.strip_prefix(root_path.as_slice())?;
            match rest {
                [] => Some((*root, rest)),
                [b'/', below @ ..] => Some((*root, below)),
                _ if root_path.ends_with(b"/") => Some((*root, rest)),
                _ => None,
            }
        })
    }
}
