//! Windows: handles, opens beneath a directory handle through `NtCreateFile` (never through a
//! reparse point that is a link), `GetFileInformationByHandle(Ex)` for metadata and listings,
//! an event object as the wake-up, `WaitForMultipleObjects`, thread priorities, `LockFileEx`,
//! and a `ReadDirectoryChangesW` watcher per root ([`watcher`]).
//!
//! Names are kept as WTF-8 bytes (`OsStr::as_encoded_bytes`; see `sys::names`); Windows takes
//! them as UTF-16, converted at each call.

mod files;
mod watcher;

use std::fs::File;
use std::io;
use std::os::windows::io::{AsRawHandle, BorrowedHandle, FromRawHandle, OwnedHandle};
use std::time::Duration;

use windows_sys::Win32::Foundation::{
    GetLastError, ERROR_CANT_ACCESS_FILE, ERROR_CANT_RESOLVE_FILENAME, ERROR_DISK_FULL,
    ERROR_FILENAME_EXCED_RANGE, ERROR_HANDLE_DISK_FULL, ERROR_IO_PENDING, ERROR_LOCK_VIOLATION,
    ERROR_NOT_A_REPARSE_POINT, ERROR_REPARSE_POINT_ENCOUNTERED, ERROR_STOPPED_ON_SYMLINK, HANDLE,
    WAIT_FAILED, WAIT_OBJECT_0, WAIT_TIMEOUT,
};
use windows_sys::Win32::Storage::FileSystem::{
    LockFileEx, LOCKFILE_EXCLUSIVE_LOCK, LOCKFILE_FAIL_IMMEDIATELY,
};
use windows_sys::Win32::System::Threading::{
    CreateEventW, GetCurrentThread, SetEvent, SetThreadPriority, WaitForMultipleObjects, WaitForSingleObject,
    INFINITE, THREAD_PRIORITY_BELOW_NORMAL,
};
use windows_sys::Win32::System::IO::OVERLAPPED;

use super::OsError;

pub(crate) use files::{
    dir_open_options, list_dir, open_dir, open_dir_at, open_file_at, open_filesystem_root, stat, stat_at,
    stat_path, stored_name, sync_dir,
};
pub(crate) use watcher::Watcher;

/// An open file or directory (or event).
pub(crate) type Handle = OwnedHandle;
/// A borrowed [`Handle`].
pub(crate) type HandleRef<'a> = BorrowedHandle<'a>;

/// Anything that holds an open file or directory.
pub(crate) trait AsHandle {
    /// The handle, borrowed.
    fn handle(&self) -> HandleRef<'_>;
}

impl<T: std::os::windows::io::AsHandle> AsHandle for T {
    fn handle(&self) -> HandleRef<'_> {
        self.as_handle()
    }
}

/// The raw handle of `handle`, for a system call.
fn raw(handle: HandleRef<'_>) -> HANDLE {
    handle.as_raw_handle() as HANDLE
}

impl OsError {
    /// The class of `err`, when it has one of these.
    ///
    /// `ERROR_TOO_MANY_LINKS` is not [`OsError::Loop`]: it is Windows's `EMLINK` (a file has
    /// as many hard links as the file system allows), not `ELOOP`.
    pub fn of(err: &io::Error) -> Option<OsError> {
        match u32::try_from(err.raw_os_error()?).ok()? {
            ERROR_CANT_RESOLVE_FILENAME | ERROR_STOPPED_ON_SYMLINK | ERROR_REPARSE_POINT_ENCOUNTERED => {
                Some(OsError::Loop)
            }
            ERROR_FILENAME_EXCED_RANGE => Some(OsError::NameTooLong),
            ERROR_NOT_A_REPARSE_POINT => Some(OsError::NotALink),
            // What opening a Unix socket's reparse point gives.
            ERROR_CANT_ACCESS_FILE => Some(OsError::Unopenable),
            ERROR_DISK_FULL | ERROR_HANDLE_DISK_FULL => Some(OsError::NoSpace),
            _ => None,
        }
    }

    /// An error of this class, as the OS would give it (the opens beneath a directory make
    /// [`OsError::Loop`] so, on a link).
    pub fn error(self) -> io::Error {
        io::Error::from_raw_os_error(match self {
            OsError::Loop => ERROR_CANT_RESOLVE_FILENAME,
            OsError::NameTooLong => ERROR_FILENAME_EXCED_RANGE,
            OsError::NotALink => ERROR_NOT_A_REPARSE_POINT,
            OsError::Unopenable => ERROR_CANT_ACCESS_FILE,
            OsError::NoSpace => ERROR_DISK_FULL,
        } as i32)
    }
}

/// The error of the last failed call on this thread.
fn last_error() -> io::Error {
    io::Error::last_os_error()
}

/// A manual-reset event object, unset: set, it stays set until reset.
fn event() -> io::Result<Handle> {
    // SAFETY: no security attributes, no name; the handle returned is ours to own.
    let handle = unsafe { CreateEventW(std::ptr::null(), 1, 0, std::ptr::null()) };
    if handle.is_null() {
        return Err(last_error());
    }
    // SAFETY: a valid handle just created, owned by nothing else.
    Ok(unsafe { OwnedHandle::from_raw_handle(handle) })
}

/// NTFS and ReFS compare names without normalizing them: NFC and NFD spellings are two names.
pub(crate) const NAMES_IGNORE_NORMALIZATION: bool = false;

/// Lowers the calling thread's priority below the host's threads (best effort: where it
/// cannot be set, the thread runs all the same).
pub(crate) fn lower_thread_priority() {
    // SAFETY: the pseudo-handle of the calling thread needs no closing.
    let _ = unsafe { SetThreadPriority(GetCurrentThread(), THREAD_PRIORITY_BELOW_NORMAL) };
}

/// A wake-up another thread can send to one that waits on [`Wake::handle`]: a manual-reset
/// event, which stays set once set.
#[derive(Debug)]
pub(crate) struct Wake(Handle);

impl Wake {
    pub fn new() -> io::Result<Wake> {
        Ok(Wake(event()?))
    }

    /// Wakes the waiting thread, now and at every later wait.
    pub fn wake(&self) {
        // SAFETY: the event is open for as long as `self`.
        let _ = unsafe { SetEvent(raw(self.handle())) };
    }

    /// What to wait on.
    pub fn handle(&self) -> HandleRef<'_> {
        std::os::windows::io::AsHandle::as_handle(&self.0)
    }
}

/// Takes an exclusive lock on `file` if no other holds one: false when another does.
///
/// The lock is `LockFileEx`'s on the whole file (every byte offset): unlike `flock` it is
/// mandatory, so the file locked must be one kept for locking alone (the store's is). It goes
/// when the handle is closed.
pub(crate) fn try_lock_exclusive(file: &File) -> io::Result<bool> {
    let mut overlapped = OVERLAPPED::default();
    let flags = LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY;
    // SAFETY: `file` is open; the OVERLAPPED (offset 0) lives through the call, which with
    // `LOCKFILE_FAIL_IMMEDIATELY` on a synchronous handle does not outlive it.
    let locked = unsafe { LockFileEx(raw(file.handle()), flags, 0, u32::MAX, u32::MAX, &mut overlapped) };
    if locked != 0 {
        return Ok(true);
    }
    // SAFETY: reads the calling thread's last error.
    match unsafe { GetLastError() } {
        ERROR_LOCK_VIOLATION | ERROR_IO_PENDING => Ok(false),
        _ => Err(last_error()),
    }
}

/// Waits until one of `handles` is signalled, or `timeout` has passed (forever without one);
/// which ones are. The handles must be ones a wait does not reset (the manual-reset events of
/// [`Wake`] and [`Watcher`], files, threads): each is looked at once more, without waiting, to
/// tell every one that is signalled.
pub(crate) fn wait<const N: usize>(
    handles: [HandleRef<'_>; N],
    timeout: Option<Duration>,
) -> io::Result<[bool; N]> {
    let raws = handles.map(raw);
    let millis = timeout.map_or(INFINITE, |t| {
        // Rounded up, so that a wait never ends before its time; at most just under INFINITE.
        let millis = t.as_nanos().div_ceil(1_000_000);
        u32::try_from(millis).unwrap_or(INFINITE - 1).min(INFINITE - 1)
    });
    // SAFETY: `raws` holds N open handles (borrowed for the call); N is at most a few.
    let woke = unsafe { WaitForMultipleObjects(N as u32, raws.as_ptr(), 0, millis) };
    let first = match woke {
        WAIT_TIMEOUT => return Ok([false; N]),
        WAIT_FAILED => return Err(last_error()),
        at if (at.wrapping_sub(WAIT_OBJECT_0) as usize) < N => at.wrapping_sub(WAIT_OBJECT_0) as usize,
        // WAIT_ABANDONED_0 + i: a mutex, which none of these is.
        _ => return Ok([false; N]),
    };
    let mut ready = [false; N];
    for (at, handle) in raws.iter().enumerate() {
        // SAFETY: as above; a zero timeout only looks.
        ready[at] =
            at == first || (at > first && unsafe { WaitForSingleObject(*handle, 0) } == WAIT_OBJECT_0);
    }
    Ok(ready)
}

#[cfg(test)]
mod tests;
