//! macOS: `getattrlistbulk` listings (see [`listing`]), a pipe wake-up, quality-of-service
//! classes for helper threads, cloud placeholders, and FSEvents (loaded at run time: see
//! [`fsevents`]).

mod fsevents;
mod listing;

use std::io;

use rustix::fs::Stat;
use rustix::io::{fcntl_setfd, ioctl_fionbio, FdFlags};

use super::bulk_listing::SF_DATALESS;
use super::{Handle, HandleRef};

pub(crate) use fsevents::Watcher;
pub(crate) use listing::list_dir;

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
