//! ripgrep's `--json` output: the renderer and the wire shapes it prints.

use std::borrow::Cow;

use serde::Serialize;

use super::{path_bytes, JsonOptions, PathStyle};
use crate::result::{ContextLine, FileMatches, GrepResult, RawText};

/// Renders `result` as `rg --json` lines: per file a `begin`, its `context` and `match`
/// messages and an `end`, then one `summary`. Every field is ripgrep's except the timings
/// (`elapsed`, `elapsed_total`), which are not measured per file and print as zero.
pub fn json_lines(result: &GrepResult, options: &JsonOptions) -> String {
    let mut out = String::new();
    let push = |out: &mut String, message: &Message<'_>| {
        // Serializing plain strings and numbers cannot fail.
        out.push_str(&serde_json::to_string(message).unwrap_or_default());
        out.push('\n');
    };
    let mut matched_lines = 0;
    let mut submatch_total = 0;
    let mut printed_total = 0;
    for file in &result.files {
        let file_start = out.len();
        let path = JsonPath(json_path(file, options.path_style));
        push(&mut out, &Message::Begin { data: Begin { path: &path } });
        let mut file_submatches = 0;
        let mut file_lines = 0;
        for found in &file.matches {
            for line in &found.before {
                push(&mut out, &context_message(&path, line));
            }
            let (lines, submatches) =
                line_data(&found.text, &found.submatches, found.raw.as_deref(), found.unterminated);
            file_submatches += submatches.len() as u64;
            file_lines += found.text.matches('\n').count() as u64 + 1;
            push(
                &mut out,
                &Message::Match {
                    data: Lines {
                        path: &path,
                        lines,
                        line_number: found.line_number,
                        absolute_offset: found.byte_offset,
                        submatches,
                    },
                },
            );
            for line in &found.after {
                push(&mut out, &context_message(&path, line));
            }
        }
        if file.matches.is_empty() {
            // Files and count modes carry no match records: count what they say.
            file_lines = file.count;
        }
        let printed = (out.len() - file_start) as u64;
        matched_lines += file_lines;
        submatch_total += file_submatches;
        printed_total += printed;
        let mut stats = Stats::for_counts(1, 1, file.bytes_searched, file_lines, file_submatches);
        stats.bytes_printed = printed;
        push(&mut out, &Message::End { data: End { path: &path, binary_offset: file.binary_offset, stats } });
    }
    let searches = result.stats.files_searched;
    let mut stats = Stats::for_counts(
        searches,
        result.stats.files_matched,
        result.stats.bytes_searched,
        matched_lines,
        submatch_total,
    );
    stats.bytes_printed = printed_total;
    let summary = SummaryMessage {
        data: Summary { elapsed_total: SortedElapsed::default(), stats: SummaryStats::from(&stats) },
        kind: "summary",
    };
    out.push_str(&serde_json::to_string(&summary).unwrap_or_default());
    out.push('\n');
    out
}

/// A path as `rg --json` prints it: `{"text": …}` when it is UTF-8, else `{"bytes": base64}`.
fn json_path(file: &FileMatches, style: PathStyle) -> serde_json::Value {
    use base64::Engine as _;
    let bytes = &*path_bytes(file, style);
    match std::str::from_utf8(bytes) {
        Ok(text) => serde_json::json!({ "text": text }),
        Err(_) => serde_json::json!({ "bytes": base64::engine::general_purpose::STANDARD.encode(bytes) }),
    }
}

/// A file's path in `rg --json` form, serialized as it is.
struct JsonPath(serde_json::Value);

impl Serialize for JsonPath {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

/// A line's `lines` and `submatches` as `rg --json` prints them: the line with its `\n`
/// (unless the file ended without one), as `{"text": …}`, or as `{"bytes": base64}` with
/// offsets into those bytes when it is not UTF-8.
fn line_data<'a>(
    text: &'a str,
    submatches: &'a [[usize; 2]],
    raw: Option<&RawText>,
    unterminated: bool,
) -> (Data<'a>, Vec<Submatch<'a>>) {
    if let Some(raw) = raw {
        let mut bytes = raw.bytes.clone();
        if !unterminated {
            bytes.push(b'\n');
        }
        let submatches = raw
            .submatches
            .iter()
            .map(|&[start, end]| Submatch {
                matched: Data::of(bytes.get(start..end).unwrap_or_default()),
                start,
                end,
            })
            .collect();
        return (Data::of(&bytes), submatches);
    }
    let lines: Cow<'a, str> =
        if unterminated { Cow::Borrowed(text) } else { Cow::Owned(format!("{text}\n")) };
    let submatches = submatches
        .iter()
        .map(|&[start, end]| {
            let matched = match text.get(start..end) {
                Some(part) => Cow::Borrowed(part),
                // A multiline match that takes in the final terminator.
                None => Cow::Owned(lines.get(start..end).unwrap_or("").to_owned()),
            };
            Submatch { matched: Data::Text { text: matched }, start, end }
        })
        .collect();
    (Data::Text { text: lines }, submatches)
}

fn context_message<'a>(path: &'a JsonPath, line: &'a ContextLine) -> Message<'a> {
    let (lines, submatches) = line_data(&line.text, &line.submatches, line.raw.as_deref(), line.unterminated);
    Message::Context {
        data: Lines {
            path,
            lines,
            line_number: line.line_number,
            absolute_offset: line.byte_offset,
            submatches,
        },
    }
}

// The `rg --json` wire shapes, field order as ripgrep prints them.

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Message<'a> {
    Begin { data: Begin<'a> },
    Match { data: Lines<'a> },
    Context { data: Lines<'a> },
    End { data: End<'a> },
}

/// The summary line, which ripgrep prints with `data` before `type`.
#[derive(Serialize)]
struct SummaryMessage {
    data: Summary,
    #[serde(rename = "type")]
    kind: &'static str,
}

/// Bytes as `rg --json` prints them: `{"text": …}` when UTF-8, else `{"bytes": base64}`.
#[derive(Serialize)]
#[serde(untagged)]
enum Data<'a> {
    Text { text: Cow<'a, str> },
    Bytes { bytes: String },
}

impl Data<'_> {
    fn of(bytes: &[u8]) -> Data<'static> {
        use base64::Engine as _;
        match std::str::from_utf8(bytes) {
            Ok(text) => Data::Text { text: Cow::Owned(text.to_owned()) },
            Err(_) => Data::Bytes { bytes: base64::engine::general_purpose::STANDARD.encode(bytes) },
        }
    }
}

#[derive(Serialize)]
struct Begin<'a> {
    path: &'a JsonPath,
}

#[derive(Serialize)]
struct Lines<'a> {
    path: &'a JsonPath,
    lines: Data<'a>,
    line_number: u64,
    absolute_offset: u64,
    submatches: Vec<Submatch<'a>>,
}

#[derive(Serialize)]
struct Submatch<'a> {
    #[serde(rename = "match")]
    matched: Data<'a>,
    start: usize,
    end: usize,
}

#[derive(Serialize)]
struct End<'a> {
    path: &'a JsonPath,
    binary_offset: Option<u64>,
    stats: Stats,
}

#[derive(Serialize, Clone, Copy)]
struct Elapsed {
    secs: u64,
    nanos: u32,
    human: &'static str,
}

impl Default for Elapsed {
    fn default() -> Self {
        Elapsed { secs: 0, nanos: 0, human: "0.000000s" }
    }
}

/// [`Elapsed`] with keys in alphabetical order, as the summary prints it.
#[derive(Serialize, Clone, Copy)]
struct SortedElapsed {
    human: &'static str,
    nanos: u32,
    secs: u64,
}

impl Default for SortedElapsed {
    fn default() -> Self {
        SortedElapsed { human: "0.000000s", nanos: 0, secs: 0 }
    }
}

#[derive(Serialize)]
struct Stats {
    elapsed: Elapsed,
    searches: u64,
    searches_with_match: u64,
    bytes_searched: u64,
    bytes_printed: u64,
    matched_lines: u64,
    matches: u64,
}

impl Stats {
    fn for_counts(searches: u64, with_match: u64, bytes: u64, lines: u64, matches: u64) -> Stats {
        Stats {
            elapsed: Elapsed::default(),
            searches,
            searches_with_match: with_match,
            bytes_searched: bytes,
            bytes_printed: 0,
            matched_lines: lines,
            matches,
        }
    }
}

/// The summary prints its stats with keys in alphabetical order, as ripgrep does.
#[derive(Serialize)]
struct SummaryStats {
    bytes_printed: u64,
    bytes_searched: u64,
    elapsed: SortedElapsed,
    matched_lines: u64,
    matches: u64,
    searches: u64,
    searches_with_match: u64,
}

impl From<&Stats> for SummaryStats {
    fn from(s: &Stats) -> Self {
        SummaryStats {
            bytes_printed: s.bytes_printed,
            bytes_searched: s.bytes_searched,
            elapsed: SortedElapsed::default(),
            matched_lines: s.matched_lines,
            matches: s.matches,
            searches: s.searches,
            searches_with_match: s.searches_with_match,
        }
    }
}

#[derive(Serialize)]
struct Summary {
    elapsed_total: SortedElapsed,
    stats: SummaryStats,
}
