//! Resolving a path symlink by symlink, as the kernel does, without trusting any shortcut.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

use crate::error::{Error, ErrorCode, Result};
use crate::sys::OsError;

/// The most symlinks one resolution may follow (as Linux and cap-std allow).
pub const MAX_SYMLINK_HOPS: usize = 40;

/// How far [`resolve`] got through a path.
#[derive(Debug)]
pub(crate) enum Resolution {
    /// Every component exists; the canonical path.
    Exists(PathBuf),
    /// A component does not exist: the canonical path of the deepest existing ancestor and
    /// the components that remain after it (the missing one first).
    Missing { existing: PathBuf, rest: Vec<OsString> },
    /// The resolution failed at an entry outside the fence (missing, not a directory, a loop,
    /// no access): what failed there is not said, so an answer never tells what exists outside.
    Fenced,
}

/// Rejects NUL bytes, which no system call can carry, and where Windows' rules hold the
/// spellings Win32 reads as something else ([`super::windows_text`]).
pub(crate) fn check_path_text(path: &Path) -> Result<()> {
    if path.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(Error::new(ErrorCode::InvalidPath, "path contains a NUL byte").with_path(path));
    }
    if crate::sys::WINDOWS_PATH_RULES {
        if let Some(why) = super::windows_text::refusal(&path.to_string_lossy()) {
            return Err(Error::new(ErrorCode::InvalidPath, why).with_path(path));
        }
    }
    Ok(())
}

/// Joins `rest` onto `base`, applying `.` and `..` textually. Valid only where `base` is
/// canonical and `rest` names entries that do not exist yet (so none is a symlink).
pub(crate) fn lexical_join(base: &Path, rest: &[OsString]) -> PathBuf {
    let mut out = base.to_path_buf();
    for name in rest {
        match Path::new(name).components().next() {
            Some(Component::ParentDir) => {
                out.pop();
            }
            Some(Component::CurDir) | None => {}
            _ => out.push(name),
        }
    }
    out
}

/// Resolves an absolute path component by component, following symlinks like the kernel
/// does, with at most [`MAX_SYMLINK_HOPS`] hops. Only "does not exist" stops short with
/// [`Resolution::Missing`]; every other failure is an error. Entries outside `fence` are only
/// passed through (a symlink there may lead back inside); any failure at one of them ends the
/// resolution as [`Resolution::Fenced`].
pub(crate) fn resolve(path: &Path, fence: &dyn Fn(&Path) -> bool) -> Result<Resolution> {
    debug_assert!(path.is_absolute());
    let mut pending: VecDeque<OsString> = VecDeque::new();
    push_front_components(&mut pending, path);
    let mut resolved = PathBuf::from("/");
    let mut hops = 0usize;
    while let Some(name) = pending.pop_front() {
        match name.as_encoded_bytes() {
            b"/" => resolved = PathBuf::from("/"),
            b"." => {}
            b".." => {
                resolved.pop();
            }
            _ => {
                let candidate = resolved.join(&name);
                let fenced = !fence(&candidate);
                let failed = |error: Error| if fenced { Ok(Resolution::Fenced) } else { Err(error) };
                match std::fs::symlink_metadata(&candidate) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        hops += 1;
                        if hops > MAX_SYMLINK_HOPS {
                            return failed(
                                Error::new(
                                    ErrorCode::SymlinkLoop,
                                    format!(
                                        "{}: more than {MAX_SYMLINK_HOPS} symlinks (a loop?)",
                                        path.display()
                                    ),
                                )
                                .with_path(path),
                            );
                        }
                        match std::fs::read_link(&candidate) {
                            Ok(target) => push_front_components(&mut pending, &target),
                            // Swapped for something else since lstat: look at it again (each
                            // retry counts as a hop, so a flipping entry cannot loop forever).
                            Err(err) if OsError::of(&err) == Some(OsError::NotALink) => {
                                pending.push_front(name)
                            }
                            Err(err) => return failed(Error::from_io(&err, &candidate)),
                        }
                    }
                    Ok(meta) => {
                        if !meta.is_dir() && !pending.is_empty() {
                            return failed(
                                Error::new(
                                    ErrorCode::NotADirectory,
                                    format!("{}: {} is not a directory", path.display(), candidate.display()),
                                )
                                .with_path(path),
                            );
                        }
                        resolved = candidate;
                    }
                    Err(err) if err.kind() == io::ErrorKind::NotFound && !fenced => {
                        let mut rest = vec![name];
                        rest.extend(pending);
                        return Ok(Resolution::Missing { existing: resolved, rest });
                    }
                    Err(err) => return failed(Error::from_io(&err, path)),
                }
            }
        }
    }
    Ok(Resolution::Exists(resolved))
}

fn push_front_components(pending: &mut VecDeque<OsString>, path: &Path) {
    let parts: Vec<OsString> = path
        .components()
        .map(|c| match c {
            Component::RootDir => OsString::from("/"),
            Component::CurDir => OsString::from("."),
            Component::ParentDir => OsString::from(".."),
            Component::Normal(n) => n.to_os_string(),
            Component::Prefix(p) => p.as_os_str().to_os_string(),
        })
        .collect();
    for part in parts.into_iter().rev() {
        pending.push_front(part);
    }
}
