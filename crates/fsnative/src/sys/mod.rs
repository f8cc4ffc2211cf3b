//! The OS layer: every call whose form depends on the operating system, behind one small
//! interface, so that nothing above it names an OS.
//!
//! - handles: [`Handle`], [`HandleRef`] and [`AsHandle`] (file descriptors on Unix, handles on
//!   Windows);
//! - names: [`os_str`] and [`path_buf`] turn the bytes the core keeps back into names;
//! - files: open beneath a directory handle without following links, and [`Meta`], the one
//!   `stat` the core reads (type, identity, size, times, links, cloud placeholders);
//! - listing a directory through its handle ([`list_dir`]): each entry's name, its type when
//!   the listing tells it, and whether it is a cloud placeholder (macOS reads the records of
//!   `getattrlistbulk` through [`bulk_listing`], which builds on every OS for its tests);
//! - the change watcher ([`Watcher`], whose [`Event`]s the index turns into its changes) and
//!   the wake-up that ends a wait for it ([`Wake`], [`wait`]);
//! - thread priority ([`lower_thread_priority`]);
//! - the persisted store's lock ([`try_lock_exclusive`]) and error classes ([`OsError`]).
//!
//! `unix` holds what Linux and macOS share; `linux` and `macos` what they do not; `windows`
//! all of Windows. The path events of macOS's FSEvents are turned into [`Event`]s by
//! [`fsevents`], and the records of Windows's `ReadDirectoryChangesW` by
//! [`directory_changes`]; both build on every OS: the tests feed them recorded sequences, and
//! Linux a simulated FSEvents.

#[cfg_attr(not(any(test, target_os = "macos")), allow(dead_code))]
pub(crate) mod bulk_listing;
#[cfg_attr(not(any(test, windows)), allow(dead_code))]
pub(crate) mod directory_changes;
#[cfg_attr(not(any(test, unix)), allow(dead_code))]
pub(crate) mod fsevents;
mod names;
#[cfg(unix)]
mod unix;
#[cfg(unix)]
use unix as family;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
use linux as os;

#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
use macos as os;

#[cfg(windows)]
mod windows;
#[cfg(windows)]
use windows as os;
#[cfg(windows)]
use windows as family;

#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
compile_error!("fsnative supports Linux, macOS and Windows");

pub(crate) use family::{
    dir_open_options, open_dir, open_dir_at, open_file_at, open_filesystem_root, stat, stat_at, stat_path,
    stored_name, sync_dir, try_lock_exclusive, wait, AsHandle, Handle, HandleRef,
};
pub(crate) use names::{
    ends_with_separator, is_below, is_below_or_at, native_path, os_str, path_buf, slashed,
};
pub(crate) use os::{list_dir, lower_thread_priority, Wake, Watcher, NAMES_IGNORE_NORMALIZATION};

/// Error classes the core treats apart, beyond `io::ErrorKind`'s (each OS family says which
/// of its errors are which: `OsError::of`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OsError {
    /// Too many symlinks, or a symlink (on Windows, a reparse point that is a link) where none
    /// may be followed.
    Loop,
    NameTooLong,
    /// `read_link` on something that is not a symlink.
    NotALink,
    /// A special file that cannot be opened at all (a socket).
    Unopenable,
    /// The disk is full.
    NoSpace,
}

/// One event, written out for the tests: `Appeared file 0:dir|name`, `rescan 0:dir`,
/// `gone 0:dir`, `overflow`.
#[cfg(test)]
pub(crate) fn describe(event: &Event<'_>) -> String {
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    match event {
        Event::Overflow => "overflow".to_owned(),
        Event::Rescan((root, dir)) => format!("rescan {root}:{}", text(dir)),
        Event::Gone((root, dir)) => format!("gone {root}:{}", text(dir)),
        Event::Entry { dir: (root, dir), name, is_dir, change } => {
            let kind = if *is_dir { "dir" } else { "file" };
            format!("{change:?} {kind} {root}:{}|{}", text(dir), text(name))
        }
    }
}

/// Whether paths follow Windows' rules (drive letters, devices, streams): the roots layer then
/// refuses the spellings Win32 reads as something else.
pub(crate) const WINDOWS_PATH_RULES: bool = cfg!(windows);

/// The environment variable that names the user's home directory, which `~` stands for.
pub(crate) const HOME_VARIABLE: &str = if cfg!(windows) { "USERPROFILE" } else { "HOME" };

/// One entry of a directory listing ([`list_dir`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ListedEntry<'a> {
    /// The name, never `.` or `..`.
    pub name: &'a std::ffi::CStr,
    /// The type, when the listing tells it.
    pub kind: Option<EntryType>,
    /// A cloud placeholder ([`Meta::dataless`]), when the listing tells it cheaply (macOS's
    /// `getattrlistbulk`, Windows' attributes); false otherwise, and always on Linux.
    pub dataless: bool,
}

/// What a directory entry is, as the OS tells it without following a symlink.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EntryType {
    File,
    Dir,
    Symlink,
    /// A FIFO, socket or device.
    Special,
}

/// What the core reads of a file's metadata, from one `stat` call.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Meta {
    pub kind: EntryType,
    /// The device and the file's number on it: equal for two names of one file.
    pub identity: (u64, u64),
    /// The type and permission bits.
    pub mode: u32,
    pub size: u64,
    /// Last modification: seconds since the epoch and nanoseconds.
    pub modified: (i64, u32),
    /// Last change of contents or metadata: seconds since the epoch and nanoseconds.
    pub changed: (i64, u32),
    /// How many names the file has.
    pub links: u64,
    /// The contents are not on this machine (a cloud placeholder, macOS's `SF_DATALESS`):
    /// reading it would start a download.
    pub dataless: bool,
}

/// What the watcher says changed in a watched directory. A directory is named by its root
/// and its path below it (`""` for the root itself).
pub(crate) type DirKey = (usize, Box<[u8]>);

/// One thing the watcher heard.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Event<'a> {
    /// The entry `name` of the watched directory `dir` came, went, or changed.
    Entry { dir: &'a DirKey, name: &'a [u8], is_dir: bool, change: Change },
    /// The watched directory itself was deleted or moved away.
    Gone(&'a DirKey),
    /// Something at or below this directory changed and the OS does not say what: walk it
    /// again.
    Rescan(&'a DirKey),
    /// Events were lost: everything watched must be walked again.
    Overflow,
}

/// How an entry changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Change {
    /// Created, or moved in: the directory's names changed.
    Appeared,
    /// Deleted, or moved out: the directory's names changed.
    Vanished,
    /// Its contents or metadata changed.
    Modified,
}
