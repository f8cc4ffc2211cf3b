//! The ignore files of the directories a walk goes through, and ripgrep's precedence among them.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

/// The ignore files of one directory, linked to those of the directories above it.
pub(super) struct IgnoreLevel {
    /// By precedence, highest first: `.rgignore`, `.ignore`, `.gitignore`, `.git/info/exclude`.
    rules: [Gitignore; 4],
    parent: Option<Arc<IgnoreLevel>>,
}

impl IgnoreLevel {
    /// Reads the ignore files of `dir` that its listing shows (regular files only, so a link
    /// planted as `.gitignore` is never read); `None` when it has none.
    pub(super) fn load(
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
    pub(super) fn matched(&self, path: &Path, is_dir: bool) -> Match<()> {
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
pub(super) fn ancestor_ignores(root: &Path, target: &Path) -> Option<Arc<IgnoreLevel>> {
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
