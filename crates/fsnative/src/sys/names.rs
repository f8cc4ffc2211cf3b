//! Names as bytes: the core keeps paths as the bytes of `OsStr::as_encoded_bytes`, and these
//! turn them back into names.
//!
//! On Unix those bytes are the name's own. On Windows they are WTF-8: UTF-8 that may also hold
//! the three-byte form of an unpaired UTF-16 surrogate, which a Windows name may contain. The
//! core only ever splits such bytes next to an ASCII byte (`/`) and joins them with one between,
//! which keeps them WTF-8; names the OS lists ([`push_wtf8`]) and bytes from
//! `as_encoded_bytes` or from UTF-8 text are WTF-8 from the start. Bytes from anywhere else (a
//! store on disk, a client's cursor) may not be: on Windows [`os_str`] and [`path_buf`] check,
//! so that no bytes that are not WTF-8 ever become an `OsStr` (which would be undefined
//! behaviour).

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

/// What [`os_str`] gives for bytes that are not WTF-8 (which no caller should hand it): a
/// name that no Windows file can have (`<` and `>` are refused in names), so opening or
/// stating it fails instead of reaching some other file.
#[cfg(windows)]
const NOT_WTF8: &str = "<not WTF-8>";

/// The name whose bytes are `bytes`: bytes that came from `as_encoded_bytes` (whole, or cut
/// next to an ASCII byte), from [`push_wtf8`], or from UTF-8 text. Other bytes that are not
/// WTF-8 give a name no file has (checked: see the module's note).
#[cfg(windows)]
pub(crate) fn os_str(bytes: &[u8]) -> &OsStr {
    if !is_wtf8(bytes) {
        debug_assert!(false, "not WTF-8: {bytes:?}");
        return OsStr::new(NOT_WTF8);
    }
    // SAFETY: `bytes` is WTF-8 (checked above), the encoding `as_encoded_bytes` gives on
    // Windows, which `from_encoded_bytes_unchecked` takes back.
    unsafe { OsStr::from_encoded_bytes_unchecked(bytes) }
}

/// The path whose bytes are `bytes` (see [`os_str`]); bytes that are not WTF-8 are read as
/// UTF-8 with their faults replaced.
#[cfg(windows)]
pub(crate) fn path_buf(bytes: Vec<u8>) -> PathBuf {
    if !is_wtf8(&bytes) {
        return PathBuf::from(String::from_utf8_lossy(&bytes).into_owned());
    }
    // SAFETY: as in `os_str`: the bytes are WTF-8.
    PathBuf::from(unsafe { std::ffi::OsString::from_encoded_bytes_unchecked(bytes) })
}

/// Appends the WTF-8 form of the UTF-16 name `wide` to `out`: the bytes that
/// `OsString::from_wide(wide).as_encoded_bytes()` gives on Windows (an unpaired surrogate
/// becomes its three-byte form). Builds on every OS: the Windows listing and watcher use it.
#[cfg_attr(not(any(test, windows)), allow(dead_code))]
pub(crate) fn push_wtf8(out: &mut Vec<u8>, wide: &[u16]) {
    for unit in char::decode_utf16(wide.iter().copied()) {
        match unit {
            Ok(c) => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
            Err(unpaired) => {
                let u = unpaired.unpaired_surrogate();
                out.extend_from_slice(&[
                    0xE0 | (u >> 12) as u8,
                    0x80 | ((u >> 6) & 0x3F) as u8,
                    0x80 | (u & 0x3F) as u8,
                ]);
            }
        }
    }
}

/// Whether `bytes` is WTF-8: UTF-8, with unpaired surrogates in their three-byte form, and
/// never a lead surrogate right before a trail one (that pair is written as one character).
#[cfg_attr(not(any(test, windows)), allow(dead_code))]
pub(crate) fn is_wtf8(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    let mut after_lead = false;
    loop {
        let at = match std::str::from_utf8(rest) {
            Ok(_) => return true,
            Err(error) => error.valid_up_to(),
        };
        let &[0xED, second @ 0xA0..=0xBF, 0x80..=0xBF, ..] = &rest[at..] else {
            return false;
        };
        let trail = second >= 0xB0;
        if trail && after_lead && at == 0 {
            return false;
        }
        after_lead = !trail;
        rest = &rest[at + 3..];
    }
}

/// Whether the path bytes `bytes` end with a separator (`/`; on Windows `\` too).
pub(crate) fn ends_with_separator(bytes: &[u8]) -> bool {
    bytes.last().is_some_and(|&byte| byte == b'/' || (cfg!(windows) && byte == b'\\'))
}

/// The relative path bytes `bytes` with `/` between names on every OS: Windows' `\` becomes
/// `/` (an ASCII byte, so WTF-8 stays WTF-8), as the index's keys and the watcher's events
/// spell them.
pub(crate) fn slashed(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    if cfg!(windows) && bytes.contains(&b'\\') {
        return bytes.iter().map(|&byte| if byte == b'\\' { b'/' } else { byte }).collect();
    }
    std::borrow::Cow::Borrowed(bytes)
}

/// The path below a root whose `/`-separated bytes (an index key) are `bytes`, with the OS's
/// separator (a backslash on Windows) between its names; borrowed where `/` is the separator.
pub(crate) fn native_path(bytes: &[u8]) -> std::borrow::Cow<'_, std::path::Path> {
    if cfg!(windows) && bytes.contains(&b'/') {
        let native = bytes.iter().map(|&byte| if byte == b'/' { b'\\' } else { byte }).collect();
        return std::borrow::Cow::Owned(path_buf(native));
    }
    std::borrow::Cow::Borrowed(std::path::Path::new(os_str(bytes)))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_names_become_the_bytes_windows_encodes_them_as() {
        let mut out = Vec::new();
        push_wtf8(&mut out, &"a/é€😀".encode_utf16().collect::<Vec<_>>());
        assert_eq!(out, "a/é€😀".as_bytes());
        out.clear();
        // An unpaired lead, an unpaired trail, then a pair.
        push_wtf8(&mut out, &[0xD800, b'x' as u16, 0xDC01, 0xD83D, 0xDE00]);
        assert_eq!(out, [0xED, 0xA0, 0x80, b'x', 0xED, 0xB0, 0x81, 0xF0, 0x9F, 0x98, 0x80]);
        assert!(is_wtf8(&out));
    }

    #[test]
    fn wtf8_is_told_from_other_bytes() {
        assert!(is_wtf8(b""));
        assert!(is_wtf8("plain/名前".as_bytes()));
        assert!(is_wtf8(&[0xED, 0xB0, 0x80, 0xED, 0xA0, 0x80]), "a trail then a lead stay apart");
        assert!(is_wtf8(&[0xED, 0xA0, 0x80, b'/', 0xED, 0xB0, 0x80]));
        assert!(!is_wtf8(&[0xED, 0xA0, 0x80, 0xED, 0xB0, 0x80]), "a pair must be one character");
        assert!(!is_wtf8(&[0xFF]));
        assert!(!is_wtf8(&[b'a', 0xED, 0xA0]));
        assert!(!is_wtf8(&[0xC0, 0x80]));
    }
}
