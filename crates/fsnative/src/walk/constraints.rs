//! File constraints in FFF's syntax, compiled once into one filter that grep, glob and find
//! all apply to the files they consider (walked or read from the index).
//!
//! A constraint string is whitespace-separated tokens, each tested on a file's path relative
//! to the directory searched (`/`-separated, as the walk yields it):
//!
//! | token | a file passes when |
//! |---|---|
//! | `*.rs` | its name ends in `.rs`; several such tokens are OR'd together |
//! | `src/`, `/src`, `a/b/` | the directories above it include `src` (or `a` then `b`) as whole names: `test/` does not pass `tests/x` |
//! | `type:rust` | ripgrep's type `rust` takes it; several `type:` tokens are OR'd, as `rg -t a -t b` |
//! | a glob (`*`, `?`, `[`, `{` in it) | without `/`: it matches the file name; with `/`: the whole relative path (`**` spans directories, `*` does not) |
//! | `!token` | the token without `!` does not pass it |
//! | `\token` | its path contains `token` literally (the `\` only escapes) |
//! | any other word | its path contains the word |
//!
//! Everything but the extensions (among themselves) and the types (among themselves) is AND'd.
//! Letter case is ignored (ASCII), except by `type:`, which matches as ripgrep does. Tokens are
//! FFF's (fff-search), with these differences: a bare word filters (FFF drops it), `type:`
//! filters (FFF parses and ignores it), and any token with a glob character is a glob (FFF's
//! grep reads only those with `/` or `{` as globs and drops the rest).

use std::path::Path;

use globset::{GlobBuilder, GlobMatcher};
use ignore::types::Types;

use crate::error::{Error, ErrorCode, Result};

/// One test on a relative path.
#[derive(Clone, Debug)]
enum Test {
    /// The directories above the file include these names, consecutive (lower-case).
    Segment(Vec<u8>),
    /// The path contains these bytes (lower-case).
    Word(Vec<u8>),
    /// A glob over the file name (`whole: false`) or the whole relative path.
    Glob { glob: GlobMatcher, whole: bool },
    /// The name ends in `.` and this extension (lower-case).
    Extension(Vec<u8>),
}

impl Test {
    fn passes(&self, path: &[u8]) -> bool {
        match self {
            Test::Segment(segment) => has_segment(path, segment),
            Test::Word(word) => contains_ignore_case(path, word),
            Test::Glob { glob, whole } => {
                let text = if *whole { path } else { name_of(path) };
                glob.is_match(bytes_path(text))
            }
            Test::Extension(extension) => has_extension(name_of(path), extension),
        }
    }
}

/// A compiled constraint string. Cheap to test per file; shared by the threads of a search.
#[derive(Clone, Debug)]
pub(crate) struct Constraints {
    /// Positive extension tokens; a file passes with any one (none: every file does).
    extensions: Vec<Vec<u8>>,
    /// Tests that must all pass (`true`) or all fail (`false`, negated tokens).
    tests: Vec<(Test, bool)>,
    /// `type:` tokens, as ripgrep's type matcher (selected ones OR'd, negated ones excluded).
    types: Option<Types>,
}

impl Constraints {
    /// Compiles `text`; `None` when there is none or it holds no token. A glob that does not
    /// parse or an unknown `type:` name is an [`ErrorCode::InvalidOption`] error naming
    /// `constraints`.
    pub fn parse(text: Option<&str>) -> Result<Option<Constraints>> {
        let Some(text) = text else {
            return Ok(None);
        };
        let mut constraints = Constraints { extensions: Vec::new(), tests: Vec::new(), types: None };
        let (mut select, mut negate) = (Vec::new(), Vec::new());
        for token in text.split_whitespace() {
            let (negated, token) = match token.strip_prefix('!') {
                Some(rest) if !rest.is_empty() => (true, rest),
                _ => (false, token),
            };
            if let Some(name) = token.strip_prefix("type:") {
                if name.is_empty() {
                    return Err(invalid(format!("`{token}` names no file type")));
                }
                if negated { &mut negate } else { &mut select }.push(name.to_owned());
                continue;
            }
            match Self::test(token)? {
                Test::Extension(extension) if !negated => constraints.extensions.push(extension),
                test => constraints.tests.push((test, !negated)),
            }
        }
        constraints.types = types(&select, &negate).map_err(|e| invalid(e.message().to_owned()))?;
        let empty = constraints.extensions.is_empty() && constraints.tests.is_empty();
        Ok((!empty || constraints.types.is_some()).then_some(constraints))
    }

    /// The test one token (without its `!`) stands for.
    fn test(token: &str) -> Result<Test> {
        if let Some(literal) = token.strip_prefix('\\').filter(|rest| !rest.is_empty()) {
            return Ok(Test::Word(literal.to_ascii_lowercase().into_bytes()));
        }
        if let Some(extension) = token.strip_prefix("*.") {
            if !extension.is_empty() && !extension.contains(is_glob_char) && !extension.contains('/') {
                return Ok(Test::Extension(extension.to_ascii_lowercase().into_bytes()));
            }
        }
        if token.contains(is_glob_char) {
            let pattern = token.strip_prefix('/').unwrap_or(token);
            let glob = GlobBuilder::new(pattern)
                .literal_separator(true)
                .backslash_escape(true)
                .case_insensitive(true)
                .build()
                .map_err(|e| invalid(format!("invalid glob {token:?}: {e}")))?;
            return Ok(Test::Glob { glob: glob.compile_matcher(), whole: token.contains('/') });
        }
        let trimmed = token.trim_matches('/');
        if trimmed.len() < token.len() && !trimmed.is_empty() {
            return Ok(Test::Segment(trimmed.to_ascii_lowercase().into_bytes()));
        }
        Ok(Test::Word(token.to_ascii_lowercase().into_bytes()))
    }

    /// Whether the file at `path` (relative to the directory searched) passes.
    pub fn matches(&self, path: &[u8]) -> bool {
        if !self.extensions.is_empty() {
            let name = name_of(path);
            if !self.extensions.iter().any(|extension| has_extension(name, extension)) {
                return false;
            }
        }
        if !self.tests.iter().all(|(test, wanted)| test.passes(path) == *wanted) {
            return false;
        }
        self.types.as_ref().is_none_or(|types| !types.matched(bytes_path(path), false).is_ignore())
    }
}

/// File type filters by ripgrep's type names.
pub(crate) fn types(select: &[String], negate: &[String]) -> Result<Option<Types>> {
    if select.is_empty() && negate.is_empty() {
        return Ok(None);
    }
    let mut builder = ignore::types::TypesBuilder::new();
    builder.add_defaults();
    for name in select {
        builder.select(name);
    }
    for name in negate {
        builder.negate(name);
    }
    builder.build().map(Some).map_err(|e| Error::new(ErrorCode::InvalidArgument, format!("file types: {e}")))
}

fn invalid(message: String) -> Error {
    Error::new(ErrorCode::InvalidOption, format!("constraints: {message}")).with_option("constraints")
}

fn is_glob_char(c: char) -> bool {
    matches!(c, '*' | '?' | '[' | '{')
}

fn bytes_path(bytes: &[u8]) -> &Path {
    Path::new(crate::sys::os_str(bytes))
}

/// The last component of a relative path.
fn name_of(path: &[u8]) -> &[u8] {
    path.iter().rposition(|&b| b == b'/').map_or(path, |slash| &path[slash + 1..])
}

/// `name` ends in `.` and `extension` (lower-case), with something before the dot.
fn has_extension(name: &[u8], extension: &[u8]) -> bool {
    name.len() > extension.len() + 1
        && name[name.len() - extension.len() - 1] == b'.'
        && name[name.len() - extension.len()..].eq_ignore_ascii_case(extension)
}

/// The directories of `path` (every component but the last) include the components of
/// `segment` (lower-case, `/`-separated), consecutive and whole.
fn has_segment(path: &[u8], segment: &[u8]) -> bool {
    let dirs = match path.iter().rposition(|&b| b == b'/') {
        Some(slash) => &path[..slash],
        None => return false,
    };
    let mut start = 0;
    loop {
        let end = start + segment.len();
        if end <= dirs.len()
            && (end == dirs.len() || dirs[end] == b'/')
            && dirs[start..end].eq_ignore_ascii_case(segment)
        {
            return true;
        }
        match dirs[start..].iter().position(|&b| b == b'/') {
            Some(slash) => start += slash + 1,
            None => return false,
        }
    }
}

/// `haystack` contains `needle` (lower-case), ignoring ASCII case.
fn contains_ignore_case(haystack: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || haystack.windows(needle.len()).any(|window| window.eq_ignore_ascii_case(needle))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn passes(constraints: &str, path: &str) -> bool {
        Constraints::parse(Some(constraints)).unwrap().is_none_or(|c| c.matches(path.as_bytes()))
    }

    #[test]
    fn extensions_are_ored_and_the_rest_anded() {
        assert!(passes("*.rs *.toml", "src/lib.rs"));
        assert!(passes("*.rs *.toml", "Cargo.TOML"));
        assert!(!passes("*.rs *.toml", "README.md"));
        assert!(!passes("*.rs", ".rs"));
        assert!(passes("*.rs src/", "crates/src/lib.rs"));
        assert!(!passes("*.rs src/", "crates/lib.rs"));
        assert!(!passes("*.rs !*.rs", "a.rs"));
        assert!(passes("", "anything"));
        assert!(Constraints::parse(Some("  ")).unwrap().is_none());
    }

    #[test]
    fn segments_are_whole_directory_names() {
        assert!(passes("test/", "test/a.py"));
        assert!(passes("/test", "x/TEST/a.py"));
        assert!(!passes("test/", "tests/a.py"));
        assert!(!passes("test/", "mytest/a.py"));
        assert!(!passes("src/", "lib/src"), "the file name is not a directory");
        assert!(passes("a/b/", "x/a/b/c.txt"));
        assert!(!passes("a/b/", "x/a/bb/c.txt"));
        assert!(!passes("a/b/", "x/a/c/b/c.txt"));
        assert!(passes("!test/", "tests/a.py"));
        assert!(!passes("!test/", "src/test/a.py"));
    }

    #[test]
    fn globs_words_escapes_and_types() {
        assert!(passes("*.{rs,md}", "a/b.md"));
        assert!(passes("{lib,main}.rs", "src/lib.rs"));
        assert!(passes("src/**/*.rs", "src/a/b.rs"));
        assert!(!passes("src/*.rs", "src/a/b.rs"), "`*` stays within a directory");
        assert!(!passes("src/**/*.rs", "lib/src/a.rs"), "a glob with `/` is anchored");
        assert!(passes("*test*", "a/my_test.py"));
        assert!(passes("parse", "lib/Parser.rs"));
        assert!(!passes("!parse", "lib/Parser.rs"));
        assert!(passes("\\*.rs", "a/*.rs"));
        assert!(!passes("\\*.rs", "a/b.rs"));
        assert!(passes("!\\!x", "a/b.rs"));
        assert!(passes("type:rust", "a/b.rs"));
        assert!(passes("type:rust type:py", "a/b.py"));
        assert!(!passes("type:rust", "a/b.py"));
        assert!(!passes("!type:rust", "a/b.rs"));
        assert!(passes("!type:rust", "a/b.py"));
    }

    #[test]
    fn bad_tokens_are_option_errors() {
        for bad in ["type:nonesuch", "type:", "a/[z-a].rs"] {
            let error = Constraints::parse(Some(bad)).unwrap_err();
            assert_eq!(
                (error.code(), error.option()),
                (ErrorCode::InvalidOption, Some("constraints")),
                "{bad}"
            );
        }
    }
}
