//! Opening files and directories beneath a root's directory handle. The kernel (`openat2`
//! with `RESOLVE_BENEATH`, or cap-std's checked walk where that is missing) refuses any step
//! that leaves the root, so swapping a component for a symlink after a walk saw it cannot make
//! a search read or list anything outside.

use std::fs::File;
use std::io;
use std::path::{Component, Path};

use cap_fs_ext::{FollowSymlinks, OpenOptionsFollowExt, OpenOptionsSyncExt};
use cap_std::fs::Dir;

use super::validate::Roots;
use crate::sys::{self, AsHandle, EntryType, Handle, HandleRef, OsError};

/// The roots opened as directory handles, in the order of [`Roots::paths`]: everything a
/// search lists or reads is opened beneath one of them.
pub(crate) struct RootDirs<'a> {
    roots: &'a Roots,
    dirs: Vec<Dir>,
}

impl<'a> RootDirs<'a> {
    /// Opens every root of `roots`, each by its canonical path with no symlink followed: a
    /// root whose path has become a symlink since the sandbox resolved it (the root or a
    /// directory above it swapped for a link to elsewhere) is refused, never followed.
    pub fn open(roots: &'a Roots) -> crate::Result<RootDirs<'a>> {
        let dirs = roots.paths().iter().map(|root| open_root(root)).collect::<crate::Result<_>>()?;
        Ok(RootDirs { roots, dirs })
    }

    /// The roots these handles belong to.
    pub fn roots(&self) -> &'a Roots {
        self.roots
    }

    /// Opens `relative` beneath root number `root` for searching. Never blocks on a FIFO,
    /// and yields `None` for anything that is not a regular file, or is a cloud placeholder
    /// whose contents are not on this machine (reading it would start a download: it is
    /// skipped as a special file is), else the file and its size. Without `follow`, a symlink
    /// in the last component is refused.
    pub fn open_file(&self, root: usize, relative: &Path, follow: bool) -> io::Result<Option<(File, u64)>> {
        let mut options = cap_std::fs::OpenOptions::new();
        options.read(true).nonblock(true).follow(follow_symlinks(follow));
        let file = match self.dirs[root].open_with(relative, &options) {
            Ok(file) => file.into_std(),
            // A socket cannot be opened at all: it is a special file like a FIFO or a device.
            Err(err) if OsError::of(&err) == Some(OsError::Unopenable) => return Ok(None),
            Err(err) => return Err(err),
        };
        let meta = sys::stat(file.handle())?;
        Ok((meta.kind == EntryType::File && !meta.dataless).then_some((file, meta.size)))
    }

    /// Opens the directory `relative` beneath root number `root` for listing. Without
    /// `follow`, a symlink in the last component is refused.
    pub fn open_dir(&self, root: usize, relative: &Path, follow: bool) -> io::Result<Handle> {
        let mut options = cap_std::fs::OpenOptions::new();
        sys::dir_open_options(&mut options).follow(follow_symlinks(follow));
        let relative = if relative.as_os_str().is_empty() { Path::new(".") } else { relative };
        Ok(self.dirs[root].open_with(relative, &options)?.into_std().into())
    }
}

/// Opens the directory at the canonical path `root`, one name at a time from the directory it
/// starts from (`/`, or a Windows drive's or share's root), following no symlink.
fn open_root(root: &Path) -> crate::Result<Dir> {
    let failed = |err: io::Error| crate::Error::from_io(&err, root);
    let mut dir = sys::open_filesystem_root(root).map_err(failed)?;
    for component in root.components() {
        let Component::Normal(name) = component else { continue };
        dir = match sys::open_dir_at(dir.handle(), name) {
            Ok(next) => next,
            Err(err)
                if OsError::of(&err) == Some(OsError::Loop) || err.kind() == io::ErrorKind::NotADirectory =>
            {
                let link =
                    sys::stat_at(dir.handle(), name, false).is_ok_and(|meta| meta.kind == EntryType::Symlink);
                if !link {
                    return Err(failed(err));
                }
                let message = format!(
                    "root {}: a symlink now stands on its path ({}), which the sandbox does not follow",
                    root.display(),
                    name.to_string_lossy()
                );
                return Err(crate::Error::new(crate::ErrorCode::OutsideSandbox, message).with_path(root));
            }
            Err(err) => return Err(failed(err)),
        };
    }
    Ok(Dir::from_std_file(File::from(dir)))
}

fn follow_symlinks(follow: bool) -> FollowSymlinks {
    if follow {
        FollowSymlinks::Yes
    } else {
        FollowSymlinks::No
    }
}

/// Opens the regular file `relative` (a few `/`-separated names) inside the directory `dir`,
/// following no symlink on the way; `None` when it is missing or not a regular file.
pub(crate) fn open_regular_at(dir: HandleRef<'_>, relative: &str) -> Option<File> {
    let (dirs, name) = relative.rsplit_once('/').unwrap_or(("", relative));
    let mut parent: Option<Handle> = None;
    for step in dirs.split('/').filter(|step| !step.is_empty()) {
        let at = parent.as_ref().map_or(dir, |handle| handle.handle());
        parent = Some(sys::open_dir_at(at, step.as_ref()).ok()?);
    }
    let file =
        sys::open_file_at(parent.as_ref().map_or(dir, |handle| handle.handle()), name.as_ref()).ok()?;
    file.metadata().ok()?.is_file().then_some(file)
}
