//! The text of the FFF search tools of Terraphim's MCP server (`find_files`, `grep`,
//! `multi_grep`), which the Node and Python drop-ins print: one line per MCP text block, each
//! ending in `\n` here (the adapters split on it).
//!
//! `find_files`: `Found N files matching 'QUERY' (searched M files under 'PATH')`, then one
//! `SCORE  PATH` line per file (the score right-aligned in five columns). `grep` and
//! `multi_grep`: `Found N matches across M files[ for patterns […]] (searched K files under
//! 'PATH')`, then `REL:LINE:TEXT` lines (or, in files and count modes, one `REL` per file),
//! and last `next_cursor: TOKEN` when there is more. Nothing to search gives
//! `No files found under 'PATH'`. Counts of one are singular ("1 file", "1 match").
//!
//! The tools' limits, defaults, the mapping of their arguments to the core's options and
//! their descriptions are in [`tools`].

use std::borrow::Cow;
use std::path::Path;

use serde::Deserialize;

use crate::request::{OneOrMany, OutputMode};
use crate::result::{FindResult, GrepResult};

pub mod tools;

/// What a `grep` or `multi_grep` call was asked, as far as its text shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FffGrepOptions {
    /// The tool's `path` argument as given (default `"."`), quoted in the header.
    pub path: Option<String>,
    /// What `path` resolved to (`Sandbox::validate` with the read intent); files are printed
    /// relative to it, and by name when it is the file itself. `None`: their absolute paths.
    pub base: Option<String>,
    /// `multi_grep`'s patterns, listed in its header as JSON strings; `None` for `grep`.
    pub patterns: Option<OneOrMany>,
}

/// What a `find_files` call was asked, as far as its text shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FffFindOptions {
    /// The query, quoted in the header.
    pub query: String,
    /// The tool's `path` argument as given (default `"."`), quoted in the header.
    pub path: Option<String>,
}

/// The lines of a `grep` or `multi_grep` answer for one page of the core's grep.
pub fn grep_lines(result: &GrepResult, options: &FffGrepOptions) -> Vec<String> {
    let shown = options.path.as_deref().unwrap_or(".");
    if result.files.is_empty() && result.stats.files_walked == 0 {
        return vec![no_files(shown)];
    }
    let for_patterns = match &options.patterns {
        None => String::new(),
        Some(patterns) => {
            let listed: Vec<String> = patterns.0.iter().map(|pattern| json_string(pattern)).collect();
            format!(" for patterns [{}]", listed.join(", "))
        }
    };
    let mut lines = vec![format!(
        "Found {} across {}{for_patterns} (searched {} under '{shown}')",
        counted(result.total_matches, "match", "matches"),
        counted(result.files.len() as u64, "file", "files"),
        counted(result.stats.files_searched, "file", "files"),
    )];
    let base = options.base.as_deref().map(Path::new);
    for file in &result.files {
        let name = relative(base, &file.path);
        match result.mode {
            OutputMode::Content => lines.extend(
                file.matches
                    .iter()
                    .map(|found| format!("{name}:{}:{}", found.line_number, found.text.trim_end())),
            ),
            OutputMode::Files | OutputMode::Count => lines.push(name.into_owned()),
        }
    }
    if let Some(cursor) = &result.next_cursor {
        lines.push(format!("next_cursor: {cursor}"));
    }
    lines
}

/// The lines of a `find_files` answer.
pub fn find_lines(result: &FindResult, options: &FffFindOptions) -> Vec<String> {
    let shown = options.path.as_deref().unwrap_or(".");
    if result.stats.candidates == 0 {
        return vec![no_files(shown)];
    }
    let header = format!(
        "Found {} matching '{}' (searched {} under '{shown}')",
        counted(result.entries.len() as u64, "file", "files"),
        options.query,
        counted(result.stats.candidates, "file", "files"),
    );
    let entries = result.entries.iter().map(|entry| {
        format!(
            "{:>5}  {}",
            entry.score,
            String::from_utf8_lossy(&crate::sys::slashed(entry.relative_path.as_os_str().as_encoded_bytes()))
        )
    });
    std::iter::once(header).chain(entries).collect()
}

/// `lines` as one text, each line ending in `\n`.
pub(super) fn joined(lines: Vec<String>) -> String {
    lines.into_iter().flat_map(|line| [line, "\n".to_owned()]).collect()
}

fn no_files(shown: &str) -> String {
    format!("No files found under '{shown}'")
}

/// `count` and the noun in the number it takes.
fn counted(count: u64, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// `text` as a JSON string, as the header lists patterns.
fn json_string(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// `file` as Terraphim prints it: relative to `base`, or its name when `base` is the file.
fn relative<'a>(base: Option<&Path>, file: &'a Path) -> Cow<'a, str> {
    let shown = match base.map(|base| file.strip_prefix(base)) {
        Some(Ok(rest)) if rest.as_os_str().is_empty() => file.file_name().map_or(file, Path::new),
        // Below the base: `/`-separated on every OS.
        Some(Ok(rest)) => {
            let slashed = crate::sys::slashed(rest.as_os_str().as_encoded_bytes());
            return Cow::Owned(String::from_utf8_lossy(&slashed).into_owned());
        }
        Some(Err(_)) | None => file,
    };
    shown.to_string_lossy()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_take_their_number() {
        assert_eq!(counted(1, "file", "files"), "1 file");
        assert_eq!(counted(0, "file", "files"), "0 files");
        assert_eq!(counted(2, "match", "matches"), "2 matches");
    }

    #[test]
    fn paths_print_relative_to_the_base_or_by_name() {
        let file = Path::new("/r/src/a.rs");
        assert_eq!(relative(Some(Path::new("/r")), file), "src/a.rs");
        assert_eq!(relative(Some(Path::new("/r/src/a.rs")), file), "a.rs");
        assert_eq!(relative(None, file), "/r/src/a.rs");
    }
}
