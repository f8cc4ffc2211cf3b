//! Opening files and directories beneath a root's directory handle. The kernel (`openat2`
//! with `RESOLVE_BENEATH`, or cap-std's checked walk where that is missing) refuses any step
//! that leaves the root, so swapping a component for a symlink after a walk saw it cannot make
//! a search read or list anything outside.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path};

use cap_fs_ext::{FollowSymlinks, OpenOptionsFollowExt, OpenOptionsSyncExt};
use cap_std::fs::{Dir, OpenOptionsExt};
use rustix::fs::{AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::validate::Roots;

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
    /// and yields `None` for anything that is not a regular file, else the file and its
    /// size. Without `follow`, a symlink in the last component is refused.
    pub fn open_file(&self, root: usize, relative: &Path, follow: bool) -> io::Result<Option<(File, u64)>> {
        let mut options = cap_std::fs::OpenOptions::new();
        options.read(true).nonblock(true).follow(follow_symlinks(follow));
        let file = match self.dirs[root].open_with(relative, &options) {
            Ok(file) => file.into_std(),
            // A socket cannot be opened at all: it is a special file like a FIFO or a device.
            Err(err) if err.raw_os_error() == Some(libc::ENXIO) => return Ok(None),
            Err(err) => return Err(err),
        };
        let meta = file.metadata()?;
        Ok(meta.is_file().then_some((file, meta.len())))
    }

    /// Opens the directory `relative` beneath root number `root` for listing. Without
    /// `follow`, a symlink in the last component is refused.
    pub fn open_dir(&self, root: usize, relative: &Path, follow: bool) -> io::Result<OwnedFd> {
        let mut options = cap_std::fs::OpenOptions::new();
        options.read(true).custom_flags(libc::O_DIRECTORY | libc::O_NONBLOCK).follow(follow_symlinks(follow));
        let relative = if relative.as_os_str().is_empty() { Path::new(".") } else { relative };
        Ok(self.dirs[root].open_with(relative, &options)?.into_std().into())
    }
}

/// Opens the directory at the canonical path `root`, one name at a time from `/`, following
/// no symlink.
fn open_root(root: &Path) -> crate::Result<Dir> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let failed = |err: rustix::io::Errno| crate::Error::from_io(&err.into(), root);
    let mut dir = rustix::fs::open("/", flags, Mode::empty()).map_err(failed)?;
    for component in root.components() {
        let Component::Normal(name) = component else { continue };
        dir = match rustix::fs::openat(&dir, name, flags, Mode::empty()) {
            Ok(next) => next,
            Err(err) if err == Errno::LOOP || err == Errno::NOTDIR => {
                let link = rustix::fs::statat(&dir, name, AtFlags::SYMLINK_NOFOLLOW)
                    .is_ok_and(|stat| FileType::from_raw_mode(stat.st_mode) == FileType::Symlink);
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
pub(crate) fn open_regular_at(dir: BorrowedFd<'_>, relative: &str) -> Option<File> {
    let mut names = relative.split('/').peekable();
    let mut parent: Option<OwnedFd> = None;
    while let Some(name) = names.next() {
        let at = parent.as_ref().map_or(dir, |fd| fd.as_fd());
        let last = names.peek().is_none();
        let flags = OFlags::RDONLY
            | OFlags::NOFOLLOW
            | OFlags::CLOEXEC
            | if last { OFlags::NONBLOCK } else { OFlags::DIRECTORY };
        parent = Some(rustix::fs::openat(at, name, flags, Mode::empty()).ok()?);
    }
    let file = File::from(parent?);
    file.metadata().ok()?.is_file().then_some(file)
}
