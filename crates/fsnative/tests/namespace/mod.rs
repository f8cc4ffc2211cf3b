//! A mount namespace of the test process's own, for tests that need a mount (a tiny or
//! read-only file system) without changing the host's: only root may make one.

use std::io;

/// Moves the calling process into a new mount namespace whose mounts do not propagate back.
pub fn own_mount_namespace() -> io::Result<()> {
    // SAFETY: plain system calls on NUL-terminated strings that outlive them.
    unsafe {
        check(libc::unshare(libc::CLONE_NEWNS))?;
        let none = std::ptr::null();
        check(libc::mount(
            c"none".as_ptr(),
            c"/".as_ptr(),
            none,
            libc::MS_REC | libc::MS_PRIVATE,
            none.cast(),
        ))
    }
}

/// A system call's return code as a result.
pub fn check(rc: libc::c_int) -> io::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
