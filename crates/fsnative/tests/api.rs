//! Behaviour that data vectors cannot express: cancellation from another thread, sharing a
//! sandbox across threads, and order stability of the parallel pipeline on a larger tree.

use std::path::Path;

use fsnative::{CancelToken, GlobRequest, GrepRequest, OutputMode, Sandbox, Truncation};

/// A tree of `dirs` × `files` files, each with a few matching lines.
fn make_tree(dir: &Path, dirs: usize, files: usize) {
    for d in 0..dirs {
        let sub = dir.join(format!("d{d:03}"));
        std::fs::create_dir_all(&sub).unwrap();
        for f in 0..files {
            let body: String = (0..20).map(|l| format!("line {l} needle {d} {f}\n")).collect();
            std::fs::write(sub.join(format!("f{f:03}.txt")), body).unwrap();
        }
    }
}

#[test]
fn sandbox_is_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Sandbox>();
    assert_send_sync::<CancelToken>();
}

#[test]
fn a_cancelled_token_stops_grep_and_glob_with_a_cursor() {
    let dir = tempfile::tempdir().unwrap();
    make_tree(dir.path(), 4, 4);
    let sandbox = Sandbox::new([dir.path()]).unwrap();
    let token = CancelToken::new();
    token.cancel();
    let result = sandbox.grep_cancellable(&GrepRequest::new("needle"), &token).unwrap();
    assert_eq!(result.truncated, Some(Truncation::Cancelled));
    assert!(result.files.is_empty());
    assert!(result.next_cursor.is_some());
    let listed = sandbox.glob_cancellable(&GlobRequest::new("**"), &token).unwrap();
    assert_eq!(listed.truncated, Some(Truncation::Cancelled));
}

#[test]
fn cancelling_from_another_thread_ends_a_running_search() {
    let dir = tempfile::tempdir().unwrap();
    make_tree(dir.path(), 40, 50);
    let sandbox = Sandbox::new([dir.path()]).unwrap();
    let token = CancelToken::new();
    let request = GrepRequest { limit: None, threads: Some(1), ..GrepRequest::new("needle") };
    let full = sandbox.grep(&request).unwrap();
    assert_eq!(full.total_matches, 40 * 50 * 20);
    let cancelled = std::thread::scope(|scope| {
        let search = scope.spawn(|| sandbox.grep_cancellable(&request, &token));
        token.cancel();
        search.join().unwrap().unwrap()
    });
    // Either the search saw the cancel, or it finished first; a cut result must resume exactly.
    if let Some(reason) = cancelled.truncated {
        assert_eq!(reason, Truncation::Cancelled);
        let rest =
            sandbox.grep(&GrepRequest { cursor: cancelled.next_cursor.clone(), ..request.clone() }).unwrap();
        assert_eq!(cancelled.total_matches + rest.total_matches, full.total_matches);
    } else {
        assert_eq!(cancelled.total_matches, full.total_matches);
    }
}

#[test]
fn parallel_results_come_in_the_same_order_as_a_single_thread() {
    let dir = tempfile::tempdir().unwrap();
    make_tree(dir.path(), 30, 30);
    let sandbox = Sandbox::new([dir.path()]).unwrap();
    for mode in [OutputMode::Content, OutputMode::Files, OutputMode::Count] {
        let one = GrepRequest { mode, limit: Some(5000), threads: Some(1), ..GrepRequest::new("needle 1") };
        let many = GrepRequest { threads: Some(8), ..one.clone() };
        let a = sandbox.grep(&one).unwrap();
        let b = sandbox.grep(&many).unwrap();
        assert_eq!(a.files, b.files, "{mode:?}");
        assert_eq!(a.next_cursor, b.next_cursor, "{mode:?}");
    }
}

#[test]
fn pages_of_a_parallel_search_add_up_to_the_whole() {
    let dir = tempfile::tempdir().unwrap();
    make_tree(dir.path(), 10, 10);
    let sandbox = Sandbox::new([dir.path()]).unwrap();
    let whole = sandbox.grep(&GrepRequest { limit: None, ..GrepRequest::new("needle") }).unwrap();
    let mut request = GrepRequest { limit: Some(37), context: Some(1), ..GrepRequest::new("needle") };
    let mut seen = Vec::new();
    loop {
        let page = sandbox.grep(&request).unwrap();
        for file in &page.files {
            seen.extend(file.matches.iter().map(|m| (file.path.clone(), m.line_number)));
        }
        match page.next_cursor {
            Some(cursor) => request.cursor = Some(cursor),
            None => break,
        }
    }
    let expected: Vec<_> =
        whole.files.iter().flat_map(|f| f.matches.iter().map(|m| (f.path.clone(), m.line_number))).collect();
    assert_eq!(seen, expected);
}

#[test]
fn a_panic_becomes_an_internal_error() {
    let caught: fsnative::Result<()> = fsnative::catch_panic(|| panic!("boom"));
    let err = caught.unwrap_err();
    assert_eq!(err.code().as_str(), "INTERNAL");
    assert!(err.message().contains("boom"));
}

#[test]
fn a_huge_sparse_file_is_skipped_fast_as_binary_or_as_too_large() {
    let dir = tempfile::tempdir().unwrap();
    let sparse = std::fs::File::create(dir.path().join("sparse.bin")).unwrap();
    sparse.set_len(1 << 30).unwrap();
    std::fs::write(dir.path().join("small.txt"), "needle\n").unwrap();
    let sandbox = Sandbox::new([dir.path()]).unwrap();
    let skipped = sandbox.grep(&GrepRequest::new("needle")).unwrap();
    assert_eq!(skipped.stats.skipped_binary, 1);
    assert_eq!(skipped.total_matches, 1);
    // As text, the file is one 1 GiB line: over the buffer limit, so skipped as an error.
    let as_text = sandbox.grep(&GrepRequest { search_binary: true, ..GrepRequest::new("needle") }).unwrap();
    assert_eq!(as_text.stats.skipped_errors, 1);
    assert_eq!(as_text.total_matches, 1);
}

/// Small files are read whole and searched in memory, large ones streamed; a NUL byte must
/// end the search at the same place either way (where the streamed search's buffer meets it).
#[test]
fn a_late_nul_byte_stops_a_small_file_where_it_stops_a_large_one() {
    let dir = tempfile::tempdir().unwrap();
    let line = "needle and some text to fill the line up\n";
    let before: String = line.repeat(300 * 1024 / line.len());
    let after: String = line.repeat(20);
    let small = format!("{before}\0{after}");
    let padding = "x".repeat(1024 * 1024);
    let large = format!("{before}\0{after}{padding}\n");
    std::fs::write(dir.path().join("small.txt"), &small).unwrap();
    std::fs::write(dir.path().join("large.txt"), &large).unwrap();
    let sandbox = Sandbox::new([dir.path()]).unwrap();
    let count = |name: &str| {
        let request = GrepRequest {
            paths: [name].into_iter().collect(),
            mode: OutputMode::Count,
            limit: None,
            ..GrepRequest::new("needle")
        };
        sandbox.grep(&request).unwrap().files.first().map_or(0, |f| f.count)
    };
    let (small_count, large_count) = (count("small.txt"), count("large.txt"));
    assert_eq!(small_count, large_count);
    assert!(small_count < (before.len() / line.len()) as u64, "the search stopped at the NUL byte");
}
