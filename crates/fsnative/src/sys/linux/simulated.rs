//! A simulation of macOS's FSEvents on Linux, for tests (`FSNATIVE_WATCHER=simulated-fsevents`):
//! the kernel's inotify events become what FSEvents delivers, and go through the same
//! translation as the macOS backend's ([`Paths::translate`]).
//!
//! - Path-level: each event names an absolute path with item flags; watches are gone.
//! - Coalesced: events for one path since the last delivery merge into one, their flags OR-ed
//!   (so created, modified and removed may all be set, in no order).
//! - Lossy: a batch is now and then replaced by `MustScanSubDirs` on the directory most of it
//!   fell in, or dropped whole (`UserDropped`), as the daemon does when it falls behind. The
//!   draws are seeded (`FSNATIVE_SIMULATION_SEED`), so a failing run can be repeated.
//!
//! The kernel's queue is read at every drain, as `FSEventStreamFlushSync` makes the daemon hand
//! over what it holds: the latency that FSEvents adds before a delivery is what a flush skips.
//! Counts of what was simulated are written to standard error when a watcher that heard
//! anything ends.

use std::collections::BTreeMap;
use std::io;
use std::path::Path;

use super::inotify::Inotify;
use crate::sys::fsevents::{flag, PathEvent, Paths};
use crate::sys::{Change, DirKey, Event, HandleRef};

/// One batch in this many is dropped whole...
const DROP_ONE_IN: u64 = 40;
/// ...and one in this many (of the rest) becomes `MustScanSubDirs` on one directory.
const COLLAPSE_ONE_IN: u64 = 8;

/// What was simulated, for the report.
#[derive(Debug, Default)]
struct Counts {
    kernel_events: u64,
    delivered: u64,
    coalesced: u64,
    dropped_batches: u64,
    must_scan: u64,
}

/// The simulated stream: inotify underneath, path events on top.
pub(crate) struct Simulated {
    inotify: Inotify,
    paths: Paths,
    /// The events since the last delivery, by path, in the order their paths first came.
    pending: BTreeMap<Vec<u8>, (u64, u32)>,
    next_id: u64,
    random: u64,
    counts: Counts,
}

impl Simulated {
    pub fn new() -> io::Result<Simulated> {
        let seed = std::env::var("FSNATIVE_SIMULATION_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
        Ok(Simulated {
            inotify: Inotify::new()?,
            paths: Paths::default(),
            pending: BTreeMap::new(),
            next_id: 1,
            random: seed | 1,
            counts: Counts::default(),
        })
    }

    pub fn watch(&mut self, dir: HandleRef<'_>, path: &Path, key: DirKey) -> bool {
        if !self.inotify.watch(dir, key.clone()) {
            return false;
        }
        self.paths.watch(path.as_os_str().as_encoded_bytes(), key);
        true
    }

    pub fn forget_below(&mut self, root: usize, dir: &[u8]) {
        self.inotify.forget_below(root, dir);
        self.paths.forget_below(root, dir);
    }

    pub fn watched(&self) -> usize {
        self.paths.watched()
    }

    pub fn pending(&self) -> bool {
        !self.pending.is_empty() || self.inotify.pending()
    }

    pub fn handle(&self) -> HandleRef<'_> {
        self.inotify.handle()
    }

    /// Flushes: what the kernel queued becomes path events, coalesced, now and then lost, and
    /// each is translated for `sink`.
    pub fn drain(&mut self, sink: &mut dyn FnMut(Event<'_>)) {
        let mut kernel = Vec::new();
        let roots: Vec<(usize, Vec<u8>)> =
            self.paths.roots().map(|(root, path)| (root, path.to_vec())).collect();
        self.inotify.drain(&mut |event| kernel.extend(as_path_event(&roots, event)));
        self.counts.kernel_events += kernel.len() as u64;
        for (path, flags) in kernel {
            let id = self.next_id;
            self.next_id += 1;
            match self.pending.get_mut(&path) {
                Some(held) => {
                    held.1 |= flags;
                    self.counts.coalesced += 1;
                }
                None => {
                    self.pending.insert(path, (id, flags));
                }
            }
        }
        if self.pending.is_empty() {
            return;
        }
        let mut batch: Vec<PathEvent> = std::mem::take(&mut self.pending)
            .into_iter()
            .map(|(path, (id, flags))| PathEvent { path, flags, id })
            .collect();
        batch.sort_by_key(|event| event.id);
        let last = batch.last().map_or(0, |event| event.id);
        if self.draw(DROP_ONE_IN) {
            self.counts.dropped_batches += 1;
            batch = vec![PathEvent {
                path: b"/".to_vec(),
                flags: flag::MUST_SCAN_SUB_DIRS | flag::USER_DROPPED,
                id: last,
            }];
        } else if self.draw(COLLAPSE_ONE_IN) {
            self.counts.must_scan += 1;
            let dir = parent(&batch[0].path).to_vec();
            batch.retain(|event| parent(&event.path) != dir.as_slice());
            batch.push(PathEvent { path: dir, flags: flag::MUST_SCAN_SUB_DIRS, id: last });
        }
        self.counts.delivered += batch.len() as u64;
        for event in &batch {
            self.paths.translate(event, sink);
        }
    }

    /// True one time in `n`.
    fn draw(&mut self, n: u64) -> bool {
        // xorshift64
        self.random ^= self.random << 13;
        self.random ^= self.random >> 7;
        self.random ^= self.random << 17;
        self.random.is_multiple_of(n)
    }
}

impl Drop for Simulated {
    fn drop(&mut self) {
        let Counts { kernel_events, delivered, coalesced, dropped_batches, must_scan } = self.counts;
        if kernel_events == 0 {
            return;
        }
        eprintln!(
            "simulated FSEvents: {kernel_events} kernel events, {coalesced} coalesced, {delivered} delivered, \
             {dropped_batches} batches dropped, {must_scan} collapsed into MustScanSubDirs"
        );
    }
}

/// The path event FSEvents would give for a kernel event, under the roots `roots`.
fn as_path_event(roots: &[(usize, Vec<u8>)], event: Event<'_>) -> Option<(Vec<u8>, u32)> {
    let absolute = |(root, dir): &DirKey, name: &[u8]| {
        let (_, base) = roots.iter().find(|(number, _)| number == root)?;
        let mut path = base.clone();
        for part in [dir.as_ref(), name] {
            if !part.is_empty() {
                path.push(b'/');
                path.extend_from_slice(part);
            }
        }
        Some(path)
    };
    match event {
        Event::Overflow => Some((b"/".to_vec(), flag::KERNEL_DROPPED | flag::MUST_SCAN_SUB_DIRS)),
        Event::Rescan(dir) => Some((absolute(dir, b"")?, flag::MUST_SCAN_SUB_DIRS)),
        Event::Gone(dir) if dir.1.is_empty() => Some((absolute(dir, b"")?, flag::ROOT_CHANGED)),
        // A directory below a root: its parent's event says so.
        Event::Gone(_) => None,
        Event::Entry { dir, name, is_dir, change } => {
            let kind = if is_dir { flag::ITEM_IS_DIR } else { flag::ITEM_IS_FILE };
            let what = match change {
                Change::Appeared => flag::ITEM_CREATED,
                Change::Vanished => flag::ITEM_REMOVED,
                Change::Modified => flag::ITEM_MODIFIED | flag::ITEM_INODE_META_MOD,
            };
            Some((absolute(dir, name)?, kind | what))
        }
    }
}

/// The directory part of an absolute path.
fn parent(path: &[u8]) -> &[u8] {
    path.iter().rposition(|&b| b == b'/').map_or(&b"/"[..], |at| if at == 0 { b"/" } else { &path[..at] })
}
