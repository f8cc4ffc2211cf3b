//! From a pattern to what a matching file must contain: a boolean query over grams.
//!
//! The patterns are parsed as the matcher parses them; each piece of the syntax tree gives
//! either the exact, small set of strings it matches or only a requirement on its matches.
//! Concatenations multiply small sets (`ab[cd]` gives `abc`, `abd`), alternations unite them,
//! and anything too large or open-ended (`\w+`, `.*`) leaves what was gathered so far as a
//! requirement. A string gives its grams, cut as file bytes are ([`super::gram`]): its
//! trigrams, and its case-kept grams (junctions, capital trigrams) when the search keeps case.
//! The query is a necessary condition for a match, never a sufficient one: files it does
//! not rule out are searched.

use regex_syntax::hir::{Class, Hir, HirKind};

use super::gram::{each_cased_gram, fold, gram_hash};

/// The most strings a set may hold before it becomes a requirement.
const MAX_SET: usize = 64;
/// The longest string kept in a set (longer ones are already very selective).
const MAX_STRING: usize = 64;
/// The most characters of a class enumerated into a set.
const MAX_CLASS: usize = 8;

/// Whether a search tells case apart: only then do its strings give case-kept grams.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Case {
    /// Case-sensitive: strings are the bytes a match holds.
    Exact,
    /// Case-insensitive: strings are folded, and give trigrams alone.
    Folded,
}

/// A requirement on a file's grams (hashed).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum GramQuery {
    /// Every file may match.
    Any,
    /// No file can match (a pattern that matches nothing).
    Never,
    /// All of these grams.
    All(Vec<u16>),
    And(Vec<GramQuery>),
    Or(Vec<GramQuery>),
}

impl GramQuery {
    /// The grams of one literal: its trigrams, and its case-kept grams when `case` is exact (any
    /// file, when it is shorter than three bytes).
    pub fn literal(bytes: &[u8], case: Case) -> GramQuery {
        if bytes.len() < 3 {
            return GramQuery::Any;
        }
        let mut hashes: Vec<u16> = bytes
            .windows(3)
            .map(|w| {
                gram_hash(u32::from(fold(w[0])) | u32::from(fold(w[1])) << 8 | u32::from(fold(w[2])) << 16)
            })
            .collect();
        if case == Case::Exact {
            each_cased_gram(bytes, |hash| hashes.push(hash));
        }
        hashes.sort_unstable();
        hashes.dedup();
        GramQuery::All(hashes)
    }

    /// What matching any of `patterns` requires, each parsed as the matcher parses it (with
    /// case folding, and `case` folded, when the matcher may fold case).
    pub fn of_patterns(patterns: &[Hir], case: Case) -> GramQuery {
        GramQuery::or(patterns.iter().map(|hir| Info::of(hir, case).into_query(case)).collect())
    }

    fn and(parts: Vec<GramQuery>) -> GramQuery {
        let mut grams = Vec::new();
        let mut rest = Vec::new();
        for part in parts {
            match part {
                GramQuery::Any => {}
                GramQuery::Never => return GramQuery::Never,
                GramQuery::All(hashes) => grams.extend(hashes),
                GramQuery::And(inner) => rest.extend(inner),
                other => rest.push(other),
            }
        }
        grams.sort_unstable();
        grams.dedup();
        if !grams.is_empty() {
            rest.insert(0, GramQuery::All(grams));
        }
        match rest.len() {
            0 => GramQuery::Any,
            1 => rest.pop().unwrap_or(GramQuery::Any),
            _ => GramQuery::And(rest),
        }
    }

    fn or(parts: Vec<GramQuery>) -> GramQuery {
        let mut rest = Vec::new();
        for part in parts {
            match part {
                GramQuery::Any => return GramQuery::Any,
                GramQuery::Never => {}
                GramQuery::Or(inner) => rest.extend(inner),
                other => rest.push(other),
            }
        }
        match rest.len() {
            0 => GramQuery::Never,
            1 => rest.pop().unwrap_or(GramQuery::Never),
            _ => GramQuery::Or(rest),
        }
    }

    /// The query rules nothing out.
    pub fn is_any(&self) -> bool {
        *self == GramQuery::Any
    }

    /// Evaluates the query over 64 signatures at once: `word(hash)` gives, for a trigram's
    /// hash, a bit per signature that has it; the result has a bit per signature that may
    /// satisfy the query.
    pub fn eval(&self, word: &impl Fn(u16) -> u64) -> u64 {
        match self {
            GramQuery::Any => !0,
            GramQuery::Never => 0,
            GramQuery::All(hashes) => {
                let mut bits = !0;
                for &hash in hashes {
                    bits &= word(hash);
                    if bits == 0 {
                        break;
                    }
                }
                bits
            }
            GramQuery::And(parts) => {
                let mut bits = !0;
                for part in parts {
                    bits &= part.eval(word);
                    if bits == 0 {
                        break;
                    }
                }
                bits
            }
            GramQuery::Or(parts) => parts.iter().fold(0, |bits, part| bits | part.eval(word)),
        }
    }
}

/// What one piece of a pattern tells: the exact set of strings it matches (folded when the
/// case is) when that is small, else a requirement on any match.
enum Info {
    Exact(Vec<Vec<u8>>),
    Requires(GramQuery),
}

impl Info {
    fn of(hir: &Hir, case: Case) -> Info {
        let cased = |byte: u8| if case == Case::Folded { fold(byte) } else { byte };
        match hir.kind() {
            HirKind::Empty | HirKind::Look(_) => Info::Exact(vec![Vec::new()]),
            HirKind::Literal(literal) => Info::Exact(vec![literal.0.iter().map(|&b| cased(b)).collect()]),
            HirKind::Class(class) => {
                class_strings(class, cased).map_or(Info::Requires(GramQuery::Any), Info::Exact)
            }
            HirKind::Capture(capture) => Info::of(&capture.sub, case),
            HirKind::Repetition(repetition) => {
                let inner = Info::of(&repetition.sub, case);
                match (repetition.min, repetition.max) {
                    (1, Some(1)) => inner,
                    (0, Some(1)) => match inner {
                        Info::Exact(mut strings) => {
                            strings.push(Vec::new());
                            Info::Exact(normalized(strings))
                        }
                        Info::Requires(_) => Info::Requires(GramQuery::Any),
                    },
                    (0, _) => Info::Requires(GramQuery::Any),
                    _ => Info::Requires(inner.into_query(case)),
                }
            }
            HirKind::Concat(parts) => {
                let mut required = Vec::new();
                let mut run: Vec<Vec<u8>> = vec![Vec::new()];
                let mut exact = true;
                for part in parts {
                    match Info::of(part, case) {
                        Info::Exact(strings) => match product(&run, &strings) {
                            Some(joined) => run = joined,
                            None => {
                                let before = std::mem::replace(&mut run, strings);
                                required.push(Info::Exact(before).into_query(case));
                                exact = false;
                            }
                        },
                        Info::Requires(query) => {
                            let before = std::mem::replace(&mut run, vec![Vec::new()]);
                            required.push(Info::Exact(before).into_query(case));
                            required.push(query);
                            exact = false;
                        }
                    }
                }
                if exact {
                    return Info::Exact(run);
                }
                required.push(Info::Exact(run).into_query(case));
                Info::Requires(GramQuery::and(required))
            }
            HirKind::Alternation(parts) => {
                let infos: Vec<Info> = parts.iter().map(|part| Info::of(part, case)).collect();
                if infos.iter().all(|info| matches!(info, Info::Exact(_))) {
                    let strings: Vec<Vec<u8>> = infos
                        .into_iter()
                        .flat_map(|info| match info {
                            Info::Exact(strings) => strings,
                            Info::Requires(_) => Vec::new(),
                        })
                        .collect();
                    let strings = normalized(strings);
                    if strings.len() <= MAX_SET {
                        return Info::Exact(strings);
                    }
                    return Info::Requires(GramQuery::or(
                        strings.iter().map(|s| GramQuery::literal(s, case)).collect(),
                    ));
                }
                Info::Requires(GramQuery::or(infos.into_iter().map(|info| info.into_query(case)).collect()))
            }
        }
    }

    fn into_query(self, case: Case) -> GramQuery {
        match self {
            Info::Exact(strings) => {
                GramQuery::or(strings.iter().map(|s| GramQuery::literal(s, case)).collect())
            }
            Info::Requires(query) => query,
        }
    }
}

/// Every string of `left` followed by every string of `right`, unless that is too many or
/// too long.
fn product(left: &[Vec<u8>], right: &[Vec<u8>]) -> Option<Vec<Vec<u8>>> {
    if left.len() * right.len() > MAX_SET {
        return None;
    }
    let mut joined = Vec::with_capacity(left.len() * right.len());
    for a in left {
        for b in right {
            if a.len() + b.len() > MAX_STRING {
                return None;
            }
            joined.push([a.as_slice(), b.as_slice()].concat());
        }
    }
    Some(normalized(joined))
}

fn normalized(mut strings: Vec<Vec<u8>>) -> Vec<Vec<u8>> {
    strings.sort_unstable();
    strings.dedup();
    strings
}

/// The strings a small class matches (each character UTF-8 encoded, its bytes `cased`).
fn class_strings(class: &Class, cased: impl Fn(u8) -> u8) -> Option<Vec<Vec<u8>>> {
    let mut strings = Vec::new();
    match class {
        Class::Unicode(class) => {
            for range in class.ranges() {
                for c in range.start()..=range.end() {
                    if strings.len() >= MAX_CLASS {
                        return None;
                    }
                    let mut buffer = [0; 4];
                    strings.push(c.encode_utf8(&mut buffer).bytes().map(&cased).collect());
                }
            }
        }
        Class::Bytes(class) => {
            for range in class.ranges() {
                for b in range.start()..=range.end() {
                    if strings.len() >= MAX_CLASS {
                        return None;
                    }
                    strings.push(vec![cased(b)]);
                }
            }
        }
    }
    Some(normalized(strings))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(pattern: &str, insensitive: bool) -> GramQuery {
        let parsed = regex_syntax::ParserBuilder::new().case_insensitive(insensitive).build().parse(pattern);
        let case = if insensitive { Case::Folded } else { Case::Exact };
        parsed.map_or(GramQuery::Any, |hir| GramQuery::of_patterns(&[hir], case))
    }

    fn exact(literal: &[u8]) -> GramQuery {
        GramQuery::literal(literal, Case::Exact)
    }

    #[test]
    fn literals_alternations_and_classes_give_grams() {
        assert_eq!(query("hello", false), exact(b"hello"));
        assert_eq!(query("HeLLo", true), GramQuery::literal(b"hello", Case::Folded), "folded as files are");
        assert_eq!(query("ab", false), GramQuery::Any);
        assert_eq!(query(r"\w+", false), GramQuery::Any);
        assert_eq!(query("", false), GramQuery::Any);
        assert_eq!(query("ab[cd]e", false), GramQuery::or(vec![exact(b"abce"), exact(b"abde")]));
        assert_eq!(query(r"foo\w+bar", false), GramQuery::and(vec![exact(b"foo"), exact(b"bar")]));
        assert!(matches!(query("alpha|beta|gamma", false), GramQuery::Or(parts) if parts.len() == 3));
        assert_eq!(query("(abc)?", false), GramQuery::Any);
        assert_eq!(query("(abc)+x", false), exact(b"abc"));
        assert_eq!(query(&regex_syntax::escape("a.c"), false), exact(b"a.c"));
        assert_eq!(query("k", true), query("K", false), "one-letter sets stay below three bytes");
        assert!(matches!(query("kernel", true), GramQuery::Or(_)), "the Kelvin sign is another spelling");
    }

    #[test]
    fn phrases_ask_for_their_junctions_only_when_case_counts() {
        let grams = |query: GramQuery| match query {
            GramQuery::All(hashes) => hashes.len(),
            other => panic!("one literal gives one set of grams, not {other:?}"),
        };
        // `def Dump`: 6 trigrams; junctions `ef D` and `f Du`. (No `s` or `k`, which fold to
        // more than one spelling.)
        assert_eq!(grams(query("def Dump", true)), 6);
        assert_eq!(grams(query("def Dump", false)), 8);
        assert_eq!(grams(query("def_Dump", false)), 6, "no word edge, no junction");
        // `getName`: 5 trigrams; the junction `etNa` at its hump.
        assert_eq!(grams(query("getName", false)), 6);
        assert_eq!(grams(query("getName", true)), 5);
        assert_eq!(grams(query("get_name", false)), 6, "no hump in lower case");
        // `PYTHON`: 4 trigrams, and as many capital trigrams.
        assert_eq!(grams(query("PYTHON", false)), 8);
        assert_eq!(grams(query("PYTHON", true)), 4);
        assert_ne!(exact(b"class Request"), exact(b"class request"));
        let folded = |text: &[u8]| GramQuery::literal(text, Case::Folded);
        assert_eq!(folded(b"class Request"), folded(b"class request"));
    }
}
