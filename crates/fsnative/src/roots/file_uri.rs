//! Roots given as `file:` URIs, as MCP clients send them (`file:///home/me/project`,
//! `file:///C:/Users/me`, `file:///c%3A/Users/me`): each becomes the path it names before the
//! root is resolved like any other. Only roots are read this way; a path given to a search is
//! always a path.

use std::path::PathBuf;

use crate::error::{Error, ErrorCode, Result};
use crate::sys;

/// The path the `file:` URI `root` names; `None` when `root` is not such a URI (it does not
/// start with `file://`, in any case). Refused (`INVALID_PATH`): a query or a fragment, a bad
/// percent escape, an escaped `/`, `\` or NUL (each would hide a separator or end the path), and
/// a host other than `localhost` where Windows' rules do not hold (on Windows a host names a
/// UNC share: `file://server/share/x` is `\\server\share\x`).
pub(crate) fn path_of(root: &[u8]) -> Option<Result<PathBuf>> {
    const SCHEME: &[u8] = b"file://";
    let rest =
        root.get(..SCHEME.len()).filter(|s| s.eq_ignore_ascii_case(SCHEME)).map(|_| &root[SCHEME.len()..])?;
    Some(parse(rest, root))
}

fn parse(rest: &[u8], root: &[u8]) -> Result<PathBuf> {
    let refuse = |why: &str| {
        Error::new(ErrorCode::InvalidPath, format!("file URI {}: {why}", String::from_utf8_lossy(root)))
    };
    if rest.iter().any(|&byte| byte == b'?' || byte == b'#') {
        return Err(refuse("a query or a fragment names no file"));
    }
    let split = rest.iter().position(|&byte| byte == b'/').unwrap_or(rest.len());
    let (host, path) = rest.split_at(split);
    let path = decode(path).map_err(refuse)?;
    let local = host.is_empty() || host.eq_ignore_ascii_case(b"localhost");
    let mut out = Vec::new();
    if sys::WINDOWS_PATH_RULES {
        if !local {
            // A UNC share: \\host\share\…, the URI's `/` written as Windows' separator.
            out.extend_from_slice(b"\\\\");
            out.extend_from_slice(host);
            out.extend(path.iter().map(|&byte| if byte == b'/' { b'\\' } else { byte }));
            return Ok(sys::path_buf(out));
        } else if let [b'/', letter, b':', ..] = path.as_slice() {
            if letter.is_ascii_alphabetic() {
                // `/C:/Users`: the drive's path without the URI's leading `/`.
                out.extend_from_slice(&path[1..]);
                return Ok(sys::path_buf(out));
            }
        }
    } else if !local {
        return Err(refuse("a host other than localhost names a file on another machine"));
    }
    if path.is_empty() {
        return Err(refuse("it names no path"));
    }
    out.extend_from_slice(&path);
    Ok(sys::path_buf(out))
}

/// `text` with each `%XX` escape turned into its byte.
fn decode(text: &[u8]) -> std::result::Result<Vec<u8>, &'static str> {
    let mut out = Vec::with_capacity(text.len());
    let mut bytes = text.iter();
    while let Some(&byte) = bytes.next() {
        if byte != b'%' {
            out.push(byte);
            continue;
        }
        let hex = [bytes.next().copied(), bytes.next().copied()];
        let [Some(high), Some(low)] = hex.map(|digit| digit.and_then(|d| (d as char).to_digit(16))) else {
            return Err("a `%` not followed by two hexadecimal digits");
        };
        let decoded = (high * 16 + low) as u8;
        if matches!(decoded, b'/' | b'\\' | 0) {
            return Err("an escaped `/`, `\\` or NUL would hide a separator or end the path");
        }
        out.push(decoded);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(uri: &str) -> Option<std::result::Result<String, String>> {
        path_of(uri.as_bytes())
            .map(|r| r.map(|p| p.display().to_string()).map_err(|e| e.code().as_str().to_owned()))
    }

    #[test]
    fn only_file_uris_are_read_as_uris() {
        assert_eq!(path("/home/me"), None);
        assert_eq!(path("file:relative"), None);
        assert_eq!(path("https://example.com/x"), None);
        assert!(path("FILE:///x").is_some());
    }

    #[test]
    fn escapes_are_decoded_and_the_dangerous_ones_refused() {
        let refused = Some(Err("INVALID_PATH".to_owned()));
        for uri in [
            "file:///a%2Fb",
            "file:///a%5cb",
            "file:///a%00b",
            "file:///a%4",
            "file:///a%zz",
            "file:///a?x",
            "file:///a#x",
        ] {
            assert_eq!(path(uri), refused, "{uri}");
        }
        assert_eq!(decode(b"/my%20dir/%C3%A9t%c3%a9"), Ok("/my dir/été".as_bytes().to_vec()));
    }

    #[test]
    fn a_local_path_keeps_its_form_on_each_system() {
        if sys::WINDOWS_PATH_RULES {
            assert_eq!(path("file:///C:/Users/me"), Some(Ok("C:/Users/me".to_owned())));
            assert_eq!(path("file:///c%3A/Users/me"), Some(Ok("c:/Users/me".to_owned())));
            assert_eq!(path("file://localhost/C:/x"), Some(Ok("C:/x".to_owned())));
            assert_eq!(path("file://server/share/x"), Some(Ok(r"\\server\share\x".to_owned())));
        } else {
            assert_eq!(path("file:///home/me/my%20project"), Some(Ok("/home/me/my project".to_owned())));
            assert_eq!(path("file://localhost/tmp"), Some(Ok("/tmp".to_owned())));
            assert_eq!(path("file:///c%3A/x"), Some(Ok("/c:/x".to_owned())));
            assert_eq!(path("file://server/share/x"), Some(Err("INVALID_PATH".to_owned())));
        }
        assert_eq!(path("file://"), Some(Err("INVALID_PATH".to_owned())));
    }
}
