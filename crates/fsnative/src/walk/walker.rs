//! The walker: lists directories and visits their entries in path order.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::entry::{Listed, SkipCounters, Walked, WalkedKind};
use super::ignore_files::{ancestor_ignores, IgnoreLevel};
use super::queue::ListQueue;
use super::scope::{Target, WalkOptions};
use crate::control::Control;
use crate::roots::{decide, look_through, Decision, EntryType, Followed, LinkTarget, Location, RootDirs};
use crate::sys::{self, os_str, AsHandle, HandleRef};

/// A directory identity, linked to those of the directories above it (link loop detection).
struct Ancestor {
    identity: (u64, u64),
    parent: Option<Arc<Ancestor>>,
}

/// A directory to list.
pub(crate) struct DirNode {
    path: PathBuf,
    /// The sandbox root whose handle it is opened beneath, by `path` below that root...
    root: usize,
    /// ...unless a followed link on the way puts it elsewhere.
    at: Option<Location>,
    depth: usize,
    /// Where the path below the walk's start begins in `path` (and in its entries' paths).
    base: usize,
    ignores: Option<Arc<IgnoreLevel>>,
    /// Kept only when links are followed.
    ancestors: Option<Arc<Ancestor>>,
}

/// How long [`Walker::run_all`] lists alone before it starts helper threads.
const LIST_ALONE: Duration = Duration::from_micros(500);

/// A walk of one target, in path order: each directory's entries sorted by name, a directory's
/// contents right after it.
pub(crate) struct Walker<'a> {
    /// The roots' handles, beneath which every directory is opened.
    dirs: &'a RootDirs<'a>,
    options: &'a WalkOptions,
    skipped: &'a SkipCounters,
    control: &'a Control,
}

impl<'a> Walker<'a> {
    pub fn new(
        dirs: &'a RootDirs<'a>,
        options: &'a WalkOptions,
        skipped: &'a SkipCounters,
        control: &'a Control,
    ) -> Walker<'a> {
        Walker { dirs, options, skipped, control }
    }

    /// Visits every entry below the directory `target`, listing each directory when its turn
    /// comes, until `visit` returns false or the search is interrupted.
    pub fn run(&self, target: &Target, visit: impl FnMut(Walked) -> bool) {
        let first = self.list(&self.node(target));
        depth_first(first, |dir| self.list(&dir), visit);
    }

    /// Like [`Walker::run`] for a caller that wants every entry: lists the whole tree first,
    /// with up to `threads` threads (the calling thread included), which also make each entry
    /// into an item with `prepare`; then visits the items in order.
    pub fn run_all<T: Send>(
        &self,
        target: &Target,
        threads: usize,
        prepare: impl Fn(Walked) -> Option<T> + Sync,
        visit: impl FnMut(T) -> bool,
    ) {
        let queue = ListQueue::new(self.node(target));
        let list_one = || match queue.pop() {
            Some((id, dir)) => {
                queue.finish(id, self.list(&dir), &prepare);
                true
            }
            None => false,
        };
        let list_rest = || while list_one() {};
        let started = Instant::now();
        crate::pool::scope(|scope| {
            while threads <= 1 || started.elapsed() < LIST_ALONE {
                if !list_one() {
                    return;
                }
            }
            if queue.waiting() > 0 {
                for _ in 1..threads {
                    // Without a helper the calling thread lists the rest alone.
                    scope.spawn(list_rest);
                }
            }
            list_rest();
        });
        depth_first(queue.take(0), |id| queue.take(id), visit);
    }

    /// The node of the directory `target`, with the ignore files above it: what
    /// [`Walker::list`] takes to list it as a walk from the root would.
    pub fn node(&self, target: &Target) -> DirNode {
        let ignores = if self.options.no_ignore { None } else { ancestor_ignores(self.dirs, target) };
        let ancestors = self
            .options
            .follow_links
            .then(|| identity(&target.path))
            .flatten()
            .map(|identity| Arc::new(Ancestor { identity, parent: None }));
        let start = target.path.as_os_str().as_encoded_bytes();
        let base = start.len() + usize::from(!sys::ends_with_separator(start));
        DirNode { path: target.path.clone(), root: target.root, at: None, depth: 0, base, ignores, ancestors }
    }

    /// The entries of `dir` that pass the filters, sorted by name (none once interrupted);
    /// what it leaves out is counted in the walker's counters.
    pub fn list(&self, dir: &DirNode) -> Vec<Listed<Walked, DirNode>> {
        if self.options.max_depth.is_some_and(|max| dir.depth >= max) || self.control.interruption().is_some()
        {
            return Vec::new();
        }
        let (root, relative) = self.dirs.roots().place(dir.root, &dir.path, dir.at.as_ref());
        let Ok(handle) = self.dirs.open_dir(root, relative, self.options.follow_links) else {
            SkipCounters::add(&self.skipped.errors);
            return Vec::new();
        };
        // Each entry's path, type, and whether the listing marks it a cloud placeholder.
        let mut entries: Vec<(PathBuf, EntryType, bool)> = Vec::new();
        let listed = sys::list_dir(handle.handle(), |entry| {
            let name = os_str(entry.name.to_bytes());
            let kind = match entry.kind {
                Some(kind) => kind,
                None => match sys::stat_at(handle.handle(), name, false) {
                    Ok(meta) => meta.kind,
                    Err(_) => {
                        SkipCounters::add(&self.skipped.errors);
                        return;
                    }
                },
            };
            entries.push((dir.path.join(name), kind, entry.dataless));
        });
        if listed.is_err() {
            SkipCounters::add(&self.skipped.errors);
        }
        // Same parent, so the paths sort as the names do.
        entries.sort_unstable_by(|a, b| {
            a.0.as_os_str().as_encoded_bytes().cmp(b.0.as_os_str().as_encoded_bytes())
        });
        let ignores = if self.options.no_ignore {
            None
        } else {
            IgnoreLevel::load(handle.handle(), &dir.path, &entries, dir.ignores.clone())
        };
        let ignores = ignores.or_else(|| dir.ignores.clone());
        let descend_allowed = self.options.max_depth.is_none_or(|max| dir.depth + 1 < max);
        let mut children = Vec::with_capacity(entries.len());
        // Each entry's name follows its directory's path and a separator.
        let dir_bytes = dir.path.as_os_str().as_encoded_bytes();
        let name_start = dir_bytes.len() + usize::from(!sys::ends_with_separator(dir_bytes));
        for (path, file_type, dataless) in entries {
            let name = os_str(&path.as_os_str().as_encoded_bytes()[name_start..]);
            let Some((kind, link)) =
                self.admit(handle.handle(), &path, name, file_type, ignores.as_deref(), dir)
            else {
                continue;
            };
            let at = match &link {
                Some(target) => Some(target.at.clone()),
                None => {
                    dir.at.as_ref().map(|at| Location { root: at.root, relative: at.relative.join(name) })
                }
            };
            let descend = (kind == WalkedKind::Dir && descend_allowed).then(|| DirNode {
                ancestors: dir.ancestors.as_ref().and_then(|up| {
                    let identity =
                        link.as_ref().map_or_else(|| identity(&path), |target| Some(target.identity))?;
                    Some(Arc::new(Ancestor { identity, parent: Some(Arc::clone(up)) }))
                }),
                path: path.clone(),
                root: dir.root,
                at: at.clone(),
                depth: dir.depth + 1,
                base: dir.base,
                ignores: ignores.clone(),
            });
            // A followed link's target is not the listed entry: the listing tells nothing of it.
            let dataless = dataless && link.is_none();
            children.push(Listed { item: Some(Walked { path, kind, at, dataless }), descend });
        }
        children
    }

    /// The kind of one listed entry and, for a followed link, its target; `None` when a
    /// filter leaves it out. The filters run in ripgrep's order: ignore rules, then size, then
    /// the sandbox's own rules ([`decide`]).
    fn admit(
        &self,
        handle: HandleRef<'_>,
        path: &Path,
        name: &OsStr,
        listed: EntryType,
        ignores: Option<&IgnoreLevel>,
        dir: &DirNode,
    ) -> Option<(WalkedKind, Option<LinkTarget>)> {
        let followed = if listed == EntryType::Symlink && self.options.follow_links {
            let Some(followed) = look_through(self.dirs.roots(), path) else {
                // A dangling link, or one that loops on itself.
                SkipCounters::add(&self.skipped.errors);
                return None;
            };
            Some(followed)
        } else {
            None
        };
        let target = match &followed {
            Some(Followed::Inside(target)) => Some(target),
            _ => None,
        };
        // A link out counts as no directory: nothing outside is looked at to tell.
        let is_dir = target.map_or(listed, |target| target.kind) == EntryType::Dir;
        if let (Some(target), true) = (target, is_dir) {
            if dir.has_ancestor(target.identity) {
                SkipCounters::add(&self.skipped.errors);
                return None;
            }
        }
        if self.filtered_out(path, name, is_dir, ignores)
            || self.constrained_out(path, is_dir, dir.base)
            || self.excluded(path, dir.base)
        {
            return None;
        }
        if let (Some(max), false) = (self.options.max_filesize, is_dir) {
            let size = match (&followed, target) {
                (_, Some(target)) => Some(target.len),
                // A link out is refused below, whatever its size.
                (Some(_), None) => None,
                (None, None) => sys::stat_at(handle, name, false).ok().map(|meta| meta.size),
            };
            if size.is_some_and(|size| size > max) {
                return None;
            }
        }
        if name == ".git" && !self.options.git_dir {
            return None;
        }
        let kind = match decide(listed, followed.as_ref()) {
            Decision::Keep(EntryType::Dir) => WalkedKind::Dir,
            Decision::Keep(EntryType::File) => WalkedKind::File,
            Decision::Keep(EntryType::Symlink) => WalkedKind::Symlink,
            Decision::Outside => {
                SkipCounters::add(&self.skipped.outside);
                return None;
            }
            Decision::Keep(EntryType::Special) | Decision::Special => {
                SkipCounters::add(&self.skipped.special);
                return None;
            }
        };
        let link = match followed {
            Some(Followed::Inside(target)) => Some(target),
            _ => None,
        };
        Some((kind, link))
    }

    /// The walk's constraints leave out the file at `path` (its path below the walk's start
    /// begins at `base`); directories are never left out by them.
    fn constrained_out(&self, path: &Path, is_dir: bool, base: usize) -> bool {
        let relative = sys::slashed(path.as_os_str().as_encoded_bytes().get(base..).unwrap_or_default());
        !is_dir
            && self.options.constraints.as_ref().is_some_and(|constraints| !constraints.matches(&relative))
    }

    /// The walk's exclude patterns match the entry at `path` (relative from `base` on).
    fn excluded(&self, path: &Path, base: usize) -> bool {
        let relative = || sys::slashed(path.as_os_str().as_encoded_bytes().get(base..).unwrap_or_default());
        self.options.exclude.as_ref().is_some_and(|exclude| exclude.matches(&relative()))
    }

    /// Glob overrides, ignore files, file types and the hidden rule, with ripgrep's
    /// precedence: a matching override decides alone; an ignore or type rule that excludes
    /// wins; an entry some rule whitelists is never hidden.
    fn filtered_out(&self, path: &Path, name: &OsStr, is_dir: bool, ignores: Option<&IgnoreLevel>) -> bool {
        if let Some(overrides) = &self.options.overrides {
            let found = overrides.matched(path, is_dir);
            if !found.is_none() {
                return found.is_ignore();
            }
        }
        let mut whitelisted = false;
        if let Some(level) = ignores {
            let found = level.matched(path, is_dir);
            if found.is_ignore() {
                return true;
            }
            whitelisted = found.is_whitelist();
        }
        if let Some(types) = &self.options.types {
            let found = types.matched(path, is_dir);
            if found.is_ignore() {
                return true;
            }
            whitelisted |= found.is_whitelist();
        }
        !whitelisted && !self.options.hidden && name.as_encoded_bytes().first() == Some(&b'.')
    }
}

impl DirNode {
    /// The directory's path (a target's path joined with the names walked).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The directory itself or one above it has this identity (device, inode): a followed
    /// link to it would loop.
    fn has_ancestor(&self, identity: (u64, u64)) -> bool {
        let mut up = self.ancestors.as_deref();
        while let Some(ancestor) = up {
            if ancestor.identity == identity {
                return true;
            }
            up = ancestor.parent.as_deref();
        }
        false
    }
}

/// Visits listings depth first: each item, then, for a directory, the listing `open` gives.
fn depth_first<T, D>(
    first: Vec<Listed<T, D>>,
    mut open: impl FnMut(D) -> Vec<Listed<T, D>>,
    mut visit: impl FnMut(T) -> bool,
) {
    let mut stack = vec![first.into_iter()];
    while let Some(children) = stack.last_mut() {
        let Some(child) = children.next() else {
            stack.pop();
            continue;
        };
        if child.item.is_some_and(|item| !visit(item)) {
            return;
        }
        if let Some(dir) = child.descend {
            stack.push(open(dir).into_iter());
        }
    }
}

/// The identity (device, inode) of the directory at `path`.
fn identity(path: &Path) -> Option<(u64, u64)> {
    sys::stat_path(path).ok().map(|meta| meta.identity)
}
