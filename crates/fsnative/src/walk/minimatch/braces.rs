//! Brace expansion as minimatch does it before matching (Bash's rules): `a{b,c}` is `ab` and
//! `ac`, `{1..3}` and `{a..e..2}` are sequences, sets nest, `\{`, `\}`, `\,` and `\.` are
//! literal, a `{` after `$` is not expanded, and a group that holds neither a comma nor a
//! sequence stays literal.

/// The most strings one pattern expands into; the rest are dropped.
const MAX_EXPANSIONS: usize = 100_000;
/// The most characters all of them hold together.
const MAX_EXPANDED_CHARS: usize = 4_000_000;
/// Sets nested deeper than this stay literal.
const MAX_NESTING: usize = 100;
/// The most characters one pattern's expansion builds in all (once spent, the rest of the
/// pattern stays literal): bounds the work of patterns made of thousands of groups.
const MAX_STEPS: usize = 20_000_000;

/// Private-use stand-ins for escaped characters while expanding.
const ESCAPES: [(char, &str, char); 5] = [
    ('\u{F0000}', "\\\\", '\\'),
    ('\u{F0001}', "\\{", '{'),
    ('\u{F0002}', "\\}", '}'),
    ('\u{F0003}', "\\,", ','),
    ('\u{F0004}', "\\.", '.'),
];

/// Whether minimatch would expand `pattern` at all: it has a `{…}` group with no `{` inside.
fn has_group(pattern: &str) -> bool {
    let mut open = None;
    for (i, c) in pattern.char_indices() {
        match c {
            '{' => open = Some(i),
            '}' if open.is_some() => return true,
            _ => {}
        }
    }
    false
}

/// The strings `pattern` expands into, in order, duplicates removed.
pub(super) fn expand(pattern: &str) -> Vec<String> {
    if !has_group(pattern) {
        return vec![pattern.to_string()];
    }
    let mut text = pattern.to_string();
    if text.starts_with("{}") {
        text = format!("\\{{\\}}{}", &text[2..]);
    }
    for (stand_in, escaped, _) in ESCAPES {
        text = text.replace(escaped, &stand_in.to_string());
    }
    let chars: Vec<char> = text.chars().collect();
    let mut budget = MAX_STEPS;
    let mut seen = std::collections::HashSet::new();
    let mut out: Vec<String> = Vec::new();
    for expanded in expand_chars(&chars, true, 0, &mut budget) {
        let restored: String =
            expanded.chars().map(|c| ESCAPES.iter().find(|e| e.0 == c).map_or(c, |e| e.2)).collect();
        if seen.insert(restored.clone()) {
            out.push(restored);
        }
    }
    out
}

/// The first balanced `{…}` group (the matched pair whose `{` comes first; a `{` never closed
/// is literal): its (open, close) indices, in one pass.
fn first_group(chars: &[char]) -> Option<(usize, usize)> {
    let mut open = Vec::new();
    let mut first: Option<(usize, usize)> = None;
    for (i, &c) in chars.iter().enumerate() {
        match c {
            '{' => open.push(i),
            '}' => {
                if let Some(at) = open.pop() {
                    if first.is_none_or(|(earlier, _)| at < earlier) {
                        first = Some((at, i));
                    }
                    if open.is_empty() {
                        return first;
                    }
                }
            }
            _ => {}
        }
    }
    first
}

/// Expands `chars`, the groups left to right; `depth` counts the sets it is nested in.
fn expand_chars(chars: &[char], top: bool, depth: usize, budget: &mut usize) -> Vec<String> {
    let mut acc = vec![String::new()];
    let mut rest = chars;
    let mut first = true;
    // Bash drops empty results when the first group is a comma set (`{,a}` is just `a`).
    let mut drop_empty = false;
    while let Some((open, close)) = first_group(rest) {
        let pre: String = rest[..open].iter().collect();
        let body = &rest[open + 1..close];
        let values = if pre.ends_with('$') || depth >= MAX_NESTING || *budget == 0 {
            None
        } else if let Some(values) = sequence(&body.iter().collect::<String>()) {
            first = false;
            Some(values)
        } else {
            let parts = comma_parts(body);
            if parts.len() >= 2 {
                drop_empty |= top && first;
                first = false;
                Some(parts.iter().flat_map(|part| expand_chars(part, false, depth + 1, budget)).collect())
            } else if first_group(body).is_some() {
                // x{{a,b}}y: the inner set expands, each value keeps its braces.
                let inner = expand_chars(body, false, depth + 1, budget);
                (inner.len() > 1).then(|| inner.into_iter().map(|v| format!("{{{v}}}")).collect())
            } else {
                None
            }
        };
        match values {
            Some(values) => acc = combine(&acc, &pre, &values, budget),
            // A group that does not expand is literal, and so is the rest after it.
            None => {
                let literal: String = rest.iter().collect();
                return combine(&acc, &literal, &[String::new()], budget);
            }
        }
        rest = &rest[close + 1..];
    }
    let tail: String = rest.iter().collect();
    let all = combine(&acc, &tail, &[String::new()], budget);
    if drop_empty {
        return all.into_iter().filter(|s| !s.is_empty()).collect();
    }
    all
}

/// Each of `acc` followed by `pre` and each of `values`, within the caps on count and length;
/// what it builds is taken from `budget`.
fn combine(acc: &[String], pre: &str, values: &[String], budget: &mut usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut length = 0;
    for prefix in acc {
        for value in values {
            let size = prefix.len() + pre.len() + value.len();
            length += size;
            if out.len() >= MAX_EXPANSIONS || length > MAX_EXPANDED_CHARS {
                return out;
            }
            *budget = budget.saturating_sub(size);
            out.push(format!("{prefix}{pre}{value}"));
        }
    }
    out
}

/// The members of a set's body split on its top-level commas (nested groups kept whole).
fn comma_parts(body: &[char]) -> Vec<Vec<char>> {
    let mut parts = vec![Vec::new()];
    let mut depth = 0usize;
    for &c in body {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(Vec::new());
                continue;
            }
            _ => {}
        }
        parts.last_mut().expect("never empty").push(c);
    }
    parts
}

/// The values of `1..5`, `-3..3..2`, `01..10` or `a..e`, or `None` when `body` is no sequence.
fn sequence(body: &str) -> Option<Vec<String>> {
    let bounds: Vec<&str> = body.split("..").collect();
    if !(2..=3).contains(&bounds.len()) {
        return None;
    }
    let step = match bounds.get(2) {
        Some(step) => step.parse::<i64>().ok()?.unsigned_abs().max(1) as i64,
        None => 1,
    };
    let numeric = |s: &str| {
        let digits = s.strip_prefix('-').unwrap_or(s);
        (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse::<i64>().ok())
            .flatten()
    };
    let alpha = |s: &str| {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => Some(c as i64),
            _ => None,
        }
    };
    let (from, to, is_alpha) = match (numeric(bounds[0]), numeric(bounds[1])) {
        (Some(a), Some(b)) => (a, b, false),
        _ => (alpha(bounds[0])?, alpha(bounds[1])?, true),
    };
    let padded = |s: &str| {
        let s = s.strip_prefix('-').unwrap_or(s);
        s.len() > 1 && s.starts_with('0')
    };
    let width = if !is_alpha && (padded(bounds[0]) || padded(bounds[1])) {
        bounds[0].len().max(bounds[1].len())
    } else {
        0
    };
    let mut values = Vec::new();
    let mut i = from;
    while (if to < from { i >= to } else { i <= to }) && values.len() < MAX_EXPANSIONS {
        values.push(if is_alpha {
            char::from_u32(i as u32).filter(|&c| c != '\\').map(String::from).unwrap_or_default()
        } else if i < 0 {
            format!("-{:0>w$}", -i, w = width.saturating_sub(1))
        } else {
            format!("{i:0>width$}")
        });
        i += if to < from { -step } else { step };
    }
    Some(values)
}

#[cfg(test)]
mod tests {
    use super::expand;

    #[test]
    fn expands_sets_sequences_and_escapes() {
        assert_eq!(expand("a{b,c}d"), ["abd", "acd"]);
        assert_eq!(expand("{a,b}{1..3}"), ["a1", "a2", "a3", "b1", "b2", "b3"]);
        assert_eq!(expand("x{a,{b,c}}"), ["xa", "xb", "xc"]);
        assert_eq!(expand("{08..10}"), ["08", "09", "10"]);
        assert_eq!(expand("{a..e..2}"), ["a", "c", "e"]);
        assert_eq!(expand("{a}"), ["{a}"]);
        assert_eq!(expand("\\{a,b}"), ["{a,b}"]);
        assert_eq!(expand("${a,b}"), ["${a,b}"]);
        assert_eq!(expand("{,a}"), ["a"]);
        assert_eq!(expand("x{,a}"), ["x", "xa"]);
        assert_eq!(expand("{a,b"), ["{a,b"]);
        let many = expand(&"{a,b}".repeat(40));
        assert!(!many.is_empty() && many.len() <= 100_000 && many[0].starts_with("aaaaaaaaaa"));
        let nested = expand(&format!("{}x{}", "{a,".repeat(5000), "}".repeat(5000)));
        assert_eq!(nested[0], "a", "{nested:?}");
        assert!(nested.len() == 2 && nested[1].starts_with("{a,{a,"), "{nested:?}");
    }
}
