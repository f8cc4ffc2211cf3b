//! What a walk yields, and what it counts as left out.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::roots::Location;

/// What a walk found: an entry that passed every filter.
#[derive(Debug)]
pub(crate) struct Walked {
    /// Canonical root joined with the names walked; a followed link keeps its own path.
    pub path: PathBuf,
    pub kind: WalkedKind,
    /// Where the entry really lies, when a followed link on the way makes that differ from
    /// `path` below the walk's root.
    pub at: Option<Location>,
    /// The listing marked it a cloud placeholder ([`crate::sys::ListedEntry::dataless`]):
    /// its contents are not on this machine. False for a followed link.
    pub dataless: bool,
}

/// The type of a walked entry, after following a link when links are followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WalkedKind {
    File,
    Dir,
    /// A symlink that was not followed (links are not followed).
    Symlink,
}

/// One entry of a listing that passed every filter: what the caller made of it (if anything),
/// and what leads to its own listing when it is a directory to descend into.
pub(crate) struct Listed<T, D> {
    pub item: Option<T>,
    pub descend: Option<D>,
}

/// Entries a walk left out, shared by its threads.
#[derive(Debug, Default)]
pub(crate) struct SkipCounters {
    pub special: AtomicU64,
    pub outside: AtomicU64,
    pub errors: AtomicU64,
}

impl SkipCounters {
    pub fn add(counter: &AtomicU64) {
        counter.fetch_add(1, Ordering::Relaxed);
    }

    pub fn get(counter: &AtomicU64) -> u64 {
        counter.load(Ordering::Relaxed)
    }
}

/// A file's modification time in nanoseconds since the epoch (0 when unknown).
pub(crate) fn modified_ns(path: &Path) -> i128 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128)
}
