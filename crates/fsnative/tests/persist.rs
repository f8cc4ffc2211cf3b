//! The persisted index: loaded at start instead of read, never stale across restarts, and
//! never trusted when the store is damaged, foreign or written for something else.
//!
//! The rounds stop the indexed sandbox (its store written as it closes), change the tree while
//! nothing watches it (every kind of change), start it again from the store and at once ask it
//! and a plain sandbox the same questions: the answers must be equal, every round.
//! `FSNATIVE_PERSIST_ROUNDS` sets the number of rounds; `make index-rounds` runs 1,200 of them
//! in an optimised build.

#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use fsnative::{IndexOptions, IndexState, IndexStatus, Sandbox, StoreStart};

mod support;
use support::{assert_same, seed};
#[cfg(unix)]
use support::{move_in, move_out};

/// The store's file in its directory.
const STORE: &str = "fsnative-index";
/// How long a change keeps a stamp from vouching for anything (the index's racy window), and a
/// little more.
const PAST_RACY: Duration = Duration::from_millis(2100);

fn options(store: &Path) -> IndexOptions {
    IndexOptions { persist: Some(store.to_path_buf()), ..IndexOptions::default() }
}

fn started(root: &Path, options: IndexOptions) -> (Sandbox, IndexStatus) {
    let sandbox = Sandbox::new([root]).unwrap().with_index(options).unwrap();
    assert!(sandbox.wait_for_index(Some(Duration::from_secs(60))), "{:?}", sandbox.index_status());
    let status = sandbox.index_status().unwrap();
    (sandbox, status)
}

/// A seeded tree (`root`, with `outside` beside it) and a store directory.
struct Fixture {
    _dir: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
    store: PathBuf,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let outside = dir.path().join("outside");
    let store = dir.path().join("store");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    seed(&root);
    Fixture { _dir: dir, root, outside, store }
}

/// Starts, waits and closes an indexed sandbox, which leaves a store; its start status.
fn cycle(fixture: &Fixture, options: IndexOptions) -> IndexStatus {
    let (sandbox, status) = started(&fixture.root, options);
    sandbox.close();
    assert_eq!(sandbox.index_status().unwrap().store_error, None);
    status
}

fn store_bytes(fixture: &Fixture) -> Vec<u8> {
    std::fs::read(fixture.store.join(STORE)).unwrap()
}

#[test]
fn a_store_is_written_then_loaded_and_answers_as_a_walk() {
    let fixture = fixture();
    let first = cycle(&fixture, options(&fixture.store));
    assert_eq!(first.store, Some(StoreStart::Rebuilt { reason: "no store yet".to_owned() }));
    let (sandbox, status) = started(&fixture.root, options(&fixture.store));
    assert_eq!(status.store, Some(StoreStart::Loaded));
    assert!(status.store_bytes > 0);
    assert_eq!((status.files, status.content_files, status.content_pending), (first.files, first.files, 0));
    let plain = Sandbox::new([&fixture.root]).unwrap();
    assert_same(&sandbox, &plain, "file 2", "loaded");
    assert_eq!(sandbox.index_status().unwrap().searches, 7, "answered from the loaded index");
}

#[test]
fn a_file_unchanged_since_it_was_read_is_not_read_again() {
    let fixture = fixture();
    std::thread::sleep(PAST_RACY);
    cycle(&fixture, options(&fixture.store));
    let (_, status) = started(&fixture.root, options(&fixture.store));
    assert_eq!((status.store.clone(), status.store_changes), (Some(StoreStart::Loaded), 0));

    // The same size, and the modification time put back: the change time still moves.
    let file = fixture.root.join("d1/f2.txt");
    let mtime = filetime::FileTime::from_last_modification_time(&std::fs::metadata(&file).unwrap());
    std::fs::write(&file, "common line\nfile X Y\n").unwrap();
    filetime::set_file_mtime(&file, mtime).unwrap();
    let (sandbox, status) = started(&fixture.root, options(&fixture.store));
    assert_eq!((status.store.clone(), status.store_changes), (Some(StoreStart::Loaded), 1), "{status:?}");
    let plain = Sandbox::new([&fixture.root]).unwrap();
    assert_same(&sandbox, &plain, "file X Y", "same size, same mtime");
}

#[test]
fn changes_in_every_piece_of_a_long_list_are_found() {
    // More entries than a piece of the check holds (2,048): the pieces are checked on several
    // threads, in any order, while the store is read.
    let fixture = fixture();
    for d in 0..3 {
        let dir = fixture.root.join(format!("many{d}"));
        std::fs::create_dir(&dir).unwrap();
        for f in 0..1000 {
            std::fs::write(dir.join(format!("f{f}.txt")), format!("plain {d} {f}\n")).unwrap();
        }
    }
    std::thread::sleep(PAST_RACY);
    cycle(&fixture, options(&fixture.store));
    let (_, status) = started(&fixture.root, options(&fixture.store));
    assert_eq!((status.store.clone(), status.store_changes), (Some(StoreStart::Loaded), 0));

    // In each directory, so in each piece: a file written in place (its size kept), one
    // replaced by a new inode, one created and one deleted.
    for d in 0..3 {
        let dir = fixture.root.join(format!("many{d}"));
        std::fs::write(dir.join("f100.txt"), format!("plain {d} TOK\n")).unwrap();
        std::fs::remove_file(dir.join("f900.txt")).unwrap();
        std::fs::write(dir.join("f900.txt"), "replaced TOK\n").unwrap();
        std::fs::write(dir.join("new.txt"), "created TOK\n").unwrap();
        std::fs::remove_file(dir.join("f500.txt")).unwrap();
    }
    let (sandbox, status) = started(&fixture.root, options(&fixture.store));
    assert_eq!(status.store, Some(StoreStart::Loaded));
    let plain = Sandbox::new([&fixture.root]).unwrap();
    assert_same(&sandbox, &plain, "TOK", "changed in every piece");
    assert_same(&sandbox, &plain, "plain 2 999", "unchanged in the last piece");
}

#[test]
fn ignore_files_edited_while_down_change_what_belongs_below_them() {
    let fixture = fixture();
    std::thread::sleep(PAST_RACY);
    cycle(&fixture, options(&fixture.store));
    // Edited in place: no directory's names change.
    std::fs::write(fixture.root.join(".gitignore"), "*.log\n").unwrap();
    let (sandbox, status) = started(&fixture.root, options(&fixture.store));
    assert_eq!((status.store.clone(), status.store_changes), (Some(StoreStart::Loaded), 1), "{status:?}");
    let plain = Sandbox::new([&fixture.root]).unwrap();
    assert_same(&sandbox, &plain, "common", "an ignore rule dropped");
    assert!(sandbox.index_status().unwrap().files > status.files - 1);
    sandbox.close();

    // Git's exclude file of a directory: it leaves out a file two levels below.
    std::thread::sleep(PAST_RACY);
    let info = fixture.root.join("d2/.git/info");
    std::fs::create_dir_all(&info).unwrap();
    std::fs::write(info.join("exclude"), "*.rs\n").unwrap();
    let (sandbox, _) = started(&fixture.root, options(&fixture.store));
    assert_same(&sandbox, &plain, "fn common", "an exclude file added");
}

/// Each kind of change made while no index watches; `round` varies what it writes.
#[cfg(unix)] // Its changes include modes and symlinks, Unix's.
fn change(kind: u64, round: u64, root: &Path, outside: &Path, token: &str) {
    let d = root.join(format!("d{}", round % 4));
    match kind {
        // A new file (and an older one goes, so the tree stays small).
        0 => {
            std::fs::write(d.join(format!("new{round}.txt")), format!("{token}\n")).unwrap();
            let _ = std::fs::remove_file(d.join(format!("new{}.txt", round.saturating_sub(48))));
        }
        // New content of the same size, the modification time put back.
        1 => {
            let file = d.join("f0.txt");
            let mtime = filetime::FileTime::from_last_modification_time(&std::fs::metadata(&file).unwrap());
            std::fs::write(&file, format!("common line\nfile {token:>12}\n")).unwrap();
            filetime::set_file_mtime(&file, mtime).unwrap();
        }
        // A deleted file, and it comes back the next time.
        2 => {
            let file = d.join("f1.txt");
            if file.exists() {
                std::fs::remove_file(&file).unwrap();
            } else {
                std::fs::write(&file, format!("{token}\n")).unwrap();
            }
        }
        // A file renamed, and back.
        3 => {
            let (from, to) = (d.join("f2.txt"), d.join("f2-renamed.txt"));
            let (from, to) = if from.exists() { (from, to) } else { (to, from) };
            std::fs::rename(from, &to).unwrap();
            let mut text = std::fs::read_to_string(&to).unwrap_or_default();
            text.push_str(&format!("{token}\n"));
            std::fs::write(&to, text).unwrap();
        }
        // A directory renamed, and back.
        4 => {
            let (from, to) = (d.join("deep"), d.join("deeper"));
            let (from, to) = if from.exists() { (from, to) } else { (to, from) };
            std::fs::rename(from, &to).unwrap();
        }
        // The ignore file changes what belongs.
        5 => {
            let rules = if round.is_multiple_of(2) { "*.log\n" } else { "ignored/\n*.log\n" };
            std::fs::write(root.join(".gitignore"), rules).unwrap();
            std::fs::write(root.join("ignored/a.txt"), format!("{token}\n")).unwrap();
        }
        // A symlink swapped to point elsewhere, or replaced by a file, and back.
        6 => {
            let link = d.join("link");
            let _ = std::fs::remove_file(&link);
            match round % 3 {
                0 => std::os::unix::fs::symlink("f4.txt", &link).unwrap(),
                1 => std::os::unix::fs::symlink("deep", &link).unwrap(),
                _ => std::fs::write(&link, format!("{token}\n")).unwrap(),
            }
        }
        // A directory moved in from outside, with contents.
        7 => move_in(outside, &d, round, token),
        // A directory moved out (the one moved in the round before).
        8 => {
            move_out(root, outside, round);
            std::fs::write(d.join("deep-file.txt"), format!("{token}\n")).unwrap();
        }
        // Unreadable, then readable again next time.
        9 => {
            let file = d.join("f3.txt");
            std::fs::write(&file, format!("{token}\n")).unwrap();
            let mode = if round.is_multiple_of(2) { 0o000 } else { 0o644 };
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        // An exclude file of git's leaves the Rust files out, or lets them back.
        10 => {
            let info = root.join(".git/info");
            std::fs::create_dir_all(&info).unwrap();
            std::fs::write(info.join("exclude"), if round.is_multiple_of(2) { "*.rs\n" } else { "" })
                .unwrap();
            std::fs::write(d.join("deep/x.rs"), format!("fn common() {{}} // {token}\n")).ok();
        }
        // A file appended to, deep down.
        _ => {
            use std::io::Write;
            let mut file = std::fs::OpenOptions::new().append(true).open(d.join("f4.txt")).unwrap();
            writeln!(file, "{token}").unwrap();
        }
    }
}

#[cfg(unix)]
const KINDS: u64 = 12;

#[test]
#[cfg(unix)] // Its changes include modes and symlinks, Unix's.
fn every_kind_of_change_while_down_is_found_before_the_first_answer() {
    let fixture = fixture();
    let (root, outside) = (&fixture.root, &fixture.outside);
    let plain = Sandbox::new([root]).unwrap();
    cycle(&fixture, options(&fixture.store));
    let rounds: u64 =
        std::env::var("FSNATIVE_PERSIST_ROUNDS").ok().and_then(|n| n.parse().ok()).unwrap_or(3 * KINDS);
    for round in 0..rounds {
        let token = format!("tok{round}x");
        let kind = round % KINDS;
        change(kind, round, root, outside, &token);
        let (indexed, status) = started(root, options(&fixture.store));
        let at = format!("round {round} (change {kind})");
        assert_eq!(status.store, Some(StoreStart::Loaded), "{at}");
        assert_same(&indexed, &plain, &token, &at);
        indexed.close();
        assert_eq!(indexed.index_status().unwrap().store_error, None, "{at}");
    }
    for d in 0..4 {
        let _ = std::fs::set_permissions(
            root.join(format!("d{d}/f3.txt")),
            std::fs::Permissions::from_mode(0o644),
        );
    }
}

/// Starts from a store that `damage` changed: it must be rebuilt, saying `why`, answer as a
/// walk, and leave a good store for the next start.
fn rebuilt_after(damage: impl FnOnce(&Fixture), why: &str) {
    let fixture = fixture();
    cycle(&fixture, options(&fixture.store));
    damage(&fixture);
    let (sandbox, status) = started(&fixture.root, options(&fixture.store));
    let said = status.store;
    assert!(matches!(&said, Some(StoreStart::Rebuilt { reason }) if reason.starts_with(why)), "{said:?}");
    let plain = Sandbox::new([&fixture.root]).unwrap();
    assert_same(&sandbox, &plain, "file 3", why);
    sandbox.close();
    let (_, status) = started(&fixture.root, options(&fixture.store));
    assert_eq!(status.store, Some(StoreStart::Loaded), "rewritten after {why}");
}

fn rewrite(fixture: &Fixture, change: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = store_bytes(fixture);
    change(&mut bytes);
    std::fs::write(fixture.store.join(STORE), bytes).unwrap();
}

#[test]
fn a_corrupt_byte_is_detected() {
    // In the signatures, in a path, in the checksum itself.
    for share in [3, 2] {
        let flip = |bytes: &mut Vec<u8>| {
            let at = bytes.len() / share;
            bytes[at] ^= 0x20;
        };
        rebuilt_after(|f| rewrite(f, flip), "corrupt");
    }
    rebuilt_after(|f| rewrite(f, |bytes| *bytes.last_mut().unwrap() ^= 1), "corrupt (checksum mismatch)");
}

#[test]
fn a_truncated_store_is_detected() {
    rebuilt_after(|f| rewrite(f, |bytes| bytes.truncate(bytes.len() / 2)), "truncated");
    rebuilt_after(|f| rewrite(f, |bytes| bytes.truncate(bytes.len() - 1)), "");
    rebuilt_after(|f| rewrite(f, |bytes| bytes.truncate(5)), "truncated");
    rebuilt_after(|f| rewrite(f, Vec::clear), "truncated");
}

#[test]
fn another_format_or_version_is_not_used() {
    rebuilt_after(|f| rewrite(f, |bytes| bytes[8] = bytes[8].wrapping_add(1)), "format version 6");
    // The library's version follows: its length, then its text.
    rebuilt_after(|f| rewrite(f, |bytes| bytes[13] = b'9'), "written by fsnative 9");
    rebuilt_after(|f| rewrite(f, |bytes| bytes[0] = b'X'), "not an fsnative index store");
}

#[test]
fn a_store_of_other_roots_or_options_is_not_used() {
    let fixture = fixture();
    cycle(&fixture, options(&fixture.store));
    let fewer = IndexOptions { max_files: 10_000, ..options(&fixture.store) };
    let status = cycle(&fixture, fewer.clone());
    assert_eq!(
        status.store,
        Some(StoreStart::Rebuilt { reason: "built with other index options".to_owned() })
    );
    let other = fixture.outside.join("other");
    std::fs::create_dir_all(&other).unwrap();
    std::fs::write(other.join("o.txt"), "other\n").unwrap();
    let (_, status) = started(&other, fewer);
    assert_eq!(status.store, Some(StoreStart::Rebuilt { reason: "built for other roots".to_owned() }));
    assert_eq!(status.files, 1);
}

#[test]
fn writers_take_turns_and_readers_never_see_half_a_store() {
    let fixture = fixture();
    cycle(&fixture, options(&fixture.store));
    // Each sandbox opens the lock file itself, so their locks exclude one another as separate
    // processes' would.
    std::thread::scope(|scope| {
        for writer in 0..3 {
            let fixture = &fixture;
            scope.spawn(move || {
                for round in 0..6 {
                    let file = fixture.root.join(format!("w{writer}.txt"));
                    std::fs::write(file, format!("writer {writer} round {round}\n")).unwrap();
                    let (sandbox, status) = started(&fixture.root, options(&fixture.store));
                    assert_eq!(status.store, Some(StoreStart::Loaded), "writer {writer} round {round}");
                    sandbox.close();
                    assert_eq!(sandbox.index_status().unwrap().store_error, None);
                }
            });
        }
    });
    let (sandbox, status) = started(&fixture.root, options(&fixture.store));
    assert_eq!(status.store, Some(StoreStart::Loaded));
    let plain = Sandbox::new([&fixture.root]).unwrap();
    assert_same(&sandbox, &plain, "writer 1 round 5", "after the writers");
    // It may be writing the store (what it loaded had changed): closing waits for the write.
    sandbox.close();
    let leftovers: Vec<_> =
        std::fs::read_dir(&fixture.store).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(leftovers.len(), 2, "the store and its lock, no temporary file: {leftovers:?}");
}

#[test]
fn a_store_in_a_directory_that_cannot_be_made_is_reported_and_searches_go_on() {
    let fixture = fixture();
    let blocked = fixture.outside.join("a-file");
    std::fs::write(&blocked, "not a directory\n").unwrap();
    let (sandbox, status) = started(&fixture.root, options(&blocked.join("store")));
    assert_eq!(status.state, IndexState::Ready);
    sandbox.close();
    let status = sandbox.index_status().unwrap();
    assert!(status.store_error.is_some_and(|e| e.starts_with("cannot write the index's store")));
    let plain = Sandbox::new([&fixture.root]).unwrap();
    assert_same(&sandbox, &plain, "common", "after a failed write");
}
