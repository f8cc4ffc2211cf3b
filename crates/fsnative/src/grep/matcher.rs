//! Compiling grep patterns, with limits that make hostile patterns fail fast.

use grep_regex::{RegexMatcher, RegexMatcherBuilder};

use crate::error::{Error, ErrorCode, Result};
use crate::request::{CaseMode, GrepRequest};

/// Longest pattern text accepted, summed over all patterns.
pub const MAX_PATTERN_BYTES: usize = 64 * 1024;
/// Deepest nesting of groups, classes and repetitions accepted.
pub const MAX_PATTERN_NESTING: u32 = 128;
/// Largest compiled program accepted (bytes of the regex engine's NFA).
pub const MAX_COMPILED_BYTES: usize = 16 * 1024 * 1024;

/// Builds the matcher for `request`, mapping failures to `INVALID_PATTERN` or
/// `PATTERN_TOO_LARGE`.
pub(crate) fn build(request: &GrepRequest) -> Result<RegexMatcher> {
    if request.patterns.0.is_empty() {
        return Err(Error::new(ErrorCode::InvalidArgument, "at least one pattern is required"));
    }
    compile(&request.patterns.0, |builder| {
        builder
            .case_insensitive(request.case_mode == CaseMode::Insensitive)
            .case_smart(request.case_mode == CaseMode::Smart)
            .word(request.word)
            .fixed_strings(request.fixed_strings)
            .multi_line(request.multiline);
        if !request.multiline {
            builder.line_terminator(Some(b'\n'));
        }
    })
}

/// Builds the matcher of `section_end_patterns` (plain, case-sensitive regexes), if any.
pub(crate) fn build_sections(request: &GrepRequest) -> Result<Option<RegexMatcher>> {
    let patterns = &request.section_end_patterns.0;
    if patterns.is_empty() {
        return Ok(None);
    }
    compile(patterns, |builder| {
        builder.line_terminator(Some(b'\n'));
    })
    .map(Some)
}

/// Compiles `patterns` under fsnative's size limits, after `configure` set the options.
fn compile(patterns: &[String], configure: impl FnOnce(&mut RegexMatcherBuilder)) -> Result<RegexMatcher> {
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
    builder.build_many(patterns).map_err(|err| classify(&err.to_string()))
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
