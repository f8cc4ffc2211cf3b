//! Keeping the file list equal to what a walk would find: listing subtrees with the walker
//! (so every ignore, hidden, special-file and symlink rule is the walk's own), and applying
//! the watcher's changes by listing again exactly the directories they name.

use std::collections::BTreeSet;
use std::path::Path;

use super::cache::ContentCache;
use super::content::Signatures;
use super::stamp::{DirStamps, Stamp};
use super::tree::{depth_of, is_below, Content, Entry, EntryId, Kind, ListingSkips, Tree};
use super::watch::{Changes, DirKey, Watcher};
use crate::control::Control;
use crate::roots::RootDirs;
use crate::sys::{os_str, AsHandle};
use crate::walk::{DirNode, SkipCounters, Target, WalkOptions, WalkedKind, Walker};

/// What listing and updating needs: the roots' handles, the index's walk options (the
/// defaults: ignore files honoured, hidden entries left out, links not followed) and the
/// watcher that every listed directory is added to.
pub(super) struct Lister<'a> {
    pub dirs: &'a RootDirs<'a>,
    pub options: &'a WalkOptions,
    pub control: &'a Control,
    pub watcher: &'a mut Watcher,
    /// Stop adding entries past this many (the index's file cap): `false` is returned.
    pub max_entries: usize,
}

/// An entry found by a listing, and the directory node to list below it.
struct Found {
    path: Box<[u8]>,
    kind: Kind,
    below: Option<DirNode>,
}

/// What listing a directory found besides its entries: what the walk left out, and the
/// directory's stamps taken before it was listed.
#[derive(Clone, Copy, Default)]
pub(super) struct Listing {
    skips: ListingSkips,
    stamps: DirStamps,
}

impl Lister<'_> {
    /// The walker's node for the directory `dir` of `root`.
    fn node(&self, root: usize, dir: &[u8]) -> DirNode {
        let path = self.dirs.roots().paths()[root].join(os_str(dir));
        let counters = SkipCounters::default();
        Walker::new(self.dirs, self.options, &counters, self.control).node(&Target {
            path,
            root,
            is_dir: true,
        })
    }

    /// Watches and lists one directory: its admitted entries (paths below the root), what
    /// the walk left out and the directory's stamps (taken once it is watched, before it is
    /// listed).
    fn list(&mut self, root: usize, node: &DirNode) -> (Vec<Found>, Listing) {
        let root_path = &self.dirs.roots().paths()[root];
        let relative = node.path().strip_prefix(root_path).unwrap_or(Path::new(""));
        let mut stamps = DirStamps { listing: Stamp::UNKNOWN, ignores: Stamp::UNKNOWN };
        if let Ok(handle) = self.dirs.open_dir(root, relative, false) {
            self.watcher.watch(
                handle.handle(),
                node.path(),
                (root, crate::sys::slashed(relative.as_os_str().as_encoded_bytes()).into()),
            );
            stamps = DirStamps::of(handle.handle());
        }
        let counters = SkipCounters::default();
        let listing = Walker::new(self.dirs, self.options, &counters, self.control).list(node);
        let skips = ListingSkips {
            special: SkipCounters::get(&counters.special) as u32,
            errors: SkipCounters::get(&counters.errors) as u32,
        };
        let found = listing
            .into_iter()
            .filter_map(|listed| {
                let walked = listed.item?;
                let path = crate::sys::slashed(
                    walked.path.strip_prefix(root_path).ok()?.as_os_str().as_encoded_bytes(),
                )
                .into();
                let kind = match walked.kind {
                    WalkedKind::File => Kind::File,
                    WalkedKind::Dir => Kind::Dir,
                    WalkedKind::Symlink => Kind::Symlink,
                };
                Some(Found { path, kind, below: listed.descend })
            })
            .collect();
        (found, Listing { skips, stamps })
    }

    /// Lists the directory `node` of `root` and everything below it into `tree`: the new
    /// entries in walk order, and what listing `node` itself found. `None` when the cap on
    /// entries was reached.
    fn subtree(&mut self, tree: &mut Tree, root: usize, node: &DirNode) -> Option<(Vec<EntryId>, Listing)> {
        let (first, listing) = self.list(root, node);
        let mut ids = Vec::new();
        let mut stack = vec![first.into_iter()];
        while let Some(level) = stack.last_mut() {
            let Some(found) = level.next() else {
                stack.pop();
                continue;
            };
            if tree.len() + ids.len() >= self.max_entries {
                return None;
            }
            let (children, listed) = match &found.below {
                Some(below) => self.list(root, below),
                None => (Vec::new(), Listing::default()),
            };
            let id = tree.add(Entry::new(found.path, found.kind, listed.skips));
            if found.kind == Kind::Dir {
                tree.set_dir_stamps(Some(id), listed.stamps);
            }
            ids.push(id);
            if !children.is_empty() {
                stack.push(children.into_iter());
            }
        }
        Some((ids, listing))
    }

    /// Lists root `root` whole into a new tree; `None` past the cap on entries.
    pub fn root(&mut self, root: usize) -> Option<Tree> {
        let mut tree = Tree::default();
        let node = self.node(root, b"");
        let (ids, listing) = self.subtree(&mut tree, root, &node)?;
        tree.splice(0..0, ids);
        set_listing(&mut tree, b"", listing);
        Some(tree)
    }
}

/// The state an update changes: each root's tree, the signatures, and the files whose
/// content must be read (again).
pub(super) struct Lists<'a> {
    pub trees: &'a mut Vec<Tree>,
    pub signatures: &'a mut Signatures,
    pub unread: &'a mut Vec<(usize, EntryId)>,
    /// The content cache, which forgets changed and removed files.
    pub cache: &'a ContentCache,
}

impl Lists<'_> {
    /// Frees the entries `removed` (already taken out of `root`'s order) and their signatures.
    fn drop_entries(&mut self, root: usize, removed: Vec<EntryId>) {
        for id in removed {
            self.cache.invalidate(root, id);
            free_signature(self.signatures, self.trees[root].remove(id));
        }
    }

    /// Marks file `id` of `root` as changed: its signature is dropped and it is read again.
    fn touch(&mut self, root: usize, id: EntryId) {
        let tree = &mut self.trees[root];
        let entry = tree.entry_mut(id);
        if entry.kind != Kind::File {
            return;
        }
        self.cache.invalidate(root, id);
        entry.generation = entry.generation.wrapping_add(1);
        entry.stamp = Stamp::UNKNOWN;
        let old = tree.set_content(id, Content::Unknown);
        free_signature(self.signatures, old);
        self.unread.push((root, id));
    }

    /// Queues every file of the new `ids` of `root` for reading.
    fn queue_new(&mut self, root: usize, ids: &[EntryId]) {
        let tree = &self.trees[root];
        self.unread.extend(ids.iter().filter(|&&id| tree.entry(id).kind == Kind::File).map(|&id| (root, id)));
    }
}

fn free_signature(signatures: &mut Signatures, content: Content) {
    if let Content::Text { slot, .. } | Content::Measured { slot, .. } = content {
        signatures.remove(slot);
    }
}

/// Applies `changes` (and lists again the directories the watcher could not watch).
/// Returns false when the cap on entries was reached.
pub(super) fn apply(lister: &mut Lister<'_>, lists: &mut Lists<'_>, mut changes: Changes) -> bool {
    if changes.overflow {
        // Every root walked again in place: entry numbers stay unique and generations only
        // grow, so a file being read meanwhile is not mistaken for its successor.
        return (0..lists.trees.len()).all(|root| rescan(lister, lists, root, b""));
    }
    changes.relist.extend(lister.watcher.unwatched.iter().cloned());
    let rescans = outermost(&changes.rescan);
    for (root, dir) in &rescans {
        if !rescan(lister, lists, *root, dir) {
            return false;
        }
    }
    let covered = |key: &DirKey| rescans.iter().any(|(root, dir)| *root == key.0 && is_below(&key.1, dir));
    for (root, dir) in changes.relist.iter().filter(|key| !covered(key) && !rescans.contains(key)) {
        if !relist(lister, lists, *root, dir) {
            return false;
        }
    }
    for (root, path) in &changes.touched {
        if let Some(id) = lists.trees[*root].find(path) {
            lists.touch(*root, id);
        }
    }
    true
}

/// What the check of a stored list found changed while no process watched it.
#[derive(Debug, Default)]
pub(super) struct Stale {
    /// Files whose stamps changed: read again.
    pub files: Vec<(usize, EntryId)>,
    /// Directories whose names may have changed: listed again.
    pub relist: BTreeSet<DirKey>,
    /// Directories whose ignore files changed: listed again, with every directory below.
    pub deep: BTreeSet<DirKey>,
}

impl Stale {
    /// How many files and directories it names.
    pub fn len(&self) -> usize {
        self.files.len() + self.relist.len() + self.deep.len()
    }
}

/// Brings a stored list up to date with what the check found: changed files are read again,
/// changed directories listed again (entries that stayed keep their content), and below a
/// changed ignore file every directory is listed again, so what the rules now admit or leave
/// out is found without reading anything that stayed. False when the cap on entries was
/// reached.
pub(super) fn reconcile(lister: &mut Lister<'_>, lists: &mut Lists<'_>, stale: Stale) -> bool {
    for (root, id) in stale.files {
        lists.touch(root, id);
    }
    let deep = outermost(&stale.deep);
    for (root, top) in &deep {
        let Some(range) = lists.trees[*root].below(top) else {
            continue;
        };
        let tree = &lists.trees[*root];
        let below = tree.order()[range].iter().map(|&id| tree.entry(id)).filter(|e| e.kind == Kind::Dir);
        let dirs: Vec<Box<[u8]>> =
            std::iter::once(top.clone()).chain(below.map(|e| e.path.clone())).collect();
        for dir in dirs {
            // A directory the listing above dropped is gone with everything below it.
            if lists.trees[*root].below(&dir).is_some() && !relist(lister, lists, *root, &dir) {
                return false;
            }
        }
    }
    let covered = |(root, dir): &DirKey| {
        deep.iter().any(|(top_root, top)| top_root == root && (top == dir || is_below(dir, top)))
    };
    for (root, dir) in stale.relist.iter().filter(|key| !covered(key)) {
        if lists.trees[*root].below(dir).is_some() && !relist(lister, lists, *root, dir) {
            return false;
        }
    }
    true
}

/// The keys not below another key of the set.
fn outermost(keys: &BTreeSet<DirKey>) -> Vec<DirKey> {
    let mut kept: Vec<DirKey> = Vec::new();
    for key in keys {
        if !kept.iter().any(|(root, dir)| *root == key.0 && (dir == &key.1 || is_below(&key.1, dir))) {
            kept.push(key.clone());
        }
    }
    kept
}

/// The parent directory of a path below a root.
pub(super) fn parent(path: &[u8]) -> &[u8] {
    path.iter().rposition(|&b| b == b'/').map_or(&[][..], |at| &path[..at])
}

/// Walks the directory `dir` of `root` again, whole. A path that is no directory of the list
/// has its parent listed again instead (which finds it if it now belongs).
fn rescan(lister: &mut Lister<'_>, lists: &mut Lists<'_>, root: usize, dir: &[u8]) -> bool {
    let Some(range) = lists.trees[root].below(dir) else {
        return relist(lister, lists, root, parent(dir));
    };
    lister.watcher.forget_below(root, dir);
    let node = lister.node(root, dir);
    let Some((ids, listing)) = lister.subtree(&mut lists.trees[root], root, &node) else {
        return false;
    };
    lists.queue_new(root, &ids);
    let removed = lists.trees[root].splice(range, ids);
    lists.drop_entries(root, removed);
    set_listing(&mut lists.trees[root], dir, listing);
    true
}

/// Records what listing the directory `dir` found.
fn set_listing(tree: &mut Tree, dir: &[u8], listing: Listing) {
    if dir.is_empty() {
        tree.root_skips = listing.skips;
        tree.set_dir_stamps(None, listing.stamps);
    } else if let Some(id) = tree.find(dir) {
        tree.set_skips(id, listing.skips);
        tree.set_dir_stamps(Some(id), listing.stamps);
    }
}

/// Lists the directory `dir` of `root` again: entries that stayed keep their place, content
/// and (directories) subtree; new directories are walked whole; entries that went are
/// dropped with everything below them.
fn relist(lister: &mut Lister<'_>, lists: &mut Lists<'_>, root: usize, dir: &[u8]) -> bool {
    let Some(range) = lists.trees[root].below(dir) else {
        // Not (or no longer) a directory of the list: its parent's listing decides.
        return dir.is_empty() || relist(lister, lists, root, parent(dir));
    };
    let node = lister.node(root, dir);
    let (found, listing) = lister.list(root, &node);
    let tree = &lists.trees[root];
    let old: Vec<EntryId> = tree.order()[range.clone()].to_vec();
    let child_depth = depth_of(dir) + 1;
    // Old children with the positions (in `old`) of their subtrees.
    let mut old_children: Vec<(EntryId, std::ops::Range<usize>)> = Vec::new();
    for (at, &id) in old.iter().enumerate() {
        if usize::from(tree.entry(id).depth) == child_depth {
            old_children.push((id, at..at + 1));
        } else if let Some(last) = old_children.last_mut() {
            last.1.end = at + 1;
        }
    }
    let mut order = Vec::with_capacity(old.len() + found.len());
    let mut kept = vec![false; old.len()];
    let mut added = Vec::new();
    for child in found {
        let same = old_children
            .binary_search_by(|(id, _)| {
                super::tree::walk_order(&lists.trees[root].entry(*id).path, &child.path)
            })
            .ok()
            .map(|at| old_children[at].clone())
            .filter(|(id, _)| lists.trees[root].entry(*id).kind == child.kind);
        if let Some((_, positions)) = same {
            positions.clone().for_each(|at| kept[at] = true);
            order.extend_from_slice(&old[positions]);
            continue;
        }
        let tree = &mut lists.trees[root];
        let (below, listed) = match &child.below {
            Some(node) => match lister.subtree(tree, root, node) {
                Some(listed) => listed,
                None => return false,
            },
            None => (Vec::new(), Listing::default()),
        };
        let id = tree.add(Entry::new(child.path, child.kind, listed.skips));
        if child.kind == Kind::Dir {
            tree.set_dir_stamps(Some(id), listed.stamps);
        }
        added.push(id);
        added.extend_from_slice(&below);
        order.push(id);
        order.extend(below);
    }
    for (at, &id) in old.iter().enumerate() {
        let entry = lists.trees[root].entry(id);
        if !kept[at] && entry.kind == Kind::Dir {
            let path = entry.path.clone();
            lister.watcher.forget_below(root, &path);
        }
    }
    let gone: Vec<EntryId> = old.iter().zip(&kept).filter(|(_, &kept)| !kept).map(|(&id, _)| id).collect();
    lists.queue_new(root, &added);
    lists.trees[root].splice(range, order);
    lists.drop_entries(root, gone);
    set_listing(&mut lists.trees[root], dir, listing);
    true
}
