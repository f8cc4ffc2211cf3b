//! A mount namespace of the calling process's own, for tests that mount (as root) without
//! touching the host's mounts. Called between fork and exec: system calls only.

/// Unshares the mount namespace and makes every mount in it private, so that what is mounted
/// next is seen by this process (and what it runs) alone.
pub fn private_mount_namespace() -> std::io::Result<()> {
    let check = |rc: libc::c_int| if rc == 0 { Ok(()) } else { Err(std::io::Error::last_os_error()) };
    let none = std::ptr::null();
    // SAFETY: plain system calls on NUL-terminated strings that outlive them.
    unsafe {
        check(libc::unshare(libc::CLONE_NEWNS))?;
        check(libc::mount(
            c"none".as_ptr(),
            c"/".as_ptr(),
            none,
            libc::MS_REC | libc::MS_PRIVATE,
            none.cast(),
        ))
    }
}
