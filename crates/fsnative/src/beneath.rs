//! Opening files and directories beneath a sandbox root's directory handle. The kernel
//! (`openat2` with `RESOLVE_BENEATH`, or cap-std's checked walk where that is missing) refuses
//! any step that leaves the root, so swapping a component for a symlink after a walk saw it
//! cannot make a search read or list anything outside.

use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;

use cap_fs_ext::{FollowSymlinks, OpenOptionsFollowExt, OpenOptionsSyncExt};
use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptionsExt};
use rustix::fs::{Mode, OFlags};

use crate::sandbox::Sandbox;

/// Opens every sandbox root as a directory handle, in the order of [`Sandbox::roots`].
pub(crate) fn open_roots(sandbox: &Sandbox) -> crate::Result<Vec<Dir>> {
    sandbox
        .roots()
        .iter()
        .map(|root| {
            Dir::open_ambient_dir(root, ambient_authority()).map_err(|e| crate::Error::from_io(&e, root))
        })
        .collect()
}

/// Opens `relative` beneath `root` for searching. Never blocks on a FIFO, and yields `None`
/// for anything that is not a regular file, else the file and its size. Without `follow`, a
/// symlink in the last component is refused.
pub(crate) fn open_regular(root: &Dir, relative: &Path, follow: bool) -> io::Result<Option<(File, u64)>> {
    let mut options = cap_std::fs::OpenOptions::new();
    options.read(true).nonblock(true).follow(if follow { FollowSymlinks::Yes } else { FollowSymlinks::No });
    let file = match root.open_with(relative, &options) {
        Ok(file) => file.into_std(),
        // A socket cannot be opened at all: it is a special file like a FIFO or a device.
        Err(err) if err.raw_os_error() == Some(libc::ENXIO) => return Ok(None),
        Err(err) => return Err(err),
    };
    let meta = file.metadata()?;
    Ok(meta.is_file().then_some((file, meta.len())))
}

/// Opens the directory at `path`, which lies lexically in root number `root`, beneath that
/// root, for listing. Without `follow` a symlink in the last component is refused; with it,
/// links are followed, and one leading into another root is opened beneath that root.
pub(crate) fn open_dir(
    sandbox: &Sandbox,
    roots: &[Dir],
    root: usize,
    path: &Path,
    follow: bool,
) -> io::Result<OwnedFd> {
    let mut options = cap_std::fs::OpenOptions::new();
    options.read(true).custom_flags(libc::O_DIRECTORY | libc::O_NONBLOCK).follow(if follow {
        FollowSymlinks::Yes
    } else {
        FollowSymlinks::No
    });
    let open = |root: usize, relative: &Path| {
        let relative = if relative.as_os_str().is_empty() { Path::new(".") } else { relative };
        roots[root].open_with(relative, &options)
    };
    let opened = match path.strip_prefix(&sandbox.roots()[root]) {
        Ok(relative) => open(root, relative),
        Err(_) => Err(io::ErrorKind::PermissionDenied.into()),
    };
    let dir = match opened {
        Err(_) if follow => {
            let canonical = sandbox.resolve_link_inside(path).ok_or(io::ErrorKind::PermissionDenied)?;
            let other = sandbox.root_of(&canonical).ok_or(io::ErrorKind::PermissionDenied)?;
            open(other, canonical.strip_prefix(&sandbox.roots()[other]).unwrap_or(Path::new("")))?
        }
        other => other?,
    };
    Ok(dir.into_std().into())
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
