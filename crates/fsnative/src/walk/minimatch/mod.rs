//! minimatch's matching, as the official MCP filesystem server calls it
//! (`minimatch(relativePath, pattern, { dot: true })`): braces expanded first, the pattern and
//! the path split on `/`, a `**` segment matching any number of segments, every other segment
//! matched on its own ([`segment`]). Leading `!`s negate, a leading `#` makes a comment that
//! matches nothing, and the empty pattern matches only the empty path.

mod braces;
mod segment;

use segment::Segment;

use crate::error::{Error, ErrorCode, Result};

/// The longest pattern minimatch accepts (it throws beyond this).
const MAX_PATTERN_LENGTH: usize = 64 * 1024;

/// One part of a split pattern.
#[derive(Clone, Debug)]
enum Part {
    /// `**`: any number of segments.
    Globstar,
    Segment(Segment),
}

/// A compiled minimatch pattern (with `dot: true`).
#[derive(Clone, Debug)]
pub(crate) struct Minimatch {
    /// The pattern after its leading `!`s, expanded and split: a path matches when it
    /// matches one of these.
    alternatives: Vec<Vec<Part>>,
    negated: bool,
    kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Normal,
    /// Starts with `#`: matches nothing.
    Comment,
    /// The empty pattern: matches only the empty path.
    Empty,
}

impl Minimatch {
    /// Compiles `pattern`; only an over-long pattern is an error, as in minimatch.
    pub fn new(pattern: &str) -> Result<Minimatch> {
        if pattern.len() > MAX_PATTERN_LENGTH {
            return Err(Error::new(ErrorCode::InvalidGlob, "pattern is too long"));
        }
        let plain = |kind| Ok(Minimatch { alternatives: Vec::new(), negated: false, kind });
        if pattern.starts_with('#') {
            return plain(Kind::Comment);
        }
        if pattern.is_empty() {
            return plain(Kind::Empty);
        }
        let rest = pattern.trim_start_matches('!');
        let negated = (pattern.len() - rest.len()) % 2 == 1;
        let alternatives = braces::expand(rest).iter().map(|expanded| split(expanded)).collect();
        Ok(Minimatch { alternatives, negated, kind: Kind::Normal })
    }

    /// Whether `path` (relative, `/`-separated) matches.
    pub fn matches(&self, path: &str) -> bool {
        match self.kind {
            Kind::Comment => return false,
            Kind::Empty => return path.is_empty(),
            Kind::Normal => {}
        }
        let names: Vec<&str> = split_slashes(path);
        let hit = self.alternatives.iter().any(|parts| parts_match(parts, &names));
        hit != self.negated
    }
}

/// Splits on runs of `/` (a leading `/` leaves an empty first segment).
fn split_slashes(text: &str) -> Vec<&str> {
    let mut names: Vec<&str> = text.split('/').collect();
    let mut i = 1;
    while i < names.len() {
        // `a//b` is `a/b`; a trailing `/` keeps one empty segment.
        if names[i].is_empty() && i + 1 < names.len() {
            names.remove(i);
        } else {
            i += 1;
        }
    }
    names
}

/// One expanded pattern split into parts, with minimatch's first optimisation: adjacent `**`
/// collapse and `x/..` cancels out.
fn split(pattern: &str) -> Vec<Part> {
    let mut kept: Vec<&str> = Vec::new();
    for name in split_slashes(pattern) {
        let previous = kept.last().copied();
        if name == "**" && previous == Some("**") {
            continue;
        }
        if name == ".." && previous.is_some_and(|p| !matches!(p, ".." | "." | "**")) {
            kept.pop();
            continue;
        }
        kept.push(name);
    }
    if kept.is_empty() {
        kept.push("");
    }
    kept.into_iter()
        .map(|name| if name == "**" { Part::Globstar } else { Part::Segment(Segment::parse(name)) })
        .collect()
}

/// Whether `names` match `parts` in full; `**` takes zero or more names, but at the end of a
/// pattern at least one, and never a `.` or `..` name.
fn parts_match(parts: &[Part], names: &[&str]) -> bool {
    // reachable[p][n]: parts[p..] can match names[n..].
    let (p_len, n_len) = (parts.len(), names.len());
    let mut reachable = vec![vec![false; n_len + 1]; p_len + 1];
    reachable[p_len][n_len] = true;
    for p in (0..p_len).rev() {
        for n in (0..=n_len).rev() {
            reachable[p][n] = match &parts[p] {
                Part::Globstar if p + 1 == p_len => {
                    n < n_len && names[n..].iter().all(|name| !matches!(*name, "." | ".."))
                }
                Part::Globstar => {
                    reachable[p + 1][n]
                        || (n < n_len && !matches!(names[n], "." | "..") && reachable[p][n + 1])
                }
                Part::Segment(segment) => n < n_len && segment.matches(names[n]) && reachable[p + 1][n + 1],
            };
        }
    }
    reachable[0][0]
}

#[cfg(test)]
mod tests {
    use super::Minimatch;

    fn hit(pattern: &str, path: &str) -> bool {
        Minimatch::new(pattern).unwrap().matches(path)
    }

    #[test]
    fn paths_globstars_negation_and_comments() {
        assert!(hit("**/*.py", "a.py") && hit("**/*.py", "x/.y/a.py") && !hit("*.py", "x/a.py"));
        assert!(hit("a/**", "a/b") && !hit("a/**", "a") && hit("a/**/b", "a/b") && hit("a/**/b", "a/x/y/b"));
        assert!(hit("node_modules", "node_modules") && !hit("node_modules", "x/node_modules"));
        assert!(hit("**/node_modules/**", "node_modules/x") && hit("{a,b}/*.js", "b/c.js"));
        assert!(hit("!*.js", "a.py") && !hit("!*.js", "a.js") && !hit("#x", "#x"));
        assert!(hit("", "") && !hit("", "a") && hit("a//b", "a/b") && hit("a/../b", "b"));
        assert!(!hit("src/", "src") && hit("**", ".env"));
    }
}
