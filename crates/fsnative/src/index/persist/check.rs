//! The check of a stored list against the tree, before the index answers from it: every
//! directory is opened (beneath its root's handle, one name at a time, links not followed),
//! watched, and its stamps compared; every file whose content is stored is stat'ed through its
//! directory's handle and its stamp compared. A directory is watched before it or anything in
//! it is looked at, so a change made during or after the check is heard of, and one made
//! before it shows in a stamp.

use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::SystemTime;

use super::super::stamp::{DirStamps, Stamp};
use super::super::tree::{Content, Kind, Tree};
use super::super::update::{parent, Stale};
use super::super::watch::{DirKey, Watcher};
use crate::roots::RootDirs;
use crate::sys::{self, os_str, AsHandle, EntryType, Handle};

/// Entries one task checks at a time.
const PART: usize = 2048;
/// The most threads that check (the calling one included).
const MAX_THREADS: usize = 4;

/// What changed in `trees` since their stamps were taken; every directory is watched on return.
/// The files of a directory that could not be watched count as changed: a change to them would
/// go unheard of, so they are searched, never ruled out, as a build leaves them. Parts of the
/// list are checked on several threads.
pub(super) fn check(dirs: &RootDirs<'_>, trees: &[Tree], watcher: &mut Watcher) -> Stale {
    let mut stale = Stale::default();
    for (root, tree) in trees.iter().enumerate() {
        let top: DirKey = (root, Box::default());
        match dirs.open_dir(root, Path::new(""), false) {
            Ok(handle) => {
                watcher.watch(handle.handle(), &dirs.roots().paths()[root], top.clone());
                compare(tree.dir_stamps(None), DirStamps::of(handle.handle()), top, &mut stale);
            }
            Err(_) => {
                stale.relist.insert(top);
            }
        }
    }
    let parts: Vec<(usize, Range<usize>)> = trees
        .iter()
        .enumerate()
        .flat_map(|(root, tree)| {
            (0..tree.len()).step_by(PART).map(move |at| (root, at..(at + PART).min(tree.len())))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let shared = Mutex::new((watcher, stale));
    let work = || {
        let mut found = Stale::default();
        while let Some((root, range)) = parts.get(next.fetch_add(1, Ordering::Relaxed)) {
            check_part(dirs, *root, &trees[*root], range.clone(), &shared, &mut found);
        }
        let mut guard = shared.lock().unwrap_or_else(|e| e.into_inner());
        let stale = &mut guard.1;
        stale.files.extend(found.files);
        stale.relist.extend(found.relist);
        stale.deep.extend(found.deep);
    };
    let threads =
        std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS).min(parts.len());
    crate::pool::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
    let (watcher, mut stale) = shared.into_inner().unwrap_or_else(|e| e.into_inner());
    if !watcher.unwatched.is_empty() {
        for (root, tree) in trees.iter().enumerate() {
            for &id in tree.order() {
                let entry = tree.entry(id);
                let key = (root, parent(&entry.path).into());
                if entry.kind == Kind::File
                    && entry.content() != Content::Unknown
                    && watcher.unwatched.contains(&key)
                {
                    stale.files.push((root, id));
                }
            }
        }
    }
    stale
}

/// Notes a directory whose stamps no longer vouch for its listing or its ignore files.
fn compare(stored: DirStamps, now: DirStamps, key: DirKey, stale: &mut Stale) {
    if !stored.ignores.vouches(now.ignores) {
        stale.deep.insert(key.clone());
    }
    if !stored.listing.vouches(now.listing) {
        stale.relist.insert(key);
    }
}

/// The watcher, shared by the threads that check.
type Shared<'a, 'w> = Mutex<(&'a mut Watcher, Stale)>;

/// Checks the entries at `range` of `tree`'s order (root `root`). Directories are opened one
/// name at a time below the one holding them; the directory holding the first entry (or one
/// the range comes back up to) is opened by its path beneath the root.
fn check_part(
    dirs: &RootDirs<'_>,
    root: usize,
    tree: &Tree,
    range: Range<usize>,
    shared: &Shared<'_, '_>,
    stale: &mut Stale,
) {
    // The directories holding the entry being checked, outermost first, open when they could be.
    let mut open: Vec<(&[u8], Option<Handle>)> = Vec::new();
    let now = SystemTime::now();
    for &id in &tree.order()[range] {
        let entry = tree.entry(id);
        let dir = parent(&entry.path);
        while open.last().is_some_and(|(path, _)| *path != dir) {
            open.pop();
        }
        if open.is_empty() {
            let relative = Path::new(os_str(dir));
            open.push((dir, dirs.open_dir(root, relative, false).ok()));
        }
        let Some((_, Some(at))) = open.last() else {
            // Its directory cannot be opened: listing it again (asked for when it was met, or
            // by its own directory's changed stamp) settles it.
            continue;
        };
        let name = os_str(if dir.is_empty() { &entry.path } else { &entry.path[dir.len() + 1..] });
        match entry.kind {
            Kind::File if entry.content() != Content::Unknown => {
                let regular =
                    sys::stat_at(at.handle(), name, false).ok().filter(|stat| stat.kind == EntryType::File);
                match regular {
                    Some(stat) if entry.stamp.vouches(Stamp::of(&stat, now)) => {}
                    Some(_) => stale.files.push((root, id)),
                    None => {
                        // Gone or replaced: its directory's listing says what is there now.
                        stale.files.push((root, id));
                        stale.relist.insert((root, dir.into()));
                    }
                }
            }
            Kind::Dir => {
                let key: DirKey = (root, entry.path.clone());
                match sys::open_dir_at(at.handle(), name) {
                    Ok(fd) => {
                        let path = dirs.roots().paths()[root].join(os_str(&entry.path));
                        shared.lock().unwrap_or_else(|e| e.into_inner()).0.watch(
                            fd.handle(),
                            &path,
                            key.clone(),
                        );
                        compare(tree.dir_stamps(Some(id)), DirStamps::of(fd.handle()), key, stale);
                        open.push((&entry.path, Some(fd)));
                    }
                    Err(_) => {
                        stale.relist.insert(key);
                        stale.relist.insert((root, dir.into()));
                        open.push((&entry.path, None));
                    }
                }
            }
            _ => {}
        }
    }
}
