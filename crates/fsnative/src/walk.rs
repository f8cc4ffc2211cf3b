//! Directory walks confined to the sandbox, shared by grep and glob.
//!
//! A walk starts at one validated target. It honours ignore files (also those in the
//! directories between the sandbox root and the target, but never above the root), never
//! enters `.git`, never follows a symlink whose target resolves outside the sandbox, and
//! drops FIFOs, sockets and devices. What it skips is counted.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::overrides::Override;
use ignore::types::Types;
use ignore::{DirEntry, WalkBuilder};

use crate::sandbox::Sandbox;

/// The ignore file names fsnative honours, lowest precedence first.
const IGNORE_FILES: &[&str] = &[".gitignore", ".ignore", ".rgignore"];

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

/// Builds the walker for `target`, with the sandbox's entry filter installed.
pub(crate) fn builder(
    sandbox: &Sandbox,
    target: &Target,
    options: &WalkOptions,
    skipped: &Arc<SkipCounters>,
) -> WalkBuilder {
    let mut builder = WalkBuilder::new(&target.path);
    builder
        .standard_filters(!options.no_ignore)
        .hidden(!options.hidden)
        .parents(false)
        .git_global(false)
        .require_git(false)
        .follow_links(options.follow_links)
        .max_depth(options.max_depth)
        .max_filesize(options.max_filesize);
    if !options.no_ignore {
        builder.add_custom_ignore_filename(".rgignore");
    }
    if let Some(overrides) = &options.overrides {
        builder.overrides(overrides.clone());
    }
    if let Some(types) = &options.types {
        builder.types(types.clone());
    }
    let ancestors = if options.no_ignore {
        Vec::new()
    } else {
        ancestor_ignores(&sandbox.roots()[target.root], &target.path)
    };
    let sandbox = sandbox.clone();
    let skipped = Arc::clone(skipped);
    builder.filter_entry(move |entry| admit(entry, &sandbox, &ancestors, &skipped));
    builder
}

/// The sandbox's rule for one walked entry.
fn admit(entry: &DirEntry, sandbox: &Sandbox, ancestors: &[Gitignore], skipped: &SkipCounters) -> bool {
    if entry.depth() == 0 {
        return true;
    }
    if entry.file_name() == ".git" {
        return false;
    }
    let Some(file_type) = entry.file_type() else {
        return false;
    };
    if entry.path_is_symlink() && !file_type.is_symlink() {
        // A followed link: its target must resolve inside (checked first, so a link to a
        // device outside counts as outside).
        if sandbox.resolve_link_inside(entry.path()).is_none() {
            SkipCounters::add(&skipped.outside);
            return false;
        }
    }
    if !(file_type.is_dir() || file_type.is_file() || file_type.is_symlink()) {
        SkipCounters::add(&skipped.special);
        return false;
    }
    !ignored_by_ancestors(ancestors, entry.path(), file_type.is_dir())
}

fn ignored_by_ancestors(ancestors: &[Gitignore], path: &Path, is_dir: bool) -> bool {
    for matcher in ancestors {
        let found = matcher.matched(path, is_dir);
        if found.is_ignore() {
            return true;
        }
        if found.is_whitelist() {
            return false;
        }
    }
    false
}

/// Ignore rules of the directories from `target`'s parent up to `root` (nearest first).
/// Only regular files are read, so a link planted as `.gitignore` cannot make the walk read
/// outside the sandbox.
fn ancestor_ignores(root: &Path, target: &Path) -> Vec<Gitignore> {
    let mut matchers = Vec::new();
    let mut dir = target.parent();
    while let Some(current) = dir {
        if !current.starts_with(root) {
            break;
        }
        let mut builder = GitignoreBuilder::new(current);
        let mut any = false;
        let git_dir = current.join(".git");
        let exclude = is_real_dir(&git_dir).then(|| git_dir.join("info").join("exclude"));
        let candidates = exclude.into_iter().chain(IGNORE_FILES.iter().map(|n| current.join(n)));
        for file in candidates {
            if is_regular_file(&file) && builder.add(&file).is_none() {
                any = true;
            }
        }
        if any {
            if let Ok(matcher) = builder.build() {
                matchers.push(matcher);
            }
        }
        dir = current.parent();
    }
    matchers
}

/// True when `path` itself (not a link to it) is a regular file.
fn is_regular_file(path: &Path) -> bool {
    std::fs::symlink_metadata(path).map(|m| m.file_type().is_file()).unwrap_or(false)
}

/// True when `path` itself (not a link to it) is a directory.
fn is_real_dir(path: &Path) -> bool {
    std::fs::symlink_metadata(path).map(|m| m.file_type().is_dir()).unwrap_or(false)
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
