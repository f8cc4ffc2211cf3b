//! The frecency store (LMDB) under stress and faults: four processes recording at once, a
//! writer killed mid-commit, a store directory that cannot be written or created, and a store
//! from a future version.
//!
//! The children are this test binary run again with `--exact <child test>` and the work in
//! environment variables; each child test returns at once when run without them.

#[cfg(unix)]
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fsnative::{ErrorCode, Frecency, FrecencyProfile};

mod namespace;

const CHILD_DB: &str = "FSNATIVE_STORE_CHILD_DB";
const CHILD_ID: &str = "FSNATIVE_STORE_CHILD_ID";
/// Accesses each of the four recording children makes.
const ACCESSES_PER_PROCESS: usize = 10_000;
/// Of those, one on each of these paths, which every child records (the rest are its own).
const SHARED_PATHS: usize = 1_000;
/// Paths per transaction of the writer that is killed.
const BATCH: usize = 2_000;

fn child(test: &str, db: &Path, id: usize) -> Command {
    let mut command = Command::new(std::env::current_exe().unwrap());
    command
        .args(["--exact", test, "--test-threads=1", "--quiet"])
        .env(CHILD_DB, db)
        .env(CHILD_ID, id.to_string())
        .stdout(Stdio::null());
    command
}

fn child_work() -> Option<(PathBuf, usize)> {
    let db = std::env::var_os(CHILD_DB)?;
    Some((PathBuf::from(db), std::env::var(CHILD_ID).unwrap().parse().unwrap()))
}

fn shared(n: usize) -> PathBuf {
    PathBuf::from(format!("/shared/{n}"))
}

fn own(id: usize, n: usize) -> PathBuf {
    PathBuf::from(format!("/process{id}/{n}"))
}

/// A recording child: 10,000 accesses, one transaction each, the shared paths interleaved.
#[test]
fn child_recorder() {
    let Some((db, id)) = child_work() else { return };
    let frecency = Frecency::open(&db, FrecencyProfile::Normal).unwrap();
    let every = ACCESSES_PER_PROCESS / SHARED_PATHS;
    for n in 0..ACCESSES_PER_PROCESS {
        let path = if n % every == 0 { shared(n / every) } else { own(id, n) };
        frecency.record_access(&path).unwrap();
    }
}

#[test]
fn four_processes_recording_at_once_lose_no_access() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let began = Instant::now();
    let children: Vec<Child> = (0..4).map(|id| child("child_recorder", &db, id).spawn().unwrap()).collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let elapsed = began.elapsed();
    let frecency = Frecency::open(&db, FrecencyProfile::Normal).unwrap();
    // Each shared path: one access from each process, just now (score 4); each own path: 1.
    let shared_paths: Vec<PathBuf> = (0..SHARED_PATHS).map(shared).collect();
    let scores = frecency.scores(shared_paths.iter().map(PathBuf::as_path)).unwrap();
    let wrong: Vec<_> = scores.iter().enumerate().filter(|(_, &s)| (s - 4.0).abs() > 1e-3).collect();
    assert!(wrong.is_empty(), "shared paths without 4 accesses: {:?}", &wrong[..wrong.len().min(5)]);
    let every = ACCESSES_PER_PROCESS / SHARED_PATHS;
    let mut counted = 4 * SHARED_PATHS;
    for id in 0..4 {
        let paths: Vec<PathBuf> =
            (0..ACCESSES_PER_PROCESS).filter(|n| n % every != 0).map(|n| own(id, n)).collect();
        let scores = frecency.scores(paths.iter().map(PathBuf::as_path)).unwrap();
        let missing = scores.iter().filter(|&&score| (score - 1.0).abs() > 1e-3).count();
        assert_eq!(missing, 0, "process {id}: {missing} of its own paths not counted once");
        counted += paths.len();
    }
    assert_eq!(counted, 4 * ACCESSES_PER_PROCESS);
    eprintln!("4 processes x {ACCESSES_PER_PROCESS} accesses, one commit each: {elapsed:.2?}, all {counted} counted");
}

/// A writer that commits batches of 2,000 new paths until it is killed.
#[test]
fn child_batch_writer() {
    let Some((db, round)) = child_work() else { return };
    let frecency = Frecency::open(&db, FrecencyProfile::Normal).unwrap();
    for batch in 0.. {
        let paths: Vec<PathBuf> = (0..BATCH).map(|n| batch_path(round, batch, n)).collect();
        frecency.record_accesses(paths.iter().map(PathBuf::as_path)).unwrap();
    }
}

fn batch_path(round: usize, batch: usize, n: usize) -> PathBuf {
    PathBuf::from(format!("/round{round}/batch{batch}/{n}"))
}

#[test]
fn a_writer_killed_mid_commit_leaves_a_store_that_opens_consistent() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let mut committed_total = 0;
    for round in 0..5 {
        let mut writer = child("child_batch_writer", &db, round).spawn().unwrap();
        // Kill it at a different point of its work each round.
        std::thread::sleep(Duration::from_millis(300 + 170 * round as u64));
        writer.kill().unwrap(); // SIGKILL
        writer.wait().unwrap();
        let frecency = Frecency::open(&db, FrecencyProfile::Normal).unwrap();
        // Every batch is all there or not at all, and the ones there are the first ones.
        let mut complete = 0;
        loop {
            let paths: Vec<PathBuf> = (0..BATCH).map(|n| batch_path(round, complete, n)).collect();
            let scores = frecency.scores(paths.iter().map(PathBuf::as_path)).unwrap();
            let present = scores.iter().filter(|&&score| score > 0.0).count();
            assert!(
                present == 0 || present == BATCH,
                "round {round}, batch {complete}: {present} of {BATCH}"
            );
            if present == 0 {
                break;
            }
            complete += 1;
        }
        let after: Vec<PathBuf> = (0..BATCH).map(|n| batch_path(round, complete + 1, n)).collect();
        assert!(frecency.scores(after.iter().map(PathBuf::as_path)).unwrap().iter().all(|&s| s == 0.0));
        // The store takes writes again after the crash.
        frecency.record_access(Path::new("/after-the-kill")).unwrap();
        drop(frecency);
        committed_total += complete;
    }
    assert!(committed_total > 0, "no batch was committed before any kill");
    eprintln!("5 writers killed with SIGKILL: {committed_total} batches of {BATCH} committed, none torn");
}

/// Opens a store in a directory it may not write: id 0, by its mode (`PERMISSION_DENIED`);
/// id 1, on a read-only mount (`IO`, read-only file system).
#[test]
fn child_read_only_opener() {
    let Some((db, id)) = child_work() else { return };
    let error = Frecency::open(&db, FrecencyProfile::Normal).expect_err("a read-only store opened");
    let expected = if id == 0 { ErrorCode::PermissionDenied } else { ErrorCode::Io };
    assert_eq!(error.code(), expected, "{}", error.message());
    assert!(error.message().contains(&db.display().to_string()), "{}", error.message());
}

#[test]
#[cfg(unix)] // Unix modes, and Linux's mount namespaces as root.
fn a_store_directory_that_cannot_be_written_is_a_clear_error_at_open() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    Frecency::open(&db, FrecencyProfile::Normal).unwrap().record_access(Path::new("/x")).unwrap();
    let root = running_as_root();
    let mut opener = child("child_read_only_opener", &db, usize::from(root));
    let status = if root {
        // Root writes through any mode: make the directory read-only in a mount namespace of
        // the child's own, so the host's mounts are untouched.
        let target = std::ffi::CString::new(db.as_os_str().as_encoded_bytes()).unwrap();
        // SAFETY: between fork and exec the closure makes only system calls (unshare, mount).
        unsafe {
            opener.pre_exec(move || namespace::read_only_bind_mount(&target));
        }
        match opener.status() {
            Ok(status) => status,
            Err(error) if error.raw_os_error() == Some(libc::EPERM) => {
                eprintln!("skipped: no mount namespace here ({error})");
                return;
            }
            Err(error) => panic!("{error}"),
        }
    } else {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o555)).unwrap();
        for file in std::fs::read_dir(&db).unwrap() {
            std::fs::set_permissions(file.unwrap().path(), std::fs::Permissions::from_mode(0o444)).unwrap();
        }
        let status = opener.status().unwrap();
        std::fs::set_permissions(&db, std::fs::Permissions::from_mode(0o755)).unwrap();
        status
    };
    assert!(status.success(), "the read-only open was not the expected error naming the directory");
    // A directory that cannot be created: its parent is a file.
    let file = dir.path().join("file");
    std::fs::write(&file, "").unwrap();
    let error = Frecency::open(file.join("db"), FrecencyProfile::Normal).err().unwrap();
    assert_eq!(error.code(), ErrorCode::NotADirectory, "{}", error.message());
}

#[cfg(unix)]
fn running_as_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

#[test]
fn a_store_from_a_future_version_is_refused_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    Frecency::open(&db, FrecencyProfile::Normal).unwrap().record_access(Path::new("/x")).unwrap();
    // What a later fsnative would write: a higher store format.
    {
        let mut options = heed::EnvOpenOptions::new();
        options.max_dbs(2);
        // SAFETY: nothing else in this process has the environment open (the Frecency above
        // was dropped), and it is closed at the end of this block.
        let env = unsafe { options.open(&db) }.unwrap();
        let mut txn = env.write_txn().unwrap();
        let meta: heed::Database<heed::types::Str, heed::types::Bytes> =
            env.open_database(&txn, Some("meta")).unwrap().unwrap();
        meta.put(&mut txn, "format", &2u64.to_le_bytes()).unwrap();
        txn.commit().unwrap();
    }
    let error = Frecency::open(&db, FrecencyProfile::Normal).expect_err("a future store opened");
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(error.message().contains("store format 2, written by a newer fsnative"), "{}", error.message());
}
