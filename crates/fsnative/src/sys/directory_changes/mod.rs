//! Windows's `ReadDirectoryChangesW` without Windows: the records one call returns, and what
//! each means for the index, as pure functions ([`records`], [`translate`]).
//!
//! One recursive watch covers a root's whole tree. Each record names a path relative to the
//! root (`\`-separated UTF-16) and an action: added, removed, modified, or one half of a
//! rename. Unlike inotify, a record does not say whether the item is a directory: a path is
//! taken for one when the index watches it as one (it listed it), which is what matters for the
//! index (a directory it knows that changed is walked again; any other item is read again,
//! and a name that came or went has its directory listed again, which finds a new directory and
//! walks it).
//!
//! The Windows backend (`sys::windows`) feeds this module; it builds on every OS so that its
//! tests run wherever the others do.

#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use super::{Change, DirKey, Event};

/// `FILE_ACTION_*`, as `winnt.h` defines them.
pub(crate) mod action {
    pub const ADDED: u32 = 1;
    pub const REMOVED: u32 = 2;
    pub const MODIFIED: u32 = 3;
    pub const RENAMED_OLD_NAME: u32 = 4;
    pub const RENAMED_NEW_NAME: u32 = 5;
}

/// The fixed part of a `FILE_NOTIFY_INFORMATION` record: `NextEntryOffset`, `Action` and
/// `FileNameLength`, then the name.
const HEADER: usize = 12;

/// Calls `visit` with the action and the path (WTF-8, `/`-separated, relative to the watched
/// root) of every `FILE_NOTIFY_INFORMATION` record in `buffer`, the bytes one call filled.
/// False when a record does not fit in the buffer (nothing after it is read).
pub(crate) fn records(buffer: &[u8], mut visit: impl FnMut(u32, &[u8])) -> bool {
    let field = |at: usize| buffer.get(at..at + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
    let mut path = Vec::new();
    let mut wide = Vec::new();
    let mut at = 0usize;
    loop {
        let (Some(next), Some(action), Some(length)) = (field(at), field(at + 4), field(at + 8)) else {
            return false;
        };
        let Some(name) = buffer.get(at + HEADER..at + HEADER + length as usize) else {
            return false;
        };
        wide.clear();
        wide.extend(name.chunks_exact(2).map(|unit| u16::from_le_bytes([unit[0], unit[1]])));
        path.clear();
        super::names::push_wtf8(&mut path, &wide);
        for byte in &mut path {
            if *byte == b'\\' {
                *byte = b'/';
            }
        }
        visit(action, &path);
        if next == 0 {
            return true;
        }
        at += next as usize;
    }
}

/// Hands `sink` what the record `action` on `path` (as [`records`] gives it) of the watched
/// root `root` means, `watched` being the directories the index watches.
pub(crate) fn translate(
    root: usize,
    action: u32,
    path: &[u8],
    watched: &BTreeSet<DirKey>,
    sink: &mut dyn FnMut(Event<'_>),
) {
    let path = path.strip_suffix(b"/").unwrap_or(path);
    if path.is_empty() {
        return;
    }
    let split = path.iter().rposition(|&b| b == b'/');
    let dir: DirKey = (root, split.map_or(&[][..], |at| &path[..at]).into());
    let name = split.map_or(path, |at| &path[at + 1..]);
    let change = match action {
        action::ADDED | action::RENAMED_NEW_NAME => Change::Appeared,
        action::REMOVED | action::RENAMED_OLD_NAME => Change::Vanished,
        action::MODIFIED => Change::Modified,
        // An action this code does not know: whatever it is, the directory's listing says.
        _ => return sink(Event::Rescan(&dir)),
    };
    let is_dir = watched.contains(&(root, path.into()));
    sink(Event::Entry { dir: &dir, name, is_dir, change });
}
