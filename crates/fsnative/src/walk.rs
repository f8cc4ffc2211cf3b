//! Directory walks confined to the sandbox, shared by grep and glob.
//!
//! A walk starts at one validated target. It honours ignore files (also those in the
//! directories between the sandbox root and the target, but never above the root), never
//! enters `.git`, never follows a symlink whose target resolves outside the sandbox, and
//! drops FIFOs, sockets and devices. What it skips is counted.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::Override;
use ignore::types::Types;
use ignore::Match;

use crate::control::Control;
use crate::sandbox::Sandbox;

/// A validated place to walk or search.
#[derive(Clone, Debug)]
pub(crate) struct Target {
    /// Canonical absolute path.
    pub path: PathBuf,
    /// Index of the sandbox root it lies in.
    pub root: usize,
    /// It is a directory (else a single file).
    pub is_dir: bool,
}

/// What a walk visits.
#[derive(Clone, Debug, Default)]
pub(crate) struct WalkOptions {
    pub hidden: bool,
    pub follow_links: bool,
    pub no_ignore: bool,
    pub max_depth: Option<usize>,
    pub max_filesize: Option<u64>,
    pub overrides: Option<Override>,
    pub types: Option<Types>,
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

/// What a walk found: an entry that passed every filter.
#[derive(Debug)]
pub(crate) struct Walked {
    /// Canonical root joined with the names walked; a followed link keeps its own path.
    pub path: PathBuf,
    pub kind: WalkedKind,
}

/// The type of a walked entry, after following a link when links are followed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum WalkedKind {
    File,
    Dir,
    /// A symlink that was not followed (links are not followed, or it is dangling).
    Symlink,
}

/// The ignore files of one directory, linked to those of the directories above it.
struct IgnoreLevel {
    /// By precedence, highest first: `.rgignore`, `.ignore`, `.gitignore`, `.git/info/exclude`.
    rules: [Gitignore; 4],
    parent: Option<Arc<IgnoreLevel>>,
}

/// A directory identity, linked to those of the directories above it (link loop detection).
struct Ancestor {
    dev: u64,
    ino: u64,
    parent: Option<Arc<Ancestor>>,
}

/// A directory to list.
struct DirNode {
    path: PathBuf,
    depth: usize,
    ignores: Option<Arc<IgnoreLevel>>,
    /// Kept only when links are followed.
    ancestors: Option<Arc<Ancestor>>,
}

/// One entry of a listing that passed every filter: what the caller made of it (if anything),
/// and what leads to its own listing when it is a directory to descend into.
struct Listed<T, D> {
    item: Option<T>,
    descend: Option<D>,
}

/// Directories waiting to be listed by the threads of [`Walker::run_all`], and how many are
/// being listed.
struct ListQueue<T> {
    /// Waiting directories with the number their listing is filed under, and the number of
    /// directories being listed.
    state: Mutex<(Vec<(usize, DirNode)>, usize)>,
    changed: Condvar,
    /// The next listing number.
    next_id: AtomicUsize,
    listings: Mutex<HashMap<usize, Vec<Listed<T, usize>>>>,
}

impl<T> ListQueue<T> {
    fn new(root: DirNode) -> ListQueue<T> {
        ListQueue {
            state: Mutex::new((vec![(0, root)], 0)),
            changed: Condvar::new(),
            next_id: AtomicUsize::new(1),
            listings: Mutex::new(HashMap::new()),
        }
    }

    fn lock(&self) -> MutexGuard<'_, (Vec<(usize, DirNode)>, usize)> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The next directory to list, waiting while others are being listed; `None` once the
    /// whole tree is listed.
    fn pop(&self) -> Option<(usize, DirNode)> {
        let mut state = self.lock();
        loop {
            if let Some(item) = state.0.pop() {
                state.1 += 1;
                return Some(item);
            }
            if state.1 == 0 {
                return None;
            }
            state = self.changed.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Files the listing `id`, each entry made into an item by `prepare`, and queues its
    /// sub-directories.
    fn finish(
        &self,
        id: usize,
        listing: Vec<Listed<Walked, DirNode>>,
        prepare: impl Fn(Walked) -> Option<T>,
    ) {
        let mut subdirs = Vec::new();
        let listing = listing
            .into_iter()
            .map(|child| Listed {
                item: child.item.and_then(&prepare),
                descend: child.descend.map(|dir| {
                    let id = self.next_id.fetch_add(1, Ordering::Relaxed);
                    subdirs.push((id, dir));
                    id
                }),
            })
            .collect();
        self.listings.lock().unwrap_or_else(|e| e.into_inner()).insert(id, listing);
        let mut state = self.lock();
        // Last first, so the tree is listed roughly in the order it is visited.
        state.0.extend(subdirs.into_iter().rev());
        state.1 -= 1;
        self.changed.notify_all();
    }

    fn waiting(&self) -> usize {
        self.lock().0.len()
    }

    fn take(&self, id: usize) -> Vec<Listed<T, usize>> {
        self.listings.lock().unwrap_or_else(|e| e.into_inner()).remove(&id).unwrap_or_default()
    }
}

/// How long [`Walker::run_all`] lists alone before it starts helper threads.
const LIST_ALONE: Duration = Duration::from_micros(500);

/// A walk of one target, in path order: each directory's entries sorted by name, a directory's
/// contents right after it.
pub(crate) struct Walker<'a> {
    sandbox: &'a Sandbox,
    options: &'a WalkOptions,
    skipped: &'a SkipCounters,
    control: &'a Control,
}

impl<'a> Walker<'a> {
    pub fn new(
        sandbox: &'a Sandbox,
        options: &'a WalkOptions,
        skipped: &'a SkipCounters,
        control: &'a Control,
    ) -> Walker<'a> {
        Walker { sandbox, options, skipped, control }
    }

    /// Visits every entry below the directory `target`, listing each directory when its turn
    /// comes, until `visit` returns false or the search is interrupted.
    pub fn run(&self, target: &Target, visit: impl FnMut(Walked) -> bool) {
        let first = self.list(&self.root(target));
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
        let queue = ListQueue::new(self.root(target));
        let started = Instant::now();
        std::thread::scope(|scope| {
            let mut helping = threads <= 1;
            while let Some((id, dir)) = queue.pop() {
                queue.finish(id, self.list(&dir), &prepare);
                if !helping && started.elapsed() >= LIST_ALONE && queue.waiting() > 0 {
                    helping = true;
                    for _ in 1..threads {
                        let helper = || {
                            while let Some((id, dir)) = queue.pop() {
                                queue.finish(id, self.list(&dir), &prepare);
                            }
                        };
                        // Without a helper the calling thread lists the rest alone.
                        let _ = std::thread::Builder::new()
                            .name("fsnative-walk".to_owned())
                            .spawn_scoped(scope, helper);
                    }
                }
            }
        });
        depth_first(queue.take(0), |id| queue.take(id), visit);
    }

    /// The node of the directory `target`, with the ignore files above it.
    fn root(&self, target: &Target) -> DirNode {
        let ignores = if self.options.no_ignore {
            None
        } else {
            ancestor_ignores(&self.sandbox.roots()[target.root], &target.path)
        };
        let ancestors = self.options.follow_links.then(|| identity(&target.path, None)).flatten();
        DirNode { path: target.path.clone(), depth: 0, ignores, ancestors }
    }

    /// The entries of `dir` that pass the filters, sorted by name (none once interrupted).
    fn list(&self, dir: &DirNode) -> Vec<Listed<Walked, DirNode>> {
        if self.options.max_depth.is_some_and(|max| dir.depth >= max) || self.control.interruption().is_some()
        {
            return Vec::new();
        }
        let Ok(read) = std::fs::read_dir(&dir.path) else {
            SkipCounters::add(&self.skipped.errors);
            return Vec::new();
        };
        let mut entries: Vec<(PathBuf, std::fs::FileType)> = Vec::new();
        for entry in read {
            match entry.and_then(|e| Ok((e.path(), e.file_type()?))) {
                Ok(entry) => entries.push(entry),
                Err(_) => SkipCounters::add(&self.skipped.errors),
            }
        }
        // Same parent, so the paths sort as the names do.
        entries.sort_unstable_by(|a, b| a.0.as_os_str().as_bytes().cmp(b.0.as_os_str().as_bytes()));
        let ignores = if self.options.no_ignore {
            None
        } else {
            IgnoreLevel::load(&dir.path, &entries, dir.ignores.clone())
        };
        let ignores = ignores.or_else(|| dir.ignores.clone());
        let descend_allowed = !self.options.max_depth.is_some_and(|max| dir.depth + 1 >= max);
        let mut children = Vec::with_capacity(entries.len());
        // Each entry's name follows its directory's path and a separator.
        let dir_bytes = dir.path.as_os_str().as_bytes();
        let name_start = dir_bytes.len() + usize::from(!dir_bytes.ends_with(b"/"));
        for (path, file_type) in entries {
            let name = OsStr::from_bytes(&path.as_os_str().as_bytes()[name_start..]);
            let Some(kind) = self.admit(&path, name, file_type, ignores.as_deref(), dir) else {
                continue;
            };
            let descend = (kind == WalkedKind::Dir && descend_allowed).then(|| DirNode {
                ancestors: dir.ancestors.as_ref().and_then(|up| identity(&path, Some(Arc::clone(up)))),
                path: path.clone(),
                depth: dir.depth + 1,
                ignores: ignores.clone(),
            });
            children.push(Listed { item: Some(Walked { path, kind }), descend });
        }
        children
    }

    /// The kind of one listed entry, or `None` when a filter leaves it out. The filters run in
    /// ripgrep's order: ignore rules, then size, then the sandbox's own rules.
    fn admit(
        &self,
        path: &Path,
        name: &OsStr,
        file_type: std::fs::FileType,
        ignores: Option<&IgnoreLevel>,
        dir: &DirNode,
    ) -> Option<WalkedKind> {
        let followed = file_type.is_symlink() && self.options.follow_links;
        let file_type = if followed {
            match std::fs::metadata(path) {
                Ok(meta) => meta.file_type(),
                // A dangling link, or one that loops on itself.
                Err(_) => {
                    SkipCounters::add(&self.skipped.errors);
                    return None;
                }
            }
        } else {
            file_type
        };
        if followed && file_type.is_dir() && self.is_loop(path, dir) {
            SkipCounters::add(&self.skipped.errors);
            return None;
        }
        if self.filtered_out(path, name, file_type.is_dir(), ignores) {
            return None;
        }
        if let (Some(max), false) = (self.options.max_filesize, file_type.is_dir()) {
            if std::fs::metadata(path).is_ok_and(|meta| meta.len() > max) {
                return None;
            }
        }
        if name == ".git" {
            return None;
        }
        // A followed link's target must resolve inside (checked first, so a link to a device
        // outside counts as outside).
        if followed && self.sandbox.resolve_link_inside(path).is_none() {
            SkipCounters::add(&self.skipped.outside);
            return None;
        }
        if file_type.is_dir() {
            Some(WalkedKind::Dir)
        } else if file_type.is_file() {
            Some(WalkedKind::File)
        } else if file_type.is_symlink() {
            Some(WalkedKind::Symlink)
        } else {
            SkipCounters::add(&self.skipped.special);
            None
        }
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
        !whitelisted && !self.options.hidden && name.as_bytes().first() == Some(&b'.')
    }

    /// A followed link to a directory that contains it.
    fn is_loop(&self, path: &Path, dir: &DirNode) -> bool {
        let Ok(meta) = std::fs::metadata(path) else {
            return true;
        };
        let mut up = dir.ancestors.as_deref();
        while let Some(ancestor) = up {
            if ancestor.dev == meta.dev() && ancestor.ino == meta.ino() {
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

/// The identity of the directory at `path`, linked to `parent`.
fn identity(path: &Path, parent: Option<Arc<Ancestor>>) -> Option<Arc<Ancestor>> {
    let meta = std::fs::metadata(path).ok()?;
    Some(Arc::new(Ancestor { dev: meta.dev(), ino: meta.ino(), parent }))
}

impl IgnoreLevel {
    /// Reads the ignore files of `dir` that its listing shows (regular files only, so a link
    /// planted as `.gitignore` is never read); `None` when it has none.
    fn load(
        dir: &Path,
        entries: &[(PathBuf, std::fs::FileType)],
        parent: Option<Arc<IgnoreLevel>>,
    ) -> Option<Arc<IgnoreLevel>> {
        let listed = |name: &str, dir_entry: bool| {
            entries.iter().any(|(path, kind)| {
                path.file_name().is_some_and(|n| n == name)
                    && if dir_entry { kind.is_dir() } else { kind.is_file() }
            })
        };
        let has_exclude = listed(".git", true) && is_regular_file(&dir.join(".git/info/exclude"));
        let rules = [
            listed(".rgignore", false).then(|| dir.join(".rgignore")),
            listed(".ignore", false).then(|| dir.join(".ignore")),
            listed(".gitignore", false).then(|| dir.join(".gitignore")),
            has_exclude.then(|| dir.join(".git/info/exclude")),
        ];
        Self::build(dir, rules, parent)
    }

    /// Like [`IgnoreLevel::load`] for a directory that is not listed (one above a target),
    /// checking each file's type instead.
    fn probe(dir: &Path, parent: Option<Arc<IgnoreLevel>>) -> Option<Arc<IgnoreLevel>> {
        let regular = |relative: &str| Some(dir.join(relative)).filter(|path| is_regular_file(path));
        let has_git = std::fs::symlink_metadata(dir.join(".git")).is_ok_and(|m| m.is_dir());
        let rules = [
            regular(".rgignore"),
            regular(".ignore"),
            regular(".gitignore"),
            if has_git { regular(".git/info/exclude") } else { None },
        ];
        Self::build(dir, rules, parent)
    }

    fn build(
        dir: &Path,
        files: [Option<PathBuf>; 4],
        parent: Option<Arc<IgnoreLevel>>,
    ) -> Option<Arc<IgnoreLevel>> {
        if files.iter().all(Option::is_none) {
            return None;
        }
        let rules = files.map(|file| match file {
            Some(file) => {
                let mut builder = GitignoreBuilder::new(dir);
                // A line that does not parse is left out; the rest of the file still applies.
                let _ = builder.add(file);
                builder.build().unwrap_or_else(|_| Gitignore::empty())
            }
            None => Gitignore::empty(),
        });
        Some(Arc::new(IgnoreLevel { rules, parent }))
    }

    /// ripgrep's rule: the kinds of ignore file in order of precedence, and for each the
    /// nearest directory whose file has a rule for `path`.
    fn matched(&self, path: &Path, is_dir: bool) -> Match<()> {
        for kind in 0..self.rules.len() {
            let mut level = Some(self);
            while let Some(current) = level {
                let found = current.rules[kind].matched(path, is_dir);
                if !found.is_none() {
                    return found.map(|_| ());
                }
                level = current.parent.as_deref();
            }
        }
        Match::None
    }
}

/// The ignore levels of the directories from `root` down to `target`'s parent.
fn ancestor_ignores(root: &Path, target: &Path) -> Option<Arc<IgnoreLevel>> {
    let relative = target.parent()?.strip_prefix(root).ok()?;
    let mut dir = root.to_path_buf();
    let mut level = IgnoreLevel::probe(&dir, None);
    for component in relative.components() {
        dir.push(component);
        level = IgnoreLevel::probe(&dir, level.clone()).or(level);
    }
    level
}

/// True when `path` itself (not a link to it) is a regular file.
fn is_regular_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).map(|m| m.file_type().is_file()).unwrap_or(false)
}

/// Validates each requested path (read intent) into a [`Target`]; none means every root,
/// except roots nested inside another root, whose entries that root's walk already covers.
pub(crate) fn targets(sandbox: &Sandbox, paths: &[String]) -> crate::Result<Vec<Target>> {
    if paths.is_empty() {
        let roots = sandbox.roots();
        return Ok((0..roots.len())
            .filter(|&i| !roots.iter().any(|other| other != &roots[i] && roots[i].starts_with(other)))
            .map(|root| Target { path: roots[root].clone(), root, is_dir: true })
            .collect());
    }
    paths
        .iter()
        .map(|requested| {
            let path = sandbox.validate(requested, crate::Intent::Read)?;
            let is_dir = std::fs::metadata(&path).map_err(|e| crate::Error::from_io(&e, &path))?.is_dir();
            let root = sandbox.root_of(&path).unwrap_or(0);
            Ok(Target { path, root, is_dir })
        })
        .collect()
}

/// ripgrep `--glob` filters for walks under `root` (a leading `!` excludes).
pub(crate) fn overrides(root: &Path, globs: &[String]) -> crate::Result<Option<Override>> {
    if globs.is_empty() {
        return Ok(None);
    }
    let mut builder = ignore::overrides::OverrideBuilder::new(root);
    for glob in globs {
        builder.add(glob).map_err(|e| invalid_glob(glob, &e))?;
    }
    builder.build().map(Some).map_err(|e| invalid_glob(&globs.join(" "), &e))
}

/// File type filters by ripgrep's type names.
pub(crate) fn types(select: &[String], negate: &[String]) -> crate::Result<Option<Types>> {
    if select.is_empty() && negate.is_empty() {
        return Ok(None);
    }
    let mut builder = ignore::types::TypesBuilder::new();
    builder.add_defaults();
    for name in select {
        builder.select(name);
    }
    for name in negate {
        builder.negate(name);
    }
    builder
        .build()
        .map(Some)
        .map_err(|e| crate::Error::new(crate::ErrorCode::InvalidArgument, format!("file types: {e}")))
}

fn invalid_glob(glob: &str, err: &ignore::Error) -> crate::Error {
    crate::Error::new(crate::ErrorCode::InvalidGlob, format!("invalid glob {glob:?}: {err}"))
}

/// A file's modification time in nanoseconds since the epoch (0 when unknown).
pub(crate) fn modified_ns(path: &Path) -> i128 {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos() as i128)
}
