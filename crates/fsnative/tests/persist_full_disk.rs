//! A full file system while the persisted index is written (#26 item 2): the store's directory
//! is a small tmpfs, mounted in a child's own mount namespace (so the host's mounts are
//! untouched; it needs root, and the test says it skipped otherwise). A write that runs out of
//! space leaves the store before it and a status that says why, the index answers as a walk
//! does meanwhile, and a store cut short by a full disk is rebuilt at the next start, never
//! trusted.
//!
//! The child is this test binary run again with `--exact` and the fixture's directory in an
//! environment variable; the child test returns at once when run without it. Linux only: the
//! mount namespace and the tmpfs are Linux's.

#![cfg(target_os = "linux")]

use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fsnative::{IndexOptions, IndexState, IndexStatus, Sandbox, StoreStart};

mod namespace;
mod support;
use support::{assert_same, seed};

const CHILD_DIR: &str = "FSNATIVE_FULL_DISK_DIR";
const CHILD_TMPFS_BYTES: &str = "FSNATIVE_FULL_DISK_BYTES";
/// The store's file in its directory.
const STORE: &str = "fsnative-index";
/// Files added to make the store outgrow the tmpfs.
const GROWN_FILES: usize = 3000;
const PAGE: u64 = 4096;

fn options(store: &Path) -> IndexOptions {
    IndexOptions { persist: Some(store.to_path_buf()), ..IndexOptions::default() }
}

fn started(root: &Path, store: &Path) -> (Sandbox, IndexStatus) {
    let sandbox = Sandbox::new([root]).unwrap().with_index(options(store)).unwrap();
    assert!(sandbox.wait_for_index(Some(Duration::from_secs(120))), "{:?}", sandbox.index_status());
    let status = sandbox.index_status().unwrap();
    (sandbox, status)
}

/// Adds [`GROWN_FILES`] files of distinct text under `root/grown`.
fn grow(root: &Path) {
    let grown = root.join("grown");
    for n in 0..GROWN_FILES {
        let dir = grown.join(format!("g{:02}", n % 50));
        std::fs::create_dir_all(&dir).unwrap();
        let text: String =
            (0..12).map(|k| format!("word{}x{} ", n * 31 + k, (n * 7919 + k) % 10007)).collect();
        std::fs::write(dir.join(format!("f{n:05}.txt")), format!("{text}\ncommon\n")).unwrap();
    }
}

/// Waits until the index's status shows a store error (a write was tried and failed).
fn store_error(sandbox: &Sandbox) -> String {
    let began = Instant::now();
    loop {
        let status = sandbox.index_status().unwrap();
        if let Some(error) = status.store_error {
            return error;
        }
        assert!(began.elapsed() < Duration::from_secs(60), "no write of the store was tried: {status:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn leftovers(store: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(store)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The work, in the child, with `dir/store` a tmpfs of `bytes`: the tree at `dir/root` is the
/// seeded one, and `dir/big` holds the store of the tree grown by [`grow`], larger than it.
#[test]
fn child_on_a_full_file_system() {
    let Some(dir) = std::env::var_os(CHILD_DIR).map(PathBuf::from) else { return };
    let bytes: u64 = std::env::var(CHILD_TMPFS_BYTES).unwrap().parse().unwrap();
    let (root, store) = (dir.join("root"), dir.join("store"));
    let on_tmpfs = rustix::fs::statfs(&store).unwrap();
    assert_eq!(on_tmpfs.f_type, libc::TMPFS_MAGIC, "the store's directory is not the child's tmpfs");
    assert_eq!(on_tmpfs.f_blocks as u64 * on_tmpfs.f_bsize as u64, bytes);
    let plain = Sandbox::new([&root]).unwrap();

    // A store that fits is written.
    let (sandbox, status) = started(&root, &store);
    assert_eq!(status.store, Some(StoreStart::Rebuilt { reason: "no store yet".to_owned() }));
    sandbox.close();
    let status = sandbox.index_status().unwrap();
    assert_eq!(status.store_error, None);
    let small = std::fs::read(store.join(STORE)).unwrap();

    // The tree grows past what the file system holds: the store loads, the write after the
    // check fails for want of space, the old store stays whole and the index answers right.
    grow(&root);
    let (sandbox, status) = started(&root, &store);
    assert_eq!(status.store, Some(StoreStart::Loaded));
    assert!(status.store_changes > 0);
    let error = store_error(&sandbox);
    assert!(
        error.starts_with("cannot write the index's store") && error.contains("No space left"),
        "{error}"
    );
    assert_eq!(sandbox.index_status().unwrap().state, IndexState::Ready);
    assert_same(&sandbox, &plain, "word31x", "after the failed write");
    std::fs::write(root.join("d1/after.txt"), "full_disk_token\n").unwrap();
    assert_same(&sandbox, &plain, "full_disk_token", "a change after the failed write");
    sandbox.close();
    assert!(sandbox.index_status().unwrap().store_error.is_some_and(|e| e.contains("No space left")));
    assert_eq!(std::fs::read(store.join(STORE)).unwrap(), small, "the old store stays");
    assert_eq!(leftovers(&store), ["fsnative-index", "fsnative-index.lock"], "no temporary file");

    // The old store, loaded again, is checked against the tree: nothing stale.
    let (sandbox, status) = started(&root, &store);
    assert_eq!(status.store, Some(StoreStart::Loaded));
    assert_same(&sandbox, &plain, "full_disk_token", "the old store, loaded again");
    sandbox.close();

    // A store cut short where the disk filled (as a copy or a writer without a rename leaves
    // it): the next start rebuilds, says why, and answers as a walk.
    std::fs::remove_file(store.join(STORE)).unwrap();
    let big = std::fs::read(dir.join("big").join(STORE)).unwrap();
    let full = std::fs::write(store.join(STORE), &big).expect_err("the big store fitted");
    assert_eq!(full.raw_os_error(), Some(libc::ENOSPC), "{full}");
    let torn = std::fs::metadata(store.join(STORE)).unwrap().len();
    assert!(torn > 0 && torn < big.len() as u64, "{torn} of {} bytes", big.len());
    let (sandbox, status) = started(&root, &store);
    let said = status.store;
    assert!(
        matches!(&said, Some(StoreStart::Rebuilt { reason }) if reason.starts_with("truncated")),
        "{said:?}"
    );
    assert_same(&sandbox, &plain, "full_disk_token", "rebuilt from a torn store");
    assert!(store_error(&sandbox).contains("No space left"));
    sandbox.close();

    // Room again (the torn store removed, the tree back to its size): written and loaded.
    std::fs::remove_file(store.join(STORE)).unwrap();
    std::fs::remove_dir_all(root.join("grown")).unwrap();
    let (sandbox, _) = started(&root, &store);
    sandbox.close();
    assert_eq!(sandbox.index_status().unwrap().store_error, None);
    let (sandbox, status) = started(&root, &store);
    assert_eq!(status.store, Some(StoreStart::Loaded));
    assert_same(&sandbox, &plain, "full_disk_token", "after room was made");
    eprintln!(
        "tmpfs of {bytes} bytes: a {}-byte store kept, a {}-byte store torn at {torn} bytes and rebuilt",
        small.len(),
        big.len()
    );
}

#[test]
fn a_full_file_system_while_the_store_is_written() {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } != 0 {
        eprintln!("skipped: mounting a tmpfs (in a mount namespace of the test's own) needs root");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let (root, store, big) = (dir.path().join("root"), dir.path().join("store"), dir.path().join("big"));
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&store).unwrap();
    seed(&root);
    // The sizes of the two stores, written here on an ordinary file system: the tmpfs holds
    // the small one twice (a store and the temporary file that replaces it), not the big one.
    let size_of = |store: &Path| {
        let (sandbox, _) = started(&root, store);
        sandbox.close();
        assert_eq!(sandbox.index_status().unwrap().store_error, None);
        std::fs::metadata(store.join(STORE)).unwrap().len()
    };
    let small = size_of(&dir.path().join("measure"));
    grow(&root);
    let large = size_of(&big);
    std::fs::remove_dir_all(root.join("grown")).unwrap();
    let bytes = (2 * small + 4 * PAGE).div_ceil(PAGE) * PAGE;
    assert!(large > bytes, "grow more files: the store of the grown tree ({large} bytes) fits in {bytes}");

    let mut child = Command::new(std::env::current_exe().unwrap());
    child
        .args(["--exact", "child_on_a_full_file_system", "--test-threads=1", "--nocapture"])
        .env(CHILD_DIR, dir.path())
        .env(CHILD_TMPFS_BYTES, bytes.to_string())
        .stdout(Stdio::null());
    let target = std::ffi::CString::new(store.as_os_str().as_encoded_bytes()).unwrap();
    let data = std::ffi::CString::new(format!("size={bytes},mode=0755")).unwrap();
    // SAFETY: between fork and exec the closure makes only system calls (unshare, mount).
    unsafe {
        child.pre_exec(move || namespace::tmpfs_in_own_namespace(&target, &data));
    }
    let status = match child.status() {
        Ok(status) => status,
        Err(error) if error.raw_os_error() == Some(libc::EPERM) => {
            eprintln!("skipped: no mount namespace or tmpfs mount here ({error})");
            return;
        }
        Err(error) => panic!("{error}"),
    };
    assert!(status.success(), "the child on a full file system failed (its output is above)");
}
