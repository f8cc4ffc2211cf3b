//! Names as bytes: the core keeps paths as the bytes of `OsStr::as_encoded_bytes`, and these
//! turn them back into names.

use std::ffi::OsStr;
use std::path::PathBuf;

/// The name whose bytes are `bytes`: bytes that came from `as_encoded_bytes`, or from UTF-8
/// text (which every OS's encoding takes as it is).
#[cfg(unix)]
pub(crate) fn os_str(bytes: &[u8]) -> &OsStr {
    std::os::unix::ffi::OsStrExt::from_bytes(bytes)
}

/// The path whose bytes are `bytes` (see [`os_str`]).
#[cfg(unix)]
pub(crate) fn path_buf(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(<std::ffi::OsString as std::os::unix::ffi::OsStringExt>::from_vec(bytes))
}

/// The path `path` (bytes, `/`-separated) lies below the directory `dir` (every path lies
/// below `""`).
pub(crate) fn is_below(path: &[u8], dir: &[u8]) -> bool {
    dir.is_empty() || (path.len() > dir.len() && path.starts_with(dir) && path[dir.len()] == b'/')
}

/// `key` names the directory `dir` of `root`, or one below it.
pub(crate) fn is_below_or_at(key: &super::DirKey, root: usize, dir: &[u8]) -> bool {
    key.0 == root && (key.1.as_ref() == dir || is_below(&key.1, dir))
}
