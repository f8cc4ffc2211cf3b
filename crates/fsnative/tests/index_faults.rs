//! The warm index when the tree misbehaves under it (issue #26, item 2): a root deleted,
//! renamed or replaced by a link to elsewhere; a directory made unreadable; a FIFO, a socket
//! and a device link appearing in the tree; a file that grows while it is read. Answers are
//! a walk's answers or clear errors, never a hang, a panic or a path from outside.
//! (Event-queue overflow and the watch limit: the index's own tests, `index::tests`.)

use std::io::Write;
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
#[cfg(unix)]
use std::process::Command;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

mod platform;
mod support;

use fsnative::{ErrorCode, GlobRequest, GrepRequest, GrepResult, Sandbox};
use support::indexed;

/// Each file's path and its matching lines, from a grep that may have failed.
fn answer(result: fsnative::Result<GrepResult>) -> Result<Vec<(PathBuf, Vec<u64>)>, ErrorCode> {
    result
        .map(|found| {
            let lines = |file: &fsnative::FileMatches| file.matches.iter().map(|m| m.line_number).collect();
            found.files.iter().map(|file| (file.path.clone(), lines(file))).collect()
        })
        .map_err(|error| error.code())
}

fn all(pattern: &str) -> GrepRequest {
    GrepRequest { limit: None, ..GrepRequest::new(pattern) }
}

/// A root with a few files, and beside it an outside directory holding a secret.
fn tree() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let base = platform::plain(dir.path().canonicalize().unwrap());
    let root = base.join("root");
    let outside = base.join("outside");
    for sub in ["a", "b/c"] {
        std::fs::create_dir_all(root.join(sub)).unwrap();
        std::fs::write(root.join(sub).join("f.txt"), "needle here\n").unwrap();
    }
    // Outside: a secret, and a file by the name of one inside.
    std::fs::create_dir_all(outside.join("a")).unwrap();
    std::fs::write(outside.join("secret.txt"), "needle SECRET\n").unwrap();
    std::fs::write(outside.join("a/f.txt"), "needle SECRET twin\n").unwrap();
    (dir, root, outside)
}

/// No answer names anything but a path inside `root` that exists now.
fn assert_inside(result: &Result<Vec<(PathBuf, Vec<u64>)>, ErrorCode>, root: &Path, what: &str) {
    if let Ok(files) = result {
        for (path, _) in files {
            assert!(path.starts_with(root) && path.exists(), "{what}: answered {path:?}");
        }
    }
}

#[test]
fn a_deleted_root_gives_an_error_or_nothing_never_a_stale_answer() {
    let (_dir, root, _) = tree();
    let sandbox = indexed(&root);
    assert_eq!(answer(sandbox.grep(&all("needle"))).unwrap().len(), 2);
    std::fs::remove_dir_all(&root).unwrap();
    for _ in 0..3 {
        let result = answer(sandbox.grep(&all("needle")));
        assert!(matches!(&result, Err(ErrorCode::NotFound) | Ok(_)), "{result:?}");
        assert_inside(&result, &root, "deleted root");
        assert!(sandbox.glob(&GlobRequest::new("**")).map_or(true, |listed| listed.entries.is_empty()));
    }
    // The same path made again: the sandbox answers about what is there now, or refuses.
    std::fs::create_dir_all(root.join("again")).unwrap();
    std::fs::write(root.join("again/new.txt"), "needle again\n").unwrap();
    let result = answer(sandbox.grep(&all("needle")));
    assert_inside(&result, &root, "root made again");
    let _ = sandbox.index_status();
}

#[test]
fn a_renamed_root_is_not_answered_from_its_new_place() {
    let (_dir, root, _) = tree();
    let sandbox = indexed(&root);
    let moved = root.with_file_name("moved");
    std::fs::rename(&root, &moved).unwrap();
    let result = answer(sandbox.grep(&all("needle")));
    assert_inside(&result, &root, "renamed root");
    // A file written at the new place is not reported under the old name.
    std::fs::write(moved.join("a/late.txt"), "needle late\n").unwrap();
    let result = answer(sandbox.grep(&all("needle")));
    assert_inside(&result, &root, "renamed root, written to");
}

#[test]
#[cfg(unix)] // A symlink: Windows makes one only with a privilege.
fn a_root_replaced_by_a_link_to_elsewhere_never_answers_from_outside() {
    let (_dir, root, outside) = tree();
    let sandbox = indexed(&root);
    let plain = Sandbox::new([&root]).unwrap();
    std::fs::rename(&root, root.with_file_name("away")).unwrap();
    std::os::unix::fs::symlink(&outside, &root).unwrap();
    for (name, sandbox) in [("indexed", &sandbox), ("plain", &plain)] {
        let result = answer(sandbox.grep(&all("SECRET")));
        assert!(result.as_ref().map_or(true, Vec::is_empty), "{name}: the secret was answered: {result:?}");
        let listed = sandbox.glob(&GlobRequest::new("**"));
        let names: Vec<_> = listed.iter().flat_map(|l| &l.entries).map(|e| e.path.clone()).collect();
        assert!(names.iter().all(|path| !path.ends_with("secret.txt")), "{names:?}");
    }
}

#[test]
#[cfg(unix)] // Unix sockets, FIFOs and links to devices are Unix's.
fn fifos_sockets_and_device_links_appearing_in_an_indexed_tree_do_not_hang_it() {
    let (_dir, root, _) = tree();
    let sandbox = indexed(&root);
    let plain = Sandbox::new([&root]).unwrap();
    let fifo = std::ffi::CString::new(root.join("a/pipe").as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a NUL-terminated path that outlives the call.
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o644) }, 0);
    let _listener = std::os::unix::net::UnixListener::bind(root.join("b/server.sock")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", root.join("zeros")).unwrap();
    std::fs::write(root.join("b/after.txt"), "needle after\n").unwrap();
    // The index reads new files in the background: give it the time to meet the FIFO.
    assert!(sandbox.wait_for_index(Some(Duration::from_secs(30))));
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(answer(sandbox.grep(&all("needle"))), answer(plain.grep(&all("needle"))));
    assert_eq!(answer(sandbox.grep(&all("needle"))).unwrap().len(), 3);
    let status = sandbox.index_status().unwrap();
    assert_eq!(status.content_pending, 0, "{status:?}");
}

#[test]
fn a_file_growing_while_the_index_reads_it_does_not_stall_the_index() {
    let (_dir, root, _) = tree();
    let growing = root.join("a/growing.log");
    std::fs::write(&growing, "needle start\n").unwrap();
    let sandbox = indexed(&root);
    let plain = Sandbox::new([&root]).unwrap();
    let stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut file = std::fs::OpenOptions::new().append(true).open(&growing).unwrap();
            let mut written = 0;
            while !stop.load(Ordering::Relaxed) && written < 32 << 20 {
                let block = b"needle grows, and more text around it\n".repeat(64);
                file.write_all(&block).unwrap();
                written += block.len();
                std::thread::sleep(Duration::from_micros(100));
            }
        });
        for _ in 0..40 {
            let found = sandbox.grep(&GrepRequest { limit: Some(5), ..all("needle") }).unwrap();
            assert!(found.total_matches > 0);
        }
        stop.store(true, Ordering::Relaxed);
    });
    // Once it stops growing, the index answers as a walk does.
    assert!(sandbox.wait_for_index(Some(Duration::from_secs(30))));
    let counts = |sandbox: &Sandbox| {
        let found =
            sandbox.grep(&GrepRequest { mode: fsnative::OutputMode::Count, ..all("needle") }).unwrap();
        found.files.iter().map(|file| (file.path.clone(), file.count)).collect::<Vec<_>>()
    };
    assert_eq!(counts(&sandbox), counts(&plain));
}

#[cfg(unix)]
const CHILD_ROOT: &str = "FSNATIVE_FAULTS_CHILD_ROOT";

/// Run as an unprivileged child by the test below when the tests run as root (root reads any
/// directory whatever its mode); runs the check itself otherwise.
#[test]
#[cfg(unix)] // Unix users and modes.
fn child_unreadable_directory() {
    let Some(root) = std::env::var_os(CHILD_ROOT) else { return };
    // SAFETY: plain system calls; this child process runs only this test.
    unsafe {
        assert_eq!(libc::setgid(65534), 0);
        assert_eq!(libc::setuid(65534), 0);
    }
    unreadable_directory_check(Path::new(&root));
}

#[cfg(unix)] // Unix modes.
fn unreadable_directory_check(root: &Path) {
    let sandbox = indexed(root);
    let plain = Sandbox::new([root]).unwrap();
    assert_eq!(answer(sandbox.grep(&all("needle"))).unwrap().len(), 2);
    let locked = root.join("b");
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let from_index = answer(sandbox.grep(&all("needle")));
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    let walked = answer(plain.grep(&all("needle")));
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let walked_locked = answer(plain.grep(&all("needle")));
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(from_index, walked_locked, "indexed vs walked with b/ unreadable");
    assert_eq!(from_index.unwrap().len(), 1, "only a/f.txt is readable");
    assert_eq!(walked.unwrap().len(), 2);
    assert_eq!(answer(sandbox.grep(&all("needle"))).unwrap().len(), 2, "b/ readable again");
}

#[test]
#[cfg(unix)] // Unix users and modes.
fn a_directory_made_unreadable_is_left_out_as_a_walk_leaves_it_out() {
    let (dir, root, _) = tree();
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        unreadable_directory_check(&root);
        return;
    }
    // As root: the same check in a child that gives up root, on a tree it owns. (The child
    // starts as root, so a private checkout's test binary is reachable.)
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    for sub in ["", "a", "a/f.txt", "b", "b/c", "b/c/f.txt"] {
        std::os::unix::fs::chown(root.join(sub), Some(65534), Some(65534)).unwrap();
    }
    let status = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "child_unreadable_directory", "--test-threads=1", "--quiet"])
        .env(CHILD_ROOT, &root)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "the unprivileged child failed");
}
