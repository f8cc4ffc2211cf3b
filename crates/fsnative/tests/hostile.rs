//! Hostile files: every call returns, within its bounds, and says what it skipped.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(unix)]
use fsnative::GlobRequest;
use fsnative::{GrepRequest, Sandbox};

fn sandbox(dir: &Path) -> Sandbox {
    Sandbox::new([dir]).unwrap()
}

#[test]
fn a_50_mib_single_line_is_searched_and_cut_at_max_columns() {
    let dir = tempfile::tempdir().unwrap();
    let mut line = "x".repeat(50 * 1024 * 1024);
    line.push_str("needle\n");
    std::fs::write(dir.path().join("minified.js"), line).unwrap();
    let request = GrepRequest { max_columns: Some(200), ..GrepRequest::new("needle") };
    let found = sandbox(dir.path()).grep(&request).unwrap();
    let m = &found.files[0].matches[0];
    assert_eq!(m.text.len(), 200);
    assert!(m.truncated);
    assert_eq!(m.submatches, vec![[50 * 1024 * 1024, 50 * 1024 * 1024 + 6]]);
}

#[test]
#[cfg(unix)] // Unix sockets, FIFOs and links to devices are Unix's.
fn sockets_fifos_and_device_links_are_skipped_and_counted() {
    let dir = tempfile::tempdir().unwrap();
    let _listener = std::os::unix::net::UnixListener::bind(dir.path().join("server.sock")).unwrap();
    let fifo = std::ffi::CString::new(dir.path().join("pipe").as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zeros")).unwrap();
    std::fs::write(dir.path().join("a.txt"), "needle\n").unwrap();
    let sandbox = sandbox(dir.path());
    let plain = sandbox.grep(&GrepRequest::new("needle")).unwrap();
    assert_eq!(plain.total_matches, 1);
    assert_eq!(plain.stats.skipped_special, 2, "the socket and the FIFO");
    let followed = sandbox.grep(&GrepRequest { follow_links: true, ..GrepRequest::new("needle") }).unwrap();
    assert_eq!(followed.total_matches, 1);
    assert_eq!(followed.stats.skipped_outside, 1, "the link to /dev/zero");
    let named =
        sandbox.grep(&GrepRequest { paths: ["server.sock"].into_iter().collect(), ..GrepRequest::new("x") });
    assert_eq!(named.unwrap().stats.skipped_special, 1, "a socket named as the scope");
    let listed = sandbox.glob(&GlobRequest::new("*")).unwrap();
    let names: Vec<_> =
        listed.entries.iter().map(|e| e.relative_path.to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["a.txt"]);
}

#[test]
fn files_that_grow_or_vanish_during_a_search_do_not_break_it() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..300 {
        std::fs::write(dir.path().join(format!("f{i:03}.txt")), "needle\n".repeat(50)).unwrap();
    }
    let sandbox = sandbox(dir.path());
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let growing = dir.path().join("f000.txt");
            let mut round = 0;
            while !stop.load(Ordering::Relaxed) {
                use std::io::Write;
                let mut file = std::fs::OpenOptions::new().append(true).open(&growing).unwrap();
                file.write_all(b"needle grows\n").unwrap();
                let victim = dir.path().join(format!("f{:03}.txt", 1 + round % 299));
                let _ = std::fs::remove_file(&victim);
                let _ = std::fs::write(&victim, "needle\n");
                round += 1;
            }
        });
        for _ in 0..50 {
            let found = sandbox.grep(&GrepRequest { limit: None, ..GrepRequest::new("needle") }).unwrap();
            assert!(found.total_matches > 0);
            assert!(found.files.len() <= 300);
        }
        stop.store(true, Ordering::Relaxed);
    });
}

#[test]
#[cfg(unix)] // A symlink: Windows makes one only with a privilege.
fn a_deep_tree_and_a_symlink_loop_terminate() {
    let dir = tempfile::tempdir().unwrap();
    let mut deep = dir.path().to_path_buf();
    for _ in 0..1000 {
        deep.push("d");
    }
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::write(deep.join("bottom.txt"), "needle\n").unwrap();
    std::os::unix::fs::symlink(".", dir.path().join("loop")).unwrap();
    let sandbox = sandbox(dir.path());
    let found = sandbox.grep(&GrepRequest { follow_links: true, ..GrepRequest::new("needle") }).unwrap();
    assert_eq!(found.total_matches, 1);
    assert!(found.stats.skipped_errors >= 1, "the loop is reported");
    let listed =
        sandbox.glob(&GlobRequest { follow_links: true, ..GlobRequest::new("**/bottom.txt") }).unwrap();
    assert_eq!(listed.total, 1);
}

#[test]
#[cfg(unix)] // Names that are not UTF-8 bytes: Windows names are UTF-16.
fn non_utf8_names_are_found_and_never_rewritten() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"caf\xe9.txt");
    std::fs::write(dir.path().join(name), "needle\n").unwrap();
    let sandbox = sandbox(dir.path());
    let found = sandbox.grep(&GrepRequest::new("needle")).unwrap();
    assert_eq!(found.files[0].relative_path.as_os_str(), name);
    let json = serde_json::to_value(&found).unwrap();
    assert_eq!(json["files"][0]["relative_path"], serde_json::json!({ "bytes": "Y2Fm6S50eHQ=" }));
    let listed = sandbox.glob(&GlobRequest::new("*.txt")).unwrap();
    assert_eq!(listed.entries[0].relative_path.as_os_str(), name);
}

#[test]
fn an_absurd_thread_count_is_capped() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.txt"), "needle\n").unwrap();
    for threads in [1usize << 62, 1_000_000_000] {
        let found =
            sandbox(dir.path()).grep(&GrepRequest { threads: Some(threads), ..GrepRequest::new("needle") });
        assert_eq!(found.unwrap().total_matches, 1);
    }
}
