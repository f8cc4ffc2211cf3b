//! What the watcher cannot report: events the kernel dropped (its queue overflowed) and
//! directories it would not watch (its watch limit). The index must still answer as a walk.

use std::fs::{self, File};
use std::io;
use std::path::Path;
use std::time::Duration;

use super::query::{Case as GramCase, GramQuery};
use super::tree::Kind;
use super::{Index, IndexOptions, StoreStart, Watching};
use crate::control::CancelToken;
use crate::roots::Roots;
use crate::walk::SkipCounters;

/// Binary files are not part of these trees.
fn nothing_read(_: &File, size: u64) -> io::Result<(u64, Option<u64>)> {
    Ok((size, None))
}

fn ready_index(root: &Path) -> Index {
    let roots = Roots::new([root]).unwrap();
    let index = Index::start(&roots, IndexOptions::default(), nothing_read).unwrap();
    assert!(index.wait(Some(Duration::from_secs(30)), &CancelToken::new()));
    index
}

/// Every entry the index lists, in walk order, directories marked with a trailing `/`.
fn listed(index: &Index) -> Vec<String> {
    let view = index.view().expect("the index is ready");
    let skipped = SkipCounters::default();
    let entries = view.walk(0, b"", None, None, &skipped);
    entries
        .map(|(_, entry, _, _)| {
            let path = String::from_utf8_lossy(&entry.path).into_owned();
            if entry.kind == Kind::Dir {
                path + "/"
            } else {
                path
            }
        })
        .collect()
}

/// The file `path` may be ruled out for `literal`.
fn ruled_out(index: &Index, path: &str, literal: &str) -> bool {
    let view = index.view().expect("the index is ready");
    let query = GramQuery::literal(literal.as_bytes(), GramCase::Exact);
    let Some(prefilter) = view.prefilter(&query, true) else {
        return false;
    };
    let skipped = SkipCounters::default();
    let mut entries = view.walk(0, b"", None, None, &skipped);
    let entry = entries.find(|(_, entry, _, _)| &*entry.path == path.as_bytes()).expect("listed").1;
    prefilter.rules_out(entry).is_some()
}

fn with_watcher(index: &Index, change: impl FnOnce(&mut super::Watcher)) {
    let mut state = index.shared.state.write().unwrap();
    change(state.watcher.as_mut().expect("the index is watching"));
}

#[test]
fn events_lost_to_a_queue_overflow_are_made_up_by_walking_again() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join("a.txt"), "alpha\n").unwrap();
    fs::create_dir(root.join("sub")).unwrap();
    fs::write(root.join("sub/b.txt"), "beta\n").unwrap();
    let index = ready_index(root);
    assert!(ruled_out(&index, "sub/b.txt", "zebra_token"));

    with_watcher(&index, |watcher| watcher.lose_events = true);
    fs::write(root.join("c.txt"), "gamma\n").unwrap();
    fs::remove_file(root.join("a.txt")).unwrap();
    fs::write(root.join("sub/b.txt"), "zebra_token\n").unwrap();
    fs::create_dir(root.join("new")).unwrap();
    fs::write(root.join("new/d.txt"), "delta\n").unwrap();

    assert_eq!(listed(&index), ["c.txt", "new/", "new/d.txt", "sub/", "sub/b.txt"]);
    assert!(!ruled_out(&index, "sub/b.txt", "zebra_token"), "a file changed unheard of is searched");
    assert!(index.status().rescans >= 1);
}

#[test]
fn a_directory_that_cannot_be_watched_is_listed_again_before_every_search() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::write(root.join("a.txt"), "alpha\n").unwrap();
    let index = ready_index(root);
    assert_eq!(index.status().watching, Watching::Live);

    with_watcher(&index, |watcher| watcher.refuse = Some(b"blind"));
    fs::create_dir(root.join("blind")).unwrap();
    fs::write(root.join("blind/x.txt"), "one\n").unwrap();
    assert_eq!(listed(&index), ["a.txt", "blind/", "blind/x.txt"]);
    let status = index.status();
    assert_eq!((status.watching, status.unwatched_dirs), (Watching::Partial, 1));

    // Unheard of, until the listing before the next search.
    fs::write(root.join("blind/y.txt"), "two\n").unwrap();
    fs::remove_file(root.join("blind/x.txt")).unwrap();
    assert_eq!(listed(&index), ["a.txt", "blind/", "blind/y.txt"]);
    // Its files are never read into the prefilter, so a change inside is never ruled out.
    assert!(index.wait(Some(Duration::from_secs(30)), &CancelToken::new()));
    fs::write(root.join("blind/y.txt"), "zebra_token\n").unwrap();
    assert!(!ruled_out(&index, "blind/y.txt", "zebra_token"));
    assert!(ruled_out(&index, "a.txt", "zebra_token"));
}

#[test]
fn a_write_that_fails_keeps_the_old_store_and_says_why() {
    use std::sync::atomic::Ordering::Relaxed;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let store = dir.path().join("store");
    fs::create_dir(&root).unwrap();
    fs::write(root.join("a.txt"), "alpha\n").unwrap();
    let roots = Roots::new([&root]).unwrap();
    let options = IndexOptions { persist: Some(store.clone()), ..IndexOptions::default() };
    let start = || {
        let index = Index::start(&roots, options.clone(), nothing_read).unwrap();
        assert!(index.wait(Some(Duration::from_secs(30)), &CancelToken::new()));
        index
    };
    start().close();
    let stored = fs::read(store.join("fsnative-index")).unwrap();

    // As on a full disk: every write fails part of the way.
    super::persist::FAIL_WRITES_AFTER.store(100, Relaxed);
    fs::write(root.join("b.txt"), "zebra_token\n").unwrap();
    let index = start();
    assert_eq!(index.status().store, Some(StoreStart::Loaded));
    assert!(!ruled_out(&index, "b.txt", "zebra_token"));
    index.close();
    super::persist::FAIL_WRITES_AFTER.store(u64::MAX, Relaxed);
    let error = index.status().store_error.expect("the write failed");
    // The OS's own words for a full disk ("No space left on device", "Disk full.").
    let no_space = crate::sys::OsError::NoSpace.error().to_string();
    assert!(error.contains(&no_space), "{error}");
    assert_eq!(fs::read(store.join("fsnative-index")).unwrap(), stored, "the old store stays");
    assert_eq!(fs::read_dir(&store).unwrap().count(), 2, "the store and its lock, no temporary file");

    let index = start();
    assert_eq!(index.status().store, Some(StoreStart::Loaded));
    assert_eq!(listed(&index), ["a.txt", "b.txt"]);
    assert!(!ruled_out(&index, "b.txt", "zebra_token"));
    assert!(ruled_out(&index, "a.txt", "zebra_token"));
}

#[test]
fn a_build_read_on_several_threads_gives_each_file_its_own_sketch() {
    // Enough files that batches are read by helpers too (on a machine with more than one core).
    let count = super::reader::PARALLEL_FROM * 3;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for at in 0..count {
        let sub = root.join(format!("d{}", at % 37));
        fs::create_dir_all(&sub).unwrap();
        fs::write(sub.join(format!("f{at}.txt")), format!("line one\nword_{at}_end\n")).unwrap();
    }
    let index = ready_index(root);
    assert_eq!(index.status().content_files, count as u64);
    for at in (0..count).step_by(97) {
        let path = format!("d{}/f{at}.txt", at % 37);
        assert!(!ruled_out(&index, &path, &format!("word_{at}_end")), "{path} holds its own word");
        let other = (at + 1) % count;
        assert!(ruled_out(&index, &path, &format!("word_{other}_end")), "{path} is told apart from f{other}");
    }
}
