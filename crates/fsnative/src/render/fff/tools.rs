//! The FFF drop-in's three tools (Terraphim's `find_files`, `grep` and `multi_grep`), each rule
//! once: their limits and defaults, how a call's arguments become the core's options
//! ([`call`]), a whole call on a sandbox ([`run`]), and the texts that describe them to an MCP
//! client ([`catalog`]). The Node (`fsnative/fff`) and Python (`fsnative.fff`) adapters read
//! all of it from here (through `Sandbox.fffTool` / `Sandbox.fff_tool` and the bindings'
//! catalog); they only register the tools on an MCP server and split the text into lines.
//!
//! ```
//! use fsnative::render::fff::tools::{call, FffTool};
//! let arguments = serde_json::from_str(r#"{"query": "TODO", "output_mode": "files"}"#)?;
//! let found = call(FffTool::Grep, &arguments, false)?;
//! assert_eq!(found.search["mode"], "count");
//! assert_eq!(found.search["limit"], 50);
//! assert_eq!(found.render["path"], ".");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde::Serialize;
use serde_json::{json, Value};

use crate::control::CancelToken;
use crate::error::{Error, ErrorCode, Result};
use crate::options::{KeyStyle, Options};
use crate::render::{render, render_find, FindFormat, Format};
use crate::request::{FindRequest, GrepRequest};
use crate::roots::Intent;
use crate::sandbox::Sandbox;

/// Paths `find_files` lists unless `limit` says otherwise, as Terraphim's.
pub const FIND_LIMIT: u64 = 20;
/// Matching lines (files, with `output_mode: "files"`) in one grep page unless `limit` says
/// otherwise.
pub const GREP_LIMIT: u64 = 50;
/// Files larger than this many bytes are not searched, as in Terraphim.
pub const MAX_FILESIZE: u64 = 10 * MIB;
/// Matching lines reported per file at most, as in Terraphim.
pub const MATCHES_PER_FILE: u64 = 200;
/// A longer line is cut to this many bytes (at a character boundary), as in Terraphim.
pub const MAX_LINE_BYTES: u64 = 512;

const MIB: u64 = 1024 * 1024;

/// One of the three tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FffTool {
    /// Fuzzy path search.
    FindFiles,
    /// Content search for one plain-text string.
    Grep,
    /// Content search for any of several plain-text strings.
    MultiGrep,
}

/// What a tool's argument takes, for an adapter that builds the tool's input schema.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ArgumentKind {
    /// A string.
    String,
    /// A non-negative integer.
    Integer,
    /// A list of strings.
    Strings,
    /// One of these strings.
    Choice {
        /// The strings it takes.
        choices: Vec<&'static str>,
    },
}

/// One argument of a tool: its name, what it takes, whether it must be given, and its
/// description.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Argument {
    /// Terraphim's name of it.
    pub name: &'static str,
    /// What it takes.
    #[serde(flatten)]
    pub kind: ArgumentKind,
    /// Whether a call must give it.
    pub required: bool,
    /// What it is when left out (`null`: none), as an input schema shows it.
    pub default: Value,
    /// Its description for an MCP client, with its default.
    pub description: String,
}

/// A tool as an MCP client sees it: name, description and arguments.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ToolSpec {
    /// The tool's name (an adapter may put a prefix before it).
    pub name: &'static str,
    /// What the tool does, with its limits.
    pub description: String,
    /// Its arguments, in Terraphim's order.
    pub arguments: Vec<Argument>,
}

impl FffTool {
    /// The three tools, in Terraphim's order.
    pub const ALL: [FffTool; 3] = [FffTool::FindFiles, FffTool::Grep, FffTool::MultiGrep];

    /// The tool's name: `find_files`, `grep` or `multi_grep`.
    pub const fn name(self) -> &'static str {
        match self {
            FffTool::FindFiles => "find_files",
            FffTool::Grep => "grep",
            FffTool::MultiGrep => "multi_grep",
        }
    }

    /// The tool named `name`.
    pub fn from_name(name: &str) -> Option<FffTool> {
        FffTool::ALL.into_iter().find(|tool| tool.name() == name)
    }

    /// The tool named `name`, or an [`ErrorCode::InvalidArgument`] error naming the three.
    pub fn named(name: &str) -> Result<FffTool> {
        FffTool::from_name(name).ok_or_else(|| {
            let message = format!("no FFF tool `{name}`: the tools are find_files, grep and multi_grep");
            Error::new(ErrorCode::InvalidArgument, message)
        })
    }

    /// The tool as an MCP client sees it.
    pub fn spec(self) -> ToolSpec {
        let description = match self {
            FffTool::FindFiles => "Fuzzy file path search (typos allowed): the paths under `path` that best match \
                                   the query, best first, each with its score."
                .to_owned(),
            FffTool::Grep => format!(
                "Search file contents for a plain-text string (smart case: case-insensitive unless it has an \
                 upper-case letter). Lines come as path:line:text, at most {MATCHES_PER_FILE} per file, cut at \
                 {MAX_LINE_BYTES} bytes; files over {} MiB are skipped. When there is more, the last line is \
                 `next_cursor: TOKEN`: call again with the same arguments and cursor=TOKEN for the next page (no \
                 match is skipped).",
                MAX_FILESIZE / MIB
            ),
            FffTool::MultiGrep => "Search file contents for lines matching ANY of several plain-text patterns (OR \
                                   logic) in one pass; faster than separate grep calls. `constraints` limits the \
                                   files searched. Output, limits and cursor pagination as in grep."
                .to_owned(),
        };
        let names: &[&'static str] = match self {
            FffTool::FindFiles => &["query", "path", "limit"],
            FffTool::Grep => &["query", "path", "limit", "output_mode", "cursor"],
            FffTool::MultiGrep => &["patterns", "path", "constraints", "limit", "output_mode", "cursor"],
        };
        let arguments = names.iter().map(|name| self.argument(name)).collect();
        ToolSpec { name: self.name(), description, arguments }
    }

    /// The tool's argument `name` (one of its own).
    fn argument(self, name: &'static str) -> Argument {
        let (kind, required, description) = match (self, name) {
            (FffTool::FindFiles, "query") => (ArgumentKind::String, true, "Fuzzy search string".to_owned()),
            (_, "query") => (ArgumentKind::String, true, "Search pattern (plain text)".to_owned()),
            (_, "patterns") => (
                ArgumentKind::Strings,
                true,
                "Patterns to match (OR logic). Include all naming conventions: snake_case, PascalCase, camelCase."
                    .to_owned(),
            ),
            (_, "path") => {
                (ArgumentKind::String, false, "Directory to search (defaults to current directory)".to_owned())
            }
            (_, "constraints") => {
                (ArgumentKind::String, false, "File constraints (e.g. '*.rs !test/')".to_owned())
            }
            (FffTool::FindFiles, "limit") => {
                (ArgumentKind::Integer, false, format!("Maximum number of results (default {FIND_LIMIT})"))
            }
            (_, "limit") => {
                (ArgumentKind::Integer, false, format!("Maximum number of matches to return (default {GREP_LIMIT})"))
            }
            (_, "output_mode") => (
                ArgumentKind::Choice { choices: vec!["content", "files"] },
                false,
                "Return 'content' (file:line:text, default) or 'files' (unique file paths only)".to_owned(),
            ),
            _ => (
                ArgumentKind::String,
                false,
                "Pagination cursor from a previous result's next_cursor field".to_owned(),
            ),
        };
        let default = match (self, name) {
            (_, "path") => json!("."),
            (FffTool::FindFiles, "limit") => json!(FIND_LIMIT),
            (_, "limit") => json!(GREP_LIMIT),
            (_, "output_mode") => json!("content"),
            (_, "constraints") => json!(""),
            _ => Value::Null,
        };
        Argument { name, kind, required, default, description }
    }
}

/// A tool call as the core's options, snake_case: `search` for the sandbox's `grep` or `find`,
/// `render` for the result's `render` (format `"fff"`). A grep tool's `render` lacks `base`,
/// which [`run`] adds: what `path` validates to (`Sandbox::validate`, read intent).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FffCall {
    /// The options of the search.
    pub search: Options,
    /// The options of the rendering.
    pub render: Options,
}

/// The core's options for a call of `tool` with `arguments` (Terraphim's names; `null` or
/// left out: the default). With `frecency` (the sandbox keeps a frecency database) files come
/// most used first, else in path order. An unknown argument, a missing one or a value an
/// argument does not take is an [`ErrorCode::InvalidOption`] error naming it.
pub fn call(tool: FffTool, arguments: &Options, frecency: bool) -> Result<FffCall> {
    let spec = tool.spec();
    let given = |name: &str| arguments.get(name).filter(|value| !value.is_null());
    for (key, value) in arguments {
        let Some(argument) = spec.arguments.iter().find(|argument| argument.name == key) else {
            let message = format!("unknown {} argument `{key}`", tool.name());
            return Err(Error::new(ErrorCode::InvalidOption, message).with_option(key));
        };
        if !value.is_null() && !takes(&argument.kind, value) {
            let message = format!("{} argument `{key}` must be {}", tool.name(), words(&argument.kind));
            return Err(Error::new(ErrorCode::InvalidOption, message).with_option(key));
        }
    }
    if let Some(missing) =
        spec.arguments.iter().find(|argument| argument.required && given(argument.name).is_none())
    {
        let message = format!("{} needs argument `{}`", tool.name(), missing.name);
        return Err(Error::new(ErrorCode::InvalidOption, message).with_option(missing.name));
    }
    let default = |name: &str| {
        spec.arguments.iter().find(|a| a.name == name).map_or(Value::Null, |a| a.default.clone())
    };
    let path = given("path").cloned().unwrap_or_else(|| default("path"));
    // An empty string, as some clients send for "none", is none.
    let text_or_null = |name: &str| match given(name) {
        Some(Value::String(text)) if !text.is_empty() => json!(text),
        _ => Value::Null,
    };
    let object = |value: Value| match value {
        Value::Object(options) => options,
        _ => unreachable!("json! of an object"),
    };
    if tool == FffTool::FindFiles {
        let query = given("query").cloned().unwrap_or_default();
        let limit = given("limit").cloned().unwrap_or_else(|| default("limit"));
        return Ok(FffCall {
            search: object(json!({ "query": query, "path": path, "limit": limit })),
            render: object(json!({ "format": "fff", "query": query, "path": path })),
        });
    }
    let (patterns, listed) = match tool {
        FffTool::MultiGrep => {
            let patterns = given("patterns").cloned().unwrap_or_default();
            (patterns.clone(), patterns)
        }
        _ => (json!([given("query").cloned().unwrap_or_default()]), Value::Null),
    };
    let files = given("output_mode").cloned().unwrap_or_else(|| default("output_mode")) == "files";
    let search = json!({
        "patterns": patterns,
        "path": path,
        "fixed_strings": true,
        "case_mode": "smart",
        "max_filesize": MAX_FILESIZE,
        "max_count_per_file": MATCHES_PER_FILE,
        "max_columns": MAX_LINE_BYTES,
        // Files mode lists each file once, with its count of matching lines in the header.
        "mode": if files { "count" } else { "content" },
        "sort": if frecency { "frecency" } else { "path" },
        "limit": given("limit").cloned().unwrap_or_else(|| default("limit")),
        "cursor": text_or_null("cursor"),
        "constraints": text_or_null("constraints"),
    });
    let render = json!({ "format": "fff", "path": path, "patterns": listed });
    Ok(FffCall { search: object(search), render: object(render) })
}

/// Runs a call of `tool` with `arguments` on `sandbox`, as the FFF drop-in answers it: the
/// text of [`super::grep_lines`] or [`super::find_lines`], one line per MCP text block, each
/// ending in `\n`. Files come most used first when the sandbox keeps frecency. A grep tool's
/// `path` is validated (read intent) and printed paths are relative to it.
pub fn run(sandbox: &Sandbox, tool: FffTool, arguments: &Options, cancel: &CancelToken) -> Result<String> {
    let FffCall { search, render: mut render_options } = call(tool, arguments, sandbox.frecency().is_some())?;
    if tool == FffTool::FindFiles {
        let request = FindRequest::from_options(&search, KeyStyle::SnakeCase)?;
        let format = FindFormat::from_options(&render_options, KeyStyle::SnakeCase)?;
        return Ok(render_find(&sandbox.find_cancellable(&request, cancel)?, &format));
    }
    let path = render_options.get("path").and_then(Value::as_str).unwrap_or(".");
    // The core takes text: a base that is not UTF-8 reads lossily (files then print absolute).
    let base = sandbox.validate(path, Intent::Read)?.to_string_lossy().into_owned();
    render_options.insert("base".to_owned(), Value::String(base));
    let request = GrepRequest::from_options(&search, KeyStyle::SnakeCase)?;
    let format = Format::from_options(&render_options, KeyStyle::SnakeCase)?;
    Ok(render(&sandbox.grep_cancellable(&request, cancel)?, &format))
}

/// The drop-in's limits, for the adapters that show them (`FIND_LIMIT` and so on).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Limits {
    /// [`FIND_LIMIT`].
    pub find_limit: u64,
    /// [`GREP_LIMIT`].
    pub grep_limit: u64,
    /// [`MAX_FILESIZE`].
    pub max_filesize: u64,
    /// [`MATCHES_PER_FILE`].
    pub matches_per_file: u64,
    /// [`MAX_LINE_BYTES`].
    pub max_line_bytes: u64,
}

/// Everything an adapter shows of the drop-in: the three tools and the limits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Catalog {
    /// The tools, in Terraphim's order.
    pub tools: Vec<ToolSpec>,
    /// The limits and defaults.
    pub limits: Limits,
}

/// The drop-in's tools and limits.
pub fn catalog() -> Catalog {
    Catalog {
        tools: FffTool::ALL.into_iter().map(FffTool::spec).collect(),
        limits: Limits {
            find_limit: FIND_LIMIT,
            grep_limit: GREP_LIMIT,
            max_filesize: MAX_FILESIZE,
            matches_per_file: MATCHES_PER_FILE,
            max_line_bytes: MAX_LINE_BYTES,
        },
    }
}

/// Whether an argument of `kind` takes `value`.
fn takes(kind: &ArgumentKind, value: &Value) -> bool {
    match kind {
        ArgumentKind::String => value.is_string(),
        ArgumentKind::Integer => value.is_u64(),
        ArgumentKind::Strings => value.as_array().is_some_and(|items| items.iter().all(Value::is_string)),
        ArgumentKind::Choice { choices } => value.as_str().is_some_and(|given| choices.contains(&given)),
    }
}

/// What an argument of `kind` takes, in words.
fn words(kind: &ArgumentKind) -> String {
    match kind {
        ArgumentKind::String => "a string".to_owned(),
        ArgumentKind::Integer => "a non-negative integer".to_owned(),
        ArgumentKind::Strings => "a list of strings".to_owned(),
        ArgumentKind::Choice { choices } => {
            let quoted: Vec<String> = choices.iter().map(|choice| format!("{choice:?}")).collect();
            format!("one of {}", quoted.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(value: Value) -> Options {
        match value {
            Value::Object(options) => options,
            _ => unreachable!("tests pass objects"),
        }
    }

    #[test]
    fn descriptions_state_the_limits_the_calls_apply() {
        let grep = FffTool::Grep.spec();
        assert!(grep.description.contains("at most 200 per file, cut at 512 bytes; files over 10 MiB"));
        let found = call(FffTool::Grep, &options(json!({"query": "x"})), false).unwrap();
        assert_eq!(found.search["max_count_per_file"], MATCHES_PER_FILE);
        assert_eq!(found.search["max_columns"], MAX_LINE_BYTES);
        assert_eq!(found.search["max_filesize"], MAX_FILESIZE);
        let limit = |tool: FffTool| tool.spec().arguments.into_iter().find(|a| a.name == "limit").unwrap();
        assert!(limit(FffTool::FindFiles).description.ends_with("(default 20)"));
        assert!(limit(FffTool::MultiGrep).description.ends_with("(default 50)"));
    }

    #[test]
    fn every_argument_has_its_own_description() {
        for tool in FffTool::ALL {
            assert_eq!(FffTool::from_name(tool.name()), Some(tool));
            for argument in tool.spec().arguments {
                let cursor = "Pagination cursor from a previous result's next_cursor field";
                assert_eq!(argument.name == "cursor", argument.description == cursor, "{}", argument.name);
            }
        }
    }

    #[test]
    fn arguments_are_checked() {
        let error =
            call(FffTool::Grep, &options(json!({"query": "x", "constraints": "*.rs"})), false).unwrap_err();
        assert_eq!((error.code(), error.option()), (ErrorCode::InvalidOption, Some("constraints")));
        assert_eq!(error.message(), "unknown grep argument `constraints`");
        let error = call(FffTool::MultiGrep, &options(json!({"patterns": "x"})), false).unwrap_err();
        assert_eq!(error.message(), "multi_grep argument `patterns` must be a list of strings");
        let error = call(FffTool::FindFiles, &options(json!({"limit": 3})), false).unwrap_err();
        assert_eq!(error.message(), "find_files needs argument `query`");
        let error = call(FffTool::Grep, &options(json!({"query": "x", "output_mode": "count"})), false);
        assert_eq!(
            error.unwrap_err().message(),
            "grep argument `output_mode` must be one of \"content\", \"files\""
        );
    }
}
