//! The warm index: the same answers as a walk, never stale, and bounded.
//!
//! Every round changes the tree (create, modify, delete, rename, chmod, symlink swap,
//! directory moved in or out, ignore file edited) and at once asks the indexed sandbox and a
//! plain one the same questions: the answers must be equal (timings aside), every round.
//! `FSNATIVE_INDEX_ROUNDS` sets the number of rounds (ten kinds of change in turn); `make
//! test` runs 10,000 of them in an optimised build.

#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::time::Duration;

use fsnative::{GrepRequest, IndexOptions, IndexState, Sandbox};

mod support;
#[cfg(unix)]
use support::{assert_same, move_in, move_out, questions};
use support::{grep, indexed, seed};

#[test]
#[cfg(unix)] // Its changes include modes and symlinks, Unix's.
fn every_kind_of_change_is_seen_by_the_very_next_search() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    seed(&root);
    // Past a tick of the file system's clock, so the index vouches for the seeded files and
    // its content cache keeps them: each change below must also be taken out of the cache.
    std::thread::sleep(Duration::from_millis(250));
    let indexed = indexed(&root);
    let plain = Sandbox::new([&root]).unwrap();
    assert_same(&indexed, &plain, "file", "start");
    assert_same(&indexed, &plain, "file", "start, again");
    assert!(indexed.index_status().unwrap().cache_files > 0, "{:?}", indexed.index_status());

    let rounds: u64 = std::env::var("FSNATIVE_INDEX_ROUNDS").ok().and_then(|n| n.parse().ok()).unwrap_or(150);
    for round in 0..rounds {
        let token = format!("tok{round}x");
        let dir_of = |round: u64| root.join(format!("d{}", round % 4));
        let d = dir_of(round);
        let earlier = round.saturating_sub(10);
        let kind = round % 10;
        match kind {
            // A new file (and the one made ten rounds ago goes, so the tree stays small).
            0 => {
                std::fs::write(d.join(format!("new{round}.txt")), format!("{token}\n")).unwrap();
                let _ = std::fs::remove_file(dir_of(earlier).join(format!("new{earlier}.txt")));
            }
            // New content in a known file, same size as before (the clock may not tick).
            1 => std::fs::write(d.join("f0.txt"), format!("common line\nfile {token}\n")).unwrap(),
            // A deleted file.
            2 => {
                let _ = std::fs::remove_file(d.join("f1.txt"));
                std::fs::write(d.join("f1.txt"), format!("{token}\n")).unwrap();
                std::fs::remove_file(d.join("f1.txt")).unwrap();
            }
            // A file renamed over another (an editor's atomic save).
            3 => {
                std::fs::write(d.join("tmp.swp"), format!("common {token}\n")).unwrap();
                std::fs::rename(d.join("tmp.swp"), d.join("f2.txt")).unwrap();
            }
            // Unreadable, then readable again next time.
            4 => {
                let file = d.join("f3.txt");
                std::fs::write(&file, format!("{token}\n")).unwrap();
                let mode = if round % 20 == 4 { 0o000 } else { 0o644 };
                std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
            }
            // A symlink swapped to point elsewhere (links are not followed: listed, not searched).
            5 => {
                let link = d.join("link");
                let _ = std::fs::remove_file(&link);
                std::os::unix::fs::symlink(if round % 20 == 5 { "f4.txt" } else { "deep" }, &link).unwrap();
            }
            // A directory moved in from outside, with contents.
            6 => move_in(&outside, &d, round, &token),
            // A directory moved out.
            7 => {
                move_out(&root, &outside, round);
                std::fs::write(d.join(format!("after{round}.txt")), format!("{token}\n")).unwrap();
                let _ = std::fs::remove_file(dir_of(earlier).join(format!("after{earlier}.txt")));
            }
            // The ignore file changes what belongs.
            8 => {
                let rules = if round % 20 == 8 { "*.log\n" } else { "ignored/\n*.log\n" };
                std::fs::write(root.join(".gitignore"), rules).unwrap();
                std::fs::write(root.join("ignored/a.txt"), format!("{token}\n")).unwrap();
            }
            // A directory renamed inside the tree, and a file appended to.
            _ => {
                let from = d.join("deep");
                let to = d.join("deeper");
                if from.exists() {
                    std::fs::rename(&from, &to).unwrap();
                } else {
                    std::fs::rename(&to, &from).unwrap();
                }
                use std::io::Write;
                let mut file = std::fs::OpenOptions::new().append(true).open(d.join("f4.txt")).unwrap();
                writeln!(file, "{token}").unwrap();
            }
        }
        assert_same(&indexed, &plain, &token, &format!("round {round} (change {kind})"));
    }
    let status = indexed.index_status().unwrap();
    assert_eq!(status.state, IndexState::Ready);
    let (greps, globs) = questions("");
    let asked = (rounds + 2) * (greps.len() + globs.len()) as u64;
    assert_eq!(status.searches, asked, "every search was answered from the index");
    assert!(status.cache_hits > 0, "{status:?}");
    // Leave the tree readable for the temporary directory's removal.
    for d in 0..4 {
        let _ = std::fs::set_permissions(
            root.join(format!("d{d}/f3.txt")),
            std::fs::Permissions::from_mode(0o644),
        );
    }
}

#[test]
fn the_prefilter_rules_out_files_without_the_literal_and_counts_them_as_searched() {
    let dir = tempfile::tempdir().unwrap();
    seed(dir.path());
    let indexed = indexed(dir.path());
    let plain = Sandbox::new([dir.path()]).unwrap();
    let status = indexed.index_status().unwrap();
    assert_eq!(status.content_pending, 0);
    assert_eq!(status.content_files, status.files);
    for pattern in
        ["file 2 3", "FILE", "(?i)COMMON", "fn \\w+\\(", "nothing|at all", "binary", "early text", "zebra"]
    {
        let request = GrepRequest::new(pattern);
        assert_eq!(grep(&indexed, &request), grep(&plain, &request), "{pattern}");
    }
}

#[test]
fn closing_stops_the_index_and_searches_still_answer() {
    let dir = tempfile::tempdir().unwrap();
    seed(dir.path());
    let indexed = indexed(dir.path());
    let before = grep(&indexed, &GrepRequest::new("common"));
    indexed.close();
    indexed.close();
    assert_eq!(indexed.index_status().unwrap().state, IndexState::Closed);
    assert_eq!(grep(&indexed, &GrepRequest::new("common")), before);
    assert!(!indexed.wait_for_index(Some(Duration::from_millis(1))));
}

#[test]
fn the_home_directory_and_the_root_are_refused_unless_allowed() {
    // The variable the core reads the home directory from (USERPROFILE on Windows).
    let variable = if cfg!(windows) { "USERPROFILE" } else { "HOME" };
    let home = std::env::var_os(variable).unwrap_or_else(|| panic!("{variable} is set"));
    for refused in [Path::new("/"), Path::new(&home)] {
        let err = Sandbox::new([refused]).unwrap().with_index(IndexOptions::default()).unwrap_err();
        assert_eq!(err.code().as_str(), "INVALID_OPTION", "{refused:?}");
        assert_eq!(err.option(), Some("index"));
    }
}

#[test]
fn past_the_cap_on_files_the_index_fails_and_searches_walk() {
    let dir = tempfile::tempdir().unwrap();
    seed(dir.path());
    let options = IndexOptions { max_files: 5, ..IndexOptions::default() };
    let sandbox = Sandbox::new([dir.path()]).unwrap().with_index(options).unwrap();
    assert!(!sandbox.wait_for_index(Some(Duration::from_secs(30))));
    let status = sandbox.index_status().unwrap();
    assert_eq!(status.state, IndexState::Failed);
    assert!(status.error.unwrap().contains("max_files"));
    let plain = Sandbox::new([dir.path()]).unwrap();
    assert_eq!(grep(&sandbox, &GrepRequest::new("common")), grep(&plain, &GrepRequest::new("common")));
}
