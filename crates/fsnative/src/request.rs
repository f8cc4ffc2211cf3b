//! Request types for [`grep`](crate::Sandbox::grep), [`glob`](crate::Sandbox::glob) and
//! [`find`](crate::Sandbox::find).
//!
//! Both deserialize from one neutral snake_case naming (used by the shared conformance
//! vectors and by the bindings), and every field has a default, so `{}` plus a pattern is a
//! complete request.

use serde::{Deserialize, Serialize};

/// One string or a list of strings; serialized as a list.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "OneOrManyRepr", into = "Vec<String>")]
pub struct OneOrMany(pub Vec<String>);

#[derive(Deserialize)]
#[serde(untagged)]
enum OneOrManyRepr {
    One(String),
    Many(Vec<String>),
}

impl From<OneOrManyRepr> for OneOrMany {
    fn from(repr: OneOrManyRepr) -> Self {
        match repr {
            OneOrManyRepr::One(s) => OneOrMany(vec![s]),
            OneOrManyRepr::Many(v) => OneOrMany(v),
        }
    }
}

impl From<OneOrMany> for Vec<String> {
    fn from(v: OneOrMany) -> Self {
        v.0
    }
}

impl<S: Into<String>> FromIterator<S> for OneOrMany {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        OneOrMany(iter.into_iter().map(Into::into).collect())
    }
}

/// How letter case is compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CaseMode {
    /// Exact case (the default).
    #[default]
    Sensitive,
    /// Case-insensitive.
    Insensitive,
    /// Insensitive unless a pattern contains an upper-case letter (ripgrep's `-S`).
    Smart,
}

/// What a grep reports.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputMode {
    /// Every matching line, with context (ripgrep's default).
    #[default]
    Content,
    /// Only the files that match (ripgrep's `-l`).
    Files,
    /// The number of matching lines per file (ripgrep's `-c`).
    Count,
}

/// The order of results.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SortOrder {
    /// By path, component by component, in byte order (ripgrep's `--sort path`).
    #[default]
    Path,
    /// By modification time, newest first; ties by path.
    Mtime,
    /// By frecency, highest first (files never recorded score 0); ties by path. Needs a
    /// sandbox with a frecency database.
    Frecency,
    /// No order promised. Today this is path order: the walks produce it at no extra cost.
    None,
}

/// Which kinds of entries a glob yields.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// Regular files only (the default).
    #[default]
    Files,
    /// Directories only.
    Dirs,
    /// Files and directories.
    All,
}

/// How a glob's patterns are read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GlobSyntax {
    /// globset's syntax, with a leading `!` excluding (the default).
    #[default]
    Glob,
    /// minimatch's, with `dot: true`, as the official MCP filesystem server's `search_files`
    /// reads its pattern and excludes: a leading `!` negates the pattern, braces, classes
    /// and extglobs as minimatch expands them.
    Minimatch,
}

/// The default cap on match records (content mode) or files (files and count modes).
pub const DEFAULT_GREP_LIMIT: u64 = 1000;
/// The default cap on glob entries.
pub const DEFAULT_GLOB_LIMIT: u64 = 1000;
/// The default cap on find entries.
pub const DEFAULT_FIND_LIMIT: u64 = 20;

fn default_grep_limit() -> Option<u64> {
    Some(DEFAULT_GREP_LIMIT)
}

fn default_glob_limit() -> Option<u64> {
    Some(DEFAULT_GLOB_LIMIT)
}

fn default_find_limit() -> Option<u64> {
    Some(DEFAULT_FIND_LIMIT)
}

/// A content search. See the crate documentation for an example.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GrepRequest {
    /// One or more patterns; a line matches if any of them matches. Alias: `pattern`.
    #[serde(alias = "pattern")]
    pub patterns: OneOrMany,
    /// Treat patterns as literal strings, not regular expressions.
    pub fixed_strings: bool,
    /// Case sensitivity.
    pub case_mode: CaseMode,
    /// Only match at word boundaries (ripgrep's `-w`).
    pub word: bool,
    /// Let patterns match across lines (ripgrep's `-U`); `.` still stops at a newline.
    pub multiline: bool,
    /// Report the lines that do not match.
    pub invert: bool,
    /// Files or directories to search (validated by the sandbox; relative paths resolve
    /// against the first root). Empty: every root. Alias: `path`.
    #[serde(alias = "path")]
    pub paths: OneOrMany,
    /// ripgrep `--glob` filters, matched relative to the root; a leading `!` excludes.
    /// Alias: `glob`.
    #[serde(alias = "glob")]
    pub globs: OneOrMany,
    /// ripgrep file type names to include (`py`, `rust`, `ts`, …). Alias: `type`.
    #[serde(alias = "type")]
    pub types: OneOrMany,
    /// ripgrep file type names to exclude.
    pub types_not: OneOrMany,
    /// FFF-style file constraints (`*.rs !test/ src/ type:rust …`), tested on each file's
    /// path relative to the search path it was found under; see docs/find.md. A file
    /// given as a search path is searched whatever they say.
    pub constraints: Option<String>,
    /// Visit hidden files and directories (names starting with `.`). `.git` is never visited.
    pub hidden: bool,
    /// Follow symlinks; only those whose target resolves inside the sandbox are followed.
    pub follow_links: bool,
    /// Do not read `.gitignore`, `.ignore`, `.rgignore` or `.git/info/exclude`.
    pub no_ignore: bool,
    /// Descend at most this many levels below each search path (0 = the path itself).
    pub max_depth: Option<usize>,
    /// Skip files larger than this many bytes.
    pub max_filesize: Option<u64>,
    /// Search binary files (those with a NUL byte) as text instead of skipping them.
    pub search_binary: bool,
    /// What to report.
    pub mode: OutputMode,
    /// Lines of context before and after each match (overridden by `before`/`after`).
    pub context: Option<usize>,
    /// Lines of context before each match.
    pub before_context: Option<usize>,
    /// Lines of context after each match.
    pub after_context: Option<usize>,
    /// Stop searching a file after this many matching lines (ripgrep's `--max-count`).
    pub max_count_per_file: Option<u64>,
    /// Regexes that mark where a section ends (e.g. `^\s*def `): each match then carries
    /// `section_end`, the first later line of its file that matches one of them.
    pub section_end_patterns: OneOrMany,
    /// Cap on match records (content mode) or files (files and count modes) in one page;
    /// `None` means no cap. Default 1000.
    #[serde(default = "default_grep_limit")]
    pub limit: Option<u64>,
    /// Lines longer than this many bytes are cut to it and marked `truncated`.
    pub max_columns: Option<usize>,
    /// Result order; `none` is treated as `path`.
    pub sort: SortOrder,
    /// The `next_cursor` of a previous page of the same request.
    pub cursor: Option<String>,
    /// Give up after this many milliseconds and return what was found, flagged `timeout`.
    pub timeout_ms: Option<u64>,
    /// Threads that search at once (default: the number of CPUs; at most
    /// [`MAX_THREADS`](crate::MAX_THREADS)) while the calling thread walks. A search that is
    /// over within 0.3 ms runs on the calling thread alone.
    pub threads: Option<usize>,
}

impl Default for GrepRequest {
    fn default() -> Self {
        GrepRequest {
            patterns: OneOrMany::default(),
            fixed_strings: false,
            case_mode: CaseMode::default(),
            word: false,
            multiline: false,
            invert: false,
            paths: OneOrMany::default(),
            globs: OneOrMany::default(),
            types: OneOrMany::default(),
            types_not: OneOrMany::default(),
            constraints: None,
            hidden: false,
            follow_links: false,
            no_ignore: false,
            max_depth: None,
            max_filesize: None,
            search_binary: false,
            mode: OutputMode::default(),
            context: None,
            before_context: None,
            after_context: None,
            max_count_per_file: None,
            section_end_patterns: OneOrMany::default(),
            limit: default_grep_limit(),
            max_columns: None,
            sort: SortOrder::default(),
            cursor: None,
            timeout_ms: None,
            threads: None,
        }
    }
}

impl GrepRequest {
    /// A request for one pattern with every other option at its default.
    pub fn new(pattern: impl Into<String>) -> GrepRequest {
        GrepRequest { patterns: OneOrMany(vec![pattern.into()]), ..GrepRequest::default() }
    }

    /// Lines of context before each match, after `context`/`before_context` are combined.
    pub fn lines_before(&self) -> usize {
        self.before_context.or(self.context).unwrap_or(0)
    }

    /// Lines of context after each match, after `context`/`after_context` are combined.
    pub fn lines_after(&self) -> usize {
        self.after_context.or(self.context).unwrap_or(0)
    }
}

/// A file-name search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GlobRequest {
    /// One or more glob patterns relative to each base (`**`, `{a,b}`, `[..]`); a leading `!`
    /// excludes. Alias: `pattern`.
    #[serde(alias = "pattern")]
    pub patterns: OneOrMany,
    /// Base directories (validated; relative ones resolve against the first root).
    /// Empty: every root. Alias: `path`.
    #[serde(alias = "path")]
    pub paths: OneOrMany,
    /// How `patterns` and `exclude` are read.
    pub syntax: GlobSyntax,
    /// Patterns (in `syntax`) matched as `patterns` are, on each entry's path relative to its
    /// base: an entry that matches one is left out, and a directory that matches is not
    /// entered.
    pub exclude: OneOrMany,
    /// Match names case-insensitively.
    pub case_insensitive: bool,
    /// FFF-style file constraints (`*.rs !test/ src/ type:rust …`), tested on each file's
    /// path relative to its base, as the patterns are; directories pass them.
    pub constraints: Option<String>,
    /// Visit hidden files and directories (names starting with `.`). `.git` is visited only
    /// with `git_dir`.
    pub hidden: bool,
    /// Visit `.git` directories too (when hidden entries are visited).
    pub git_dir: bool,
    /// Follow symlinks; only those whose target resolves inside the sandbox are followed.
    pub follow_links: bool,
    /// Do not read `.gitignore`, `.ignore`, `.rgignore` or `.git/info/exclude`.
    pub no_ignore: bool,
    /// Descend at most this many levels below each search path (0 = the path itself).
    pub max_depth: Option<usize>,
    /// Which kinds of entries to yield.
    pub kind: EntryKind,
    /// Result order.
    pub sort: SortOrder,
    /// Cap on entries returned; `total` still counts every match. Default 1000.
    #[serde(default = "default_glob_limit")]
    pub limit: Option<u64>,
    /// Give up after this many milliseconds and return what was found, flagged `timeout`.
    pub timeout_ms: Option<u64>,
}

impl Default for GlobRequest {
    fn default() -> Self {
        GlobRequest {
            patterns: OneOrMany::default(),
            paths: OneOrMany::default(),
            syntax: GlobSyntax::default(),
            exclude: OneOrMany::default(),
            case_insensitive: false,
            constraints: None,
            hidden: false,
            git_dir: false,
            follow_links: false,
            no_ignore: false,
            max_depth: None,
            kind: EntryKind::default(),
            sort: SortOrder::default(),
            limit: default_glob_limit(),
            timeout_ms: None,
        }
    }
}

impl GlobRequest {
    /// A request for one pattern with every other option at its default.
    pub fn new(pattern: impl Into<String>) -> GlobRequest {
        GlobRequest { patterns: OneOrMany(vec![pattern.into()]), ..GlobRequest::default() }
    }
}

/// A fuzzy search of file paths, typo-tolerant, best matches first. See docs/find.md for how
/// paths are scored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FindRequest {
    /// What to look for: one or more whitespace-separated parts, each matched fuzzily
    /// against the path relative to `path` (all must match). Case is ignored unless the query
    /// holds an upper-case letter.
    pub query: String,
    /// The directory to search (validated; a relative one resolves against the first root).
    /// `None`: every root.
    pub path: Option<String>,
    /// Cap on entries returned; `total` still counts every match. `None`: no cap. Default 20.
    #[serde(default = "default_find_limit")]
    pub limit: Option<u64>,
    /// FFF-style file constraints (`*.rs !test/ src/ type:rust …`), tested on each file's
    /// path relative to `path`.
    pub constraints: Option<String>,
    /// Give up after this many milliseconds and return what was ranked, flagged `timeout`.
    pub timeout_ms: Option<u64>,
}

impl Default for FindRequest {
    fn default() -> Self {
        FindRequest {
            query: String::new(),
            path: None,
            limit: default_find_limit(),
            constraints: None,
            timeout_ms: None,
        }
    }
}

impl FindRequest {
    /// A request for `query` with every other option at its default.
    pub fn new(query: impl Into<String>) -> FindRequest {
        FindRequest { query: query.into(), ..FindRequest::default() }
    }
}
