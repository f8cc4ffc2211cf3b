//! Renderers that turn a [`GrepResult`] into ripgrep's own output formats, byte for byte, so
//! that tools which used to spawn `rg` can keep their output; and grep and find results into
//! the text of Terraphim's FFF tools ([`fff`]).

use serde::Deserialize;

use crate::request::OutputMode;
use crate::result::{ContextLine, FileMatches, FindResult, GrepResult, Match};

pub mod fff;
mod json;

pub use json::json_lines;

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
    /// The text of Terraphim's FFF `grep` and `multi_grep` tools; see [`fff::grep_lines`].
    Fff(fff::FffGrepOptions),
}

/// How a find result is rendered (`{"format": "fff", …}`): so far only as the text of
/// Terraphim's FFF `find_files` tool.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "format", rename_all = "snake_case")]
pub enum FindFormat {
    /// The text of `find_files`; see [`fff::find_lines`].
    Fff(fff::FffFindOptions),
}

/// Renders a find `result` in `format`.
pub fn render_find(result: &FindResult, format: &FindFormat) -> String {
    match format {
        FindFormat::Fff(options) => fff::joined(fff::find_lines(result, options)),
    }
}

/// Renders `result` in `format`. A file name that is not UTF-8 is printed lossily (U+FFFD) in
/// the standard format; [`render_bytes`] prints its bytes, as ripgrep does.
pub fn render(result: &GrepResult, format: &Format) -> String {
    match format {
        Format::Standard(options) => standard(result, options),
        Format::Json(options) => json_lines(result, options),
        Format::Fff(options) => fff::joined(fff::grep_lines(result, options)),
    }
}

/// Renders `result` in `format` as bytes: file names as they are on disk, also when they are
/// not UTF-8 (as ripgrep's standard output prints them; its JSON is always UTF-8).
pub fn render_bytes(result: &GrepResult, format: &Format) -> Vec<u8> {
    match format {
        Format::Standard(options) => standard_bytes(result, options),
        Format::Json(options) => json_lines(result, options).into_bytes(),
        Format::Fff(options) => fff::joined(fff::grep_lines(result, options)).into_bytes(),
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
        let path = &*path_bytes(file, options.path_style);
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
                    if found.break_after {
                        lines.out.extend_from_slice(b"--\n");
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

fn display_path(file: &FileMatches, style: PathStyle) -> &std::path::Path {
    match style {
        PathStyle::Absolute => &file.path,
        PathStyle::Relative => &file.relative_path,
    }
}

/// The file's path as written out: a relative one `/`-separated on every OS.
fn path_bytes(file: &FileMatches, style: PathStyle) -> std::borrow::Cow<'_, [u8]> {
    let bytes = display_path(file, style).as_os_str().as_encoded_bytes();
    match style {
        PathStyle::Absolute => std::borrow::Cow::Borrowed(bytes),
        PathStyle::Relative => crate::sys::slashed(bytes),
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::result::GrepStats;

    fn result_for(name: &[u8], binary_offset: Option<u64>) -> GrepResult {
        let path = crate::sys::path_buf(name.to_vec());
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
            break_after: false,
        };
        GrepResult {
            files: vec![FileMatches {
                path: std::path::Path::new("/r").join(&path),
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
    #[cfg(unix)] // A name of bytes that are not UTF-8: Windows names are UTF-16 (WTF-8 as bytes).
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
