//! [`Sandbox`]: the one gate every path passes through.

use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::error::{Error, ErrorCode, Result};
use crate::grep::MatcherCache;

/// The most symlinks one resolution may follow (as Linux and cap-std allow).
pub const MAX_SYMLINK_HOPS: usize = 40;

/// What a validated path will be used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    /// The path must exist.
    Read,
    /// The path may not exist yet; its nearest existing ancestor must be inside.
    Write,
}

/// A set of allowed root directories and the rules that keep every operation inside them.
///
/// Built once and shared: validation and searches only read it.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use fsnative::{Intent, Sandbox};
/// let dir = std::env::temp_dir();
/// let sandbox = Sandbox::new([&dir])?;
/// let inside = sandbox.validate(dir.join("new-file.txt"), Intent::Write)?;
/// assert!(inside.starts_with(&sandbox.roots()[0]));
/// assert!(sandbox.validate("/", Intent::Read).is_err());
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Sandbox {
    roots: Vec<PathBuf>,
    /// Compiled grep patterns kept for reuse by every clone of this sandbox.
    matchers: Arc<MatcherCache>,
}

/// How far [`resolve`] got through a path.
#[derive(Debug)]
pub(crate) enum Resolution {
    /// Every component exists; the canonical path.
    Exists(PathBuf),
    /// A component does not exist: the canonical path of the deepest existing ancestor and
    /// the components that remain after it (the missing one first).
    Missing { existing: PathBuf, rest: Vec<OsString> },
}

impl Sandbox {
    /// Builds a sandbox from one or more root directories. Each must exist and be a
    /// directory; it is canonicalised once (exact duplicates are kept once).
    pub fn new<I, P>(roots: I) -> Result<Sandbox>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let mut canonical: Vec<PathBuf> = Vec::new();
        for root in roots {
            let root = root.as_ref();
            check_path_text(root)?;
            let absolute = if root.is_absolute() {
                root.to_path_buf()
            } else {
                std::env::current_dir().map_err(|e| Error::from_io(&e, root))?.join(root)
            };
            let resolved = match resolve(&absolute) {
                Ok(Resolution::Exists(path)) => path,
                Ok(Resolution::Missing { .. }) => {
                    return Err(Error::new(
                        ErrorCode::NotFound,
                        format!("sandbox root {} does not exist", root.display()),
                    ))
                }
                Err(err) => return Err(err),
            };
            let meta = std::fs::metadata(&resolved).map_err(|e| Error::from_io(&e, root))?;
            if !meta.is_dir() {
                return Err(Error::new(
                    ErrorCode::NotADirectory,
                    format!("sandbox root {} is not a directory", root.display()),
                ));
            }
            if !canonical.contains(&resolved) {
                canonical.push(resolved);
            }
        }
        if canonical.is_empty() {
            return Err(Error::new(ErrorCode::InvalidArgument, "a sandbox needs at least one root"));
        }
        Ok(Sandbox { roots: canonical, matchers: Arc::default() })
    }

    /// The compiled-pattern cache grep uses.
    pub(crate) fn matchers(&self) -> &MatcherCache {
        &self.matchers
    }

    /// The canonical roots, in the order given.
    pub fn roots(&self) -> &[PathBuf] {
        &self.roots
    }

    /// Checks that `path` lies inside the sandbox and returns its canonical absolute form.
    ///
    /// Relative paths resolve against the first root; `~` and `~/x` expand to the current
    /// user's home (`~name` is an ordinary relative name); `"."` is the first root and `""`
    /// is an error. Symlinks are resolved component by component (at most
    /// [`MAX_SYMLINK_HOPS`]). With [`Intent::Write`] the path may be missing: its nearest
    /// existing ancestor and the path itself (with `..` applied) must both be inside.
    pub fn validate(&self, path: impl AsRef<Path>, intent: Intent) -> Result<PathBuf> {
        let requested = path.as_ref();
        let absolute = self.absolutize(requested)?;
        match resolve(&absolute)? {
            Resolution::Exists(canonical) => {
                self.require_inside(&canonical, requested)?;
                Ok(canonical)
            }
            Resolution::Missing { existing, rest } => {
                let target = lexical_join(&existing, &rest);
                self.require_inside(&existing, requested)?;
                self.require_inside(&target, requested)?;
                match intent {
                    Intent::Write => Ok(target),
                    Intent::Read => Err(Error::new(
                        ErrorCode::NotFound,
                        format!("{} does not exist", requested.display()),
                    )),
                }
            }
        }
    }

    /// The index of the root containing the canonical `path`, if any.
    pub fn root_of(&self, canonical: &Path) -> Option<usize> {
        // The longest root wins when roots nest, so relative paths are as short as possible.
        self.roots
            .iter()
            .enumerate()
            .filter(|(_, root)| canonical.starts_with(root))
            .max_by_key(|(_, root)| root.as_os_str().len())
            .map(|(i, _)| i)
    }

    /// True when `canonical` (already resolved) lies inside a root.
    pub fn contains(&self, canonical: &Path) -> bool {
        self.root_of(canonical).is_some()
    }

    /// Resolves a symlink found during a walk: its canonical target when that exists and
    /// lies inside the sandbox, else `None`.
    pub(crate) fn resolve_link_inside(&self, link: &Path) -> Option<PathBuf> {
        match resolve(link) {
            Ok(Resolution::Exists(target)) if self.contains(&target) => Some(target),
            _ => None,
        }
    }

    fn absolutize(&self, requested: &Path) -> Result<PathBuf> {
        check_path_text(requested)?;
        if requested.as_os_str().is_empty() {
            return Err(Error::new(ErrorCode::InvalidPath, "empty path"));
        }
        let mut components = requested.components();
        if let Some(Component::Normal(first)) = components.clone().next() {
            if first == OsStr::new("~") {
                components.next();
                let home = home_dir().ok_or_else(|| {
                    Error::new(ErrorCode::InvalidPath, "`~` used but the home directory is unknown")
                })?;
                return Ok(home.join(components.as_path()));
            }
        }
        Ok(if requested.is_absolute() { requested.to_path_buf() } else { self.roots[0].join(requested) })
    }

    fn require_inside(&self, canonical: &Path, requested: &Path) -> Result<()> {
        if self.contains(canonical) {
            return Ok(());
        }
        let allowed: Vec<String> = self.roots.iter().map(|r| r.display().to_string()).collect();
        Err(Error::new(
            ErrorCode::OutsideSandbox,
            format!(
                "access denied: {} is outside the allowed directories ({})",
                requested.display(),
                allowed.join(", ")
            ),
        ))
    }
}

/// Rejects NUL bytes, which no system call can carry.
fn check_path_text(path: &Path) -> Result<()> {
    if path.as_os_str().as_encoded_bytes().contains(&0) {
        return Err(Error::new(ErrorCode::InvalidPath, "path contains a NUL byte"));
    }
    Ok(())
}

fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from)
}

/// Joins `rest` onto `base`, applying `.` and `..` textually. Valid only where `base` is
/// canonical and `rest` names entries that do not exist yet (so none is a symlink).
fn lexical_join(base: &Path, rest: &[OsString]) -> PathBuf {
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
/// [`Resolution::Missing`]; every other failure is an error.
pub(crate) fn resolve(path: &Path) -> Result<Resolution> {
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
                match std::fs::symlink_metadata(&candidate) {
                    Ok(meta) if meta.file_type().is_symlink() => {
                        hops += 1;
                        if hops > MAX_SYMLINK_HOPS {
                            return Err(Error::new(
                                ErrorCode::SymlinkLoop,
                                format!(
                                    "{}: more than {MAX_SYMLINK_HOPS} symlinks (a loop?)",
                                    path.display()
                                ),
                            ));
                        }
                        match std::fs::read_link(&candidate) {
                            Ok(target) => push_front_components(&mut pending, &target),
                            // Swapped for something else since lstat: look at it again (each
                            // retry counts as a hop, so a flipping entry cannot loop forever).
                            Err(err) if err.raw_os_error() == Some(libc::EINVAL) => pending.push_front(name),
                            Err(err) => return Err(Error::from_io(&err, &candidate)),
                        }
                    }
                    Ok(meta) => {
                        if !meta.is_dir() && !pending.is_empty() {
                            return Err(Error::new(
                                ErrorCode::NotADirectory,
                                format!("{}: {} is not a directory", path.display(), candidate.display()),
                            ));
                        }
                        resolved = candidate;
                    }
                    Err(err) if err.kind() == io::ErrorKind::NotFound => {
                        let mut rest = vec![name];
                        rest.extend(pending);
                        return Ok(Resolution::Missing { existing: resolved, rest });
                    }
                    Err(err) => return Err(Error::from_io(&err, path)),
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
