//! A path swapped for a symlink between the walk and the open must not leak outside content,
//! nor the names in an outside directory.
//!
//! Unix only: the test makes symlinks, which Windows makes only with a privilege.

#![cfg(unix)]

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use fsnative::{GlobRequest, GrepRequest, Sandbox};

const ROUNDS: usize = 2000;

/// Flips `victim` (a file) and `dir` (a directory) to symlinks pointing outside and back,
/// atomically by rename, until `stop` is set.
fn swap_until(root: &Path, outside: &Path, stop: &AtomicBool) {
    let staging = root.join(".staging");
    std::fs::create_dir_all(&staging).unwrap();
    let mut flip = false;
    while !stop.load(Ordering::Relaxed) {
        let file_link = staging.join("victim");
        let dir_link = staging.join("dir");
        let _ = std::fs::remove_file(&file_link);
        let _ = std::fs::remove_file(&dir_link);
        let _ = std::fs::remove_dir_all(&dir_link);
        if flip {
            std::os::unix::fs::symlink(outside.join("secret.txt"), &file_link).unwrap();
            std::os::unix::fs::symlink(outside, &dir_link).unwrap();
        } else {
            std::fs::write(&file_link, "public needle\n").unwrap();
            std::fs::create_dir(&dir_link).unwrap();
            std::fs::write(dir_link.join("secret.txt"), "public needle\n").unwrap();
        }
        let _ = std::fs::rename(&file_link, root.join("victim.txt"));
        let _ = std::fs::remove_dir_all(root.join("dir"));
        let _ = std::fs::remove_file(root.join("dir"));
        let _ = std::fs::rename(&dir_link, root.join("dir"));
        flip = !flip;
    }
}

#[test]
fn swapping_a_file_or_directory_for_a_link_never_leaks_the_secret() {
    let fixture = tempfile::tempdir().unwrap();
    let root = fixture.path().join("root");
    let outside = fixture.path().join("outside");
    std::fs::create_dir_all(&root).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(outside.join("secret.txt"), "SECRET needle\n").unwrap();
    std::fs::write(outside.join("outside-only-name.txt"), "needle\n").unwrap();
    std::fs::write(root.join("victim.txt"), "public needle\n").unwrap();
    let sandbox = Sandbox::new([&root]).unwrap();
    let stop = AtomicBool::new(false);
    let mut searched = 0;
    let mut leak = None;
    std::thread::scope(|scope| {
        scope.spawn(|| swap_until(&root, &outside, &stop));
        for round in 0..ROUNDS {
            let request = GrepRequest {
                follow_links: round % 2 == 0,
                hidden: true,
                limit: None,
                ..GrepRequest::new("needle")
            };
            let found = sandbox.grep(&request).unwrap();
            searched += found.stats.files_searched;
            let leaked = found.files.iter().flat_map(|f| &f.matches).find(|m| m.text.contains("SECRET"));
            let listed = sandbox.glob(&GlobRequest { limit: None, ..GlobRequest::new("**") }).unwrap();
            let escaped = listed.entries.iter().find(|e| !e.path.starts_with(&root));
            let outside_name = |path: &Path| path.ends_with("outside-only-name.txt");
            let named = listed
                .entries
                .iter()
                .map(|e| e.path.as_path())
                .chain(found.files.iter().map(|f| f.path.as_path()));
            let listed_outside = named.clone().find(|path| outside_name(path));
            if leaked.is_some() || escaped.is_some() || listed_outside.is_some() {
                leak = Some(format!("round {round}: {leaked:?} {escaped:?} {listed_outside:?}"));
                break;
            }
        }
        stop.store(true, Ordering::Relaxed);
    });
    assert_eq!(leak, None);
    assert!(searched > 0, "the searches ran");
}
