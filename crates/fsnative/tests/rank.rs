//! Frecency and path boost: the formula at a fixed clock, the profiles, purging, persistence,
//! several processes on one database, thesaurus reloads, and the sandbox's wiring (validation,
//! grep and glob in frecency order, recording hits).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

mod platform;

use fsnative::{
    Clock, ErrorCode, Frecency, FrecencyProfile, GlobRequest, GrepRequest, OutputMode, PathBoost, Sandbox,
    SandboxOptions, SortOrder, Thesaurus, ThesaurusSource, MAX_ACCESSES_PER_FILE,
};

const DAY: u64 = 86_400_000;
/// A fixed "now" for the manual clock: 2024-01-01T00:00:00Z.
const NOW: u64 = 1_704_067_200_000;

fn manual(at: u64) -> (Clock, Arc<AtomicU64>) {
    let time = Arc::new(AtomicU64::new(at));
    (Clock::Manual(Arc::clone(&time)), time)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn the_formula_matches_hand_computed_values() {
    let dir = tempfile::tempdir().unwrap();
    let (clock, time) = manual(NOW - 40 * DAY);
    let normal =
        Frecency::open_with_clock(dir.path().join("normal"), FrecencyProfile::Normal, clock).unwrap();
    // Accesses 40, 31, 30, 20, 10 and 0 days before NOW, one file each.
    for (days_ago, name) in [(40, "/a40"), (31, "/a31"), (30, "/a30"), (20, "/a20"), (10, "/a10"), (0, "/a0")]
    {
        time.store(NOW - days_ago * DAY, Ordering::Relaxed);
        normal.record_access(Path::new(name)).unwrap();
    }
    time.store(NOW, Ordering::Relaxed);
    let score = |name: &str| normal.score(Path::new(name)).unwrap();
    // λ = ln 2 / 10 days: 10 days → 1/2, 20 → 1/4, 30 (the window's edge, still kept) → 1/8.
    assert!(close(score("/a0"), 1.0));
    assert!(close(score("/a10"), 0.5));
    assert!(close(score("/a20"), 0.25));
    assert!(close(score("/a30"), 0.125));
    assert_eq!(score("/a31"), 0.0);
    assert_eq!(score("/a40"), 0.0);
    assert_eq!(score("/never"), 0.0);
    // An access after "now" (a clock running ahead) counts as new.
    time.store(NOW + DAY, Ordering::Relaxed);
    normal.record_access(Path::new("/later")).unwrap();
    time.store(NOW, Ordering::Relaxed);
    assert!(close(score("/later"), 1.0));

    let (clock, time) = manual(NOW - 8 * DAY);
    let ai = Frecency::open_with_clock(dir.path().join("ai"), FrecencyProfile::Ai, clock).unwrap();
    for days_ago in [8, 7, 3, 0] {
        time.store(NOW - days_ago * DAY, Ordering::Relaxed);
        ai.record_access(Path::new("/f")).unwrap();
    }
    time.store(NOW, Ordering::Relaxed);
    // λ = ln 2 / 3 days: 1 + 1/2 + 2^(-7/3); the access 8 days old is outside the window.
    let expected = 1.0 + 0.5 + 2f64.powf(-7.0 / 3.0);
    assert!(close(ai.score(Path::new("/f")).unwrap(), expected));
    assert!(close(expected, 1.698_425_131_496_025_5));
}

#[test]
fn profiles_and_diminishing_returns() {
    assert_eq!(FrecencyProfile::Normal.half_life(), Duration::from_secs(10 * 86_400));
    assert_eq!(FrecencyProfile::Normal.window(), Duration::from_secs(30 * 86_400));
    assert_eq!(FrecencyProfile::Ai.half_life(), Duration::from_secs(3 * 86_400));
    assert_eq!(FrecencyProfile::Ai.window(), Duration::from_secs(7 * 86_400));
    assert_eq!(FrecencyProfile::default(), FrecencyProfile::Normal);
    for profile in [FrecencyProfile::Normal, FrecencyProfile::Ai] {
        assert_eq!(FrecencyProfile::from_name(profile.name()), Some(profile));
        // Up to 10 the sum is the score; past it, 10 + sqrt(f - 10).
        assert_eq!(profile.score(&[NOW; 10], NOW), 10.0);
        assert_eq!(profile.score(&[NOW; 11], NOW), 11.0);
        assert_eq!(profile.score(&[NOW; 19], NOW), 13.0);
        assert_eq!(profile.score(&[NOW; 110], NOW), 20.0);
    }

    // A database keeps the newest MAX_ACCESSES_PER_FILE accesses of a file.
    let dir = tempfile::tempdir().unwrap();
    let (clock, time) = manual(NOW);
    let frecency = Frecency::open_with_clock(dir.path(), FrecencyProfile::Normal, clock).unwrap();
    let path = Path::new("/busy");
    for _ in 0..MAX_ACCESSES_PER_FILE + 20 {
        frecency.record_access(path).unwrap();
    }
    let kept = MAX_ACCESSES_PER_FILE as f64;
    assert!(close(frecency.score(path).unwrap(), 10.0 + (kept - 10.0).sqrt()));
    // The oldest are the ones dropped: one access now outweighs one from 10 days ago.
    time.fetch_add(10 * DAY, Ordering::Relaxed);
    frecency.record_access(path).unwrap();
    let expected = 1.0 + (kept - 1.0) * 0.5;
    assert!(close(frecency.score(path).unwrap(), 10.0 + (expected - 10.0).sqrt()));
}

#[test]
fn purging_deletes_what_expired_and_persists_across_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("db");
    let (clock, time) = manual(NOW);
    {
        let frecency = Frecency::open_with_clock(&db, FrecencyProfile::Ai, clock.clone()).unwrap();
        frecency.record_accesses([Path::new("/old"), Path::new("/both")]).unwrap();
        time.store(NOW + 6 * DAY, Ordering::Relaxed);
        frecency.record_accesses([Path::new("/both"), Path::new("/new")]).unwrap();
        time.store(NOW + 8 * DAY, Ordering::Relaxed);
        // /old expired (8 days), /both keeps its newer access, /new is 2 days old.
        assert_eq!(frecency.purge().unwrap(), 1);
        assert_eq!(frecency.purge().unwrap(), 0);
        assert_eq!(frecency.score(Path::new("/old")).unwrap(), 0.0);
    }
    // Everything was dropped: a reopened database reads what was written.
    let reopened = Frecency::open_with_clock(&db, FrecencyProfile::Ai, clock.clone()).unwrap();
    let half = 0.5;
    assert!(close(reopened.score(Path::new("/both")).unwrap(), 2f64.powf(-2.0 / 3.0)));
    assert!(close(reopened.score(Path::new("/new")).unwrap(), 2f64.powf(-2.0 / 3.0)));
    // Opening purges too: past the window of /new and /both, nothing is left.
    drop(reopened);
    time.store(NOW + 20 * DAY, Ordering::Relaxed);
    let reopened = Frecency::open_with_clock(&db, FrecencyProfile::Ai, clock).unwrap();
    assert_eq!(reopened.purge().unwrap(), 0);
    assert_eq!(reopened.score(Path::new("/both")).unwrap(), 0.0);
    assert!(half > 0.0);
}

#[test]
fn one_directory_is_one_database_per_process_with_one_profile() {
    let dir = tempfile::tempdir().unwrap();
    let first = Frecency::open(dir.path(), FrecencyProfile::Normal).unwrap();
    let second = Frecency::open(dir.path().join("."), FrecencyProfile::Normal).unwrap();
    first.record_access(Path::new("/x")).unwrap();
    assert!(second.score(Path::new("/x")).unwrap() > 0.99);
    assert_eq!(first.path(), platform::plain(dir.path().canonicalize().unwrap()));
    let error = Frecency::open(dir.path(), FrecencyProfile::Ai).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
    assert!(error.message().contains("uses the \"normal\" profile, not \"ai\""), "{}", error.message());
    drop((first, second));
    // Closed and opened again, the database still says which profile it has.
    let error = Frecency::open(dir.path(), FrecencyProfile::Ai).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

#[test]
fn batch_scores_see_writes_made_after_they_were_cached() {
    let dir = tempfile::tempdir().unwrap();
    let frecency = Frecency::open(dir.path(), FrecencyProfile::Normal).unwrap();
    let paths: Vec<PathBuf> = (0..500).map(|n| PathBuf::from(format!("/repo/file{n}.rs"))).collect();
    let scores = frecency.scores(paths.iter().map(PathBuf::as_path)).unwrap();
    assert!(scores.iter().all(|&score| score == 0.0));
    frecency.record_accesses([paths[7].as_path(), paths[7].as_path(), paths[300].as_path()]).unwrap();
    let scores = frecency.scores(paths.iter().map(PathBuf::as_path)).unwrap();
    assert!(scores[7] > 1.99 && scores[300] > 0.99 && scores[8] == 0.0, "{:?}", &scores[..10]);
}

/// Writes accesses when run as a child process by `two_processes_write_one_database`.
#[test]
fn child_process_writer() {
    let Some(db) = std::env::var_os("FSNATIVE_RANK_CHILD_DB") else { return };
    let id = std::env::var("FSNATIVE_RANK_CHILD_ID").unwrap();
    let frecency = Frecency::open(PathBuf::from(db), FrecencyProfile::Normal).unwrap();
    for n in 0..40 {
        frecency.record_access(Path::new(&format!("/child{id}/{n}"))).unwrap();
        frecency.record_access(Path::new("/shared")).unwrap();
    }
}

#[test]
fn two_processes_write_one_database() {
    let dir = tempfile::tempdir().unwrap();
    let frecency = Frecency::open(dir.path(), FrecencyProfile::Normal).unwrap();
    // Read (and cache) before the children write.
    assert_eq!(frecency.score(Path::new("/shared")).unwrap(), 0.0);
    let children: Vec<_> = (0..2)
        .map(|id| {
            Command::new(std::env::current_exe().unwrap())
                .args(["--exact", "child_process_writer", "--test-threads=1"])
                .env("FSNATIVE_RANK_CHILD_DB", dir.path())
                .env("FSNATIVE_RANK_CHILD_ID", id.to_string())
                .stdout(Stdio::null())
                .spawn()
                .unwrap()
        })
        .collect();
    for n in 0..40 {
        frecency.record_access(Path::new(&format!("/parent/{n}"))).unwrap();
        frecency.record_access(Path::new("/shared")).unwrap();
    }
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    // No access was lost: 120 recorded just now on /shared, 1 on every other path.
    let shared = frecency.score(Path::new("/shared")).unwrap();
    assert!((shared - (10.0 + 110f64.sqrt())).abs() < 1e-3, "{shared}");
    for owner in ["/child0", "/child1", "/parent"] {
        let paths: Vec<PathBuf> = (0..40).map(|n| PathBuf::from(format!("{owner}/{n}"))).collect();
        let scores = frecency.scores(paths.iter().map(PathBuf::as_path)).unwrap();
        assert!(scores.iter().all(|&score| score > 0.99 && score <= 1.0), "{owner}: {scores:?}");
    }
}

#[test]
fn a_frecency_database_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    std::env::set_var(fsnative::FRECENCY_DB_ENV, dir.path().join("env-db"));
    let frecency = Frecency::from_env(FrecencyProfile::Ai).unwrap();
    std::env::remove_var(fsnative::FRECENCY_DB_ENV);
    assert_eq!(frecency.path(), platform::plain(dir.path().canonicalize().unwrap()).join("env-db"));
    let error = Frecency::from_env(FrecencyProfile::Ai).unwrap_err();
    assert_eq!(error.code(), ErrorCode::InvalidArgument);
}

fn thesaurus(pairs: &[(&str, &str)]) -> Thesaurus {
    Thesaurus::from_pairs(pairs.iter().copied()).unwrap()
}

/// Polls `done` every 10 ms for at most 10 s.
fn eventually(mut done: impl FnMut() -> bool) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if done() {
            return true;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    false
}

#[test]
fn a_thesaurus_file_is_reloaded_once_changes_settle() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kg.json");
    std::fs::write(&file, r#"{"auth": "security"}"#).unwrap();
    let boost = PathBoost::watch(&file).unwrap();
    let path = b"src/auth/db/cache.rs";
    assert_eq!(boost.boost(path), 5);
    // Five writes 50 ms apart, the last with three concepts: one reload, 500 ms after the last.
    for concepts in 1..=5 {
        let body = match concepts {
            5 => r#"{"auth": "security", "db": "storage", "cache": "speed"}"#.to_owned(),
            n => format!(r#"{{"auth": "security", "x{n}": "other"}}"#),
        };
        std::fs::write(&file, body).unwrap();
        std::thread::sleep(Duration::from_millis(50));
    }
    let last_write = Instant::now() - Duration::from_millis(50);
    assert!(eventually(|| boost.status().reloads == 1));
    let waited = last_write.elapsed();
    assert!(waited >= Duration::from_millis(400), "reloaded after {waited:?}");
    assert_eq!(boost.boost(path), 15);
    std::thread::sleep(Duration::from_millis(700));
    assert_eq!(boost.status().reloads, 1);

    // A file replaced by a rename is seen too.
    let staged = dir.path().join("kg.json.tmp");
    std::fs::write(&staged, r#"{"cache": "speed"}"#).unwrap();
    std::fs::rename(&staged, &file).unwrap();
    assert!(eventually(|| boost.status().reloads == 2));
    assert_eq!(boost.boost(path), 5);
    let status = boost.status();
    assert_eq!((status.terms, status.concepts, status.last_error), (1, 1, None));
    assert_eq!(status.path, Some(platform::plain(dir.path().canonicalize().unwrap()).join("kg.json")));
}

#[test]
fn a_bad_thesaurus_file_keeps_the_last_good_one_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kg.json");
    std::fs::write(&file, r#"{"name": "kg", "data": {"auth": {"id": 1, "nterm": "auth"}}}"#).unwrap();
    let boost = PathBoost::watch(&file).unwrap().with_weights(7, 30);
    assert_eq!(boost.boost(b"auth.rs"), 7);
    std::fs::write(&file, "{not json").unwrap();
    assert!(eventually(|| boost.status().last_error.is_some()));
    let status = boost.status();
    assert!(status.last_error.as_deref().unwrap().contains("is not JSON"), "{status:?}");
    assert_eq!((status.reloads, boost.boost(b"auth.rs")), (0, 7));
    std::fs::remove_file(&file).unwrap();
    // The OS's own words for a missing file (error 2 is ENOENT on Unix, ERROR_FILE_NOT_FOUND
    // on Windows), without the " (os error 2)" that follows them.
    let words = std::io::Error::from_raw_os_error(2).to_string();
    let words = words.split(" (os error").next().unwrap().to_owned();
    let missing = |e: &str| e.contains(&words);
    assert!(eventually(|| boost.status().last_error.as_deref().is_some_and(missing)));
    assert_eq!(boost.boost(b"auth.rs"), 7);
    std::fs::write(&file, r#"{"login": "auth"}"#).unwrap();
    assert!(eventually(|| boost.status().reloads == 1));
    assert_eq!(boost.status().last_error, None);
    assert_eq!((boost.boost(b"auth.rs"), boost.boost(b"login.rs")), (0, 7));
    // A file that cannot be loaded at the start is an error at once.
    std::fs::write(&file, "[]").unwrap();
    assert_eq!(PathBoost::watch(&file).unwrap_err().code(), ErrorCode::InvalidArgument);
    let missing = PathBoost::watch(dir.path().join("missing.json")).unwrap_err();
    assert_eq!(missing.code(), ErrorCode::NotFound);
}

#[test]
fn the_thesaurus_swaps_atomically_under_concurrent_reads() {
    let small = thesaurus(&[("auth", "security")]);
    let large = thesaurus(&[("auth", "security"), ("db", "storage"), ("cache", "speed")]);
    let boost = Arc::new(PathBoost::new(small.clone()));
    let stop = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..3)
        .map(|_| {
            let (boost, stop) = (Arc::clone(&boost), Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut seen = [0u64; 2];
                while !stop.load(Ordering::Relaxed) {
                    // One snapshot scores both paths: they agree on which thesaurus it was.
                    let snapshot = boost.thesaurus();
                    let (one, other) = (
                        boost.boost_with(&snapshot, b"auth/db/cache.rs"),
                        boost.boost_with(&snapshot, b"db.rs"),
                    );
                    match (snapshot.concepts(), one, other) {
                        (1, 5, 0) => seen[0] += 1,
                        (3, 15, 5) => seen[1] += 1,
                        unexpected => panic!("a half-swapped thesaurus: {unexpected:?}"),
                    }
                    assert!(matches!(boost.boost(b"auth/db/cache.rs"), 5 | 15));
                }
                seen
            })
        })
        .collect();
    let started = Instant::now();
    let mut round = 0;
    while started.elapsed() < Duration::from_millis(300) {
        boost.set_thesaurus(if round % 2 == 0 { large.clone() } else { small.clone() });
        round += 1;
    }
    stop.store(true, Ordering::Relaxed);
    for reader in readers {
        let seen = reader.join().unwrap();
        assert!(seen.iter().sum::<u64>() > 0);
    }
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "counts the process's threads in /proc/self/task, which only Linux has"
)]
fn a_watching_boost_stops_its_thread_when_dropped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kg.json");
    std::fs::write(&file, "{}").unwrap();
    let threads = || std::fs::read_dir("/proc/self/task").unwrap().count();
    let before = threads();
    let boosts: Vec<PathBoost> = (0..4).map(|_| PathBoost::watch(&file).unwrap()).collect();
    assert!(threads() >= before + 4);
    drop(boosts);
    assert!(eventually(|| threads() <= before), "{} threads, {before} before", threads());
}

/// A tree of four files containing `needle`, and one without.
fn tree() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = platform::plain(dir.path().canonicalize().unwrap()).join("root");
    for name in ["a.txt", "b.txt", "c.txt", "d.txt"] {
        std::fs::create_dir_all(&root).unwrap();
        std::fs::write(root.join(name), "needle\nneedle\n").unwrap();
    }
    std::fs::write(root.join("e.txt"), "hay\n").unwrap();
    std::fs::write(dir.path().join("outside.txt"), "needle\n").unwrap();
    // Unix only: Windows makes a symlink only with a privilege.
    #[cfg(unix)]
    std::os::unix::fs::symlink("c.txt", root.join("link.txt")).unwrap();
    (dir, root)
}

fn names(files: impl IntoIterator<Item = PathBuf>) -> Vec<String> {
    files.into_iter().map(|path| path.file_name().unwrap().to_string_lossy().into_owned()).collect()
}

#[test]
fn the_sandbox_records_and_scores_only_what_lies_inside() {
    let (dir, root) = tree();
    let frecency = Frecency::open(dir.path().join("db"), FrecencyProfile::Normal).unwrap();
    let sandbox = Sandbox::new([&root]).unwrap().with_frecency(frecency.clone());
    let outside = platform::plain(dir.path().canonicalize().unwrap()).join("outside.txt");
    for path in [outside.as_path(), Path::new("../outside.txt")] {
        let error = sandbox.record_access(path).unwrap_err();
        assert_eq!(error.code(), ErrorCode::OutsideSandbox);
        assert_eq!(sandbox.frecency_score(path).unwrap_err().code(), ErrorCode::OutsideSandbox);
    }
    assert_eq!(frecency.score(&outside).unwrap(), 0.0);
    // A link is recorded as the file it leads to (the tree has one on Unix only).
    #[cfg(unix)]
    {
        sandbox.record_access("link.txt").unwrap();
        assert!(sandbox.frecency_score("c.txt").unwrap() > 0.99);
        assert!(frecency.score(&root.join("c.txt")).unwrap() > 0.99);
    }
    assert_eq!(sandbox.frecency_score("a.txt").unwrap(), 0.0);
    assert_eq!(sandbox.record_access("missing.txt").unwrap_err().code(), ErrorCode::NotFound);

    let plain = Sandbox::new([&root]).unwrap();
    assert_eq!(plain.record_access("a.txt").unwrap_err().code(), ErrorCode::InvalidArgument);
    assert_eq!(plain.frecency_score("a.txt").unwrap_err().code(), ErrorCode::InvalidArgument);
    assert_eq!(plain.path_boost("a.txt").unwrap_err().code(), ErrorCode::InvalidArgument);
    let request = GrepRequest { sort: SortOrder::Frecency, ..GrepRequest::new("needle") };
    let error = plain.grep(&request).unwrap_err();
    assert_eq!((error.code(), error.option()), (ErrorCode::InvalidOption, Some("sort")));
    let glob = GlobRequest { sort: SortOrder::Frecency, ..GlobRequest::new("*") };
    assert_eq!(plain.glob(&glob).unwrap_err().code(), ErrorCode::InvalidOption);
}

#[test]
fn path_boost_reads_the_path_below_its_root() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("auth");
    std::fs::create_dir_all(root.join("db")).unwrap();
    std::fs::write(root.join("db/Cache.rs"), "").unwrap();
    std::fs::write(dir.path().join("db.rs"), "").unwrap();
    let options = SandboxOptions {
        thesaurus: Some(ThesaurusSource::Mapping(thesaurus(&[("auth", "s"), ("db", "d"), ("cache", "c")]))),
        boost_weight: 4,
        max_boost: 6,
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::with_options([&root], &options).unwrap();
    // "auth" is the root's own name, not part of the path below it: db and cache, 2 × 4, capped.
    assert_eq!(sandbox.path_boost("db/Cache.rs").unwrap(), 6);
    assert_eq!(sandbox.path_boost("db").unwrap(), 4);
    assert_eq!(sandbox.path_boost("../db.rs").unwrap_err().code(), ErrorCode::OutsideSandbox);
    let status = sandbox.thesaurus_status().unwrap();
    assert_eq!((status.terms, status.weight_per_term, status.max_boost, status.path), (3, 4, 6, None));
}

#[test]
fn grep_and_glob_in_frecency_order() {
    let (dir, root) = tree();
    let (clock, _) = manual(NOW);
    let frecency = Frecency::open_with_clock(dir.path().join("db"), FrecencyProfile::Normal, clock).unwrap();
    let sandbox = Sandbox::new([&root]).unwrap().with_frecency(frecency);
    for path in ["c.txt", "c.txt", "c.txt", "b.txt", "e.txt", "e.txt", "e.txt", "e.txt"] {
        sandbox.record_access(path).unwrap();
    }
    let request =
        GrepRequest { sort: SortOrder::Frecency, mode: OutputMode::Files, ..GrepRequest::new("needle") };
    let found = sandbox.grep(&request).unwrap();
    // c (3), b (1), then a and d (0) in path order; e does not match.
    assert_eq!(names(found.files.into_iter().map(|f| f.path)), ["c.txt", "b.txt", "a.txt", "d.txt"]);
    let listed =
        sandbox.glob(&GlobRequest { sort: SortOrder::Frecency, ..GlobRequest::new("*.txt") }).unwrap();
    let listed = names(listed.entries.into_iter().map(|e| e.path));
    let mut expected = vec!["e.txt", "c.txt", "b.txt", "a.txt", "d.txt"];
    if cfg!(unix) {
        expected.push("link.txt");
    }
    assert_eq!(listed, expected);
}

#[test]
fn recorded_hits_and_pages_in_frecency_order() {
    let (dir, root) = tree();
    let (clock, time) = manual(NOW);
    let frecency = Frecency::open_with_clock(dir.path().join("db"), FrecencyProfile::Normal, clock).unwrap();
    let sandbox = Sandbox::new([&root]).unwrap().with_frecency(frecency).recording_hits(true);
    sandbox.record_access("d.txt").unwrap();
    // A page of one file at a time, the clock moving a day between pages: each page's hits are
    // recorded, and the scores decay, but the pages keep the first page's order.
    let mut request = GrepRequest {
        sort: SortOrder::Frecency,
        mode: OutputMode::Files,
        limit: Some(1),
        ..GrepRequest::new("needle")
    };
    let mut pages = Vec::new();
    loop {
        time.fetch_add(DAY, Ordering::Relaxed);
        let page = sandbox.grep(&request).unwrap();
        pages.extend(page.files.iter().map(|f| f.path.clone()));
        match page.next_cursor {
            Some(cursor) => request.cursor = Some(cursor),
            None => break,
        }
    }
    assert_eq!(names(pages), ["d.txt", "a.txt", "b.txt", "c.txt"]);
    // Every hit was recorded once; the file without a match was not.
    let score = |path: &str| sandbox.frecency_score(path).unwrap();
    assert!(
        score("d.txt") > score("a.txt") && score("a.txt") < score("b.txt") && score("b.txt") < score("c.txt")
    );
    assert_eq!(score("e.txt"), 0.0);
    // Content mode records each file once, whatever its number of matches; a hit recorded
    // just after the instant its page was scored at counts at once (the clock stands still).
    for sort in [SortOrder::Path, SortOrder::Frecency] {
        let before = score("a.txt");
        sandbox.grep(&GrepRequest { sort, ..GrepRequest::new("needle") }).unwrap();
        assert!(score("a.txt") > before + 0.99 && score("a.txt") < before + 1.01, "{sort:?}");
    }
}

#[test]
fn sandbox_options_open_the_database_and_watch_the_thesaurus() {
    let (dir, root) = tree();
    let file = dir.path().join("kg.json");
    std::fs::write(&file, r#"{"a.txt": "first"}"#).unwrap();
    let options = SandboxOptions {
        frecency: Some(fsnative::FrecencyOptions {
            path: Some(dir.path().join("db")),
            profile: FrecencyProfile::Ai,
        }),
        record_hits: true,
        thesaurus: Some(ThesaurusSource::File(file.clone())),
        ..SandboxOptions::default()
    };
    let sandbox = Sandbox::with_options([&root], &options).unwrap();
    assert_eq!(sandbox.frecency().unwrap().profile(), FrecencyProfile::Ai);
    assert_eq!(sandbox.path_boost("a.txt").unwrap(), 5);
    sandbox.grep(&GrepRequest::new("needle")).unwrap();
    assert!(sandbox.frecency_score("a.txt").unwrap() > 0.99);
    // Clones share the boost: a reload is seen by every one.
    let clone = sandbox.clone();
    std::fs::write(&file, r#"{"b.txt": "second"}"#).unwrap();
    assert!(eventually(|| clone.thesaurus_status().unwrap().reloads == 1));
    assert_eq!((sandbox.path_boost("a.txt").unwrap(), sandbox.path_boost("b.txt").unwrap()), (0, 5));
    let bad =
        SandboxOptions { thesaurus: Some(ThesaurusSource::File(dir.path().join("nope.json"))), ..options };
    assert_eq!(Sandbox::with_options([&root], &bad).unwrap_err().code(), ErrorCode::NotFound);
}
