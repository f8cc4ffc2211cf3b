//! The translation of FSEvents' path events, on sequences of the form FSEvents delivers for
//! common operations (file events, coalesced within a latency window).

use super::flag::*;
use super::*;

/// What the index is told, written out: `relist DIR`, `rescan DIR`, `touch PATH`, `overflow`.
fn told(paths: &Paths, events: &[(&str, u32)]) -> Vec<String> {
    let mut out = Vec::new();
    for (id, (path, flags)) in events.iter().enumerate() {
        let event = PathEvent { path: path.as_bytes().to_vec(), flags: *flags, id: id as u64 + 1 };
        paths.translate(&event, &mut |event| out.push(crate::sys::describe(&event)));
    }
    out
}

fn two_roots() -> Paths {
    let mut paths = Paths::default();
    assert!(paths.watch(b"/Users/me/src", (0, Box::default())));
    assert!(!paths.watch(b"/Users/me/src/lib", (0, b"lib"[..].into())));
    assert!(paths.watch(b"/private/tmp/work", (1, Box::default())));
    assert!(!paths.watch(b"/private/tmp/work", (1, Box::default())), "a root is streamed once");
    paths
}

#[test]
fn an_editor_save_through_a_temporary_file_relists_and_rereads() {
    let events = [
        ("/Users/me/src/lib/a.rs.tmp", ITEM_CREATED | ITEM_MODIFIED | ITEM_RENAMED | ITEM_IS_FILE),
        ("/Users/me/src/lib/a.rs", ITEM_RENAMED | ITEM_MODIFIED | ITEM_IS_FILE),
    ];
    assert_eq!(
        told(&two_roots(), &events),
        [
            "Appeared file 0:lib|a.rs.tmp",
            "Modified file 0:lib|a.rs.tmp",
            "Appeared file 0:lib|a.rs",
            "Modified file 0:lib|a.rs",
        ]
    );
}

#[test]
fn a_write_in_place_rereads_only_the_file() {
    let events = [("/Users/me/src/main.rs", ITEM_MODIFIED | ITEM_INODE_META_MOD | ITEM_IS_FILE)];
    assert_eq!(told(&two_roots(), &events), ["Modified file 0:|main.rs"]);
}

#[test]
fn a_directory_made_and_filled_is_walked_from_its_parent() {
    let events = [
        ("/private/tmp/work/new", ITEM_CREATED | ITEM_IS_DIR),
        ("/private/tmp/work/new/x.txt", ITEM_CREATED | ITEM_MODIFIED | ITEM_IS_FILE),
    ];
    assert_eq!(
        told(&two_roots(), &events),
        ["Appeared dir 1:|new", "Appeared file 1:new|x.txt", "Modified file 1:new|x.txt"]
    );
}

#[test]
fn a_removed_tree_relists_each_parent_once_per_event() {
    let events = [
        ("/Users/me/src/lib/deep/f", ITEM_REMOVED | ITEM_IS_FILE),
        ("/Users/me/src/lib/deep", ITEM_REMOVED | ITEM_IS_DIR),
    ];
    assert_eq!(
        told(&two_roots(), &events),
        ["Appeared file 0:lib/deep|f", "Modified file 0:lib/deep|f", "Appeared dir 0:lib|deep"]
    );
}

#[test]
fn a_permission_change_on_a_directory_walks_it_again() {
    let events = [("/Users/me/src/lib", ITEM_INODE_META_MOD | ITEM_IS_DIR)];
    assert_eq!(told(&two_roots(), &events), ["Modified dir 0:|lib"]);
}

#[test]
fn lost_events_and_a_wrapped_counter_walk_everything() {
    for lost in [USER_DROPPED, KERNEL_DROPPED, EVENT_IDS_WRAPPED, MUST_SCAN_SUB_DIRS | USER_DROPPED] {
        assert_eq!(told(&two_roots(), &[("/", lost)]), ["overflow"], "flags {lost:#x}");
    }
}

#[test]
fn must_scan_sub_dirs_mounts_and_a_moved_root_walk_what_they_name() {
    let events = [
        ("/Users/me/src/lib", MUST_SCAN_SUB_DIRS),
        ("/Users/me/src/vol", MOUNT),
        ("/private/tmp/work", ROOT_CHANGED),
        ("/Users/me", MUST_SCAN_SUB_DIRS),
        ("/Users/me/src", 0),
    ];
    assert_eq!(
        told(&two_roots(), &events),
        ["rescan 0:lib", "rescan 0:vol", "gone 1:", "rescan 1:", "rescan 0:", "rescan 0:"]
    );
}

#[test]
fn paths_outside_every_root_and_sibling_prefixes_are_ignored() {
    let events = [
        ("/Users/me/src2/a.rs", ITEM_MODIFIED | ITEM_IS_FILE),
        ("/Users/me/sr", ITEM_CREATED | ITEM_IS_DIR),
        ("/private/tmp/other", ITEM_CREATED | ITEM_IS_FILE),
        ("/Users/me/notes", MUST_SCAN_SUB_DIRS),
        ("/Users/me", HISTORY_DONE),
    ];
    assert!(told(&two_roots(), &events).is_empty());
}

#[test]
fn forgetting_a_subtree_keeps_the_roots_stream() {
    let mut paths = two_roots();
    assert_eq!(paths.watched(), 3);
    paths.forget_below(0, b"");
    assert_eq!(paths.watched(), 1);
    assert!(paths.covers(0), "the stream on root 0 goes on");
    assert_eq!(told(&paths, &[("/Users/me/src/x", ITEM_CREATED | ITEM_IS_FILE)]).len(), 2);
}
