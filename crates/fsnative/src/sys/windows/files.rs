//! Files on Windows: opening beneath a directory handle without following links
//! (`NtCreateFile` with a `RootDirectory`), their metadata, and directory listings through the
//! handle.
//!
//! A link is a reparse point whose tag is a name surrogate (a symbolic link, a junction, and
//! the like: what `std` takes for a symlink); it is [`EntryType::Symlink`] and never followed
//! where the Unix code would not follow a symlink. Other reparse points (cloud placeholders,
//! deduplicated files) are the file or directory they stand for; a Unix socket's is
//! [`EntryType::Special`].

use std::ffi::{CStr, OsStr, OsString};
use std::fs::File;
use std::io;
use std::mem::{offset_of, size_of};
use std::os::windows::ffi::{OsStrExt, OsStringExt};
use std::os::windows::fs::OpenOptionsExt as _;
use std::os::windows::io::{FromRawHandle, OwnedHandle};
use std::path::{Component, Path, PathBuf};

use cap_std::fs::OpenOptionsExt as _;
use windows_sys::Wdk::Foundation::OBJECT_ATTRIBUTES;
use windows_sys::Wdk::Storage::FileSystem::{
    NtCreateFile, FILE_DIRECTORY_FILE, FILE_OPEN, FILE_OPEN_REPARSE_POINT, FILE_SYNCHRONOUS_IO_NONALERT,
};
use windows_sys::Win32::Foundation::{
    RtlNtStatusToDosError, ERROR_INVALID_NAME, ERROR_NO_MORE_FILES, HANDLE, INVALID_HANDLE_VALUE,
    OBJ_CASE_INSENSITIVE, UNICODE_STRING,
};
use windows_sys::Win32::Storage::FileSystem::{
    FileAttributeTagInfo, FileBasicInfo, FileIdBothDirectoryInfo, FileIdBothDirectoryRestartInfo, FindClose,
    FindFirstFileW, GetFileInformationByHandle, GetFileInformationByHandleEx, BY_HANDLE_FILE_INFORMATION,
    FILE_ATTRIBUTE_DIRECTORY, FILE_ATTRIBUTE_OFFLINE, FILE_ATTRIBUTE_READONLY,
    FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS, FILE_ATTRIBUTE_RECALL_ON_OPEN, FILE_ATTRIBUTE_REPARSE_POINT,
    FILE_ATTRIBUTE_TAG_INFO, FILE_BASIC_INFO, FILE_FLAG_BACKUP_SEMANTICS, FILE_GENERIC_READ,
    FILE_ID_BOTH_DIR_INFO, FILE_LIST_DIRECTORY, FILE_READ_ATTRIBUTES, FILE_SHARE_DELETE, FILE_SHARE_READ,
    FILE_SHARE_WRITE, FILE_TRAVERSE, SYNCHRONIZE, WIN32_FIND_DATAW,
};
use windows_sys::Win32::System::SystemServices::IO_REPARSE_TAG_AF_UNIX;
use windows_sys::Win32::System::IO::IO_STATUS_BLOCK;

use super::{raw, Handle, HandleRef, OsError};
use crate::sys::{EntryType, ListedEntry, Meta};

/// The bit of a reparse tag that says it stands for another name (`IsReparseTagNameSurrogate`).
const NAME_SURROGATE: u32 = 0x2000_0000;
/// 100-nanosecond intervals from 1601-01-01 (a `FILETIME`'s epoch) to 1970-01-01.
const UNIX_EPOCH_AS_FILETIME: i64 = 116_444_736_000_000_000;
/// The buffer one listing call fills.
const LISTING_BUFFER: usize = 64 * 1024;
/// What other opens may do while one of ours is open: everything, so that the core never stands
/// in the way of a rename or a delete.
const SHARE_ALL: u32 = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

/// The entry type of a file with the attributes `attributes` and (when it is a reparse point)
/// the reparse tag `tag`.
fn entry_type(attributes: u32, tag: u32) -> EntryType {
    if attributes & FILE_ATTRIBUTE_REPARSE_POINT != 0 {
        if tag & NAME_SURROGATE != 0 {
            return EntryType::Symlink;
        }
        if tag == IO_REPARSE_TAG_AF_UNIX {
            return EntryType::Special;
        }
    }
    if attributes & FILE_ATTRIBUTE_DIRECTORY != 0 {
        EntryType::Dir
    } else {
        EntryType::File
    }
}

/// A `FILETIME` (100 ns since 1601) as seconds and nanoseconds since the Unix epoch.
fn unix_time(filetime: i64) -> (i64, u32) {
    let since = filetime - UNIX_EPOCH_AS_FILETIME;
    (since.div_euclid(10_000_000), (since.rem_euclid(10_000_000) * 100) as u32)
}

/// Fills `info` with the class `class` of what `handle` is open on.
fn information<T: Default>(handle: HandleRef<'_>, class: i32) -> io::Result<T> {
    let mut info = T::default();
    // SAFETY: `info` is a `T`, the structure `class` fills, of the size given.
    let done = unsafe {
        GetFileInformationByHandleEx(raw(handle), class, (&raw mut info).cast(), size_of::<T>() as u32)
    };
    if done == 0 {
        return Err(super::last_error());
    }
    Ok(info)
}

/// The reparse tag of `handle`'s file when its attributes `attributes` say it has one, else 0.
fn reparse_tag(handle: HandleRef<'_>, attributes: u32) -> io::Result<u32> {
    if attributes & FILE_ATTRIBUTE_REPARSE_POINT == 0 {
        return Ok(0);
    }
    Ok(information::<FILE_ATTRIBUTE_TAG_INFO>(handle, FileAttributeTagInfo)?.ReparseTag)
}

/// The attributes of a file whose contents are not on this machine (a cloud placeholder):
/// reading it would recall them.
const DATALESS_ATTRIBUTES: u32 =
    FILE_ATTRIBUTE_RECALL_ON_DATA_ACCESS | FILE_ATTRIBUTE_RECALL_ON_OPEN | FILE_ATTRIBUTE_OFFLINE;

/// The metadata of the open file or directory `handle`.
///
/// Three calls: `GetFileInformationByHandle` (identity: the volume's serial number and the
/// file's index on it; size, links), `FileBasicInfo` (the times, with the change time
/// `BY_HANDLE_FILE_INFORMATION` lacks), and the reparse tag when there is one. On ReFS a file
/// index may not be unique in 64 bits; NTFS's always is.
pub(crate) fn stat(handle: HandleRef<'_>) -> io::Result<Meta> {
    let mut info = BY_HANDLE_FILE_INFORMATION::default();
    // SAFETY: `info` is the structure the call fills.
    if unsafe { GetFileInformationByHandle(raw(handle), &mut info) } == 0 {
        return Err(super::last_error());
    }
    let basic: FILE_BASIC_INFO = information(handle, FileBasicInfo)?;
    let attributes = basic.FileAttributes;
    let kind = entry_type(attributes, reparse_tag(handle, attributes)?);
    // Unix's type and permission bits, as near as Windows has them: read-only clears the
    // write bits.
    let mut mode = match kind {
        EntryType::Dir => 0o040_755,
        EntryType::Symlink => 0o120_777,
        EntryType::Special => 0o140_644,
        EntryType::File => 0o100_644,
    };
    if attributes & FILE_ATTRIBUTE_READONLY != 0 {
        mode &= !0o222;
    }
    Ok(Meta {
        kind,
        identity: (
            u64::from(info.dwVolumeSerialNumber),
            (u64::from(info.nFileIndexHigh) << 32) | u64::from(info.nFileIndexLow),
        ),
        mode,
        size: (u64::from(info.nFileSizeHigh) << 32) | u64::from(info.nFileSizeLow),
        modified: unix_time(basic.LastWriteTime),
        changed: unix_time(basic.ChangeTime),
        links: u64::from(info.nNumberOfLinks),
        dataless: attributes & DATALESS_ATTRIBUTES != 0,
    })
}

/// The metadata of what the absolute `path` leads to (links followed).
pub(crate) fn stat_path(path: &Path) -> io::Result<Meta> {
    // Attributes only, and directories too (backup semantics).
    let file = std::fs::OpenOptions::new()
        .access_mode(FILE_READ_ATTRIBUTES)
        .share_mode(SHARE_ALL)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(path)?;
    stat(super::AsHandle::handle(&file))
}

/// The metadata of `name` in the directory `dir`; a link itself unless `follow`.
pub(crate) fn stat_at(dir: HandleRef<'_>, name: &OsStr, follow: bool) -> io::Result<Meta> {
    let reparse = if follow { 0 } else { FILE_OPEN_REPARSE_POINT };
    let handle = nt_open(dir, name, FILE_READ_ATTRIBUTES, reparse)?;
    stat(super::AsHandle::handle(&handle))
}

/// Opens `name` (one name: no separator, not `.` or `..`, and no `:`, which would name one of
/// a file's alternate data streams) in the directory `dir` with `NtCreateFile`, for `access`,
/// with the create options `options`, synchronous, sharing everything.
fn nt_open(dir: HandleRef<'_>, name: &OsStr, access: u32, options: u32) -> io::Result<Handle> {
    let wide: Vec<u16> = name.encode_wide().collect();
    let one_name = !wide.is_empty()
        && !wide.iter().any(|&unit| [b'\\', b'/', b':'].map(u16::from).contains(&unit))
        && name != "."
        && name != "..";
    let length = u16::try_from(wide.len() * 2).ok().filter(|_| one_name);
    let Some(length) = length else {
        return Err(io::Error::from_raw_os_error(ERROR_INVALID_NAME as i32));
    };
    let unicode = UNICODE_STRING { Length: length, MaximumLength: length, Buffer: wide.as_ptr().cast_mut() };
    let attributes = OBJECT_ATTRIBUTES {
        Length: size_of::<OBJECT_ATTRIBUTES>() as u32,
        RootDirectory: raw(dir),
        ObjectName: &unicode,
        // As CreateFileW opens: names are compared without case.
        Attributes: OBJ_CASE_INSENSITIVE,
        ..OBJECT_ATTRIBUTES::default()
    };
    let mut handle: HANDLE = INVALID_HANDLE_VALUE;
    let mut status_block = IO_STATUS_BLOCK::default();
    // SAFETY: every pointer is to a live local of the type the call takes; the name's buffer
    // holds `length` bytes; no extended attributes.
    let status = unsafe {
        NtCreateFile(
            &mut handle,
            access | SYNCHRONIZE | FILE_READ_ATTRIBUTES,
            &attributes,
            &mut status_block,
            std::ptr::null(),
            0,
            SHARE_ALL,
            FILE_OPEN,
            options | FILE_SYNCHRONOUS_IO_NONALERT,
            std::ptr::null(),
            0,
        )
    };
    if status < 0 {
        // SAFETY: converts a status code; no pointers.
        return Err(io::Error::from_raw_os_error(unsafe { RtlNtStatusToDosError(status) } as i32));
    }
    // SAFETY: the call succeeded: `handle` is open and ours.
    Ok(unsafe { OwnedHandle::from_raw_handle(handle) })
}

/// Opens `name` of `dir` for `access`, following no link: a link there fails with
/// [`OsError::Loop`]. A reparse point that is not a link is opened again, followed this time
/// (its filter gives the contents), and must be the same file as before.
fn open_beneath(dir: HandleRef<'_>, name: &OsStr, access: u32, options: u32) -> io::Result<Handle> {
    let handle = nt_open(dir, name, access, options | FILE_OPEN_REPARSE_POINT)?;
    let tag: FILE_ATTRIBUTE_TAG_INFO = information(super::AsHandle::handle(&handle), FileAttributeTagInfo)?;
    if tag.FileAttributes & FILE_ATTRIBUTE_REPARSE_POINT == 0 {
        return Ok(handle);
    }
    if tag.ReparseTag & NAME_SURROGATE != 0 {
        return Err(OsError::Loop.error());
    }
    let followed = nt_open(dir, name, access, options)?;
    let same = |a: &Handle, b: &Handle| -> io::Result<bool> {
        Ok(stat(super::AsHandle::handle(a))?.identity == stat(super::AsHandle::handle(b))?.identity)
    };
    if !same(&handle, &followed)? {
        // The name was swapped for a link between the two opens.
        return Err(OsError::Loop.error());
    }
    Ok(followed)
}

/// Opens the directory `name` of `dir` for listing, following no link in `name` (a link there
/// fails with [`OsError::Loop`], a file with `NotADirectory`).
pub(crate) fn open_dir_at(dir: HandleRef<'_>, name: &OsStr) -> io::Result<Handle> {
    open_beneath(dir, name, FILE_LIST_DIRECTORY | FILE_TRAVERSE, FILE_DIRECTORY_FILE)
}

/// Opens `name` of `dir` for reading, following no link in `name`.
pub(crate) fn open_file_at(dir: HandleRef<'_>, name: &OsStr) -> io::Result<File> {
    Ok(File::from(open_beneath(dir, name, FILE_GENERIC_READ, 0)?))
}

/// Opens the directory at `path` (links followed) for listing and watching.
pub(crate) fn open_dir(path: &Path) -> io::Result<Handle> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .share_mode(SHARE_ALL)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(path)?;
    Ok(file.into())
}

/// Nothing: NTFS logs a rename in its journal, and Windows has no `fsync` of a directory
/// (`FlushFileBuffers` wants a directory opened for writing, which takes a privilege).
/// `std::fs::rename` replaces the target; that it does so while a reader has the store open
/// rests on `std`'s POSIX-semantics rename (NTFS, Windows 10 1709 and later) and readers
/// opening with `FILE_SHARE_DELETE` (`std`'s default). Where that rename is missing (Wine 8.0,
/// `packaging/windows/rename-probe.c`; Windows documents it for NTFS only) a replace fails
/// with "Access denied" while a reader has the store open: the writer reports it and keeps
/// the old store, and the next write tries again.
pub(crate) fn sync_dir(_path: &Path) -> io::Result<()> {
    Ok(())
}

/// Opens the directory the absolute `path` starts from: its drive's root (`C:\`), its share's
/// (`\\server\share\`), or the verbatim forms of these.
pub(crate) fn open_filesystem_root(path: &Path) -> io::Result<Handle> {
    let mut root = PathBuf::new();
    for component in path.components() {
        match component {
            Component::Prefix(_) | Component::RootDir => root.push(component),
            _ => break,
        }
    }
    if !root.has_root() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, format!("{}: not absolute", path.display())));
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .share_mode(SHARE_ALL)
        .custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
        .open(&root)?;
    Ok(file.into())
}

/// The name the file system stores for the last component of the existing `path` (not
/// followed when it is a link): its case as created, and the long name for an 8.3 short one.
/// `FindFirstFileW` on the path itself, which lists that one entry.
pub(crate) fn stored_name(path: &Path) -> io::Result<Option<OsString>> {
    let wide: Vec<u16> = path.as_os_str().encode_wide().chain(Some(0)).collect();
    if wide.iter().any(|&unit| [b'*', b'?'].map(u16::from).contains(&unit)) {
        // A wildcard would list other entries; no Windows name holds one.
        return Err(io::Error::from_raw_os_error(ERROR_INVALID_NAME as i32));
    }
    let mut found = WIN32_FIND_DATAW::default();
    // SAFETY: `wide` is NUL-terminated; `found` is the structure the call fills.
    let search = unsafe { FindFirstFileW(wide.as_ptr(), &mut found) };
    if search == INVALID_HANDLE_VALUE {
        return Err(super::last_error());
    }
    // SAFETY: `search` is the open search handle just returned.
    unsafe { FindClose(search) };
    let length = found.cFileName.iter().position(|&unit| unit == 0).unwrap_or(found.cFileName.len());
    Ok(Some(OsString::from_wide(&found.cFileName[..length])))
}

/// Sets what cap-std needs to open a directory for listing: read access (which lists) and
/// backup semantics (without which Windows opens no directory).
pub(crate) fn dir_open_options(options: &mut cap_std::fs::OpenOptions) -> &mut cap_std::fs::OpenOptions {
    options.read(true).custom_flags(FILE_FLAG_BACKUP_SEMANTICS)
}

/// Calls `visit` with every entry of the open directory `dir` but `.` and `..`: its name, its
/// type and whether it is a cloud placeholder (every listing tells both).
///
/// `FileIdBothDirectoryInfo` through the handle, restarted at the first call so that a handle
/// listed before is listed whole again. A name is handed over as WTF-8 (what
/// `as_encoded_bytes` gives); Windows names hold no NUL.
pub(crate) fn list_dir(dir: HandleRef<'_>, mut visit: impl FnMut(ListedEntry<'_>)) -> io::Result<()> {
    // u64s: the records are 8-byte aligned, as the call needs.
    let mut buffer = vec![0u64; LISTING_BUFFER / 8];
    let mut class = FileIdBothDirectoryRestartInfo;
    let mut name = Vec::new();
    let mut wide = Vec::new();
    loop {
        // SAFETY: the buffer is writable for its whole length.
        let done = unsafe {
            GetFileInformationByHandleEx(raw(dir), class, buffer.as_mut_ptr().cast(), LISTING_BUFFER as u32)
        };
        if done == 0 {
            let error = super::last_error();
            return match u32::try_from(error.raw_os_error().unwrap_or(0)) {
                Ok(ERROR_NO_MORE_FILES) => Ok(()),
                _ => Err(error),
            };
        }
        class = FileIdBothDirectoryInfo;
        let bytes: &[u8] =
            // SAFETY: the same memory, read as bytes.
            unsafe { std::slice::from_raw_parts(buffer.as_ptr().cast(), LISTING_BUFFER) };
        let mut at = 0usize;
        loop {
            let field = |offset: usize| -> Option<u32> {
                let b = bytes.get(at + offset..at + offset + 4)?;
                Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            };
            let (Some(next), Some(attributes), Some(length), Some(tag)) = (
                field(offset_of!(FILE_ID_BOTH_DIR_INFO, NextEntryOffset)),
                field(offset_of!(FILE_ID_BOTH_DIR_INFO, FileAttributes)),
                field(offset_of!(FILE_ID_BOTH_DIR_INFO, FileNameLength)),
                // The reparse tag, when the entry is a reparse point.
                field(offset_of!(FILE_ID_BOTH_DIR_INFO, EaSize)),
            ) else {
                break;
            };
            let start = at + offset_of!(FILE_ID_BOTH_DIR_INFO, FileName);
            let Some(units) = bytes.get(start..start + length as usize) else {
                break;
            };
            wide.clear();
            wide.extend(units.chunks_exact(2).map(|unit| u16::from_le_bytes([unit[0], unit[1]])));
            name.clear();
            crate::sys::names::push_wtf8(&mut name, &wide);
            if name != b"." && name != b".." {
                name.push(0);
                if let Ok(name) = CStr::from_bytes_with_nul(&name) {
                    let kind = Some(entry_type(attributes, tag));
                    visit(ListedEntry { name, kind, dataless: attributes & DATALESS_ATTRIBUTES != 0 });
                }
            }
            if next == 0 {
                break;
            }
            at += next as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filetimes_become_unix_times() {
        assert_eq!(unix_time(UNIX_EPOCH_AS_FILETIME), (0, 0));
        assert_eq!(unix_time(UNIX_EPOCH_AS_FILETIME + 15_000_001), (1, 500_000_100));
        assert_eq!(unix_time(UNIX_EPOCH_AS_FILETIME - 1), (-1, 999_999_900));
    }

    #[test]
    fn links_junctions_and_sockets_have_their_own_types() {
        use windows_sys::Win32::System::SystemServices::{
            IO_REPARSE_TAG_MOUNT_POINT, IO_REPARSE_TAG_SYMLINK,
        };
        let reparse = FILE_ATTRIBUTE_REPARSE_POINT;
        assert_eq!(entry_type(reparse, IO_REPARSE_TAG_SYMLINK), EntryType::Symlink);
        assert_eq!(
            entry_type(reparse | FILE_ATTRIBUTE_DIRECTORY, IO_REPARSE_TAG_MOUNT_POINT),
            EntryType::Symlink
        );
        assert_eq!(entry_type(reparse, IO_REPARSE_TAG_AF_UNIX), EntryType::Special);
        // A cloud placeholder (IO_REPARSE_TAG_CLOUD_1) is the directory it stands for.
        assert_eq!(entry_type(reparse | FILE_ATTRIBUTE_DIRECTORY, 0x9000_101A), EntryType::Dir);
        assert_eq!(entry_type(0, IO_REPARSE_TAG_SYMLINK), EntryType::File, "no reparse attribute: no tag");
    }
}
