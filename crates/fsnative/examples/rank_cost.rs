//! What the ranking signals cost, for docs/ranking.md:
//!
//! ```text
//! cargo run --release --example rank_cost [CANDIDATES] [RECORDED] [TOP]
//! ```
//!
//! builds a frecency database (in a temporary directory) with RECORDED files (default 5,000)
//! among CANDIDATES paths (default 100,000), then prints the median time of: scoring the TOP
//! best candidates of a fuzzy find (default 300) with nothing cached (as after another
//! process's write) and cached; scoring every candidate, both ways; path boosts of every
//! candidate with a 200-term thesaurus; and recording the 50 files a grep page found (one
//! write transaction).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use fsnative::{Frecency, FrecencyProfile, PathBoost, Thesaurus};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1).map(|arg| arg.parse::<usize>());
    let candidates = args.next().transpose()?.unwrap_or(100_000);
    let recorded = args.next().transpose()?.unwrap_or(5_000);
    let top = args.next().transpose()?.unwrap_or(300);
    let paths: Vec<PathBuf> = (0..candidates)
        .map(|n| {
            PathBuf::from(format!("/home/dev/repo/src/module{:03}/sub{:02}/file{n:06}.rs", n % 997, n % 31))
        })
        .collect();
    let dir = tempfile::tempdir()?;
    let db = dir.path().join("frecency");
    let step = (candidates / recorded.max(1)).max(1);
    Frecency::open(&db, FrecencyProfile::Normal)?
        .record_accesses(paths.iter().step_by(step).map(PathBuf::as_path))?;
    let spread = (candidates / top.max(1)).max(1);
    let best: Vec<&Path> = paths.iter().step_by(spread).take(top).map(PathBuf::as_path).collect();
    let all: Vec<&Path> = paths.iter().map(PathBuf::as_path).collect();

    println!("{candidates} candidates, {recorded} recorded files, top {top}; medians");
    // A database opened anew (no other handle open) has nothing cached, as after another
    // process's write.
    let uncached = |list: &[&Path]| {
        median(25, || {
            let fresh = Frecency::open(&db, FrecencyProfile::Normal).unwrap();
            let started = Instant::now();
            fresh.scores(list.iter().copied()).unwrap();
            started.elapsed()
        })
    };
    report(&format!("frecency of the top {top}, nothing cached"), uncached(&best));
    report(&format!("frecency of all {candidates}, nothing cached"), uncached(&all));
    let frecency = Frecency::open(&db, FrecencyProfile::Normal)?;
    let cached = |list: &[&Path]| {
        frecency.scores(list.iter().copied()).unwrap();
        median(25, || {
            let started = Instant::now();
            frecency.scores(list.iter().copied()).unwrap();
            started.elapsed()
        })
    };
    report(&format!("frecency of the top {top}, cached"), cached(&best));
    report(&format!("frecency of all {candidates}, cached"), cached(&all));

    let terms: Vec<(String, String)> =
        (0..200).map(|n| (format!("module{:03}", n * 5), format!("concept{}", n % 40))).collect();
    let boost = PathBoost::new(Thesaurus::from_pairs(terms)?);
    let relative: Vec<&[u8]> =
        paths.iter().map(|p| &p.as_os_str().as_encoded_bytes()["/home/dev/repo/".len()..]).collect();
    let boosts = median(25, || {
        let started = Instant::now();
        let thesaurus = boost.thesaurus();
        let total: u64 = relative.iter().map(|path| u64::from(boost.boost_with(&thesaurus, path))).sum();
        assert!(total > 0);
        started.elapsed()
    });
    report(&format!("path boost of all {candidates} (200 terms)"), boosts);
    report(&format!("path boost of the top {top}"), boosts.mul_f64(top as f64 / candidates as f64));

    let page: Vec<&Path> = paths.iter().skip(7).step_by(13).take(50).map(PathBuf::as_path).collect();
    let write = median(25, || {
        let started = Instant::now();
        frecency.record_accesses(page.iter().copied()).unwrap();
        started.elapsed()
    });
    report("recording 50 hits (one write transaction)", write);
    Ok(())
}

fn median(rounds: usize, mut run: impl FnMut() -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..rounds).map(|_| run()).collect();
    times.sort();
    times[rounds / 2]
}

fn report(what: &str, took: Duration) {
    println!("{what:<55} {:>9.3} ms", took.as_secs_f64() * 1000.0);
}
