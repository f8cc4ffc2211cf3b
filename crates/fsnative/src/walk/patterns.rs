//! A list of path patterns in either syntax a glob takes, matched on paths relative to a
//! walk's start: globset's, or minimatch's (the MCP filesystem server's).

use std::path::Path;

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

use super::minimatch::Minimatch;
use crate::error::{Error, ErrorCode, Result};
use crate::request::GlobSyntax;
use crate::sys::os_str;

/// Compiled patterns; a path matches the list when it matches one of them.
#[derive(Debug)]
pub(crate) enum PathPatterns {
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
        match syntax {
            GlobSyntax::Glob => {
                let mut set = GlobSetBuilder::new();
                for pattern in patterns {
                    let glob = GlobBuilder::new(pattern)
                        .literal_separator(true)
                        .backslash_escape(true)
                        .case_insensitive(case_insensitive)
                        .build()
                        .map_err(|e| invalid(pattern, &e))?;
                    set.add(glob);
                }
                let set = set.build().map_err(|e| invalid(&patterns.join(" "), &e))?;
                Ok(PathPatterns::Glob(set))
            }
            GlobSyntax::Minimatch => {
                let compile = |p: &&str| {
                    let text = if case_insensitive { p.to_lowercase() } else { p.to_string() };
                    Minimatch::new(&text).map_err(|e| invalid(p, &e))
                };
                let patterns = patterns.iter().map(compile).collect::<Result<_>>()?;
                Ok(PathPatterns::Minimatch { patterns, fold_case: case_insensitive })
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        match self {
            PathPatterns::Glob(set) => set.is_empty(),
            PathPatterns::Minimatch { patterns, .. } => patterns.is_empty(),
        }
    }

    /// Whether the relative path `relative` matches one of the patterns.
    pub fn matches(&self, relative: &[u8]) -> bool {
        match self {
            PathPatterns::Glob(set) => set.is_match(Path::new(os_str(relative))),
            PathPatterns::Minimatch { patterns, fold_case } => {
                let text = String::from_utf8_lossy(relative);
                let text = if *fold_case { text.to_lowercase().into() } else { text };
                patterns.iter().any(|pattern| pattern.matches(&text))
            }
        }
    }
}

fn invalid(pattern: &str, err: &dyn std::fmt::Display) -> Error {
    Error::new(ErrorCode::InvalidGlob, format!("invalid glob {pattern:?}: {err}"))
}
