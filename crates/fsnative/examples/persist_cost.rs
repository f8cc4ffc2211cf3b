//! Where a restart from a persisted index spends its time:
//!
//! ```text
//! cargo run --release --example persist_cost DIR STORE [RESTARTS]
//! ```
//!
//! indexes DIR with its store in STORE (built and written when STORE holds none), then starts
//! the index from the store RESTARTS times (default 5), printing for each the time to the index
//! being ready, what the status says of the store and the time to a first grep's answer.

use std::time::{Duration, Instant};

use fsnative::{GrepRequest, IndexOptions, Sandbox};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: persist_cost DIR STORE [RESTARTS]";
    let dir = args.next().ok_or(usage)?;
    let store = args.next().ok_or(usage)?;
    let restarts: usize = args.next().map_or(Ok(5), |n| n.parse())?;
    let options = IndexOptions { persist: Some(store.into()), ..IndexOptions::default() };
    for start in 0..=restarts {
        let started = Instant::now();
        let sandbox = Sandbox::new([&dir])?.with_index(options.clone())?;
        if !sandbox.wait_for_index(Some(Duration::from_secs(600))) {
            return Err("the index was not ready within 10 minutes".into());
        }
        let ready = started.elapsed();
        let found = sandbox.grep(&GrepRequest::new("zq8XkvW3pLm"))?;
        let answered = started.elapsed();
        let status = sandbox.index_status().ok_or("no index")?;
        println!(
            "start {start}: ready {:.1} ms (list {:.1} ms), first answer {:.1} ms ({} matches); store {:?}, {} changes, {} bytes",
            ready.as_secs_f64() * 1000.0,
            status.list_ms.unwrap_or_default(),
            answered.as_secs_f64() * 1000.0,
            found.total_matches,
            status.store,
            status.store_changes,
            status.store_bytes,
        );
        sandbox.close();
    }
    Ok(())
}
