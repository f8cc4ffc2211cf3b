//! macOS: `readdir` listings, a pipe wake-up, quality-of-service classes for helper threads,
//! cloud placeholders, and FSEvents (loaded at run time: see [`fsevents`]).

mod fsevents;

use std::ffi::CStr;
use std::io;

use rustix::fs::{Dir, Stat};
use rustix::io::{fcntl_setfd, ioctl_fionbio, FdFlags};

use super::unix::listed;
use super::{EntryType, Handle, HandleRef};

pub(crate) use fsevents::Watcher;

/// `st_flags` bit of a file whose contents are not on this machine (`SF_DATALESS` in
/// `<sys/stat.h>`): iCloud Drive, and the File Provider clients (Dropbox, OneDrive).
const SF_DATALESS: u32 = 0x4000_0000;

/// Calls `visit` with the name of every entry of the open directory `dir` but `.` and `..`,
/// and its type when the listing tells it.
pub(crate) fn list_dir(
    dir: HandleRef<'_>,
    mut visit: impl FnMut(&CStr, Option<EntryType>),
) -> io::Result<()> {
    for entry in Dir::read_from(dir)? {
        let entry = entry?;
        listed(entry.file_name(), entry.file_type(), &mut visit);
    }
    Ok(())
}

/// APFS and HFS+ look names up without regard to Unicode normalization: a name stored in NFD
/// opens by its NFC spelling, and the reverse.
pub(crate) const NAMES_IGNORE_NORMALIZATION: bool = true;

/// A cloud placeholder: reading it would download it.
pub(super) fn is_dataless(stat: &Stat) -> bool {
    stat.st_flags & SF_DATALESS != 0
}

/// Puts the calling thread in the utility class, below the host's own threads (best effort).
pub(crate) fn lower_thread_priority() {
    // SAFETY: takes no pointers; affects only the calling thread.
    let _ = unsafe { libc::pthread_set_qos_class_self_np(libc::qos_class_t::QOS_CLASS_UTILITY, 0) };
}

/// A wake-up another thread can send to one that waits on [`Wake::handle`]: a pipe.
#[derive(Debug)]
pub(crate) struct Wake {
    read: Handle,
    write: Handle,
}

impl Wake {
    pub fn new() -> io::Result<Wake> {
        let (read, write) = pipe()?;
        Ok(Wake { read, write })
    }

    /// Wakes the waiting thread, now and at every later wait (the byte stays unread).
    pub fn wake(&self) {
        let _ = rustix::io::write(&self.write, &[1]);
    }

    /// What to wait on.
    pub fn handle(&self) -> HandleRef<'_> {
        std::os::fd::AsFd::as_fd(&self.read)
    }
}

/// A pipe whose two ends are closed on exec and never block.
pub(super) fn pipe() -> io::Result<(Handle, Handle)> {
    let (read, write) = rustix::pipe::pipe()?;
    for end in [&read, &write] {
        fcntl_setfd(end, FdFlags::CLOEXEC)?;
        ioctl_fionbio(end, true)?;
    }
    Ok((read, write))
}
