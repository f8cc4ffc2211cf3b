//! A list of path patterns in either syntax a glob takes, matched on paths relative to a
//! walk's start: globset's, or minimatch's (the MCP filesystem server's). Where the file
//! system ignores Unicode normalization, patterns and paths are compared in NFC ([`forms`]).

use std::path::Path;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};
use memchr::memmem::Finder;

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
    /// For globs whose every pattern holds literal ASCII, what each requires of a path
    /// ([`Required`]): a path that meets none of them matches none of the patterns, which byte
    /// compares tell before the globs' automata run.
    required: Option<Vec<Required>>,
}

/// What every path a glob matches holds: the literal ASCII it ends in (`**/*multi.py` ends in
/// `multi.py`) and its longest other literal run, anywhere (`**/distlib/**/*.py` holds
/// `distlib`).
#[derive(Debug)]
struct Required {
    /// Empty when the glob ends in a wildcard, a class or an alternation.
    ending: Box<[u8]>,
    inside: Option<Box<Finder<'static>>>,
}

impl Required {
    /// What `pattern` requires; `None` when it requires no literal (any path may match it).
    fn of(pattern: &str) -> Option<Required> {
        let ending = literal_ending(pattern);
        let inside = longest_inner_literal(pattern, ending.as_ref().map_or(0, |e| e.len()))
            .map(|piece| Box::new(Finder::new(piece).into_owned()));
        (ending.is_some() || inside.is_some())
            .then(|| Required { ending: ending.unwrap_or_default(), inside })
    }

    #[inline]
    fn admits(&self, path: &[u8]) -> bool {
        path.ends_with(&self.ending) && self.inside.as_ref().is_none_or(|inside| inside.find(path).is_some())
    }
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
        let required = match syntax {
            GlobSyntax::Glob if !case_insensitive => patterns.iter().map(|p| Required::of(p)).collect(),
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
        Ok(PathPatterns { kind, unified, required })
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
        if let Some(required) = &self.required {
            if !required.iter().any(|required| required.admits(relative)) {
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
    let start = bytes.iter().rposition(|byte| !plain(*byte)).map_or(0, |at| at + 1);
    (start < bytes.len()).then(|| bytes[start..].into())
}

/// A byte that stands for itself in a glob wherever it is outside a class or an alternation:
/// ASCII, neither a wildcard nor a separator nor part of a class, alternation or escape.
fn plain(byte: u8) -> bool {
    byte.is_ascii() && !b"*?[]{}\\/!,".contains(&byte)
}

/// The longest run of [`plain`] bytes (two at least) in `pattern` outside its alternations,
/// leaving out its last `ending` bytes (tested apart): every path the glob matches holds it.
/// Only what comes before the first class or escape is read, where a `]` or `}` may stand
/// for itself.
fn longest_inner_literal(pattern: &str, ending: usize) -> Option<&[u8]> {
    let bytes = &pattern.as_bytes()[..pattern.len() - ending];
    let bytes = &bytes[..bytes.iter().position(|&b| b == b'[' || b == b'\\').unwrap_or(bytes.len())];
    let (mut depth, mut best, mut start): (usize, &[u8], Option<usize>) = (0, &[], None);
    for (at, &byte) in bytes.iter().enumerate().chain([(bytes.len(), &b'/')]) {
        if depth == 0 && plain(byte) {
            start.get_or_insert(at);
            continue;
        }
        if let Some(from) = start.take() {
            if at - from > best.len() {
                best = &bytes[from..at];
            }
        }
        match byte {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    (best.len() >= 2).then_some(best)
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
    fn a_glob_s_inner_literal_is_its_longest_run_outside_alternations_before_any_class() {
        let inner = |pattern: &str| {
            let ending = literal_ending(pattern).map_or(0, |e| e.len());
            longest_inner_literal(pattern, ending).map(|l| String::from_utf8(l.into()).unwrap())
        };
        assert_eq!(inner("**/distlib/**/*.py").as_deref(), Some("distlib"));
        assert_eq!(inner("src/**/test_*.rs").as_deref(), Some("test_"));
        assert_eq!(inner("**/{tests,testing}/*.py"), None, "inside an alternation");
        assert_eq!(inner("{a,b}core/*.txt").as_deref(), Some("core"));
        assert_eq!(inner("docs/[]ab]more/*"), Some("docs".into()), "nothing after a class");
        assert_eq!(inner("x\\[ab/*.rs"), None, "nothing after an escape");
        assert_eq!(inner("**/*multi.py"), None, "the ending is tested apart");
        assert_eq!(inner("a/*.rs"), None, "one byte is too short");
    }

    #[test]
    fn the_required_literals_never_change_an_answer() {
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
            "**/distlib/**/*.py",
            "**/{tests,testing}/*.py",
            "{a,b}core/*.txt",
            "docs/[]ab]more/*",
            "src/**/test_*.rs",
            "**/x*y/**",
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
            "distlib/x.py",
            "a/distlib/b/c.py",
            "a/distlibs/c.py",
            "tests/a.py",
            "a/testing/b.py",
            "acore/a.txt",
            "core/a.txt",
            "docs/]more/a",
            "docs/a/b",
            "src/test_a.rs",
            "src/a/xtest_b.rs",
            "x/y/z",
            "xay/z",
        ];
        for syntax in [GlobSyntax::Glob, GlobSyntax::Minimatch] {
            for chosen in patterns.windows(2).chain(patterns.chunks(1)) {
                for case_insensitive in [false, true] {
                    let set = PathPatterns::compile_forms(chosen, syntax, case_insensitive, false).unwrap();
                    let mut plain =
                        PathPatterns::compile_forms(chosen, syntax, case_insensitive, false).unwrap();
                    plain.required = None;
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
