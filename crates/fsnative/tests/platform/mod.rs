//! What the vector fixtures (`vectors.rs`) need of the OS. On Windows: no FIFOs, symlinks only
//! with the privilege to make them, modes as the read-only attribute, and names that are UTF-8
//! (a tree Windows cannot make has its vector skipped there, saying why). Other test binaries
//! take `plain` from it, each using a part.
#![allow(dead_code)]

#[cfg(unix)]
mod unix {
    use std::ffi::OsString;
    use std::io;
    use std::os::unix::ffi::OsStringExt;
    use std::os::unix::fs::PermissionsExt;
    use std::path::{Path, PathBuf};

    pub fn running_as_root() -> bool {
        // SAFETY: geteuid has no preconditions.
        unsafe { libc::geteuid() == 0 }
    }

    pub fn os_string(bytes: Vec<u8>) -> OsString {
        OsString::from_vec(bytes)
    }

    pub fn plain(path: PathBuf) -> PathBuf {
        path
    }

    pub fn makes_symlinks() -> bool {
        true
    }

    pub fn mkfifo(path: &Path) -> io::Result<()> {
        let c_path = std::ffi::CString::new(path.as_os_str().as_encoded_bytes())?;
        // SAFETY: a NUL-terminated path that outlives the call.
        if unsafe { libc::mkfifo(c_path.as_ptr(), 0o644) } != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    pub fn symlink(target: &Path, link: &Path) -> io::Result<()> {
        std::os::unix::fs::symlink(target, link)
    }

    pub fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    }
}

#[cfg(windows)]
mod windows {
    use std::ffi::OsString;
    use std::io;
    use std::path::{Path, PathBuf};

    pub fn running_as_root() -> bool {
        false
    }

    pub fn os_string(bytes: Vec<u8>) -> OsString {
        String::from_utf8_lossy(&bytes).into_owned().into()
    }

    /// A canonical path without the verbatim prefix `canonicalize` gives (`\\?\C:\…` as
    /// `C:\…`): the form the sandbox's canonical paths take.
    pub fn plain(path: PathBuf) -> PathBuf {
        let text = path.to_string_lossy();
        if let Some(unc) = text.strip_prefix(r"\\?\UNC\") {
            return PathBuf::from(format!(r"\\{unc}"));
        }
        text.strip_prefix(r"\\?\").map_or_else(|| path.clone(), PathBuf::from)
    }

    /// Whether a symlink made here exists afterwards: not without the privilege to make one,
    /// nor under Wine 8, whose `CreateSymbolicLinkW` succeeds and makes nothing. Tried once.
    pub fn makes_symlinks() -> bool {
        static MAKES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *MAKES.get_or_init(|| {
            let Ok(dir) = tempfile::tempdir() else { return false };
            let link = dir.path().join("link");
            std::os::windows::fs::symlink_file("target", &link).is_ok()
                && std::fs::symlink_metadata(&link).is_ok()
        })
    }

    pub fn mkfifo(_path: &Path) -> io::Result<()> {
        Err(io::Error::new(io::ErrorKind::Unsupported, "no FIFOs on Windows"))
    }

    /// A link to `target`, written with a backslash (Windows keeps a link's text as given, and
    /// follows no `/` in a relative one).
    pub fn symlink(target: &Path, link: &Path) -> io::Result<()> {
        let target = PathBuf::from(target.to_string_lossy().replace('/', "\\"));
        let target = target.as_path();
        let resolved = link.parent().map_or(target.to_path_buf(), |parent| parent.join(target));
        if resolved.is_dir() {
            std::os::windows::fs::symlink_dir(target, link)
        } else {
            std::os::windows::fs::symlink_file(target, link)
        }
    }

    pub fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
        let mut permissions = std::fs::metadata(path)?.permissions();
        permissions.set_readonly(mode & 0o200 == 0);
        std::fs::set_permissions(path, permissions)
    }
}

#[cfg(unix)]
pub use unix::*;
#[cfg(windows)]
pub use windows::*;
