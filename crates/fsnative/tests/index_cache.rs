//! The index's content cache: a search from cached contents gives what one from disk gives,
//! a changed, deleted or replaced file is never served from the cache, the budget holds, and
//! a cache of 0 bytes keeps nothing.

use std::path::Path;
use std::time::{Duration, Instant};

use fsnative::{GrepRequest, IndexOptions, IndexStatus, OutputMode, Sandbox};

mod support;
use support::grep;

/// Past the window in which a stamp vouches for nothing (a change within a tick of the file
/// system's clock): files written before it are cached once read twice.
const SETTLE: Duration = Duration::from_millis(250);

fn indexed(root: &Path, cache_memory: usize) -> Sandbox {
    let options = IndexOptions { cache_memory, ..IndexOptions::default() };
    let sandbox = Sandbox::new([root]).unwrap().with_index(options).unwrap();
    assert!(sandbox.wait_for_index(Some(Duration::from_secs(30))), "{:?}", sandbox.index_status());
    sandbox
}

fn status(sandbox: &Sandbox) -> IndexStatus {
    sandbox.index_status().unwrap()
}

/// Searches with `request` until the cache holds `files` files (it keeps a file the second
/// time a search reads it).
fn warm(sandbox: &Sandbox, request: &GrepRequest, files: u64) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while status(sandbox).cache_files < files {
        assert!(Instant::now() < deadline, "the cache did not fill: {:?}", status(sandbox));
        grep(sandbox, request);
    }
}

fn requests() -> Vec<GrepRequest> {
    vec![
        GrepRequest { context: Some(2), ..GrepRequest::new(r"\bcommon\b") },
        GrepRequest { mode: OutputMode::Count, ..GrepRequest::new("line") },
        GrepRequest { mode: OutputMode::Files, ..GrepRequest::new("value [0-9]") },
        GrepRequest { invert: true, ..GrepRequest::new("common") },
        GrepRequest { limit: Some(5), ..GrepRequest::new("e") },
        GrepRequest { multiline: true, ..GrepRequest::new(r"common line\r?\nvalue") },
        GrepRequest { max_columns: Some(4), ..GrepRequest::new("value") },
    ]
}

#[test]
fn cached_contents_give_the_answers_the_files_give() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for f in 0..12 {
        std::fs::write(root.join(format!("f{f}.txt")), format!("head\ncommon line\nvalue {f}\ntail\n"))
            .unwrap();
    }
    std::fs::write(root.join("crlf.txt"), "common line\r\nvalue crlf\r\n").unwrap();
    std::fs::write(root.join("latin1.txt"), b"common line \xe9t\xe9\nvalue \xff\n").unwrap();
    std::fs::write(root.join("zero-byte.bin"), b"common line\nvalue\0 after\n").unwrap();
    std::fs::write(root.join("bom.txt"), b"\xEF\xBB\xBFcommon line\nvalue bom\n").unwrap();
    // Larger than an eighth of the budget: never cached.
    std::fs::write(root.join("large.txt"), "common line\nvalue large\n".repeat(2000)).unwrap();
    std::thread::sleep(SETTLE);
    let cached = indexed(root, 64 << 10);
    let uncached = indexed(root, 0);
    let plain = Sandbox::new([root]).unwrap();
    // Without a limit, so the search reads every file: with the default one its page ends in
    // the large file, and only files read ahead of the page (by helper threads) would be kept.
    warm(&cached, &GrepRequest { limit: None, ..requests()[0].clone() }, 14);
    for round in 0..3 {
        for request in requests() {
            let expected = grep(&plain, &request);
            assert_eq!(grep(&cached, &request), expected, "round {round}: {:?}", request.patterns);
            assert_eq!(grep(&uncached, &request), expected, "round {round}: {:?}", request.patterns);
        }
    }
    let figures = status(&cached);
    assert!(figures.cache_hits > 0, "{figures:?}");
    assert!(figures.cache_bytes <= 64 << 10, "{figures:?}");
    // The twelve small files, CRLF, Latin-1 and the early NUL (only the inverted search reads
    // it: a search gives up on it before its first line, so other patterns' prefilters rule it
    // out); not the byte-order mark (read through a decoder, in pieces) nor the large file.
    assert_eq!(figures.cache_files, 15, "{figures:?}");
    let off = status(&uncached);
    assert_eq!((off.cache_files, off.cache_bytes, off.cache_hits), (0, 0, 0), "{off:?}");
}

#[test]
fn a_changed_deleted_or_replaced_file_is_never_served_from_the_cache() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    std::fs::create_dir(&root).unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    const FILES: u64 = 40;
    for f in 0..FILES {
        std::fs::write(root.join(format!("f{f:02}.txt")), format!("common line\nvalue {f:02}\n")).unwrap();
    }
    // Another name for this one lies outside the watched directories: never cached.
    std::fs::write(root.join("linked.txt"), "common line\nvalue linked\n").unwrap();
    std::fs::hard_link(root.join("linked.txt"), outside.join("linked.txt")).unwrap();
    std::thread::sleep(SETTLE);
    let sandbox = indexed(&root, 1 << 20);
    let plain = Sandbox::new([&root]).unwrap();
    let request = GrepRequest::new("value");
    warm(&sandbox, &request, FILES);
    assert_eq!(status(&sandbox).cache_files, FILES, "every file but the linked one");
    // Ten files stay as they are, and are served from the cache every round.
    for round in 0..FILES - 10 {
        let file = root.join(format!("f{round:02}.txt"));
        match round % 5 {
            // Same size, so only the times tell the versions apart.
            0 => std::fs::write(&file, format!("common line\nVALUE {round:02}\n")).unwrap(),
            1 => std::fs::write(&file, format!("common line\nvalue {round:02} and more\n")).unwrap(),
            // An editor's save: a new file renamed over the old.
            2 => {
                std::fs::write(root.join("save.tmp"), format!("common line\nvalue saved {round}\n")).unwrap();
                std::fs::rename(root.join("save.tmp"), &file).unwrap();
            }
            3 => std::fs::remove_file(&file).unwrap(),
            _ => {
                std::fs::remove_file(&file).unwrap();
                std::fs::write(&file, format!("common line\nvalue again {round}\n")).unwrap();
            }
        }
        let hits = status(&sandbox).cache_hits;
        for request in [&request, &GrepRequest::new("VALUE|value|common")] {
            assert_eq!(grep(&sandbox, request), grep(&plain, request), "round {round}");
        }
        // A watcher that loses events (the simulated FSEvents drops and collapses some) has the
        // index walk again, which leaves the cache empty for a round: answers stay right.
        let lossy = std::env::var_os("FSNATIVE_WATCHER").is_some();
        let figures = status(&sandbox);
        assert!(
            lossy || figures.cache_hits > hits,
            "round {round}: the files that stayed came from the cache"
        );
    }
    // Files the index read just after their change are cached once the change has settled:
    // every file but the six deleted ones (and the linked one).
    assert!(sandbox.wait_for_index(Some(Duration::from_secs(30))), "read again");
    std::thread::sleep(SETTLE);
    warm(&sandbox, &request, FILES - 6);
    assert_eq!(grep(&sandbox, &request), grep(&plain, &request));
    std::fs::write(outside.join("linked.txt"), "common line\nvalue through the other name\n").unwrap();
    let common = GrepRequest::new("common");
    assert_eq!(grep(&sandbox, &common), grep(&plain, &common));
    assert!(status(&sandbox).cache_hits > 0);
}

#[test]
fn the_cache_stays_within_its_budget() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let budget = 16 << 10;
    for f in 0..40 {
        std::fs::write(root.join(format!("s{f:02}.txt")), format!("value {f:02}\n{}\n", "x".repeat(1000)))
            .unwrap();
    }
    for f in 0..3 {
        std::fs::write(root.join(format!("t{f}.txt")), format!("value {f}\n{}\n", "y".repeat(3000))).unwrap();
    }
    std::thread::sleep(SETTLE);
    let sandbox = indexed(root, budget);
    let plain = Sandbox::new([root]).unwrap();
    let request = GrepRequest::new("value");
    for _ in 0..6 {
        assert_eq!(grep(&sandbox, &request), grep(&plain, &request));
        let figures = status(&sandbox);
        assert!(figures.cache_bytes <= budget as u64, "{figures:?}");
        // Only the small files (1,010 bytes): the large ones pass an eighth of the budget.
        assert_eq!(figures.cache_bytes, figures.cache_files * 1010, "{figures:?}");
    }
    let figures = status(&sandbox);
    assert!(figures.cache_files > 4 && figures.cache_files < 40, "{figures:?}");
}
