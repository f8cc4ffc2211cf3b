//! Compiling grep patterns, with limits that make hostile patterns fail fast.

use std::sync::{Arc, Mutex};

use grep_regex::{RegexMatcher, RegexMatcherBuilder};

use crate::error::{Error, ErrorCode, Result};
use crate::index::{GramCase, GramQuery};
use crate::request::{CaseMode, GrepRequest};

/// Longest pattern text accepted, summed over all patterns.
pub const MAX_PATTERN_BYTES: usize = 64 * 1024;
/// Deepest nesting of groups, classes and repetitions accepted.
pub const MAX_PATTERN_NESTING: u32 = 128;
/// Largest compiled program accepted (bytes of the regex engine's NFA).
pub const MAX_COMPILED_BYTES: usize = 16 * 1024 * 1024;

/// How many compiled matchers a sandbox keeps for reuse.
const CACHED_MATCHERS: usize = 32;

/// Everything that decides how patterns compile.
#[derive(Clone, PartialEq, Eq)]
struct MatcherKey {
    patterns: Vec<String>,
    case_mode: CaseMode,
    word: bool,
    fixed_strings: bool,
    multiline: bool,
    /// The section-end matcher of `section_end_patterns` (plain regexes).
    sections: bool,
}

/// Recently compiled matchers, so a repeated search (the next page, the same section
/// patterns on every call) does not compile its regexes again. Compiling a Unicode-aware
/// pattern can cost milliseconds, more than searching a small tree. Matchers are shared, not
/// cloned: a clone of a regex starts with empty lazy-DFA caches and would determinize again.
#[derive(Default)]
pub(crate) struct MatcherCache {
    /// Most recently used last.
    entries: Mutex<Vec<(MatcherKey, Arc<RegexMatcher>)>>,
    /// The index's prefilter queries of the same patterns, most recently used last.
    prefilters: Mutex<Vec<(MatcherKey, Arc<GramQuery>)>>,
}

impl std::fmt::Debug for MatcherCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cached = self.entries.lock().map_or(0, |entries| entries.len());
        write!(f, "MatcherCache({cached} matchers)")
    }
}

impl MatcherKey {
    /// The key of `request`'s own patterns.
    fn of(request: &GrepRequest) -> MatcherKey {
        MatcherKey {
            patterns: request.patterns.0.clone(),
            case_mode: request.case_mode,
            word: request.word,
            fixed_strings: request.fixed_strings,
            multiline: request.multiline,
            sections: false,
        }
    }
}

impl MatcherCache {
    /// The cached matcher for `key`, or the one `compile` builds (then cached).
    fn get_or_compile(
        &self,
        key: MatcherKey,
        compile: impl FnOnce() -> Result<RegexMatcher>,
    ) -> Result<Arc<RegexMatcher>> {
        recent_or(&self.entries, key, compile)
    }

    /// The cached prefilter query of `request`'s patterns, or the one `make` builds.
    pub(crate) fn prefilter(
        &self,
        request: &GrepRequest,
        make: impl FnOnce() -> GramQuery,
    ) -> Arc<GramQuery> {
        recent_or(&self.prefilters, MatcherKey::of(request), || Ok(make()))
            .unwrap_or_else(|_| Arc::new(GramQuery::Any))
    }
}

/// The value cached under `key` in `entries` (then made the most recent), or the one `make`
/// builds, cached unless it failed; the least recently used leaves past [`CACHED_MATCHERS`].
fn recent_or<V>(
    entries: &Mutex<Vec<(MatcherKey, Arc<V>)>>,
    key: MatcherKey,
    make: impl FnOnce() -> Result<V>,
) -> Result<Arc<V>> {
    {
        let mut entries = entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(index) = entries.iter().position(|(k, _)| k == &key) {
            let entry = entries.remove(index);
            let value = Arc::clone(&entry.1);
            entries.push(entry);
            return Ok(value);
        }
    }
    let value = Arc::new(make()?);
    let mut entries = entries.lock().unwrap_or_else(|e| e.into_inner());
    if entries.len() >= CACHED_MATCHERS {
        entries.remove(0);
    }
    entries.push((key, Arc::clone(&value)));
    Ok(value)
}

/// Builds the matcher for `request`, mapping failures to `INVALID_PATTERN` or
/// `PATTERN_TOO_LARGE`.
pub(crate) fn build(cache: &MatcherCache, request: &GrepRequest) -> Result<Arc<RegexMatcher>> {
    if request.patterns.0.is_empty() {
        return Err(Error::new(ErrorCode::InvalidArgument, "at least one pattern is required"));
    }
    cache.get_or_compile(MatcherKey::of(request), || build_uncached(request))
}

fn build_uncached(request: &GrepRequest) -> Result<RegexMatcher> {
    compile(&request.patterns.0, request.fixed_strings, |builder| {
        builder
            .case_insensitive(request.case_mode == CaseMode::Insensitive)
            .case_smart(request.case_mode == CaseMode::Smart)
            .word(request.word)
            .fixed_strings(request.fixed_strings)
            // `^` and `$` match at line boundaries, as in ripgrep (which always sets this):
            // an anchored pattern then still takes the searcher's fast line-by-line path,
            // and reports the bytes it searched as ripgrep does.
            .multi_line(true);
        if !request.multiline {
            builder.line_terminator(Some(b'\n'));
        }
    })
}

/// Builds the matcher of `section_end_patterns` (plain, case-sensitive regexes), if any.
pub(crate) fn build_sections(
    cache: &MatcherCache,
    request: &GrepRequest,
) -> Result<Option<Arc<RegexMatcher>>> {
    let patterns = &request.section_end_patterns.0;
    if patterns.is_empty() {
        return Ok(None);
    }
    let key = MatcherKey {
        patterns: patterns.clone(),
        case_mode: CaseMode::Sensitive,
        word: false,
        fixed_strings: false,
        multiline: false,
        sections: true,
    };
    let compile_sections = || {
        compile(patterns, false, |builder| {
            builder.line_terminator(Some(b'\n'));
        })
    };
    cache.get_or_compile(key, compile_sections).map(Some)
}

/// Compiles `patterns` under fsnative's size limits, after `configure` set the options.
/// `literal`: the patterns are fixed strings (they cannot fail to parse).
fn compile(
    patterns: &[String],
    literal: bool,
    configure: impl FnOnce(&mut RegexMatcherBuilder),
) -> Result<RegexMatcher> {
    let total: usize = patterns.iter().map(String::len).sum();
    if total > MAX_PATTERN_BYTES {
        return Err(Error::new(
            ErrorCode::PatternTooLarge,
            format!("patterns are {total} bytes long; the limit is {MAX_PATTERN_BYTES}"),
        ));
    }
    let mut builder = RegexMatcherBuilder::new();
    builder.nest_limit(MAX_PATTERN_NESTING).size_limit(MAX_COMPILED_BYTES).dfa_size_limit(MAX_COMPILED_BYTES);
    configure(&mut builder);
    builder.build_many(patterns).map_err(|err| {
        // grep-regex joins the patterns as `(?:p1)|(?:p2)` before parsing, so its message
        // quotes that, with the caret under the joined text (ripgrep 15 prints the same).
        // Parse each pattern alone to show the one at fault as the user wrote it, the caret
        // under the fault; other failures (size limits, a `\n` without multiline) keep
        // grep-regex's message.
        let own = if literal { None } else { patterns.iter().find_map(|pattern| parse_error(pattern)) };
        match own {
            Some(message) => classify(&format!("regex parse error:\n{message}")),
            None => classify(&err.to_string()),
        }
    })
}

/// A parser of patterns as the matcher reads them (`case_insensitive`: fold case).
fn parser(case_insensitive: bool) -> regex_syntax::Parser {
    regex_syntax::ParserBuilder::new()
        .utf8(false)
        .multi_line(true)
        .octal(false)
        .case_insensitive(case_insensitive)
        .nest_limit(MAX_PATTERN_NESTING)
        .build()
}

/// What a file must contain for `request`'s patterns to match in it (the index's
/// prefilter): nothing is required of an inverted search, or when a pattern does not parse.
pub(crate) fn prefilter_query(cache: &MatcherCache, request: &GrepRequest) -> Arc<GramQuery> {
    if request.invert {
        return Arc::new(GramQuery::Any);
    }
    cache.prefilter(request, || parse_prefilter(request))
}

fn parse_prefilter(request: &GrepRequest) -> GramQuery {
    let case = match request.case_mode {
        CaseMode::Sensitive => GramCase::Exact,
        CaseMode::Insensitive => GramCase::Folded,
        CaseMode::Smart => smart_case(request),
    };
    let mut parsed = Vec::with_capacity(request.patterns.0.len());
    for pattern in &request.patterns.0 {
        let pattern = if request.fixed_strings { regex_syntax::escape(pattern) } else { pattern.clone() };
        // A parser per pattern: regex-syntax's parser panics when used a second time.
        match parser(case == GramCase::Folded).parse(&pattern) {
            Ok(hir) => parsed.push(hir),
            Err(_) => return GramQuery::Any,
        }
    }
    GramQuery::of_patterns(&parsed, case)
}

/// The case a smart-case search matches in, decided as grep-regex decides it: over the
/// patterns joined into one alternation, it folds case when some character is written as a
/// literal (alone or in a bracketed class) and none of those is upper case. Folded when the
/// join does not parse, which only weakens the prefilter.
fn smart_case(request: &GrepRequest) -> GramCase {
    use regex_syntax::ast::{Ast, ClassSet, ClassSetItem, Literal};

    /// Literals seen, and whether one was upper case.
    #[derive(Default)]
    struct Cased {
        literal: bool,
        upper: bool,
    }
    impl Cased {
        fn literal(&mut self, literal: &Literal) {
            self.literal = true;
            self.upper |= literal.c.is_uppercase();
        }
        fn ast(&mut self, ast: &Ast) {
            match ast {
                Ast::Literal(literal) => self.literal(literal),
                Ast::ClassBracketed(class) => self.set(&class.kind),
                Ast::Repetition(repetition) => self.ast(&repetition.ast),
                Ast::Group(group) => self.ast(&group.ast),
                Ast::Alternation(alternation) => alternation.asts.iter().for_each(|ast| self.ast(ast)),
                Ast::Concat(concat) => concat.asts.iter().for_each(|ast| self.ast(ast)),
                _ => {}
            }
        }
        fn set(&mut self, set: &ClassSet) {
            match set {
                ClassSet::Item(item) => self.item(item),
                ClassSet::BinaryOp(op) => {
                    self.set(&op.lhs);
                    self.set(&op.rhs);
                }
            }
        }
        fn item(&mut self, item: &ClassSetItem) {
            match item {
                ClassSetItem::Literal(literal) => self.literal(literal),
                ClassSetItem::Range(range) => {
                    self.literal(&range.start);
                    self.literal(&range.end);
                }
                ClassSetItem::Bracketed(class) => self.set(&class.kind),
                ClassSetItem::Union(union) => union.items.iter().for_each(|item| self.item(item)),
                _ => {}
            }
        }
    }

    let joined: Vec<String> = request
        .patterns
        .0
        .iter()
        .map(|p| format!("(?:{})", if request.fixed_strings { regex_syntax::escape(p) } else { p.clone() }))
        .collect();
    let parsed = regex_syntax::ast::parse::ParserBuilder::new()
        .nest_limit(MAX_PATTERN_NESTING)
        .octal(false)
        .build()
        .parse(&joined.join("|"));
    let Ok(ast) = parsed else { return GramCase::Folded };
    let mut cased = Cased::default();
    cased.ast(&ast);
    if cased.literal && !cased.upper {
        GramCase::Folded
    } else {
        GramCase::Exact
    }
}

/// The parse error of one pattern on its own, with the pattern quoted and the fault marked,
/// as regex-syntax formats it; `None` when it parses.
fn parse_error(pattern: &str) -> Option<String> {
    let message = parser(false).parse(pattern).err()?.to_string();
    // regex-syntax's own "regex parse error:" line is left out here and added by the caller.
    Some(message.strip_prefix("regex parse error:\n").unwrap_or(&message).to_owned())
}

/// Sorts a regex build failure into "too large" or "invalid".
fn classify(message: &str) -> Error {
    let too_large = message.contains("exceeds size limit") || message.contains("nested parentheses");
    if too_large {
        Error::new(ErrorCode::PatternTooLarge, format!("pattern too large: {message}"))
    } else {
        Error::new(ErrorCode::InvalidPattern, format!("invalid pattern: {message}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::OneOrMany;

    #[test]
    fn a_repeated_request_reuses_its_matcher_and_errors_are_not_kept() {
        let cache = MatcherCache::default();
        let request = GrepRequest::new(r"def \w+_\w+\(self");
        let mut compiled = 0;
        for _ in 0..3 {
            cache
                .get_or_compile(MatcherKey::of(&request), || {
                    compiled += 1;
                    build_uncached(&request)
                })
                .unwrap();
        }
        assert_eq!(compiled, 1);
        assert!(build(&cache, &GrepRequest::new("(")).is_err());
        assert!(build(&cache, &GrepRequest::new("(")).is_err());
        let word = GrepRequest { word: true, ..request.clone() };
        assert!(build(&cache, &word).is_ok());
        assert_eq!(cache.entries.lock().unwrap().len(), 2, "options are part of the key");
    }

    #[test]
    fn a_parse_error_shows_the_users_pattern_with_the_caret_under_the_fault() {
        let cache = MatcherCache::default();
        let request = GrepRequest {
            patterns: OneOrMany(vec!["ok".into(), "foo(bar".into()]),
            ..GrepRequest::default()
        };
        let err = build(&cache, &request).unwrap_err();
        assert_eq!(err.code(), ErrorCode::InvalidPattern);
        assert_eq!(
            err.message(),
            "invalid pattern: regex parse error:\n    foo(bar\n       ^\nerror: unclosed group"
        );
        // Failures other than parsing keep grep-regex's message.
        let err = build(&cache, &GrepRequest::new("a\nb")).unwrap_err();
        assert!(err.message().contains("not allowed"), "{}", err.message());
        assert!(build(&cache, &GrepRequest { fixed_strings: true, ..GrepRequest::new("(") }).is_ok());
    }

    #[test]
    fn the_least_recently_used_matcher_leaves_first() {
        let cache = MatcherCache::default();
        for n in 0..CACHED_MATCHERS + 5 {
            build(&cache, &GrepRequest::new(format!("p{n}"))).unwrap();
        }
        let entries = cache.entries.lock().unwrap();
        assert_eq!(entries.len(), CACHED_MATCHERS);
        assert_eq!(entries[0].0.patterns, ["p5"]);
    }

    #[test]
    fn smart_case_is_decided_as_the_matcher_decides_it() {
        use grep_matcher::Matcher;
        let smart = |patterns: &[&str], fixed_strings: bool| GrepRequest {
            patterns: OneOrMany(patterns.iter().map(|p| (*p).to_owned()).collect()),
            fixed_strings,
            case_mode: CaseMode::Smart,
            ..GrepRequest::default()
        };
        let cases: [(&[&str], bool, &str, GramCase); 8] = [
            (&["def dumps"], false, "DEF DUMPS", GramCase::Folded),
            (&["class Request"], false, "class request", GramCase::Exact),
            (&[r"\Wfoo\pL"], false, "-FOOx", GramCase::Folded),
            (&["[A-Z]x"], false, "AX", GramCase::Exact),
            (&["foo", "Bar"], false, "FOO", GramCase::Exact),
            (&["Foo.bar"], true, "foo.bar", GramCase::Exact),
            (&["(foo"], true, "(FOO", GramCase::Folded),
            (&[r"\w+"], false, "-", GramCase::Exact),
        ];
        let cache = MatcherCache::default();
        for (patterns, fixed, swapped, expected) in cases {
            let request = smart(patterns, fixed);
            assert_eq!(smart_case(&request), expected, "{patterns:?}");
            let matches = build(&cache, &request).unwrap().is_match(swapped.as_bytes()).unwrap();
            assert_eq!(matches, expected == GramCase::Folded, "{patterns:?} on {swapped:?}");
        }
    }
}
