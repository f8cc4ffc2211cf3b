//! The check of a stored list against the tree, before the index answers from it: every
//! directory is opened (beneath its root's handle, one name at a time, links not followed),
//! watched, and its stamps compared; every file whose content is stored is stat'ed through its
//! directory's handle and its stamp compared. A directory is watched before it or anything in
//! it is looked at, so a change made during or after the check is heard of, and one made
//! before it shows in a stamp.

use std::ffi::OsStr;
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::time::SystemTime;

use rustix::fs::{openat, statat, AtFlags, FileType, Mode, OFlags};

use super::super::stamp::{DirStamps, Stamp};
use super::super::tree::{Content, Kind, Tree};
use super::super::update::{parent, Stale};
use super::super::watch::{DirKey, Watcher};
use crate::roots::RootDirs;

/// What changed in `trees` since their stamps were taken; every directory is watched on return.
pub(super) fn check(dirs: &RootDirs<'_>, trees: &[Tree], watcher: &mut Watcher) -> Stale {
    let mut stale = Stale::default();
    for (root, tree) in trees.iter().enumerate() {
        check_root(dirs, root, tree, watcher, &mut stale);
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

fn check_root(dirs: &RootDirs<'_>, root: usize, tree: &Tree, watcher: &mut Watcher, stale: &mut Stale) {
    let top: DirKey = (root, Box::default());
    let Ok(handle) = dirs.open_dir(root, Path::new(""), false) else {
        stale.relist.insert(top);
        return;
    };
    watcher.watch(handle.as_fd(), top.clone());
    compare(tree.dir_stamps(None), DirStamps::of(handle.as_fd()), top, stale);
    // The directories holding the entry being checked, outermost first, open when they could be.
    let mut open: Vec<(&[u8], Option<OwnedFd>)> = vec![(b"", Some(handle))];
    let now = SystemTime::now();
    for &id in tree.order() {
        let entry = tree.entry(id);
        let dir = parent(&entry.path);
        while open.len() > 1 && open.last().is_some_and(|(path, _)| *path != dir) {
            open.pop();
        }
        let Some((_, Some(at))) = open.last().filter(|(path, _)| *path == dir) else {
            // Its directory cannot be opened: listing it again (already asked) settles it.
            continue;
        };
        let name = OsStr::from_bytes(if dir.is_empty() { &entry.path } else { &entry.path[dir.len() + 1..] });
        match entry.kind {
            Kind::File if entry.content != Content::Unknown => {
                let stat = statat(at, name, AtFlags::SYMLINK_NOFOLLOW).ok();
                let regular =
                    stat.filter(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile);
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
                let flags = OFlags::RDONLY
                    | OFlags::DIRECTORY
                    | OFlags::NOFOLLOW
                    | OFlags::CLOEXEC
                    | OFlags::NONBLOCK;
                match openat(at, name, flags, Mode::empty()) {
                    Ok(fd) => {
                        watcher.watch(fd.as_fd(), key.clone());
                        compare(tree.dir_stamps(Some(id)), DirStamps::of(fd.as_fd()), key, stale);
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
