//! A minimal ripgrep-like command over the fsnative core, for timing and comparing against `rg`:
//!
//! ```text
//! fsgrep [-c|-l] [-i] [--limit N] [--json] [--relative] [--heading] [-N] [-H|-I]
//!        [--request JSON] PATTERN DIR
//! ```
//!
//! prints ripgrep's standard output (`-n`, `-c` or `-l`), or `rg --json` lines with `--json`,
//! for DIR as the sandbox root. `--request` takes any further [`GrepRequest`] fields as a JSON
//! object (snake_case, as the vectors write them; flags given after it override it), which is
//! how `bench/differential.py` passes every option (`patterns` given there replace PATTERN,
//! for several patterns at once). `--relative` prints root-relative paths
//! (as `rg` run inside DIR with no path argument does). With no `--limit`, nothing is capped.

use std::io::Write;
use std::process::ExitCode;

use fsnative::{render, CaseMode, GrepRequest, OutputMode, Sandbox};

fn main() -> ExitCode {
    let mut request = GrepRequest { limit: None, ..GrepRequest::default() };
    let mut standard = render::StandardOptions::default();
    let mut json = false;
    let mut positional = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "-c" => request.mode = OutputMode::Count,
            "-l" => request.mode = OutputMode::Files,
            "-i" => request.case_mode = CaseMode::Insensitive,
            "--limit" => request.limit = args.next().and_then(|n| n.parse().ok()),
            "--json" => json = true,
            "--relative" => standard.path_style = render::PathStyle::Relative,
            "--heading" => standard.heading = true,
            "-N" => standard.line_number = false,
            "-H" => standard.with_filename = Some(true),
            "-I" => standard.with_filename = Some(false),
            "--request" => {
                let text = args.next().unwrap_or_default();
                match merged_request(&request, &text) {
                    Ok(merged) => request = merged,
                    Err(err) => {
                        eprintln!("fsgrep: --request: {err}");
                        return ExitCode::from(2);
                    }
                }
            }
            _ => positional.push(arg),
        }
    }
    let [pattern, dir] = positional.as_slice() else {
        eprintln!(
            "usage: fsgrep [-c|-l] [-i] [--limit N] [--json] [--relative] [--request JSON] PATTERN DIR"
        );
        return ExitCode::from(2);
    };
    if request.patterns.0.is_empty() {
        request.patterns = fsnative::OneOrMany(vec![pattern.clone()]);
    }
    let outcome = Sandbox::new([dir]).and_then(|sandbox| sandbox.grep(&request));
    match outcome {
        Ok(result) => {
            let text = if json {
                let options = render::JsonOptions { path_style: standard.path_style };
                render::json_lines(&result, &options).into_bytes()
            } else {
                render::standard_bytes(&result, &standard)
            };
            // A closed pipe (`| head`) is not an error worth reporting.
            let _ = std::io::stdout().lock().write_all(&text);
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

/// `request` with the fields of the JSON object `text` laid over it.
fn merged_request(request: &GrepRequest, text: &str) -> Result<GrepRequest, serde_json::Error> {
    let mut base = serde_json::to_value(request)?;
    let over: serde_json::Value = serde_json::from_str(text)?;
    if let (Some(base), serde_json::Value::Object(over)) = (base.as_object_mut(), over) {
        base.extend(over);
    }
    serde_json::from_value(base)
}
