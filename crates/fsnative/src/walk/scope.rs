//! What a walk covers: the validated places it starts from and the options that filter it.
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ignore::overrides::Override;
use ignore::types::Types;

use super::constraints::Constraints;
use super::patterns::PathPatterns;

use crate::roots::{Intent, Roots};

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

impl Target {
    /// The target's path below its root (`/`-separated bytes; empty for the root itself).
    pub fn below_root<'t>(&'t self, roots: &Roots) -> std::borrow::Cow<'t, [u8]> {
        let below = self.path.strip_prefix(&roots.paths()[self.root]).unwrap_or(&self.path);
        crate::sys::slashed(below.as_os_str().as_encoded_bytes())
    }
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
    /// FFF-style constraints on the files walked (paths relative to the walk's start).
    pub constraints: Option<Arc<Constraints>>,
    /// Entries whose path relative to the walk's start matches are left out, and not entered.
    pub exclude: Option<Arc<PathPatterns>>,
    /// Visit `.git` directories.
    pub git_dir: bool,
}

/// Validates each requested path (read intent) into a [`Target`]; none means every root,
/// except roots nested inside another root, whose entries that root's walk already covers.
pub(crate) fn targets(roots: &Roots, paths: &[String]) -> crate::Result<Vec<Target>> {
    if paths.is_empty() {
        let roots = roots.paths();
        return Ok((0..roots.len())
            .filter(|&i| !roots.iter().any(|other| other != &roots[i] && roots[i].starts_with(other)))
            .map(|root| Target { path: roots[root].clone(), root, is_dir: true })
            .collect());
    }
    paths
        .iter()
        .map(|requested| {
            let path = roots.validate(Path::new(requested), Intent::Read)?;
            let is_dir = std::fs::metadata(&path).map_err(|e| crate::Error::from_io(&e, &path))?.is_dir();
            let root = roots.root_of(&path).unwrap_or(0);
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

fn invalid_glob(glob: &str, err: &ignore::Error) -> crate::Error {
    crate::Error::new(crate::ErrorCode::InvalidGlob, format!("invalid glob {glob:?}: {err}"))
}
