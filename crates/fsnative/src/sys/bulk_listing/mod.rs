//! The records of macOS's `getattrlistbulk(2)`, read from the buffer it fills: each entry's
//! name, type and whether it is a cloud placeholder. Pure byte parsing, so it builds and is
//! tested on every OS; the macOS listing makes the call.
//!
//! The layout Apple documents for the attributes requested ([`REQUESTED_COMMON`], packed with
//! `FSOPT_PACK_INVAL_ATTRS` so that every field is present):
//!
//! ```text
//! u32 length                 of the whole entry, from this field; the next entry starts there
//! attribute_set_t returned   five u32 bitmaps: common, volume, directory, file, fork
//! attrreference_t name       i32 offset (from this field) and u32 length (with the NUL)
//! u32 objtype                fsobj_type_t: VREG, VDIR, VLNK, …
//! u32 flags                  st_flags
//! ```
//!
//! All in the machine's byte order; each entry's fields are 4-byte aligned.

use std::ffi::CStr;

use super::EntryType;

/// `ATTR_CMN_NAME`.
pub(crate) const ATTR_CMN_NAME: u32 = 0x0000_0001;
/// `ATTR_CMN_OBJTYPE`.
pub(crate) const ATTR_CMN_OBJTYPE: u32 = 0x0000_0008;
/// `ATTR_CMN_FLAGS`.
pub(crate) const ATTR_CMN_FLAGS: u32 = 0x0004_0000;
/// `ATTR_CMN_RETURNED_ATTRS`.
pub(crate) const ATTR_CMN_RETURNED_ATTRS: u32 = 0x8000_0000;
/// The common attributes the listing asks for.
pub(crate) const REQUESTED_COMMON: u32 =
    ATTR_CMN_RETURNED_ATTRS | ATTR_CMN_NAME | ATTR_CMN_OBJTYPE | ATTR_CMN_FLAGS;

/// `st_flags` bit of a file whose contents are not on this machine (`SF_DATALESS` in
/// `<sys/stat.h>`): iCloud Drive, and the File Provider clients (Dropbox, OneDrive).
pub(crate) const SF_DATALESS: u32 = 0x4000_0000;

/// `fsobj_type_t` values (`enum vtype` in `<sys/vnode.h>`).
const VREG: u32 = 1;
const VDIR: u32 = 2;
const VLNK: u32 = 5;

/// Byte offsets inside one entry.
const RETURNED_COMMON_AT: usize = 4;
const NAME_AT: usize = 4 + 20;
const OBJTYPE_AT: usize = NAME_AT + 8;
const FLAGS_AT: usize = OBJTYPE_AT + 4;
const FIXED_LENGTH: usize = FLAGS_AT + 4;

/// One entry of the buffer.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct BulkEntry<'a> {
    pub name: &'a CStr,
    /// `None` when the file system did not return the type.
    pub kind: Option<EntryType>,
    /// `SF_DATALESS` is set (false when the file system did not return the flags).
    pub dataless: bool,
}

/// The `count` entries at the start of `buffer`, as one `getattrlistbulk` call returned
/// them, `.` and `..` left out. A malformed entry ends the parse with `Err`: a record the
/// kernel did not lay out as documented is never guessed at.
pub(crate) fn parse_entries(buffer: &[u8], count: usize) -> Result<Vec<BulkEntry<'_>>, MalformedEntry> {
    let mut entries = Vec::with_capacity(count);
    let mut at = 0usize;
    for _ in 0..count {
        let entry = buffer.get(at..).ok_or(MalformedEntry)?;
        let length = field(entry, 0)? as usize;
        if length < FIXED_LENGTH || length > entry.len() {
            return Err(MalformedEntry);
        }
        let entry = &entry[..length];
        let returned = field(entry, RETURNED_COMMON_AT)?;
        let name = name(entry, returned)?;
        let kind = (returned & ATTR_CMN_OBJTYPE != 0).then(|| entry_type(field(entry, OBJTYPE_AT)));
        let kind = kind.transpose()?;
        let dataless = returned & ATTR_CMN_FLAGS != 0 && field(entry, FLAGS_AT)? & SF_DATALESS != 0;
        if !matches!(name.to_bytes(), b"." | b"..") {
            entries.push(BulkEntry { name, kind, dataless });
        }
        at += length;
    }
    Ok(entries)
}

/// A buffer whose records do not follow the documented layout.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct MalformedEntry;

/// The native-endian u32 at `offset` of `entry`.
fn field(entry: &[u8], offset: usize) -> Result<u32, MalformedEntry> {
    let bytes = entry.get(offset..offset + 4).ok_or(MalformedEntry)?;
    Ok(u32::from_ne_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]))
}

/// The name an `attrreference_t` points at, inside the entry.
fn name(entry: &[u8], returned: u32) -> Result<&CStr, MalformedEntry> {
    if returned & ATTR_CMN_NAME == 0 {
        return Err(MalformedEntry);
    }
    let offset = field(entry, NAME_AT)? as i32;
    let length = field(entry, NAME_AT + 4)? as usize;
    let start = usize::try_from(offset).ok().and_then(|offset| offset.checked_add(NAME_AT));
    let bytes = start.and_then(|start| entry.get(start..start.checked_add(length)?)).ok_or(MalformedEntry)?;
    let name = CStr::from_bytes_until_nul(bytes).map_err(|_| MalformedEntry)?;
    if name.is_empty() {
        return Err(MalformedEntry);
    }
    Ok(name)
}

/// The entry type of an `fsobj_type_t`.
fn entry_type(objtype: Result<u32, MalformedEntry>) -> Result<EntryType, MalformedEntry> {
    Ok(match objtype? {
        VREG => EntryType::File,
        VDIR => EntryType::Dir,
        VLNK => EntryType::Symlink,
        _ => EntryType::Special,
    })
}

#[cfg(test)]
mod tests;
