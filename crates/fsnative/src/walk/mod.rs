//! Directory walks confined to the sandbox, shared by grep and glob.
//!
//! A walk starts at one validated target and yields entries in path order. It honours ignore
//! files with ripgrep's precedence (also those in the directories between the sandbox root and
//! the target, but never above the root), never enters `.git`, never follows a symlink whose
//! target resolves outside the sandbox, and drops FIFOs, sockets and devices. What it skips is
//! counted. The walk is fsnative's own: each directory is opened beneath its root's handle (see
//! [`crate::beneath`]) and read with `getdents`, its ignore files are found in its listing
//! rather than probed for, and a caller that wants the whole tree can have it listed by several
//! threads. The `ignore` crate supplies the gitignore, glob-override and file-type matchers.

mod ignore_files;
mod queue;
mod walker;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use ignore::overrides::Override;
use ignore::types::Types;

use crate::sandbox::Sandbox;

pub(crate) use walker::Walker;

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
