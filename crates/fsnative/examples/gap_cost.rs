//! What a warm-index search costs hot (called again at once) and cold (after a pause, or after
//! other work evicted the processor's caches, as between an agent's calls), with one thread and
//! with the default:
//!
//! ```text
//! cargo run --release --features mimalloc --example gap_cost DIR [ROUNDS] [PATTERN...]
//! ```
//!
//! builds the index of DIR, then times each fixed-string PATTERN (default: `return` and a
//! literal found nowhere), limit 100, ROUNDS times (default 21) in each setting, and prints the
//! median, the fastest and the 90th percentile.
use std::time::{Duration, Instant};

use fsnative::{GrepRequest, IndexOptions, Sandbox};

/// What happens before each timed search.
#[derive(Clone, Copy)]
enum Before {
    Nothing,
    Pause,
    Evict,
}

/// Bytes written between searches to evict the caches: more than the processor's.
const EVICTION_BYTES: usize = 256 << 20;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = args.next().ok_or("usage: gap_cost DIR [ROUNDS] [PATTERN...]")?;
    let rounds: usize = args.next().map_or(Ok(21), |n| n.parse())?;
    let mut patterns: Vec<String> = args.collect();
    if patterns.is_empty() {
        patterns = vec!["return".into(), "zq8XkvW3pLm".into()];
    }
    let sandbox = Sandbox::new([&dir])?.with_index(IndexOptions::default())?;
    if !sandbox.wait_for_index(Some(Duration::from_secs(600))) {
        return Err("the index was not ready within 10 minutes".into());
    }
    let mut eviction = vec![0u8; EVICTION_BYTES];
    for pattern in &patterns {
        for threads in [None, Some(1)] {
            for (before, name) in
                [(Before::Nothing, "hot"), (Before::Pause, "after 200 ms"), (Before::Evict, "evicted")]
            {
                let mut request = GrepRequest::new(pattern.clone());
                request.fixed_strings = true;
                request.limit = Some(100);
                request.threads = threads;
                let mut times = Vec::with_capacity(rounds);
                for round in 0..rounds {
                    match before {
                        Before::Nothing => {}
                        Before::Pause => std::thread::sleep(Duration::from_millis(200)),
                        Before::Evict => eviction.fill(round as u8),
                    }
                    let start = Instant::now();
                    std::hint::black_box(sandbox.grep(&request)?);
                    times.push(start.elapsed().as_secs_f64() * 1000.0);
                }
                times.sort_by(f64::total_cmp);
                let threads = threads.map_or_else(|| "default".to_owned(), |n| n.to_string());
                println!(
                    "{pattern:>16}  threads {threads:>7}  {name:>12}: p50 {:.3} ms  min {:.3}  p90 {:.3}",
                    times[rounds / 2],
                    times[0],
                    times[rounds * 9 / 10]
                );
            }
        }
    }
    std::hint::black_box(&eviction);
    Ok(())
}
