//! What a first build of the index costs, and what searches meanwhile wait:
//!
//! ```text
//! cargo run --release --example build_cost DIR [ROUNDS] [PATTERN]
//! ```
//!
//! starts an index on DIR (no store) ROUNDS times (default 3); while its content is read, a
//! second thread greps PATTERN (default a literal found nowhere, limit 100) in a loop. Prints,
//! per round, the time to the list and to the content being complete, how many searches ran
//! meanwhile and their median and 99th percentile, then the same search's median once warm.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use fsnative::{GrepRequest, IndexOptions, Sandbox};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: build_cost DIR [ROUNDS] [PATTERN]")?;
    let rounds: usize = args.next().map_or(Ok(3), |n| n.parse())?;
    let pattern = args.next().unwrap_or_else(|| "zq8XkvW3pLm".to_owned());
    let mut request = GrepRequest::new(pattern);
    request.fixed_strings = true;
    request.limit = Some(100);
    for round in 0..rounds {
        let started = Instant::now();
        let sandbox = Sandbox::new([&dir])?.with_index(IndexOptions::default())?;
        let building = AtomicBool::new(true);
        let during = std::thread::scope(|scope| {
            let searcher = scope.spawn(|| {
                let mut times = Vec::new();
                while building.load(Ordering::Relaxed) {
                    let start = Instant::now();
                    sandbox.grep(&request).map(|_| times.push(start.elapsed()))?;
                }
                Ok::<_, fsnative::Error>(times)
            });
            let ready = sandbox.wait_for_index(Some(Duration::from_secs(600)));
            building.store(false, Ordering::Relaxed);
            searcher.join().expect("the searching thread").map(|times| (ready, times))
        });
        let (ready, mut during) = during?;
        if !ready {
            return Err("the index was not complete within 10 minutes".into());
        }
        let complete = started.elapsed();
        let status = sandbox.index_status().ok_or("no index")?;
        let mut warm = Vec::new();
        for _ in 0..50 {
            let start = Instant::now();
            sandbox.grep(&request)?;
            warm.push(start.elapsed());
        }
        println!(
            "round {round}: list {:.0} ms, content complete {:.0} ms ({} files); {} searches meanwhile: p50 {:.2} ms, p99 {:.2} ms; warm p50 {:.2} ms",
            status.list_ms.unwrap_or_default(),
            complete.as_secs_f64() * 1000.0,
            status.content_files,
            during.len(),
            percentile(&mut during, 50),
            percentile(&mut during, 99),
            percentile(&mut warm, 50),
        );
        sandbox.close();
    }
    Ok(())
}

/// The `p`th percentile of `times`, in milliseconds (0 when there are none).
fn percentile(times: &mut [Duration], p: usize) -> f64 {
    times.sort();
    times
        .get((times.len() * p / 100).min(times.len().saturating_sub(1)))
        .map_or(0.0, |t| t.as_secs_f64() * 1000.0)
}
