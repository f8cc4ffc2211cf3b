//! The watcher on Windows: one `ReadDirectoryChangesW` per root, recursive, read with
//! overlapped I/O that sets one event (the watcher's [`Watcher::handle`]). What its records
//! mean is decided in [`crate::sys::directory_changes`], which builds on every OS.
//!
//! Each root's directory is opened again (`ReOpenFile`, so the watch is on the directory the
//! walk opened, whatever its path leads to now) for overlapped I/O, and bound to a completion
//! port of the watcher's: a read on a handle so bound is not cancelled when the thread that
//! started it ends, which matters because the reads are started again by whichever thread
//! drains. The port is never waited on (each `OVERLAPPED`'s event handle has its low bit set,
//! which asks Windows to queue nothing there); whatever it holds all the same is discarded at
//! each drain.
//!
//! What is lost: a read that completes with no bytes, or with `ERROR_NOTIFY_ENUM_DIR`, says that
//! the changes overflowed Windows's buffer for the watch ([`Event::Overflow`]); a read that
//! was cancelled all the same is a [`Event::Rescan`] of its root; any other failure is the
//! root gone ([`Event::Gone`]: deleted, or its volume removed).
//!
//! When changes are seen ([`Watcher::pending`]): NTFS records a change during the system call
//! that makes it, completing the waiting read (or keeping it for the next read when none
//! waits). Windows then finishes that read in the background, writing its result into the
//! read's `OVERLAPPED`, which `pending` reads without waiting (`GetOverlappedResult`,
//! `bWait = FALSE`). So `pending` is true for every change whose record a finished read holds
//! or Windows keeps for the next read (a root whose read is not running counts as pending),
//! and for a change whose system call has just returned it may still be false for the moment
//! Windows takes to finish the read: unlike inotify's queue, there is no call that waits for
//! that, and no flush as FSEvents has. NTFS also reports some changes late: a file's new size
//! and write time may be recorded only when the writer's handle is closed or flushed, and the
//! records of a write that keeps the size may come then too. Names are reported at once.
//! A record may name a path by its short (8.3) name when the change was made through one.
//! Moving or renaming a root itself is not reported (the watch goes on in its new place).
//!
//! Under Wine 8.0 both of these hold less (`packaging/windows/watch-probe.c` shows each): its
//! server builds the watch on inotify and reads the kernel's events in its own time, then
//! finishes the read through an asynchronous call to the thread that started it, so a record
//! often comes milliseconds after the change's call returned (a search made at once answers
//! without it); and it cancels a read when the thread that started it ends, completion port
//! or not, which [`Watcher::drain`] takes as a rescan of the root.

use std::collections::BTreeSet;
use std::io;
use std::path::Path;
use std::ptr::null_mut;
use std::time::Duration;

use windows_sys::Win32::Foundation::{
    GetLastError, ERROR_IO_INCOMPLETE, ERROR_NOTIFY_ENUM_DIR, ERROR_OPERATION_ABORTED, HANDLE,
    INVALID_HANDLE_VALUE,
};
use windows_sys::Win32::Storage::FileSystem::{
    ReOpenFile, ReadDirectoryChangesW, FILE_FLAG_BACKUP_SEMANTICS, FILE_FLAG_OVERLAPPED, FILE_LIST_DIRECTORY,
    FILE_NOTIFY_CHANGE_ATTRIBUTES, FILE_NOTIFY_CHANGE_DIR_NAME, FILE_NOTIFY_CHANGE_FILE_NAME,
    FILE_NOTIFY_CHANGE_LAST_WRITE, FILE_NOTIFY_CHANGE_SECURITY, FILE_NOTIFY_CHANGE_SIZE, FILE_SHARE_DELETE,
    FILE_SHARE_READ, FILE_SHARE_WRITE,
};
use windows_sys::Win32::System::Threading::{ResetEvent, SetEvent};
use windows_sys::Win32::System::IO::{
    CancelIoEx, CreateIoCompletionPort, GetOverlappedResult, GetQueuedCompletionStatus, OVERLAPPED,
};

use super::{raw, Handle, HandleRef};
use crate::sys::directory_changes::{records, translate};
use crate::sys::{is_below_or_at, DirKey, Event};

/// The buffer of one read, and of Windows's own for the watch (sized by the first read):
/// 64 KiB, the most a watch on a network share takes.
const BUFFER: usize = 64 * 1024;
/// What each root is watched for: names, sizes, write times, attributes and permissions.
const FILTER: u32 = FILE_NOTIFY_CHANGE_FILE_NAME
    | FILE_NOTIFY_CHANGE_DIR_NAME
    | FILE_NOTIFY_CHANGE_SIZE
    | FILE_NOTIFY_CHANGE_LAST_WRITE
    | FILE_NOTIFY_CHANGE_ATTRIBUTES
    | FILE_NOTIFY_CHANGE_SECURITY;
/// The most reads of one root a drain takes: under a steady stream of changes a drain still
/// ends, and the event stays set for the rest.
const ROUNDS: usize = 16;

/// One read's `OVERLAPPED` and buffer: Windows's while the read runs.
#[repr(C)]
struct Read {
    overlapped: OVERLAPPED,
    /// u64s: the records are 4-byte aligned, as the call needs.
    buffer: [u64; BUFFER / 8],
}

/// A watched root: its directory, opened for overlapped reads, and its read.
struct Root {
    number: usize,
    dir: Handle,
    /// Owned (from `Box::into_raw`), reached only through the pointer: Windows writes it while
    /// a read runs.
    read: *mut Read,
    /// A read was started and has not been taken back by [`Root::completed`].
    reading: bool,
}

// SAFETY: the `Read` is owned by the root alone; Windows writes it only while a read runs, and
// the root is only used through `&mut Watcher` or to look at a finished read.
unsafe impl Send for Root {}
unsafe impl Sync for Root {}

impl Root {
    /// Watches the directory open as `dir` as root `number`, its reads setting `signal`.
    fn start(dir: HandleRef<'_>, number: usize, signal: HANDLE, port: Option<&Handle>) -> io::Result<Root> {
        let share = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
        let flags = FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OVERLAPPED;
        // SAFETY: `dir` is open; the handle returned is ours.
        let reopened = unsafe { ReOpenFile(raw(dir), FILE_LIST_DIRECTORY, share, flags) };
        if reopened == INVALID_HANDLE_VALUE {
            return Err(super::last_error());
        }
        // SAFETY: a valid handle just opened, owned by nothing else.
        let dir: Handle = unsafe { std::os::windows::io::FromRawHandle::from_raw_handle(reopened) };
        if let Some(port) = port {
            // Best effort: unbound, a read is cancelled when its thread ends, which a drain
            // then says as a rescan of the root.
            // SAFETY: both handles are open.
            let _ = unsafe {
                CreateIoCompletionPort(
                    raw(super::AsHandle::handle(&dir)),
                    raw(super::AsHandle::handle(port)),
                    0,
                    0,
                )
            };
        }
        let read =
            Box::into_raw(Box::new(Read { overlapped: OVERLAPPED::default(), buffer: [0; BUFFER / 8] }));
        let mut root = Root { number, dir, read, reading: false };
        root.issue(signal)?;
        Ok(root)
    }

    /// Starts a read.
    fn issue(&mut self, signal: HANDLE) -> io::Result<()> {
        debug_assert!(!self.reading);
        // SAFETY: no read runs, so the `Read` is ours to write; it stays where it is until the
        // read is taken back (`completed`) or cancelled (`drop`).
        let done = unsafe {
            let read = self.read;
            (*read).overlapped = OVERLAPPED::default();
            // The low bit: nothing is queued to the completion port.
            (*read).overlapped.hEvent = (signal as usize | 1) as HANDLE;
            ReadDirectoryChangesW(
                raw(super::AsHandle::handle(&self.dir)),
                (&raw mut (*read).buffer).cast(),
                BUFFER as u32,
                1,
                FILTER,
                null_mut(),
                &raw mut (*read).overlapped,
                None,
            )
        };
        if done == 0 {
            return Err(super::last_error());
        }
        self.reading = true;
        Ok(())
    }

    /// The running read's outcome once it has finished (the bytes it filled, or its error),
    /// without waiting; `None` while it runs or when none was started.
    fn completed(&self) -> Option<Result<u32, u32>> {
        if !self.reading {
            return None;
        }
        let mut bytes = 0;
        // SAFETY: the OVERLAPPED is the running read's; with `bWait` false the call only looks.
        let done = unsafe {
            GetOverlappedResult(
                raw(super::AsHandle::handle(&self.dir)),
                &raw const (*self.read).overlapped,
                &mut bytes,
                0,
            )
        };
        if done != 0 {
            return Some(Ok(bytes));
        }
        // SAFETY: reads the calling thread's last error.
        match unsafe { GetLastError() } {
            ERROR_IO_INCOMPLETE => None,
            error => Some(Err(error)),
        }
    }

    /// The bytes a finished read filled.
    fn filled(&self, bytes: u32) -> &[u8] {
        // SAFETY: the read has finished (`completed` said so, and `reading` is false): Windows
        // wrote `bytes` bytes, at most the buffer's size, and writes no more.
        unsafe {
            std::slice::from_raw_parts(
                (&raw const (*self.read).buffer).cast::<u8>(),
                (bytes as usize).min(BUFFER),
            )
        }
    }
}

impl Drop for Root {
    fn drop(&mut self) {
        if self.reading {
            // SAFETY: the OVERLAPPED is the running read's.
            unsafe {
                CancelIoEx(raw(super::AsHandle::handle(&self.dir)), &raw const (*self.read).overlapped)
            };
            // Windows owns the buffer until the cancelled read has finished. Its event is
            // shared with the other roots, so the read itself is looked at, not the event.
            while self.completed().is_none() {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        // SAFETY: no read runs; the `Read` came from `Box::into_raw` and is freed once.
        drop(unsafe { Box::from_raw(self.read) });
    }
}

/// The `ReadDirectoryChangesW` watcher: a recursive watch per root, and the directories the
/// index asked to watch.
pub(crate) struct Watcher {
    /// Dropped first: their reads are cancelled before the event and the port close.
    roots: Vec<Root>,
    watched: BTreeSet<DirKey>,
    /// Set by every read that finishes: a manual-reset event.
    signal: Handle,
    /// Keeps the reads alive past the thread that started them (`None` where it could not be
    /// made).
    port: Option<Handle>,
}

impl Watcher {
    /// A watcher with nothing watched yet.
    pub fn new() -> io::Result<Watcher> {
        let signal = super::event()?;
        // SAFETY: makes a new port (no file, no existing port); the handle returned is ours.
        let port = unsafe { CreateIoCompletionPort(INVALID_HANDLE_VALUE, null_mut(), 0, 1) };
        let port = (!port.is_null())
            // SAFETY: a valid handle just made, owned by nothing else.
            .then(|| unsafe { std::os::windows::io::FromRawHandle::from_raw_handle(port) });
        Ok(Watcher { roots: Vec::new(), watched: BTreeSet::new(), signal, port })
    }

    /// Watches the directory open as `dir` as `key`: a root starts a recursive watch that
    /// covers its whole tree; a directory below a watched root needs nothing more.
    pub fn watch(&mut self, dir: HandleRef<'_>, _path: &Path, key: DirKey) -> bool {
        if !self.roots.iter().any(|root| root.number == key.0) {
            if !key.1.is_empty() {
                return false;
            }
            match Root::start(dir, key.0, raw(self.handle()), self.port.as_ref()) {
                Ok(root) => self.roots.push(root),
                Err(_) => return false,
            }
        }
        self.watched.insert(key);
        true
    }

    /// Stops counting every directory at or below `dir` of `root` as watched (the root's
    /// watch goes on: the index lists it again at once).
    pub fn forget_below(&mut self, root: usize, dir: &[u8]) {
        self.watched.retain(|key| !is_below_or_at(key, root, dir));
    }

    pub fn watched(&self) -> usize {
        self.watched.len()
    }

    /// A read has finished, or a root's read is not running (see the module's note for what
    /// this sees of a change just made).
    pub fn pending(&self) -> bool {
        self.roots.iter().any(|root| !root.reading || root.completed().is_some())
    }

    pub fn handle(&self) -> HandleRef<'_> {
        std::os::windows::io::AsHandle::as_handle(&self.signal)
    }

    /// Hands `sink` what every finished read holds, starting each root's read again.
    pub fn drain(&mut self, sink: &mut dyn FnMut(Event<'_>)) {
        self.discard_queued();
        let signal = raw(self.handle());
        // Reset before looking: a read that finishes after the look sets it again.
        // SAFETY: the event is open.
        unsafe { ResetEvent(signal) };
        let Watcher { roots, watched, .. } = self;
        let mut gone = Vec::new();
        for (at, root) in roots.iter_mut().enumerate() {
            for _ in 0..ROUNDS {
                let outcome = match root.completed() {
                    Some(outcome) => outcome,
                    None if root.reading => break,
                    // A read that could not be started before: try again.
                    None => Ok(u32::MAX),
                };
                root.reading = false;
                let whole = (root.number, Box::default());
                match outcome {
                    Ok(u32::MAX) => sink(Event::Rescan(&whole)),
                    Ok(0) => sink(Event::Overflow),
                    Ok(bytes) => {
                        let number = root.number;
                        let read = records(root.filled(bytes), |action, path| {
                            translate(number, action, path, watched, sink)
                        });
                        if !read {
                            sink(Event::Overflow);
                        }
                    }
                    Err(ERROR_NOTIFY_ENUM_DIR) => sink(Event::Overflow),
                    Err(ERROR_OPERATION_ABORTED) => sink(Event::Rescan(&whole)),
                    Err(_) => {
                        gone.push(at);
                        break;
                    }
                }
                if root.issue(signal).is_err() {
                    gone.push(at);
                    break;
                }
            }
        }
        for at in gone.into_iter().rev() {
            let root = roots.remove(at);
            watched.retain(|key| key.0 != root.number);
            sink(Event::Gone(&(root.number, Box::default())));
        }
        if roots.iter().any(|root| root.completed().is_some()) {
            // SAFETY: the event is open.
            unsafe { SetEvent(signal) };
        }
    }

    /// Takes out of the port whatever Windows queued there all the same.
    fn discard_queued(&self) {
        let Some(port) = &self.port else { return };
        loop {
            let (mut bytes, mut key, mut overlapped) = (0u32, 0usize, null_mut());
            // SAFETY: the port is open; a zero timeout never waits.
            let taken = unsafe {
                GetQueuedCompletionStatus(
                    raw(super::AsHandle::handle(port)),
                    &mut bytes,
                    &mut key,
                    &mut overlapped,
                    0,
                )
            };
            if taken == 0 && overlapped.is_null() {
                return;
            }
        }
    }
}
