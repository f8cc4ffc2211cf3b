//! Resolving a path symlink by symlink, as the kernel does, without trusting any shortcut.

use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf, Prefix, PrefixComponent, MAIN_SEPARATOR_STR};

use crate::error::{Error, ErrorCode, Result};
use crate::sys::{self, OsError};

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

/// One step of a resolution still to take.
enum Step {
    /// Start again from this directory: `/`, or a Windows drive's or share's root.
    FromRoot(PathBuf),
    /// Start again from the root of the drive (or `/`) the path so far is on: a Windows path
    /// such as `\dir` that names no drive.
    FromCurrentRoot,
    /// `.`, `..` or a name.
    Name(OsString),
}

/// Resolves an absolute path component by component from its root (`/`, `C:\` or
/// `\\server\share\`), following symlinks like the kernel does, with at most
/// [`MAX_SYMLINK_HOPS`] hops. Each name found takes the spelling the file system stores
/// ([`sys::stored_name`]: on Windows its case as created and its long name for an 8.3 one), so
/// that a canonical path is one spelling. Only "does not exist" stops short with
/// [`Resolution::Missing`]; every other failure is an error. Entries outside `fence` are only
/// passed through (a symlink there may lead back inside); any failure at one of them ends the
/// resolution as [`Resolution::Fenced`].
pub(crate) fn resolve(path: &Path, fence: &dyn Fn(&Path) -> bool) -> Result<Resolution> {
    debug_assert!(path.is_absolute());
    let mut pending: VecDeque<Step> = VecDeque::new();
    push_front_components(&mut pending, path);
    let mut resolved = PathBuf::from(MAIN_SEPARATOR_STR);
    let mut hops = 0usize;
    while let Some(step) = pending.pop_front() {
        let name = match step {
            Step::FromRoot(root) => {
                resolved = root;
                continue;
            }
            Step::FromCurrentRoot => {
                resolved = resolved.ancestors().last().map_or_else(PathBuf::new, Path::to_path_buf);
                continue;
            }
            Step::Name(name) => name,
        };
        match name.as_encoded_bytes() {
            b"." => {}
            b".." => {
                resolved.pop();
            }
            _ => {
                let given = resolved.join(&name);
                let meta = std::fs::symlink_metadata(&given);
                let candidate = match meta.as_ref().map(|_| sys::stored_name(&given)) {
                    Ok(Ok(Some(stored))) => resolved.join(stored),
                    _ => given,
                };
                let fenced = !fence(&candidate);
                let failed = |error: Error| if fenced { Ok(Resolution::Fenced) } else { Err(error) };
                match meta {
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
                                pending.push_front(Step::Name(name))
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
                        rest.extend(pending.into_iter().map(|step| match step {
                            Step::Name(name) => name,
                            Step::FromRoot(root) => root.into_os_string(),
                            Step::FromCurrentRoot => OsString::from(MAIN_SEPARATOR_STR),
                        }));
                        return Ok(Resolution::Missing { existing: resolved, rest });
                    }
                    Err(err) => return failed(Error::from_io(&err, path)),
                }
            }
        }
    }
    Ok(Resolution::Exists(resolved))
}

/// The canonical path of the existing absolute `path` (as a root's is, in one spelling, with no
/// verbatim prefix on Windows), or `None` when it is relative, missing or cannot be resolved.
pub(crate) fn canonical(path: &Path) -> Option<PathBuf> {
    path.is_absolute().then(|| canonicalize(path).ok()).flatten()
}

/// The canonical path of the existing `path`, a relative one taken from the working directory:
/// what `std::fs::canonicalize` gives, but spelled as roots are (on Windows without the
/// `\\?\` prefix std adds), so that a path the host gave comes back as it would write it.
pub(crate) fn canonicalize(path: &Path) -> Result<PathBuf> {
    let absolute = std::path::absolute(path).map_err(|e| Error::from_io(&e, path))?;
    match resolve(&absolute, &|_| true)? {
        Resolution::Exists(canonical) => Ok(canonical),
        _ => Err(Error::from_io(&io::Error::from(io::ErrorKind::NotFound), path)),
    }
}

/// The part of `path` below `base` when `path` is `base` or lies below it, comparing names as
/// the file system does: on Windows without case (each side's names lowercased).
pub(crate) fn below<'p>(path: &'p Path, base: &Path) -> Option<&'p Path> {
    if !sys::WINDOWS_PATH_RULES {
        return strip_base(path, base);
    }
    let mut rest = path.components();
    for wanted in base.components() {
        let got = rest.next()?;
        if got != wanted
            && got.as_os_str().to_string_lossy().to_lowercase()
                != wanted.as_os_str().to_string_lossy().to_lowercase()
        {
            return None;
        }
    }
    Some(rest.as_path())
}

/// `path` without its leading components `base`, as [`Path::strip_prefix`] gives it, but for a
/// path a walk made (`base`, `/`, clean names) by comparing bytes: taking components apart
/// cost a tenth of a small project's search, where every file's path is stripped twice.
pub(crate) fn strip_base<'p>(path: &'p Path, base: &Path) -> Option<&'p Path> {
    let (bytes, prefix) = (path.as_os_str().as_encoded_bytes(), base.as_os_str().as_encoded_bytes());
    if !sys::WINDOWS_PATH_RULES && !prefix.is_empty() && !prefix.ends_with(b"/") && bytes.starts_with(prefix)
    {
        if bytes.len() == prefix.len() {
            return Some(Path::new(""));
        }
        let rest = &bytes[prefix.len()..];
        if let Some(rest) = rest.strip_prefix(b"/").filter(|rest| is_clean(rest)) {
            // SAFETY: `rest` is a suffix of an `OsStr`'s encoded bytes that follows an ASCII
            // `/`, so it starts at a boundary the encoding allows.
            return Some(Path::new(unsafe { std::ffi::OsStr::from_encoded_bytes_unchecked(rest) }));
        }
    }
    path.strip_prefix(base).ok()
}

/// `rest` is names joined by single `/`s, none of them `.`, with no `/` at either end: what
/// [`Path::strip_prefix`] would give back unchanged.
fn is_clean(rest: &[u8]) -> bool {
    !rest.is_empty()
        && !rest.ends_with(b"/")
        && !rest.ends_with(b"/.")
        && rest != b"."
        && !rest.starts_with(b"/")
        && !rest.starts_with(b"./")
        && !rest.windows(2).any(|pair| pair == b"//")
        && !rest.windows(3).any(|triple| triple == b"/./")
}

/// The directory a path with the prefix `prefix` starts from, one spelling for each: a
/// verbatim prefix (`\\?\C:`, as a link's target may be) as the plain one, the drive's
/// letter in upper case.
fn prefix_root(prefix: PrefixComponent<'_>) -> PathBuf {
    let mut root = match prefix.kind() {
        Prefix::Disk(letter) | Prefix::VerbatimDisk(letter) => {
            OsString::from(format!("{}:", char::from(letter.to_ascii_uppercase())))
        }
        Prefix::UNC(server, share) | Prefix::VerbatimUNC(server, share) => {
            let mut root = OsString::from(r"\\");
            root.push(server);
            root.push(MAIN_SEPARATOR_STR);
            root.push(share);
            root
        }
        _ => prefix.as_os_str().to_os_string(),
    };
    root.push(MAIN_SEPARATOR_STR);
    PathBuf::from(root)
}

fn push_front_components(pending: &mut VecDeque<Step>, path: &Path) {
    let mut parts: Vec<Step> = Vec::new();
    for component in path.components() {
        parts.push(match component {
            Component::Prefix(prefix) => Step::FromRoot(prefix_root(prefix)),
            // The prefix's root already ends with the separator.
            Component::RootDir if matches!(parts.last(), Some(Step::FromRoot(_))) => continue,
            Component::RootDir if sys::WINDOWS_PATH_RULES => Step::FromCurrentRoot,
            Component::RootDir => Step::FromRoot(PathBuf::from(MAIN_SEPARATOR_STR)),
            Component::CurDir => Step::Name(OsString::from(".")),
            Component::ParentDir => Step::Name(OsString::from("..")),
            Component::Normal(name) => Step::Name(name.to_os_string()),
        });
    }
    for part in parts.into_iter().rev() {
        pending.push_front(part);
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::strip_base;

    #[test]
    fn stripping_a_base_by_bytes_gives_what_strip_prefix_gives() {
        let bases = ["/a", "/a/b", "/a/./b", "/a/..", "/", "", "a", "/a/b/", "/ab"];
        let paths = [
            "/a",
            "/a/b",
            "/a/b/c",
            "/a/b/c/",
            "/a/b//c",
            "/a/b/./c",
            "/a/b/c/.",
            "/a/b/.",
            "/a/bc",
            "/ab/c",
            "/a/./b/c",
            "/a/../c",
            "/a/b/..",
            "a/b",
            "/",
            "",
            "/a//b/c",
            "/a/b/c.d/.e",
        ];
        for base in bases {
            for path in paths {
                let (path, base) = (Path::new(path), Path::new(base));
                assert_eq!(strip_base(path, base), path.strip_prefix(base).ok(), "{path:?} without {base:?}");
            }
        }
    }
}
