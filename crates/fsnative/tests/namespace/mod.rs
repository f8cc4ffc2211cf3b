//! Mounts in a mount namespace of the test process's own, for tests that need a tiny or
//! read-only file system without changing the host's: only root may make one, and only Linux
//! has them (elsewhere each call fails as unsupported, and the tests say they skipped).

#![allow(dead_code)] // each test binary uses a part of it

use std::ffi::CStr;
use std::io;

/// In a new mount namespace, mounts a tmpfs with `data` (its options, such as its size) on
/// `target`.
#[cfg(target_os = "linux")]
pub fn tmpfs_in_own_namespace(target: &CStr, data: &CStr) -> io::Result<()> {
    own_mount_namespace()?;
    let flags = libc::MS_NOSUID | libc::MS_NODEV;
    // SAFETY: a plain system call on NUL-terminated strings that outlive it.
    check(unsafe {
        libc::mount(c"tmpfs".as_ptr(), target.as_ptr(), c"tmpfs".as_ptr(), flags, data.as_ptr().cast())
    })
}

/// In a new mount namespace, binds `target` onto itself read-only.
#[cfg(target_os = "linux")]
pub fn read_only_bind_mount(target: &CStr) -> io::Result<()> {
    own_mount_namespace()?;
    let none = std::ptr::null();
    // SAFETY: plain system calls on NUL-terminated strings that outlive them.
    unsafe {
        check(libc::mount(target.as_ptr(), target.as_ptr(), none, libc::MS_BIND, none.cast()))?;
        let flags = libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY;
        check(libc::mount(none, target.as_ptr(), none, flags, none.cast()))
    }
}

/// Moves the calling process into a new mount namespace whose mounts do not propagate back.
#[cfg(target_os = "linux")]
fn own_mount_namespace() -> io::Result<()> {
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
#[cfg(target_os = "linux")]
fn check(rc: libc::c_int) -> io::Result<()> {
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

#[cfg(not(target_os = "linux"))]
pub fn tmpfs_in_own_namespace(_target: &CStr, _data: &CStr) -> io::Result<()> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "mount namespaces are Linux's"))
}

#[cfg(not(target_os = "linux"))]
pub fn read_only_bind_mount(_target: &CStr) -> io::Result<()> {
    Err(io::Error::new(io::ErrorKind::Unsupported, "mount namespaces are Linux's"))
}
