//! The check of a stored list against the tree, before the index answers from it. It runs
//! while the store is read: each root's directory is checked as soon as its stamps are read,
//! and each [`Piece`] of its entries, on helper threads, as soon as the piece is read. Every
//! directory is opened (beneath its root's handle, one name at a time, links not followed),
//! watched, and its stamps compared; every file whose content is stored is stat'ed through its
//! directory's handle and its stamp compared. A directory is watched before it or anything in
//! it is looked at (a piece that starts inside a directory watches that directory itself, as
//! the piece holding the directory's own entry may be checked later), so a change made during
//! or after the check is heard of, and one made before it shows in a stamp.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::SystemTime;

use super::super::stamp::{DirStamps, Stamp};
use super::super::tree::{Content, Entry, EntryId, Kind, Tree};
use super::super::update::{parent, Stale};
use super::super::watch::{DirKey, Watcher};
use crate::roots::RootDirs;
use crate::sys::{self, os_str, AsHandle, EntryType, Handle};

/// Consecutive entries of one root's list, in the order they were stored, with the ignore
/// stamps of the directories among them.
pub(super) struct Piece {
    pub root: usize,
    /// The id of the first entry (ids count the root's entries from 0, in stored order).
    pub first: EntryId,
    pub entries: Vec<Entry>,
    /// The directories among `entries` that have ignore files, by id, ascending.
    pub ignores: Vec<(EntryId, Stamp)>,
}

impl Piece {
    /// The stored stamps of the directory at `at` in the piece.
    fn dir_stamps(&self, at: usize) -> DirStamps {
        let id = self.first + at as EntryId;
        let ignores = match self.ignores.binary_search_by_key(&id, |&(id, _)| id) {
            Ok(found) => self.ignores[found].1,
            Err(_) => Stamp::NO_IGNORES,
        };
        DirStamps { listing: self.entries[at].stamp, ignores }
    }
}

/// Checks a stored list as it is read; [`Checker::finish`] says what changed. Its methods may
/// be called from several threads at once.
pub(super) struct Checker<'a, 'w> {
    dirs: &'a RootDirs<'a>,
    /// The watcher, and what the check found so far.
    shared: Mutex<(&'w mut Watcher, Stale)>,
    /// Whether anything was watched (to be undone when the store is refused after all).
    started: AtomicBool,
}

impl<'a, 'w> Checker<'a, 'w> {
    pub fn new(dirs: &'a RootDirs<'a>, watcher: &'w mut Watcher) -> Checker<'a, 'w> {
        Checker { dirs, shared: Mutex::new((watcher, Stale::default())), started: AtomicBool::new(false) }
    }

    /// Whether the check watched anything yet.
    pub fn started(&self) -> bool {
        self.started.load(Ordering::Relaxed)
    }

    /// Checks the directory of root `root`, whose stored stamps are `stored`: opened, watched,
    /// its stamps compared. Called before any piece of the root.
    pub fn root(&self, root: usize, stored: DirStamps) {
        self.started.store(true, Ordering::Relaxed);
        let top: DirKey = (root, Box::default());
        let mut found = Stale::default();
        match self.dirs.open_dir(root, Path::new(""), false) {
            Ok(handle) => {
                self.watch(&handle, &top);
                compare(stored, DirStamps::of(handle.handle()), top, &mut found);
            }
            Err(_) => {
                found.relist.insert(top);
            }
        }
        self.note(found);
    }

    /// Checks the entries of `piece`. Directories are opened one name at a time below the one
    /// holding them; the directory holding the first entry (or one the piece comes back up
    /// to) is opened by its path beneath the root, and watched.
    pub fn piece(&self, piece: &Piece) {
        let root = piece.root;
        let mut found = Stale::default();
        // The directories holding the entry being checked, outermost first, open when they could be.
        let mut open: Vec<(&[u8], Option<Handle>)> = Vec::new();
        let now = SystemTime::now();
        for (at, entry) in piece.entries.iter().enumerate() {
            let id = piece.first + at as EntryId;
            let dir = parent(&entry.path);
            while open.last().is_some_and(|(path, _)| *path != dir) {
                open.pop();
            }
            if open.is_empty() {
                let opened = self.dirs.open_dir(root, Path::new(os_str(dir)), false).ok();
                if let Some(handle) = &opened {
                    self.watch(handle, &(root, dir.into()));
                }
                open.push((dir, opened));
            }
            let Some((_, Some(at_dir))) = open.last() else {
                // Its directory cannot be opened: listing it again (asked for when it was met,
                // or by its own directory's changed stamp) settles it.
                continue;
            };
            let name = os_str(if dir.is_empty() { &entry.path } else { &entry.path[dir.len() + 1..] });
            match entry.kind {
                Kind::File if entry.content() != Content::Unknown => {
                    let regular = sys::stat_at(at_dir.handle(), name, false)
                        .ok()
                        .filter(|stat| stat.kind == EntryType::File);
                    match regular {
                        Some(stat) if entry.stamp.vouches(Stamp::of(&stat, now)) => {}
                        Some(_) => found.files.push((root, id)),
                        None => {
                            // Gone or replaced: its directory's listing says what is there now.
                            found.files.push((root, id));
                            found.relist.insert((root, dir.into()));
                        }
                    }
                }
                Kind::Dir => {
                    let key: DirKey = (root, entry.path.clone());
                    match sys::open_dir_at(at_dir.handle(), name) {
                        Ok(fd) => {
                            self.watch(&fd, &key);
                            compare(piece.dir_stamps(at), DirStamps::of(fd.handle()), key, &mut found);
                            open.push((&entry.path, Some(fd)));
                        }
                        Err(_) => {
                            found.relist.insert(key);
                            found.relist.insert((root, dir.into()));
                            open.push((&entry.path, None));
                        }
                    }
                }
                _ => {}
            }
        }
        self.note(found);
    }

    /// What changed in `trees` (made of the pieces checked) since their stamps were taken;
    /// every directory is watched. The files of a directory that could not be watched count
    /// as changed: a change to them would go unheard of, so they are searched, never ruled
    /// out, as a build leaves them.
    pub fn finish(self, trees: &[Tree]) -> Stale {
        let (watcher, mut stale) = self.shared.into_inner().unwrap_or_else(|e| e.into_inner());
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

    /// Watches the directory open as `dir`, `key` of its root.
    fn watch(&self, dir: &Handle, key: &DirKey) {
        let path = self.dirs.roots().paths()[key.0].join(os_str(&key.1));
        self.shared.lock().unwrap_or_else(|e| e.into_inner()).0.watch(dir.handle(), &path, key.clone());
    }

    /// Adds what a part of the check found.
    fn note(&self, found: Stale) {
        let mut guard = self.shared.lock().unwrap_or_else(|e| e.into_inner());
        let stale = &mut guard.1;
        stale.files.extend(found.files);
        stale.relist.extend(found.relist);
        stale.deep.extend(found.deep);
    }
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

#[cfg(test)]
mod tests {
    use std::fs;

    use super::super::super::watch::Changes;
    use super::*;
    use crate::roots::Roots;

    #[test]
    fn a_piece_that_starts_inside_a_directory_watches_it_before_looking_inside() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("d")).unwrap();
        fs::write(dir.path().join("d/a.txt"), "one\n").unwrap();
        let roots = Roots::new([dir.path()]).unwrap();
        let dirs = RootDirs::open(&roots).unwrap();
        let mut watcher = Watcher::new().unwrap();
        let checker = Checker::new(&dirs, &mut watcher);
        checker.root(0, DirStamps::default());
        // `d`'s own entry is in the piece before, not checked yet.
        let file = Entry::stored_file(b"d/a.txt".as_slice().into(), Content::Opaque, Stamp::UNKNOWN);
        checker.piece(&Piece { root: 0, first: 1, entries: vec![file], ignores: Vec::new() });
        let stale = checker.finish(&[]);
        assert_eq!(stale.files, [(0, 1)], "a stamp that vouches for nothing");

        fs::write(dir.path().join("d/a.txt"), "two\n").unwrap();
        let mut changes = Changes::default();
        watcher.drain(&mut changes);
        assert!(!changes.is_empty(), "the change after the check was heard of");
    }

    #[test]
    fn a_piece_finds_the_ignore_stamps_of_its_directories_by_id() {
        let entry = |path: &[u8]| Entry::new(path.into(), Kind::Dir, Default::default());
        let piece = Piece {
            root: 0,
            first: 10,
            entries: vec![entry(b"a"), entry(b"b"), entry(b"c")],
            ignores: vec![(11, Stamp(7))],
        };
        let ignores: Vec<Stamp> = (0..3).map(|at| piece.dir_stamps(at).ignores).collect();
        assert_eq!(ignores, [Stamp::NO_IGNORES, Stamp(7), Stamp::NO_IGNORES]);
    }
}
