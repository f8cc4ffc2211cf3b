//! Where a fuzzy find's time goes on a large tree:
//!
//! ```text
//! cargo run --release --example find_cost DIR [QUERY...]
//! ```
//!
//! indexes DIR (file list only, up to 4,000,000 entries), waits until the index is ready,
//! then prints each query's median time over 31 finds (top 20) and its matches. With
//! `FSNATIVE_FRECENCY_DB` set (see [`fsnative::FRECENCY_DB_ENV`]), the sandbox also ranks by
//! the frecency kept there (profile `ai`), after recording an access to each query's top 5.
//! With `FIND_COST_PERSIST=DIR` the index is kept in DIR and loaded from there on the next
//! run (minutes saved on a million paths); `FIND_COST_ROUNDS=N` times N finds a query
//! instead of 31 (for a profiler); `FIND_COST_SETTLE=S` waits S seconds once the index is
//! ready, before the first find (a loaded index sets its watches and checks the tree in the
//! background for a second or more, which would be timed with the finds). Each query's line
//! also gives the process's CPU time per find where `/proc/self/stat` is there.
//! `FIND_COST_PRINT=1` prints each query's entries first (query, score, typos, path), to compare
//! the answers of two builds.

use std::time::{Duration, Instant};

use fsnative::{
    FindRequest, FrecencyOptions, FrecencyProfile, IndexOptions, Sandbox, SandboxOptions, FRECENCY_DB_ENV,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: find_cost DIR [QUERY...]")?;
    let mut queries: Vec<String> = args.collect();
    if queries.is_empty() {
        queries =
            ["hanlder_21", "pkg5339 tab", "cpython3/Lib/email/parser", "test"].map(String::from).to_vec();
    }
    let persist = std::env::var_os("FIND_COST_PERSIST").map(std::path::PathBuf::from);
    let rounds: usize = std::env::var("FIND_COST_ROUNDS").ok().and_then(|n| n.parse().ok()).unwrap_or(31);
    let index = IndexOptions { max_files: 4_000_000, content: false, persist, ..IndexOptions::default() };
    let frecency = std::env::var_os(FRECENCY_DB_ENV)
        .map(|_| FrecencyOptions { path: None, profile: FrecencyProfile::Ai });
    let options = SandboxOptions { index: Some(index), frecency, ..SandboxOptions::default() };
    let started = Instant::now();
    let sandbox = Sandbox::with_options([&dir], &options)?;
    if !sandbox.wait_for_index(Some(Duration::from_secs(600))) {
        return Err("the index was not ready within 10 minutes".into());
    }
    println!("index ready in {:.1} s", started.elapsed().as_secs_f64());
    let settle: f64 = std::env::var("FIND_COST_SETTLE").ok().and_then(|s| s.parse().ok()).unwrap_or(0.0);
    std::thread::sleep(Duration::from_secs_f64(settle));
    for query in &queries {
        let request = FindRequest { query: query.clone(), ..FindRequest::default() };
        if options.frecency.is_some() {
            for entry in sandbox.find(&request)?.entries.iter().take(5) {
                sandbox.record_access(&entry.path)?;
            }
        }
        if std::env::var_os("FIND_COST_PRINT").is_some() {
            for entry in sandbox.find(&request)?.entries {
                println!("{query}\t{}\t{}\t{}", entry.score, entry.typos, entry.relative_path.display());
            }
        }
        let mut times = Vec::new();
        let mut total = 0;
        let cpu_before = cpu_ms();
        for _ in 0..rounds.max(1) {
            let started = Instant::now();
            total = sandbox.find(&request)?.total;
            times.push(started.elapsed());
        }
        let cpu = cpu_ms().zip(cpu_before).map(|(after, before)| (after - before) / times.len() as f64);
        times.sort();
        let ms = |at: usize| times[at].as_secs_f64() * 1000.0;
        println!(
            "{query:>30}: {:8.2} ms median, {:8.2} ms fastest, {} CPU ms a find, {total} matches",
            ms(times.len() / 2),
            ms(0),
            cpu.map_or("?".to_owned(), |cpu| format!("{cpu:.1}")),
        );
    }
    Ok(())
}

/// The CPU time this process has used, in milliseconds, where `/proc/self/stat` tells it
/// (user and system time, in the usual 100 ticks a second): on a shared machine, a steadier
/// measure of a find's work than its wall time.
fn cpu_ms() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks * 10.0)
}
