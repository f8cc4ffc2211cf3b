//! The ignore files of the directories a walk goes through, and ripgrep's precedence among them.
//! They are read through directory handles, without following symlinks: a link planted as
//! `.gitignore` is never read.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

use super::scope::Target;
use crate::roots::{open_regular_at, EntryType, RootDirs};
use crate::sys::{AsHandle, HandleRef};

/// The ignore files a directory may hold, by precedence, highest first.
const IGNORE_FILES: [&str; 4] = [".rgignore", ".ignore", ".gitignore", ".git/info/exclude"];

/// The ignore files of one directory, linked to those of the directories above it.
pub(super) struct IgnoreLevel {
    /// One matcher per entry of [`IGNORE_FILES`].
    rules: [Gitignore; 4],
    parent: Option<Arc<IgnoreLevel>>,
}

impl IgnoreLevel {
    /// Reads the ignore files of `dir` (open as `handle`) that its listing shows; `None` when
    /// it has none.
    pub(super) fn load(
        handle: HandleRef<'_>,
        dir: &Path,
        entries: &[(PathBuf, EntryType, bool)],
        parent: Option<Arc<IgnoreLevel>>,
    ) -> Option<Arc<IgnoreLevel>> {
        let listed = |name: &str, kind: EntryType| {
            entries
                .iter()
                .any(|(path, listed, _)| *listed == kind && path.file_name().is_some_and(|n| n == name))
        };
        let present = IGNORE_FILES.map(|relative| match relative.split_once('/') {
            Some((first, _)) => listed(first, EntryType::Dir),
            None => listed(relative, EntryType::File),
        });
        Self::read(handle, dir, present, parent)
    }

    /// Reads the ignore files of `dir` that `present` marks; `None` when none could be read.
    fn read(
        handle: HandleRef<'_>,
        dir: &Path,
        present: [bool; 4],
        parent: Option<Arc<IgnoreLevel>>,
    ) -> Option<Arc<IgnoreLevel>> {
        let mut any = false;
        let mut rules = [Gitignore::empty(), Gitignore::empty(), Gitignore::empty(), Gitignore::empty()];
        for ((relative, present), rule) in IGNORE_FILES.iter().zip(present).zip(&mut rules) {
            let Some(mut file) = present.then(|| open_regular_at(handle, relative)).flatten() else {
                continue;
            };
            let mut text = Vec::new();
            if file.read_to_end(&mut text).is_err() {
                continue;
            }
            let mut builder = GitignoreBuilder::new(dir);
            add_lines(&mut builder, &dir.join(relative), &text);
            if let Ok(built) = builder.build() {
                *rule = built;
                any = true;
            }
        }
        any.then(|| Arc::new(IgnoreLevel { rules, parent }))
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

/// Adds the lines of an ignore file as the `ignore` crate reads them: `\n` or `\r\n` ends a
/// line, a UTF-8 byte-order mark is dropped, and reading stops at a line that is not UTF-8. A
/// line that does not parse is left out; the rest of the file still applies.
fn add_lines(builder: &mut GitignoreBuilder, from: &Path, text: &[u8]) {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    for (index, line) in text.split(|&b| b == b'\n').enumerate() {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let Ok(line) = std::str::from_utf8(line) else {
            break;
        };
        let line = if index == 0 { line.trim_start_matches('\u{feff}') } else { line };
        let _ = builder.add_line(Some(from.to_path_buf()), line);
    }
}

/// The ignore levels of the directories from the sandbox root down to `target`'s parent.
pub(super) fn ancestor_ignores(dirs: &RootDirs<'_>, target: &Target) -> Option<Arc<IgnoreLevel>> {
    let roots = dirs.roots();
    let root = &roots.paths()[target.root];
    let relative = target.path.parent()?.strip_prefix(root).ok()?;
    let mut dir = root.to_path_buf();
    let mut level = None;
    for component in std::iter::once(None).chain(relative.components().map(Some)) {
        if let Some(component) = component {
            dir.push(component);
        }
        let Ok(handle) = dirs.open_dir(target.root, roots.relative(target.root, &dir), false) else {
            break;
        };
        level = IgnoreLevel::read(handle.handle(), &dir, [true; 4], level.clone()).or(level);
    }
    level
}
