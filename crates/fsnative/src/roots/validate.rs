//! [`Roots`]: the canonical root directories, and the validation every path passes through.

use std::ffi::OsStr;
use std::fmt;
use std::path::{Component, Path, PathBuf};

use super::resolve::{below, check_path_text, lexical_join, resolve, Resolution};
use crate::error::{Error, ErrorCode, Result};

/// What a validated path will be used for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    /// The path must exist.
    Read,
    /// The path may not exist yet; its nearest existing ancestor must be inside.
    Write,
}

/// The canonical roots of a sandbox, in the order given.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Roots {
    paths: Vec<PathBuf>,
}

impl fmt::Debug for Roots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.paths.fmt(f)
    }
}

/// Where an entry lies beneath a root's handle: the root's index and the path below it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Location {
    pub root: usize,
    pub relative: PathBuf,
}

impl Roots {
    /// Canonicalises each root once (exact duplicates are kept once). Each must exist and be
    /// a directory, and there must be at least one.
    pub fn new<I, P>(roots: I) -> Result<Roots>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let mut canonical: Vec<PathBuf> = Vec::new();
        for root in roots {
            let given = root.as_ref();
            // A `file:` URI (as MCP clients give roots) names the path to resolve.
            let from_uri = super::file_uri::path_of(given.as_os_str().as_encoded_bytes()).transpose()?;
            let root = from_uri.as_deref().unwrap_or(given);
            check_path_text(root)?;
            let absolute = if root.is_absolute() {
                root.to_path_buf()
            } else {
                std::env::current_dir().map_err(|e| Error::from_io(&e, root))?.join(root)
            };
            let resolved = match resolve(&absolute, &|_| true) {
                Ok(Resolution::Exists(path)) => path,
                Ok(Resolution::Missing { .. } | Resolution::Fenced) => {
                    return Err(Error::new(
                        ErrorCode::NotFound,
                        format!("sandbox root {} does not exist", root.display()),
                    )
                    .with_path(root))
                }
                Err(err) => return Err(err),
            };
            let meta = std::fs::metadata(&resolved).map_err(|e| Error::from_io(&e, root))?;
            if !meta.is_dir() {
                return Err(Error::new(
                    ErrorCode::NotADirectory,
                    format!("sandbox root {} is not a directory", root.display()),
                )
                .with_path(root));
            }
            if !canonical.contains(&resolved) {
                canonical.push(resolved);
            }
        }
        if canonical.is_empty() {
            return Err(Error::new(ErrorCode::InvalidArgument, "a sandbox needs at least one root"));
        }
        Ok(Roots { paths: canonical })
    }

    /// The canonical roots, in the order given.
    pub fn paths(&self) -> &[PathBuf] {
        &self.paths
    }

    /// Checks that `path` lies inside a root and returns its canonical absolute form (the
    /// rules are those of `Sandbox::validate`). Every path that does not resolve to a place
    /// inside gets the same error, whatever exists (or fails) outside.
    pub fn validate(&self, path: &Path, intent: Intent) -> Result<PathBuf> {
        let absolute = self.absolutize(path)?;
        match self.resolve(&absolute)? {
            Resolution::Fenced => Err(self.outside(path)),
            Resolution::Exists(canonical) => {
                self.require_inside(&canonical, path)?;
                Ok(canonical)
            }
            Resolution::Missing { existing, rest } => {
                let target = lexical_join(&existing, &rest);
                self.require_inside(&existing, path)?;
                self.require_inside(&target, path)?;
                match intent {
                    Intent::Write => Ok(target),
                    Intent::Read => {
                        let message = format!("{} does not exist", path.display());
                        Err(Error::new(ErrorCode::NotFound, message).with_path(path))
                    }
                }
            }
        }
    }

    /// The index of the root containing the canonical `path`, if any.
    pub fn root_of(&self, canonical: &Path) -> Option<usize> {
        // The longest root wins when roots nest, so relative paths are as short as possible.
        self.paths
            .iter()
            .enumerate()
            .filter(|(_, root)| below(canonical, root).is_some())
            .max_by_key(|(_, root)| root.as_os_str().len())
            .map(|(i, _)| i)
    }

    /// Resolves `absolute` (see [`resolve`]), fenced by the roots and the directories on the
    /// way down to them.
    pub fn resolve(&self, absolute: &Path) -> Result<Resolution> {
        resolve(absolute, &|candidate| {
            self.contains(candidate) || self.paths.iter().any(|root| below(root, candidate).is_some())
        })
    }

    /// True when `canonical` (already resolved) lies inside a root.
    pub fn contains(&self, canonical: &Path) -> bool {
        self.root_of(canonical).is_some()
    }

    /// Where the canonical `path` lies beneath the root that holds it, if one does.
    pub fn locate(&self, canonical: &Path) -> Option<Location> {
        let root = self.root_of(canonical)?;
        Some(Location { root, relative: self.relative(root, canonical).to_path_buf() })
    }

    /// `path` below root number `root` (`path` itself when it does not lie below it, which
    /// an open beneath the root then refuses).
    pub fn relative<'p>(&self, root: usize, path: &'p Path) -> &'p Path {
        below(path, &self.paths[root]).unwrap_or(path)
    }

    /// Where an entry that a walk of root `root` found at `path` lies: at `link` when a
    /// followed link put it there, else at `path` below root `root`.
    pub fn place<'p>(&self, root: usize, path: &'p Path, link: Option<&'p Location>) -> (usize, &'p Path) {
        match link {
            Some(at) => (at.root, &at.relative),
            None => (root, self.relative(root, path)),
        }
    }

    fn absolutize(&self, requested: &Path) -> Result<PathBuf> {
        check_path_text(requested)?;
        if requested.as_os_str().is_empty() {
            return Err(Error::new(ErrorCode::InvalidPath, "empty path").with_path(requested));
        }
        let mut components = requested.components();
        if let Some(Component::Normal(first)) = components.clone().next() {
            if first == OsStr::new("~") {
                components.next();
                let home = home_dir().ok_or_else(|| {
                    Error::new(ErrorCode::InvalidPath, "`~` used but the home directory is unknown")
                        .with_path(requested)
                })?;
                return Ok(home.join(components.as_path()));
            }
        }
        Ok(if requested.is_absolute() { requested.to_path_buf() } else { self.paths[0].join(requested) })
    }

    fn require_inside(&self, canonical: &Path, requested: &Path) -> Result<()> {
        if self.contains(canonical) {
            return Ok(());
        }
        Err(self.outside(requested))
    }

    /// The error for a `requested` path that lies outside every root: it names that path as
    /// the caller gave it, and nothing learned by resolving it.
    fn outside(&self, requested: &Path) -> Error {
        let allowed: Vec<String> = self.paths.iter().map(|r| r.display().to_string()).collect();
        Error::new(
            ErrorCode::OutsideSandbox,
            format!(
                "access denied: {} is outside the allowed directories ({})",
                requested.display(),
                allowed.join(", ")
            ),
        )
        .with_path(requested)
    }
}

fn home_dir() -> Option<PathBuf> {
    std::env::var_os(crate::sys::HOME_VARIABLE).filter(|h| !h.is_empty()).map(PathBuf::from)
}
