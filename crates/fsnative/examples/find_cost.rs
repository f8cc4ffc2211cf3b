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
    let index = IndexOptions { max_files: 4_000_000, content: false, ..IndexOptions::default() };
    let frecency = std::env::var_os(FRECENCY_DB_ENV)
        .map(|_| FrecencyOptions { path: None, profile: FrecencyProfile::Ai });
    let options = SandboxOptions { index: Some(index), frecency, ..SandboxOptions::default() };
    let started = Instant::now();
    let sandbox = Sandbox::with_options([&dir], &options)?;
    if !sandbox.wait_for_index(Some(Duration::from_secs(600))) {
        return Err("the index was not ready within 10 minutes".into());
    }
    println!("index ready in {:.1} s", started.elapsed().as_secs_f64());
    for query in &queries {
        let request = FindRequest { query: query.clone(), ..FindRequest::default() };
        if options.frecency.is_some() {
            for entry in sandbox.find(&request)?.entries.iter().take(5) {
                sandbox.record_access(&entry.path)?;
            }
        }
        let mut times = Vec::new();
        let mut total = 0;
        for _ in 0..31 {
            let started = Instant::now();
            total = sandbox.find(&request)?.total;
            times.push(started.elapsed());
        }
        times.sort();
        println!("{query:>30}: {:8.2} ms median, {total} matches", times[15].as_secs_f64() * 1000.0);
    }
    Ok(())
}
