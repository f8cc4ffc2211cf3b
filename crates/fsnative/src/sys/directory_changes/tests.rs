//! The records of `ReadDirectoryChangesW` and their translation, on buffers of the form
//! Windows fills for common operations.

use super::action::*;
use super::*;

/// A buffer holding `records` as Windows lays them out (each record 4-byte aligned).
fn buffer(records: &[(u32, &str)]) -> Vec<u8> {
    let mut out = Vec::new();
    for (at, (action, path)) in records.iter().enumerate() {
        let name: Vec<u8> = path.encode_utf16().flat_map(u16::to_le_bytes).collect();
        let length = (HEADER + name.len()).next_multiple_of(4);
        let next = if at + 1 == records.len() { 0 } else { length as u32 };
        out.extend_from_slice(&next.to_le_bytes());
        out.extend_from_slice(&action.to_le_bytes());
        out.extend_from_slice(&(name.len() as u32).to_le_bytes());
        out.extend_from_slice(&name);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    out
}

/// What the index is told, written out ([`crate::sys::describe`]).
fn told(records_in: &[(u32, &str)], watched: &[&str]) -> Vec<String> {
    let watched: BTreeSet<DirKey> = watched.iter().map(|dir| (0, dir.as_bytes().into())).collect();
    let mut out = Vec::new();
    let whole = records(&buffer(records_in), |action, path| {
        translate(0, action, path, &watched, &mut |event| out.push(crate::sys::describe(&event)))
    });
    assert!(whole);
    out
}

#[test]
fn an_editor_save_through_a_temporary_file() {
    let records = [
        (ADDED, "src\\lib\\a.rs.tmp"),
        (MODIFIED, "src\\lib\\a.rs.tmp"),
        (REMOVED, "src\\lib\\a.rs"),
        (RENAMED_OLD_NAME, "src\\lib\\a.rs.tmp"),
        (RENAMED_NEW_NAME, "src\\lib\\a.rs"),
        (MODIFIED, "src\\lib"),
    ];
    assert_eq!(
        told(&records, &["", "src", "src/lib"]),
        [
            "Appeared file 0:src/lib|a.rs.tmp",
            "Modified file 0:src/lib|a.rs.tmp",
            "Vanished file 0:src/lib|a.rs",
            "Vanished file 0:src/lib|a.rs.tmp",
            "Appeared file 0:src/lib|a.rs",
            "Modified dir 0:src|lib",
        ]
    );
}

#[test]
fn names_in_the_root_and_directories_the_index_knows() {
    let records =
        [(ADDED, "new"), (REMOVED, "old"), (RENAMED_OLD_NAME, "docs"), (RENAMED_NEW_NAME, "manual")];
    assert_eq!(
        told(&records, &["", "old", "docs"]),
        ["Appeared file 0:|new", "Vanished dir 0:|old", "Vanished dir 0:|docs", "Appeared file 0:|manual"]
    );
}

#[test]
fn names_that_are_not_unicode_keep_their_wtf8_bytes() {
    let mut name: Vec<u8> = Vec::new();
    for unit in [b'd' as u16, 0xD800, b'\\' as u16, b'f' as u16] {
        name.extend_from_slice(&unit.to_le_bytes());
    }
    let mut raw = Vec::new();
    raw.extend_from_slice(&0u32.to_le_bytes());
    raw.extend_from_slice(&ADDED.to_le_bytes());
    raw.extend_from_slice(&(name.len() as u32).to_le_bytes());
    raw.extend_from_slice(&name);
    let mut seen = Vec::new();
    assert!(records(&raw, |action, path| seen.push((action, path.to_vec()))));
    assert_eq!(seen, [(ADDED, vec![b'd', 0xED, 0xA0, 0x80, b'/', b'f'])]);
}

#[test]
fn an_unknown_action_relists_the_directory_and_empty_paths_say_nothing() {
    assert_eq!(told(&[(9, "a\\b"), (ADDED, "")], &[""]), ["rescan 0:a"]);
}

#[test]
fn a_truncated_buffer_stops_at_the_record_that_does_not_fit() {
    let whole = buffer(&[(ADDED, "one"), (ADDED, "two")]);
    let mut seen = Vec::new();
    assert!(!records(&whole[..whole.len() - 4], |_, path| seen.push(path.to_vec())));
    assert_eq!(seen, [b"one".to_vec()]);
    assert!(!records(&[1, 0, 0], |_, _| panic!("no record fits")));
}
