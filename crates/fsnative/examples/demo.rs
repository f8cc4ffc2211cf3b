//! The main-job demo: validates, greps, globs and fuzzy-finds a real tree through the Rust API.
//! `cargo run --release --example demo -- [DIR]` (default: this repository).

use std::time::Instant;

use fsnative::{render, FindRequest, GlobRequest, GrepRequest, Intent, OutputMode, Sandbox};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| ".".to_owned());
    let sandbox = Sandbox::new([&dir])?;
    let root = &sandbox.roots()[0];
    println!("sandbox root: {}", root.display());

    println!("\n== validate: honest paths pass, escapes are refused");
    for (path, intent) in [
        (".", Intent::Read),
        ("new/file.txt", Intent::Write),
        ("../outside", Intent::Read),
        ("/etc/passwd", Intent::Read),
    ] {
        match sandbox.validate(path, intent) {
            Ok(resolved) => println!("  {path:<14} {intent:?}: ok -> {}", resolved.display()),
            Err(err) => println!("  {path:<14} {intent:?}: {}", err.code()),
        }
    }

    println!("\n== grep 'def test_' (first 5 matches, 1 line of context), rg's standard output:");
    let request = GrepRequest { limit: Some(5), context: Some(1), ..GrepRequest::new(r"def test_") };
    let started = Instant::now();
    let found = sandbox.grep(&request)?;
    let options = render::StandardOptions { path_style: render::PathStyle::Relative, ..Default::default() };
    print!("{}", render::standard(&found, &options));
    println!(
        "  -> {} matches shown, truncated: {:?}, cursor for the next page: {}, {:.1} ms",
        found.total_matches,
        found.truncated,
        found.next_cursor.is_some(),
        started.elapsed().as_secs_f64() * 1000.0
    );

    println!("\n== grep 'TODO|FIXME' over the whole tree, count mode:");
    let request = GrepRequest { mode: OutputMode::Count, limit: None, ..GrepRequest::new("TODO|FIXME") };
    let started = Instant::now();
    let counted = sandbox.grep(&request)?;
    println!(
        "  {} matching lines in {} files; {} files searched, {} binary skipped, {:.1} ms",
        counted.total_matches,
        counted.files.len(),
        counted.stats.files_searched,
        counted.stats.skipped_binary,
        started.elapsed().as_secs_f64() * 1000.0
    );

    println!("\n== glob '**/*.{{rs,py,ts}}', newest first (first 5):");
    let request = GlobRequest {
        sort: fsnative::SortOrder::Mtime,
        limit: Some(5),
        ..GlobRequest::new("**/*.{rs,py,ts}")
    };
    let started = Instant::now();
    let listed = sandbox.glob(&request)?;
    for entry in &listed.entries {
        println!("  {}", entry.relative_path.display());
    }
    println!(
        "  -> {} of {} matches shown, {:.1} ms",
        listed.entries.len(),
        listed.total,
        started.elapsed().as_secs_f64() * 1000.0
    );

    println!("\n== find 'jsn decodr' (letters left out), best 5:");
    let request = FindRequest { limit: Some(5), ..FindRequest::new("jsn decodr") };
    let started = Instant::now();
    let best = sandbox.find(&request)?;
    for entry in &best.entries {
        println!("  {:>4}  {} (typos {})", entry.score, entry.relative_path.display(), entry.typos);
    }
    println!(
        "  -> {} of {} matches shown, {:.1} ms",
        best.entries.len(),
        best.total,
        started.elapsed().as_secs_f64() * 1000.0
    );
    Ok(())
}
