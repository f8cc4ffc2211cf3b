use super::*;

/// One entry laid out as `getattrlistbulk` packs it: the name after the fixed fields, padded
/// to 4 bytes; `returned` is the common bitmap of `attribute_set_t`.
fn record(name: &[u8], returned: u32, objtype: u32, flags: u32) -> Vec<u8> {
    let name_length = name.len() + 1;
    let padded = name_length.div_ceil(4) * 4;
    let length = FIXED_LENGTH + padded;
    let mut out = Vec::with_capacity(length);
    out.extend((length as u32).to_ne_bytes());
    out.extend(returned.to_ne_bytes());
    out.extend([0u8; 16]);
    // The name's offset counts from the attrreference_t itself.
    out.extend(((FIXED_LENGTH - NAME_AT) as i32).to_ne_bytes());
    out.extend((name_length as u32).to_ne_bytes());
    out.extend(objtype.to_ne_bytes());
    out.extend(flags.to_ne_bytes());
    out.extend(name);
    out.resize(length, 0);
    out
}

fn described(entries: &[BulkEntry<'_>]) -> Vec<(String, Option<EntryType>, bool)> {
    entries.iter().map(|e| (e.name.to_string_lossy().into_owned(), e.kind, e.dataless)).collect()
}

#[test]
fn names_types_and_placeholders_are_read_and_dots_left_out() {
    let all = REQUESTED_COMMON;
    let buffer = [
        record(b".", all, VDIR, 0),
        record(b"..", all, VDIR, 0),
        record(b"notes.txt", all, VREG, 0),
        record(b"cloud.pdf", all, VREG, SF_DATALESS | 0x20),
        record(b"src", all, VDIR, 0),
        record(b"link", all, VLNK, 0),
        record(b"pipe", all, 7, 0),
        record(b"abc", all, VREG, 0x20),
    ]
    .concat();
    let entries = parse_entries(&buffer, 8).unwrap();
    assert_eq!(
        described(&entries),
        [
            ("notes.txt".to_owned(), Some(EntryType::File), false),
            ("cloud.pdf".to_owned(), Some(EntryType::File), true),
            ("src".to_owned(), Some(EntryType::Dir), false),
            ("link".to_owned(), Some(EntryType::Symlink), false),
            ("pipe".to_owned(), Some(EntryType::Special), false),
            ("abc".to_owned(), Some(EntryType::File), false),
        ]
    );
}

#[test]
fn attributes_not_returned_are_not_trusted() {
    // Packed with FSOPT_PACK_INVAL_ATTRS, the fields are there but their bits are clear.
    let name_only = ATTR_CMN_RETURNED_ATTRS | ATTR_CMN_NAME;
    let buffer = record(b"remote", name_only, VREG, SF_DATALESS);
    let entries = parse_entries(&buffer, 1).unwrap();
    assert_eq!(described(&entries), [("remote".to_owned(), None, false)]);
}

#[test]
fn only_the_counted_entries_are_read() {
    let buffer = [record(b"a", REQUESTED_COMMON, VREG, 0), vec![0xff; 12]].concat();
    assert_eq!(parse_entries(&buffer, 1).unwrap().len(), 1);
    assert_eq!(parse_entries(&buffer, 2), Err(MalformedEntry));
}

#[test]
fn malformed_records_are_refused() {
    let good = record(b"name", REQUESTED_COMMON, VREG, 0);
    // A length shorter than the fixed fields, or past the buffer.
    let mut short = good.clone();
    short[..4].copy_from_slice(&8u32.to_ne_bytes());
    assert_eq!(parse_entries(&short, 1), Err(MalformedEntry));
    let mut long = good.clone();
    long[..4].copy_from_slice(&((good.len() + 4) as u32).to_ne_bytes());
    assert_eq!(parse_entries(&long, 1), Err(MalformedEntry));
    // A name that points past the entry, or has no NUL inside its length.
    let mut outside = good.clone();
    outside[NAME_AT..NAME_AT + 4].copy_from_slice(&64i32.to_ne_bytes());
    assert_eq!(parse_entries(&outside, 1), Err(MalformedEntry));
    let mut unterminated = good.clone();
    unterminated[NAME_AT + 4..NAME_AT + 8].copy_from_slice(&4u32.to_ne_bytes());
    assert_eq!(parse_entries(&unterminated, 1), Err(MalformedEntry));
    // No name returned.
    let nameless = record(b"x", ATTR_CMN_RETURNED_ATTRS | ATTR_CMN_OBJTYPE, VREG, 0);
    assert_eq!(parse_entries(&nameless, 1), Err(MalformedEntry));
}
