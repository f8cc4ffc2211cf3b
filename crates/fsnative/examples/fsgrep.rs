//! A minimal ripgrep-like command over the fsnative core, for timing against `rg`:
//! `fsgrep [-c|-l] [-i] [--limit N] PATTERN DIR` prints ripgrep's standard output
//! (`-n`, `-c` or `-l`) for DIR as the sandbox root.

use std::process::ExitCode;

use fsnative::{render, CaseMode, GrepRequest, OutputMode, Sandbox};

fn main() -> ExitCode {
    let mut request = GrepRequest { limit: None, ..GrepRequest::default() };
    let mut positional = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-c" => request.mode = OutputMode::Count,
            "-l" => request.mode = OutputMode::Files,
            "-i" => request.case_mode = CaseMode::Insensitive,
            "--limit" => request.limit = args.next().and_then(|n| n.parse().ok()),
            _ => positional.push(arg),
        }
    }
    let [pattern, dir] = positional.as_slice() else {
        eprintln!("usage: fsgrep [-c|-l] [-i] [--limit N] PATTERN DIR");
        return ExitCode::from(2);
    };
    request.patterns = fsnative::OneOrMany(vec![pattern.clone()]);
    let outcome = Sandbox::new([dir]).and_then(|sandbox| sandbox.grep(&request));
    match outcome {
        Ok(result) => {
            print!("{}", render::standard(&result, &render::StandardOptions::default()));
            if result.files.is_empty() {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            }
        }
        Err(err) => {
            eprintln!("fsgrep: {err}");
            ExitCode::from(2)
        }
    }
}
