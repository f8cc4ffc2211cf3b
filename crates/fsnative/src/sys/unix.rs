//! What Linux and macOS share: file descriptors, `openat` without following links, `stat`,
//! `flock` and `poll`.

use std::ffi::{CStr, OsStr};
use std::fs::File;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::Duration;

use cap_std::fs::OpenOptionsExt;
use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::fs::{flock, fstat, openat, statat, AtFlags, FileType, FlockOperation, Mode, OFlags, Stat};
use rustix::io::Errno;

use super::{EntryType, ListedEntry, Meta, OsError};

/// An open file or directory.
pub(crate) type Handle = OwnedFd;
/// A borrowed [`Handle`].
pub(crate) type HandleRef<'a> = BorrowedFd<'a>;

/// Anything that holds an open file or directory.
pub(crate) trait AsHandle {
    /// The handle, borrowed.
    fn handle(&self) -> HandleRef<'_>;
}

impl<T: AsFd> AsHandle for T {
    fn handle(&self) -> HandleRef<'_> {
        self.as_fd()
    }
}

impl OsError {
    /// The class of `err`, when it has one of these.
    pub fn of(err: &io::Error) -> Option<OsError> {
        match err.raw_os_error()? {
            libc::ELOOP => Some(OsError::Loop),
            libc::ENAMETOOLONG => Some(OsError::NameTooLong),
            libc::EINVAL => Some(OsError::NotALink),
            libc::ENXIO => Some(OsError::Unopenable),
            libc::ENOSPC => Some(OsError::NoSpace),
            _ => None,
        }
    }

    /// An error of this class, as the OS would give it.
    #[cfg(test)]
    pub fn error(self) -> io::Error {
        io::Error::from_raw_os_error(match self {
            OsError::Loop => libc::ELOOP,
            OsError::NameTooLong => libc::ENAMETOOLONG,
            OsError::NotALink => libc::EINVAL,
            OsError::Unopenable => libc::ENXIO,
            OsError::NoSpace => libc::ENOSPC,
        })
    }
}

/// The entry type of a file type from a listing or a stat.
pub(super) fn entry_type(kind: FileType) -> EntryType {
    match kind {
        FileType::RegularFile => EntryType::File,
        FileType::Directory => EntryType::Dir,
        FileType::Symlink => EntryType::Symlink,
        _ => EntryType::Special,
    }
}

/// Hands one entry of a `readdir`-style listing to `visit`: every name but `.` and `..`,
/// with its type when the listing tells it (such a listing knows nothing of placeholders).
pub(super) fn listed(name: &CStr, kind: FileType, visit: &mut impl FnMut(ListedEntry<'_>)) {
    if !matches!(name.to_bytes(), b"." | b"..") {
        let kind = (kind != FileType::Unknown).then(|| entry_type(kind));
        visit(ListedEntry { name, kind, dataless: false });
    }
}

/// Any integer field of a `stat`, whatever its width and sign on this platform.
fn wide<T: Into<i128>>(field: T) -> i128 {
    field.into()
}

fn meta(stat: &Stat) -> Meta {
    Meta {
        kind: entry_type(FileType::from_raw_mode(stat.st_mode)),
        identity: (wide(stat.st_dev) as u64, wide(stat.st_ino) as u64),
        mode: wide(stat.st_mode) as u32,
        size: wide(stat.st_size) as u64,
        modified: (wide(stat.st_mtime) as i64, wide(stat.st_mtime_nsec) as u32),
        changed: (wide(stat.st_ctime) as i64, wide(stat.st_ctime_nsec) as u32),
        links: wide(stat.st_nlink) as u64,
        dataless: super::os::is_dataless(stat),
    }
}

/// The metadata of the open file or directory `handle`.
pub(crate) fn stat(handle: HandleRef<'_>) -> io::Result<Meta> {
    Ok(meta(&fstat(handle)?))
}

/// The metadata of what the absolute `path` leads to (symlinks followed).
pub(crate) fn stat_path(path: &std::path::Path) -> io::Result<Meta> {
    Ok(meta(&rustix::fs::stat(path)?))
}

/// The metadata of `name` in the directory `dir`; a symlink itself unless `follow`.
pub(crate) fn stat_at(dir: HandleRef<'_>, name: &OsStr, follow: bool) -> io::Result<Meta> {
    let flags = if follow { AtFlags::empty() } else { AtFlags::SYMLINK_NOFOLLOW };
    Ok(meta(&statat(dir, name, flags)?))
}

/// Opens the directory at `path` (links followed) for listing and watching.
pub(crate) fn open_dir(path: &std::path::Path) -> io::Result<Handle> {
    Ok(File::open(path)?.into())
}

/// Makes a rename in the directory at `path` durable (`fsync` on the directory).
pub(crate) fn sync_dir(path: &std::path::Path) -> io::Result<()> {
    File::open(path)?.sync_all()
}

/// Opens the directory that the absolute `path` starts from: `/` for every path.
pub(crate) fn open_filesystem_root(_path: &std::path::Path) -> io::Result<Handle> {
    Ok(rustix::fs::open("/", OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC, Mode::empty())?)
}

/// The name the file system stores for the last component of the existing `path`, when it
/// differs from the one given: never on Unix, whose names are compared byte for byte.
pub(crate) fn stored_name(_path: &std::path::Path) -> io::Result<Option<std::ffi::OsString>> {
    Ok(None)
}

/// Opens the directory `name` of `dir`, following no symlink in `name` (a link there fails
/// with [`OsError::Loop`] or `NotADirectory`) and never blocking.
pub(crate) fn open_dir_at(dir: HandleRef<'_>, name: &OsStr) -> io::Result<Handle> {
    let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    Ok(openat(dir, name, flags, Mode::empty())?)
}

/// Opens `name` of `dir` for reading, following no symlink in `name` and never blocking on a
/// FIFO.
pub(crate) fn open_file_at(dir: HandleRef<'_>, name: &OsStr) -> io::Result<File> {
    let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NONBLOCK;
    Ok(File::from(openat(dir, name, flags, Mode::empty())?))
}

/// Sets what cap-std needs to open a directory for listing without blocking.
pub(crate) fn dir_open_options(options: &mut cap_std::fs::OpenOptions) -> &mut cap_std::fs::OpenOptions {
    options.read(true).custom_flags(libc::O_DIRECTORY | libc::O_NONBLOCK)
}

/// Takes an exclusive lock on `file` if no other holds one: false when another does.
pub(crate) fn try_lock_exclusive(file: &File) -> io::Result<bool> {
    loop {
        match flock(file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => return Ok(true),
            Err(Errno::WOULDBLOCK) => return Ok(false),
            Err(Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
}

/// Waits until one of `handles` can be read, or `timeout` has passed (forever without one);
/// which ones can. An interrupted wait returns early with none.
pub(crate) fn wait<const N: usize>(
    handles: [HandleRef<'_>; N],
    timeout: Option<Duration>,
) -> io::Result<[bool; N]> {
    let mut fds = handles.map(|handle| PollFd::from_borrowed_fd(handle, PollFlags::IN));
    let timeout = timeout.map(|t| Timespec {
        tv_sec: t.as_secs().try_into().unwrap_or(i64::MAX),
        tv_nsec: i64::from(t.subsec_nanos()),
    });
    match poll(&mut fds, timeout.as_ref()) {
        Ok(_) => Ok(fds.map(|fd| !fd.revents().is_empty())),
        Err(Errno::INTR) => Ok([false; N]),
        Err(e) => Err(e.into()),
    }
}
