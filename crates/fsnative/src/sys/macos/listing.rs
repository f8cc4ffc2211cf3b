//! Directory listings through `getattrlistbulk(2)`: with each name, its type and its
//! `st_flags`, so that a cloud placeholder is known without a `stat` per entry. A file system
//! that does not support the call (`ENOTSUP`, `EINVAL`) is listed with `readdir`, which tells
//! no placeholder.

use std::io;
use std::os::fd::AsRawFd;

use rustix::fs::Dir;

use super::super::bulk_listing::{parse_entries, REQUESTED_COMMON};
use super::super::unix::listed;
use super::super::{HandleRef, ListedEntry};

/// The buffer one call fills; u64s, so that the records are aligned as the call needs.
const LISTING_WORDS: usize = 32 * 1024 / 8;

/// Calls `visit` with every entry of the open directory `dir` but `.` and `..`: its name, its
/// type when the listing tells it, and whether it is a cloud placeholder.
pub(crate) fn list_dir(dir: HandleRef<'_>, mut visit: impl FnMut(ListedEntry<'_>)) -> io::Result<()> {
    match list_bulk(dir, &mut visit) {
        Ok(()) => Ok(()),
        Err(BulkError::Unsupported) => list_readdir(dir, &mut visit),
        Err(BulkError::Io(err)) => Err(err),
    }
}

/// Why a bulk listing failed.
enum BulkError {
    /// The first call failed with `ENOTSUP` or `EINVAL`: nothing was listed yet.
    Unsupported,
    Io(io::Error),
}

impl From<io::Error> for BulkError {
    fn from(err: io::Error) -> BulkError {
        BulkError::Io(err)
    }
}

/// Lists `dir` through `getattrlistbulk` from its first entry (the handle's position is
/// rewound: a handle listed before is listed whole again) until no more entries come.
fn list_bulk(dir: HandleRef<'_>, visit: &mut impl FnMut(ListedEntry<'_>)) -> Result<(), BulkError> {
    rustix::fs::seek(dir, rustix::fs::SeekFrom::Start(0)).map_err(io::Error::from)?;
    // SAFETY: a plain C structure, all zeros is valid.
    let mut request: libc::attrlist = unsafe { std::mem::zeroed() };
    request.bitmapcount = libc::ATTR_BIT_MAP_COUNT;
    request.commonattr = REQUESTED_COMMON;
    let mut buffer = vec![0u64; LISTING_WORDS];
    let size = buffer.len() * 8;
    let mut first = true;
    loop {
        // SAFETY: `request` is a valid attrlist and the buffer is writable for `size` bytes.
        let count = unsafe {
            libc::getattrlistbulk(
                dir.as_raw_fd(),
                std::ptr::from_mut(&mut request).cast(),
                buffer.as_mut_ptr().cast(),
                size,
                u64::from(libc::FSOPT_PACK_INVAL_ATTRS),
            )
        };
        if count < 0 {
            let err = io::Error::last_os_error();
            let unsupported = matches!(err.raw_os_error(), Some(libc::ENOTSUP | libc::EINVAL));
            return Err(if first && unsupported { BulkError::Unsupported } else { err.into() });
        }
        if count == 0 {
            return Ok(());
        }
        first = false;
        // SAFETY: the same memory, read as bytes.
        let bytes: &[u8] = unsafe { std::slice::from_raw_parts(buffer.as_ptr().cast(), size) };
        let entries = parse_entries(bytes, count as usize)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "getattrlistbulk: malformed record"))?;
        for entry in entries {
            visit(ListedEntry { name: entry.name, kind: entry.kind, dataless: entry.dataless });
        }
    }
}

/// Lists `dir` through `readdir`.
fn list_readdir(dir: HandleRef<'_>, visit: &mut impl FnMut(ListedEntry<'_>)) -> io::Result<()> {
    for entry in Dir::read_from(dir)? {
        let entry = entry?;
        listed(entry.file_name(), entry.file_type(), visit);
    }
    Ok(())
}
