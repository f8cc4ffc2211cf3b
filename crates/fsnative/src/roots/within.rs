//! The MCP filesystem server's path check by text alone (`isPathWithinAllowedDirectories` on
//! POSIX): no filesystem access, so no symlink is resolved; that is the caller's next step.

use std::path::{Path, PathBuf};

/// Whether `path` is one of `dirs` or lies below one, comparing their lexically normalised
/// forms: `.` and `..` resolved, repeated and trailing `/` dropped, a relative path taken from
/// the working directory. A separator must follow a directory's text, so `/allowed` holds
/// neither `/allowed_evil` nor `/allowed2` (CVE-2025-53110); `/` holds every absolute path.
/// An empty path, an empty directory, or a NUL byte in either never matches; no directories
/// hold nothing.
pub fn is_path_within(path: &str, dirs: &[&str]) -> bool {
    let Some(path) = normalize(path) else {
        return false;
    };
    dirs.iter().filter_map(|dir| normalize(dir)).any(|dir| path == dir || path.starts_with(&dir))
}

/// The absolute, lexically normalised form of `text`; `None` for an empty text, one with a NUL
/// byte, or a relative one when the working directory is unknown.
fn normalize(text: &str) -> Option<PathBuf> {
    if text.is_empty() || text.contains('\0') {
        return None;
    }
    let given = Path::new(text);
    let absolute =
        if given.is_absolute() { given.to_path_buf() } else { std::env::current_dir().ok()?.join(given) };
    let mut normal = PathBuf::from("/");
    for part in absolute.components() {
        match part {
            std::path::Component::Normal(name) => normal.push(name),
            std::path::Component::ParentDir => {
                normal.pop();
            }
            _ => {}
        }
    }
    Some(normal)
}

#[cfg(test)]
mod tests {
    use super::is_path_within;

    #[test]
    fn separator_aware_prefixes() {
        assert!(
            is_path_within("/a/b", &["/a"])
                && is_path_within("/a", &["/a/"])
                && is_path_within("/a//b/.", &["/a"])
        );
        assert!(!is_path_within("/a_evil", &["/a"]) && !is_path_within("/a/../b", &["/a"]));
        assert!(
            is_path_within("/x", &["/"]) && !is_path_within("", &["/"]) && !is_path_within("/a\0", &["/a"])
        );
        assert!(!is_path_within("/a", &[]) && !is_path_within("/a", &[""]));
    }
}
