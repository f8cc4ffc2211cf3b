//! What the index's tests share: a seeded tree, the questions asked of it, and the check that
//! an indexed sandbox answers them as a plain (walking) one does. Each test binary that
//! includes it uses a part.
#![allow(dead_code)]

use std::path::Path;

use std::time::Duration;

use fsnative::{GlobRequest, GlobResult, GrepRequest, GrepResult, IndexOptions, OutputMode, Sandbox};

/// A sandbox over `root` with a warm index of default options, ready (within 30 s).
pub fn indexed(root: &Path) -> Sandbox {
    let sandbox = Sandbox::new([root]).unwrap().with_index(IndexOptions::default()).unwrap();
    assert!(sandbox.wait_for_index(Some(Duration::from_secs(30))), "{:?}", sandbox.index_status());
    sandbox
}

pub fn grep(sandbox: &Sandbox, request: &GrepRequest) -> GrepResult {
    let mut result = sandbox.grep(request).unwrap();
    result.stats.elapsed_ms = 0.0;
    result
}

pub fn glob(sandbox: &Sandbox, request: &GlobRequest) -> GlobResult {
    let mut result = sandbox.glob(request).unwrap();
    result.stats.elapsed_ms = 0.0;
    result
}

/// The questions each round asks both sandboxes.
pub fn questions(token: &str) -> (Vec<GrepRequest>, Vec<GlobRequest>) {
    let greps = vec![
        GrepRequest::new(token),
        GrepRequest { mode: OutputMode::Count, ..GrepRequest::new(format!("{token}|absent_literal")) },
        GrepRequest { mode: OutputMode::Files, ..GrepRequest::new("common") },
        GrepRequest::new("no such text anywhere"),
        GrepRequest { limit: Some(3), ..GrepRequest::new("common") },
    ];
    let globs = vec![GlobRequest::new("**"), GlobRequest::new("**/*.txt")];
    (greps, globs)
}

pub fn assert_same(indexed: &Sandbox, plain: &Sandbox, token: &str, round: &str) {
    let (greps, globs) = questions(token);
    for request in &greps {
        assert_eq!(grep(indexed, request), grep(plain, request), "{round}: grep {:?}", request.patterns);
    }
    for request in &globs {
        assert_eq!(glob(indexed, request), glob(plain, request), "{round}: glob {:?}", request.patterns);
    }
}

/// Four directories of small files, an ignore file and what it ignores, and two binary files.
pub fn seed(root: &Path) {
    for d in 0..4 {
        let dir = root.join(format!("d{d}"));
        std::fs::create_dir_all(dir.join("deep")).unwrap();
        for f in 0..5 {
            std::fs::write(dir.join(format!("f{f}.txt")), format!("common line\nfile {d} {f}\n")).unwrap();
        }
        std::fs::write(dir.join("deep/x.rs"), "fn common() {}\n").unwrap();
    }
    std::fs::write(root.join(".gitignore"), "ignored/\n*.log\n").unwrap();
    std::fs::create_dir(root.join("ignored")).unwrap();
    std::fs::write(root.join("ignored/a.txt"), "common\n").unwrap();
    std::fs::write(root.join("bin.dat"), b"common\0binary\n").unwrap();
    // Binary only far in: a search reports what comes before its NUL.
    let mut late = "common early text\n".repeat(6000).into_bytes();
    late.extend_from_slice(b"\0after the nul zebra\n");
    std::fs::write(root.join("late.bin"), late).unwrap();
}

/// Moves a directory holding `token` into `dir` from `outside`: one rename, no event for what
/// it holds.
pub fn move_in(outside: &Path, dir: &Path, round: u64, token: &str) {
    let staged = outside.join(format!("m{round}"));
    std::fs::create_dir_all(staged.join("inner")).unwrap();
    std::fs::write(staged.join("inner/moved.txt"), format!("{token}\n")).unwrap();
    std::fs::rename(&staged, dir.join(format!("m{round}"))).unwrap();
}

/// Moves the directory [`move_in`] brought in the round before out again, if it is there.
pub fn move_out(root: &Path, outside: &Path, round: u64) {
    let previous = root.join(format!("d{}", (round - 1) % 4)).join(format!("m{}", round - 1));
    if previous.exists() {
        std::fs::rename(&previous, outside.join(format!("gone{round}"))).unwrap();
    }
}
