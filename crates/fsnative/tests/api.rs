//! Behaviour that data vectors cannot express: cancellation from another thread, sharing a
//! sandbox across threads, and order stability of the parallel pipeline on a larger tree.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Mutex};

use fsnative::{CancelToken, GlobRequest, GrepRequest, GrepResult, OutputMode, Sandbox, Truncation};

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

/// What the search thread tells the cancelling thread.
enum Event {
    /// The search is at its pausing check, held there until the token is cancelled.
    Running,
    /// The search returned (or panicked) without pausing.
    Finished,
}

/// Sends [`Event::Finished`] when dropped, also while a panic unwinds.
struct SayFinished(mpsc::Sender<Event>);

impl Drop for SayFinished {
    fn drop(&mut self) {
        let _ = self.0.send(Event::Finished);
    }
}

/// Runs `search` on another thread with a token that holds it at its `pause_at`-th check
/// until this thread has cancelled the token. The search is then known to be running, with
/// work left, and it has seen nothing of the cancel yet: only noticing the token at a later
/// check can stop it. A search that ignored the token would run to its end and return
/// complete results; one that never got that far returns without pausing. Neither can hang.
fn cancel_while_running<T: Send>(pause_at: usize, search: impl FnOnce(&CancelToken) -> T + Send) -> T {
    let (events, event) = mpsc::channel::<Event>();
    let (resume, resumed) = mpsc::channel::<()>();
    let (paused, resumed) = (events.clone(), Mutex::new(resumed));
    let checks = AtomicUsize::new(0);
    let token = CancelToken::polling(move || {
        if checks.fetch_add(1, Ordering::SeqCst) + 1 == pause_at {
            let _ = paused.send(Event::Running);
            let _ = resumed.lock().unwrap().recv();
        }
        false
    });
    std::thread::scope(|scope| {
        let token = &token;
        let searching = scope.spawn(move || {
            let _finished = SayFinished(events);
            search(token)
        });
        if let Ok(Event::Running) = event.recv() {
            token.cancel();
            resume.send(()).unwrap();
        }
        searching.join().unwrap()
    })
}

/// The (path, line) of every match of a result.
fn lines(result: &GrepResult) -> Vec<(PathBuf, u64)> {
    result.files.iter().flat_map(|f| f.matches.iter().map(|m| (f.path.clone(), m.line_number))).collect()
}

#[test]
fn cancelling_from_another_thread_ends_a_running_search() {
    let dir = tempfile::tempdir().unwrap();
    make_tree(dir.path(), 40, 50);
    let sandbox = Sandbox::new([dir.path()]).unwrap();
    for threads in [1, 4] {
        let request = GrepRequest { limit: None, threads: Some(threads), ..GrepRequest::new("needle") };
        let full = sandbox.grep(&request).unwrap();
        assert_eq!(full.total_matches, 40 * 50 * 20);
        // Every match is a check, so the 2000th comes about a hundred files in, of 2000.
        let cancelled =
            cancel_while_running(2000, |token| sandbox.grep_cancellable(&request, token).unwrap());
        assert_eq!(cancelled.truncated, Some(Truncation::Cancelled), "threads: {threads}");
        assert!(cancelled.total_matches < full.total_matches);
        // The cut page resumes exactly where it stopped.
        let rest = GrepRequest { cursor: cancelled.next_cursor.clone(), ..request.clone() };
        let rest = sandbox.grep(&rest).unwrap();
        assert_eq!([lines(&cancelled), lines(&rest)].concat(), lines(&full), "threads: {threads}");
    }
    let request = GlobRequest { limit: None, ..GlobRequest::new("**") };
    let full = sandbox.glob(&request).unwrap();
    assert_eq!(full.total, 40 * 50);
    // Each directory listed is a check: the 10th comes with 30 of 41 directories left.
    let cancelled = cancel_while_running(10, |token| sandbox.glob_cancellable(&request, token).unwrap());
    assert_eq!(cancelled.truncated, Some(Truncation::Cancelled));
    assert!(cancelled.total < full.total);
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

#[test]
#[cfg(unix)] // A symlink: Windows makes one only with a privilege.
fn errors_about_a_path_carry_it_and_outside_errors_only_the_given_one() {
    use fsnative::{ErrorCode, Intent};
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap().join("root");
    std::fs::create_dir_all(root.join("sub")).unwrap();
    std::fs::write(root.join("file.txt"), "x").unwrap();
    std::os::unix::fs::symlink(dir.path().join("secret/deeper"), root.join("out")).unwrap();
    let sandbox = Sandbox::new([&root]).unwrap();
    let error = sandbox.validate("missing.txt", Intent::Read).unwrap_err();
    assert_eq!((error.code(), error.path()), (ErrorCode::NotFound, Some(Path::new("missing.txt"))));
    let error = sandbox.validate("file.txt/x", Intent::Read).unwrap_err();
    assert_eq!(error.code(), ErrorCode::NotADirectory);
    assert_eq!(error.path(), Some(root.join("file.txt/x").as_path()));
    let error = sandbox.validate("", Intent::Read).unwrap_err();
    assert_eq!((error.code(), error.path()), (ErrorCode::InvalidPath, Some(Path::new(""))));
    // Outside: the path as given, never where the link led.
    let error = sandbox.validate("out/x", Intent::Write).unwrap_err();
    assert_eq!((error.code(), error.path()), (ErrorCode::OutsideSandbox, Some(Path::new("out/x"))));
    let error = Sandbox::new([root.join("nope")]).unwrap_err();
    assert_eq!((error.code(), error.path()), (ErrorCode::NotFound, Some(root.join("nope").as_path())));
    let error = sandbox
        .glob(&GlobRequest { paths: fsnative::OneOrMany(vec!["file.txt".into()]), ..GlobRequest::new("*") });
    let error = error.unwrap_err();
    assert_eq!(
        (error.code(), error.path()),
        (ErrorCode::NotADirectory, Some(root.join("file.txt").as_path()))
    );
    assert_eq!(sandbox.grep(&GrepRequest::new("(")).unwrap_err().path(), None);
}
