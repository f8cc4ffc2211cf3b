//! A list of path patterns in either syntax a glob takes, matched on paths relative to a
//! walk's start: globset's, or minimatch's (the MCP filesystem server's). Where the file
//! system ignores Unicode normalization, patterns and paths are compared in NFC ([`forms`]).

use std::path::Path;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::forms;
use super::minimatch::Minimatch;
use crate::error::{Error, ErrorCode, Result};
use crate::request::GlobSyntax;
use crate::sys::os_str;

/// Compiled patterns; a path matches the list when it matches one of them.
#[derive(Debug)]
pub(crate) struct PathPatterns {
    kind: Kind,
    /// Patterns and paths compared in NFC.
    unified: bool,
    /// For globs whose every pattern ends in literal ASCII (`**/*multi.py` ends in `multi.py`),
    /// those endings: a path that ends in none of them matches none of the patterns, which a
    /// byte compare tells before the globs' automata run.
    endings: Option<Vec<Box<[u8]>>>,
}

#[derive(Debug)]
enum Kind {
    Glob(GlobSet),
    /// Matched on the path as text (invalid UTF-8 replaced), lower-cased when `fold_case`.
    Minimatch {
        patterns: Vec<Minimatch>,
        fold_case: bool,
    },
}

impl PathPatterns {
    /// Compiles `patterns` as `syntax` reads them.
    pub fn compile(patterns: &[&str], syntax: GlobSyntax, case_insensitive: bool) -> Result<PathPatterns> {
        PathPatterns::compile_forms(patterns, syntax, case_insensitive, forms::UNIFIED)
    }

    /// [`PathPatterns::compile`], comparing in NFC when `unified`.
    fn compile_forms(
        patterns: &[&str],
        syntax: GlobSyntax,
        case_insensitive: bool,
        unified: bool,
    ) -> Result<PathPatterns> {
        let normalized: Vec<std::borrow::Cow<'_, str>> =
            patterns.iter().map(|p| if unified { forms::nfc(p) } else { (*p).into() }).collect();
        let patterns: Vec<&str> = normalized.iter().map(|p| p.as_ref()).collect();
        let endings = match syntax {
            GlobSyntax::Glob if !case_insensitive => patterns.iter().map(|p| literal_ending(p)).collect(),
            _ => None,
        };
        let kind = match syntax {
            GlobSyntax::Glob => {
                let mut set = GlobSetBuilder::new();
                for pattern in &patterns {
                    let glob = GlobBuilder::new(pattern)
                        .literal_separator(true)
                        .backslash_escape(true)
                        .case_insensitive(case_insensitive)
                        .build()
                        .map_err(|e| invalid(pattern, &e))?;
                    set.add(glob);
                }
                Kind::Glob(set.build().map_err(|e| invalid(&patterns.join(" "), &e))?)
            }
            GlobSyntax::Minimatch => {
                let compile = |p: &&str| {
                    let text = if case_insensitive { p.to_lowercase() } else { p.to_string() };
                    Minimatch::new(&text).map_err(|e| invalid(p, &e))
                };
                let patterns = patterns.iter().map(compile).collect::<Result<_>>()?;
                Kind::Minimatch { patterns, fold_case: case_insensitive }
            }
        };
        Ok(PathPatterns { kind, unified, endings })
    }

    pub fn is_empty(&self) -> bool {
        match &self.kind {
            Kind::Glob(set) => set.is_empty(),
            Kind::Minimatch { patterns, .. } => patterns.is_empty(),
        }
    }

    /// Whether the relative path `relative` matches one of the patterns.
    pub fn matches(&self, relative: &[u8]) -> bool {
        let normalized = if self.unified { forms::nfc_bytes(relative) } else { relative.into() };
        let relative = normalized.as_ref();
        if let Some(endings) = &self.endings {
            if !endings.iter().any(|ending| relative.ends_with(ending)) {
                return false;
            }
        }
        match &self.kind {
            Kind::Glob(set) => set.is_match(Path::new(os_str(relative))),
            Kind::Minimatch { patterns, fold_case } => {
                let text = String::from_utf8_lossy(relative);
                let text = if *fold_case { text.to_lowercase().into() } else { text };
                patterns.iter().any(|pattern| pattern.matches(&text))
            }
        }
    }
}

/// The literal ASCII bytes a glob ends in, after its last wildcard, class, alternation or
/// escape (and within its last component): every path it matches ends in them. `None` when
/// there are none.
fn literal_ending(pattern: &str) -> Option<Box<[u8]>> {
    let bytes = pattern.as_bytes();
    let literal = |byte: &u8| byte.is_ascii() && !b"*?[]{}\\/!".contains(byte);
    let start = bytes.iter().rposition(|byte| !literal(byte)).map_or(0, |at| at + 1);
    (start < bytes.len()).then(|| bytes[start..].into())
}

fn invalid(pattern: &str, err: &dyn std::fmt::Display) -> Error {
    Error::new(ErrorCode::InvalidGlob, format!("invalid glob {pattern:?}: {err}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_glob_s_literal_ending_is_what_follows_its_last_wildcard_in_its_last_component() {
        let ending = |pattern: &str| literal_ending(pattern).map(|e| String::from_utf8(e.into()).unwrap());
        assert_eq!(ending("**/*multi.py").as_deref(), Some("multi.py"));
        assert_eq!(ending("src/**/test_?.rs").as_deref(), Some(".rs"));
        assert_eq!(ending("Makefile").as_deref(), Some("Makefile"));
        assert_eq!(ending("**/*.{py,pyi}"), None);
        assert_eq!(ending("docs/[ab]"), None);
        assert_eq!(ending("src/"), None);
        assert_eq!(ending("**"), None);
        assert_eq!(ending("a/b\\*"), None);
        assert_eq!(ending("**/caf\u{e9}").as_deref(), None, "non-ASCII ends the literal");
    }

    #[test]
    fn the_endings_never_change_an_answer() {
        let patterns = [
            "**/*multi.py",
            "*.py",
            "**/*.py",
            "src/**/test_?.rs",
            "Makefile",
            "**/Makefile",
            "**/*.{py,pyi}",
            "a/*",
            "**/b.txt",
            "**/*tx",
            "x*y",
            "[ab].py",
        ];
        let paths = [
            "multi.py",
            "a/multi.py",
            "a/b/xmulti.py",
            "a/multi.pyc",
            "x.py",
            "a/x.py",
            "src/a/test_1.rs",
            "src/test_12.rs",
            "Makefile",
            "sub/Makefile",
            "sub/Makefile.am",
            "a/b.pyi",
            "a/b",
            "b.txt",
            "c/b.txt",
            "c/b.tx",
            "xay",
            "x/y",
            "a.py",
            "ab.py",
        ];
        for syntax in [GlobSyntax::Glob, GlobSyntax::Minimatch] {
            for chosen in patterns.windows(2).chain(patterns.chunks(1)) {
                for case_insensitive in [false, true] {
                    let set = PathPatterns::compile_forms(chosen, syntax, case_insensitive, false).unwrap();
                    let mut plain =
                        PathPatterns::compile_forms(chosen, syntax, case_insensitive, false).unwrap();
                    plain.endings = None;
                    for path in paths {
                        assert_eq!(
                            set.matches(path.as_bytes()),
                            plain.matches(path.as_bytes()),
                            "{chosen:?} {path} {syntax:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn where_forms_are_unified_either_spelling_matches_the_other() {
        let composed = "caf\u{e9}/*.txt";
        let decomposed_name = "cafe\u{301}/menu.txt".as_bytes();
        let composed_name = "caf\u{e9}/menu.txt".as_bytes();
        for syntax in [GlobSyntax::Glob, GlobSyntax::Minimatch] {
            let unified = PathPatterns::compile_forms(&[composed], syntax, false, true).unwrap();
            assert!(unified.matches(decomposed_name) && unified.matches(composed_name), "{syntax:?}");
            let decomposed =
                PathPatterns::compile_forms(&["cafe\u{301}/*.txt"], syntax, false, true).unwrap();
            assert!(decomposed.matches(composed_name) && decomposed.matches(decomposed_name), "{syntax:?}");
            let apart = PathPatterns::compile_forms(&[composed], syntax, false, false).unwrap();
            assert!(apart.matches(composed_name) && !apart.matches(decomposed_name), "{syntax:?}");
        }
    }
}
