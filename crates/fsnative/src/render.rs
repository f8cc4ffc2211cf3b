//! Renderers that turn a [`GrepResult`] into ripgrep's own output formats, byte for byte, so
//! that tools which used to spawn `rg` can keep their output.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::request::OutputMode;
use crate::result::{ContextLine, FileMatches, GrepResult, Match, RawText};

/// How paths are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PathStyle {
    /// Canonical absolute paths (as `rg PATTERN /abs/dir` prints them).
    #[default]
    Absolute,
    /// Paths relative to their sandbox root (as `rg PATTERN` run inside the root prints them).
    Relative,
}

/// Options of ripgrep's standard (non-TTY) output.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct StandardOptions {
    /// How paths are printed.
    pub path_style: PathStyle,
    /// Print the path on each line (`-H`/`-I`); `None` decides as ripgrep does: a path is
    /// printed unless the scope was a single file.
    pub with_filename: Option<bool>,
    /// Group matches under a path heading, files separated by a blank line (`--heading`,
    /// ripgrep's TTY layout).
    pub heading: bool,
    /// Print line numbers (`-n`). Default true.
    pub line_number: bool,
}

impl Default for StandardOptions {
    fn default() -> Self {
        StandardOptions {
            path_style: PathStyle::Absolute,
            with_filename: None,
            heading: false,
            line_number: true,
        }
    }
}

/// Options of `rg --json` output.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct JsonOptions {
    /// How paths are printed.
    pub path_style: PathStyle,
}

/// A ripgrep output format and its options, as one value (`{"format": "standard", …}` or
/// `{"format": "json", …}` in serde form), for callers that choose the format at run time.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum Format {
    /// ripgrep's standard output; see [`standard`].
    Standard(StandardOptions),
    /// `rg --json` lines; see [`json_lines`].
    Json(JsonOptions),
}

/// Renders `result` in `format`. A file name that is not UTF-8 is printed lossily (U+FFFD) in
/// the standard format; [`render_bytes`] prints its bytes, as ripgrep does.
pub fn render(result: &GrepResult, format: &Format) -> String {
    match format {
        Format::Standard(options) => standard(result, options),
        Format::Json(options) => json_lines(result, options),
    }
}

/// Renders `result` in `format` as bytes: file names as they are on disk, also when they are
/// not UTF-8 (as ripgrep's standard output prints them; its JSON is always UTF-8).
pub fn render_bytes(result: &GrepResult, format: &Format) -> Vec<u8> {
    match format {
        Format::Standard(options) => standard_bytes(result, options),
        Format::Json(options) => json_lines(result, options).into_bytes(),
    }
}

/// Renders `result` as ripgrep's standard output for the mode it was searched in
/// (`-n`, `-l`, `-c`, with or without `-C`), ending in a newline; `""` when nothing matched.
/// A file name that is not UTF-8 is printed lossily (U+FFFD); [`standard_bytes`] prints its
/// bytes.
pub fn standard(result: &GrepResult, options: &StandardOptions) -> String {
    match String::from_utf8(standard_bytes(result, options)) {
        Ok(text) => text,
        Err(err) => String::from_utf8_lossy(err.as_bytes()).into_owned(),
    }
}

/// [`standard`] as bytes, with file names printed byte for byte as ripgrep prints them.
pub fn standard_bytes(result: &GrepResult, options: &StandardOptions) -> Vec<u8> {
    let with_filename = options.with_filename.unwrap_or(!result.single_file);
    let mut out = Vec::new();
    for (index, file) in result.files.iter().enumerate() {
        let path = path_bytes(file, options.path_style);
        match result.mode {
            OutputMode::Files => {
                out.extend_from_slice(path);
                out.push(b'\n');
            }
            OutputMode::Count => {
                if with_filename {
                    out.extend_from_slice(path);
                    out.push(b':');
                }
                out.extend_from_slice(file.count.to_string().as_bytes());
                out.push(b'\n');
            }
            OutputMode::Content => {
                let prefix = match (with_filename, options.heading) {
                    (true, true) => {
                        if index > 0 {
                            out.push(b'\n');
                        }
                        out.extend_from_slice(path);
                        out.push(b'\n');
                        None
                    }
                    (true, false) => Some(path),
                    (false, heading) => {
                        // Under headings ripgrep separates files with a blank line even when
                        // it prints no names (`--heading -I`).
                        if heading && index > 0 {
                            out.push(b'\n');
                        }
                        None
                    }
                };
                let mut lines = LineWriter {
                    out: &mut out,
                    prefix,
                    line_number: options.line_number,
                    separate_groups: result.context_enabled,
                    last_line: None,
                    // Across files ripgrep separates context groups too, except under headings.
                    printed_before: index > 0 && !options.heading,
                };
                for found in &file.matches {
                    for line in &found.before {
                        lines.context(line);
                    }
                    lines.matched(found);
                    for line in &found.after {
                        lines.context(line);
                    }
                }
                if let Some(offset) = file.binary_offset.filter(|_| !file.matches.is_empty()) {
                    if with_filename {
                        out.extend_from_slice(path);
                        out.extend_from_slice(b": ");
                    }
                    out.extend_from_slice(
                        format!(
                            "WARNING: stopped searching binary file after match \
                             (found \"\\0\" byte around offset {offset})\n"
                        )
                        .as_bytes(),
                    );
                }
            }
        }
    }
    out
}

/// Writes one file's lines in ripgrep's `path:N:text` / `path-N-text` layout.
struct LineWriter<'a> {
    out: &'a mut Vec<u8>,
    prefix: Option<&'a [u8]>,
    line_number: bool,
    separate_groups: bool,
    last_line: Option<u64>,
    printed_before: bool,
}

impl LineWriter<'_> {
    fn matched(&mut self, found: &Match) {
        if found.truncated {
            self.line(found.line_number, b':', b"[Omitted long matching line]");
            return;
        }
        let text = found.raw.as_ref().map_or(found.text.as_bytes(), |raw| &raw.bytes);
        for (offset, text) in text.split(|&byte| byte == b'\n').enumerate() {
            self.line(found.line_number + offset as u64, b':', text);
        }
    }

    fn context(&mut self, line: &ContextLine) {
        let text: &[u8] = match &line.raw {
            _ if line.truncated => b"[Omitted long context line]",
            Some(raw) => &raw.bytes,
            None => line.text.as_bytes(),
        };
        self.line(line.line_number, b'-', text);
    }

    fn line(&mut self, number: u64, separator: u8, text: &[u8]) {
        if self.separate_groups {
            let adjacent = self.last_line.is_some_and(|last| number == last + 1);
            if !adjacent && (self.printed_before || self.last_line.is_some()) {
                self.out.extend_from_slice(b"--\n");
            }
        }
        self.last_line = Some(number);
        if let Some(prefix) = self.prefix {
            self.out.extend_from_slice(prefix);
            self.out.push(separator);
        }
        if self.line_number {
            self.out.extend_from_slice(number.to_string().as_bytes());
            self.out.push(separator);
        }
        self.out.extend_from_slice(text);
        self.out.push(b'\n');
    }
}

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

fn display_path(file: &FileMatches, style: PathStyle) -> &std::path::Path {
    match style {
        PathStyle::Absolute => &file.path,
        PathStyle::Relative => &file.relative_path,
    }
}

fn path_bytes(file: &FileMatches, style: PathStyle) -> &[u8] {
    use std::os::unix::ffi::OsStrExt;
    display_path(file, style).as_os_str().as_bytes()
}

/// A path as `rg --json` prints it: `{"text": …}` when it is UTF-8, else `{"bytes": base64}`.
fn json_path(file: &FileMatches, style: PathStyle) -> serde_json::Value {
    use base64::Engine as _;
    let bytes = path_bytes(file, style);
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

#[cfg(test)]
mod tests {
    use std::os::unix::ffi::OsStringExt;
    use std::path::PathBuf;

    use super::*;
    use crate::result::GrepStats;

    fn result_for(name: &[u8], binary_offset: Option<u64>) -> GrepResult {
        let path = PathBuf::from(std::ffi::OsString::from_vec(name.to_vec()));
        let found = Match {
            line_number: 3,
            column: 1,
            byte_offset: 10,
            text: "foo".to_owned(),
            truncated: false,
            unterminated: false,
            raw: None,
            submatches: vec![[0, 3]],
            section_end: None,
            before: Vec::new(),
            after: Vec::new(),
        };
        GrepResult {
            files: vec![FileMatches {
                path: PathBuf::from("/r").join(&path),
                relative_path: path,
                count: 1,
                matches: vec![found],
                bytes_searched: 99,
                binary_offset,
            }],
            total_matches: 1,
            truncated: None,
            next_cursor: None,
            mode: OutputMode::Content,
            context_enabled: false,
            single_file: false,
            stats: GrepStats::default(),
        }
    }

    #[test]
    fn standard_bytes_prints_file_names_as_they_are() {
        let result = result_for(b"bad\xffname.txt", None);
        let options = StandardOptions { path_style: PathStyle::Relative, ..StandardOptions::default() };
        assert_eq!(standard_bytes(&result, &options), b"bad\xffname.txt:3:foo\n");
        // The String form stays lossy.
        assert_eq!(standard(&result, &options), "bad\u{fffd}name.txt:3:foo\n");
        let json = json_lines(&result, &JsonOptions { path_style: PathStyle::Relative });
        assert!(
            json.starts_with(r#"{"type":"begin","data":{"path":{"bytes":"YmFk/25hbWUudHh0"}}}"#),
            "{json}"
        );
    }

    #[test]
    fn a_late_nul_prints_rgs_warning() {
        let result = result_for(b"late.txt", Some(70000));
        let options = StandardOptions { path_style: PathStyle::Relative, ..StandardOptions::default() };
        assert_eq!(
            standard(&result, &options),
            "late.txt:3:foo\nlate.txt: WARNING: stopped searching binary file after match \
             (found \"\\0\" byte around offset 70000)\n"
        );
        let json = json_lines(&result, &JsonOptions { path_style: PathStyle::Relative });
        assert!(json.contains(r#""binary_offset":70000,"#), "{json}");
        assert!(json.contains(r#""bytes_searched":99,"#), "{json}");
    }
}
