//! Brace expansion as minimatch does it before matching (Bash's rules): `a{b,c}` is `ab` and
//! `ac`, `{1..3}` and `{a..e..2}` are sequences, sets nest, `\{`, `\}`, `\,` and `\.` are
//! literal, a `{` after `$` is not expanded, and a group that holds neither a comma nor a
//! sequence stays literal.

/// The most strings one pattern expands into; the rest are dropped.
const MAX_EXPANSIONS: usize = 100_000;

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
    let mut out: Vec<String> = Vec::new();
    for expanded in expand_chars(&chars, true) {
        let restored: String =
            expanded.chars().map(|c| ESCAPES.iter().find(|e| e.0 == c).map_or(c, |e| e.2)).collect();
        if !out.contains(&restored) {
            out.push(restored);
        }
    }
    out
}

/// The first balanced `{…}` group at or after `from`: (open, close) indices.
fn balanced(chars: &[char], from: usize) -> Option<(usize, usize)> {
    let mut stack = Vec::new();
    for (i, &c) in chars.iter().enumerate().skip(from) {
        match c {
            '{' => stack.push(i),
            '}' => {
                if let Some(open) = stack.pop() {
                    if stack.is_empty() {
                        return Some((open, i));
                    }
                    // An unmatched `{` earlier stays literal: restart from the inner group.
                }
            }
            _ => {}
        }
    }
    // Unmatched opens: the innermost complete group, if any, is the first one Bash expands.
    None
}

/// The first group that can be matched, skipping `{` that are never closed.
fn first_group(chars: &[char]) -> Option<(usize, usize)> {
    let mut from = 0;
    while from < chars.len() {
        let open = from + chars[from..].iter().position(|&c| c == '{')?;
        if let Some(found) = balanced(chars, open) {
            if found.0 == open {
                return Some(found);
            }
        }
        from = open + 1;
    }
    None
}

fn expand_chars(chars: &[char], top: bool) -> Vec<String> {
    let Some((open, close)) = first_group(chars) else {
        return vec![chars.iter().collect()];
    };
    let pre: String = chars[..open].iter().collect();
    let body = &chars[open + 1..close];
    let post = expand_chars(&chars[close + 1..], false);
    if pre.ends_with('$') {
        let group: String = chars[open..=close].iter().collect();
        return post.into_iter().map(|p| format!("{pre}{group}{p}")).collect();
    }
    let body_text: String = body.iter().collect();
    let (values, is_sequence) = match sequence(&body_text) {
        Some(values) => (values, true),
        None => {
            let parts = comma_parts(body);
            if parts.len() < 2 {
                if parts.len() == 1 && first_group(body).is_some() {
                    // x{{a,b}}y: the inner set expands, each value keeps its braces.
                    let inner = expand_chars(body, false);
                    if inner.len() > 1 {
                        let values: Vec<String> = inner.into_iter().map(|v| format!("{{{v}}}")).collect();
                        return combine(&pre, &values, &post, false);
                    }
                }
                let group: String = chars[open..=close].iter().collect();
                return post.into_iter().map(|p| format!("{pre}{group}{p}")).collect();
            }
            (parts.iter().flat_map(|part| expand_chars(part, false)).collect(), false)
        }
    };
    combine(&pre, &values, &post, top && !is_sequence)
}

fn combine(pre: &str, values: &[String], post: &[String], drop_empty: bool) -> Vec<String> {
    let mut out = Vec::new();
    for value in values {
        for rest in post {
            if out.len() >= MAX_EXPANSIONS {
                return out;
            }
            let joined = format!("{pre}{value}{rest}");
            if !(drop_empty && joined.is_empty()) {
                out.push(joined);
            }
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
    }
}
