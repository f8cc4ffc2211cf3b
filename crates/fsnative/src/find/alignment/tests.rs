//! The count against frizbee's own (`match_one_indices`), on generated needles and paths.

use neo_frizbee::{Config, Matcher, SortStrategy};

use super::matched_chars;

/// frizbee's count: the length of the indices of its best alignment.
fn frizbee(needle: &str, typos: u16, text: &str) -> usize {
    let config = Config { max_typos: Some(typos), sort: SortStrategy::Unsorted, ..Config::default() };
    Matcher::new(needle, &config).match_one_indices(text, 0).map_or(0, |m| m.indices.len())
}

/// A small deterministic generator (xorshift).
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }
}

const WORDS: [&str; 24] = [
    "src",
    "lib",
    "main",
    "handler",
    "json",
    "decoder",
    "test",
    "Config",
    "HTTPServer",
    "utils",
    "__init__",
    "README",
    "mod",
    "index",
    "parser",
    "a",
    "b",
    "ab",
    "fooBar",
    "x1",
    "tests",
    "hand",
    "node_modules",
    "Makefile",
];
const UNICODE_WORDS: [&str; 6] = ["café", "naïve", "Über", "日本語", "résumé", "ß"];
const SEPARATORS: [&str; 6] = ["/", "/", "_", "-", ".", ""];

fn path(draw: &mut Draw, unicode: bool) -> String {
    let mut text = String::new();
    let most = if draw.below(10) == 0 { 60 } else { 8 };
    let parts = 1 + draw.below(most);
    for part in 0..parts {
        if part > 0 {
            text.push_str(draw.pick(&SEPARATORS));
        }
        let word = if unicode && draw.below(3) == 0 { draw.pick(&UNICODE_WORDS) } else { draw.pick(&WORDS) };
        text.push_str(word);
    }
    if draw.below(40) == 0 {
        // Past the 1,024 bytes frizbee aligns.
        text = format!("{}/{text}", "deep/".repeat(220));
    }
    text
}

/// A needle drawn from the path (or not), with typos and changes of case.
fn needle(draw: &mut Draw, text: &str, unicode: bool) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut needle: Vec<char> = if draw.below(5) == 0 {
        let pool = if unicode { &UNICODE_WORDS[..] } else { &WORDS[..] };
        draw.pick(pool).chars().collect()
    } else {
        let start = draw.below(chars.len());
        let len = 1 + draw.below(14);
        chars[start..(start + len).min(chars.len())].iter().copied().filter(|c| !c.is_whitespace()).collect()
    };
    for _ in 0..draw.below(4) {
        if needle.is_empty() {
            break;
        }
        let at = draw.below(needle.len());
        match draw.below(5) {
            0 => {
                needle.remove(at);
            }
            1 if at + 1 < needle.len() => needle.swap(at, at + 1),
            2 => {
                let kinds = if unicode { 5 } else { 4 };
                needle[at] = ['q', 'z', 'e', '_', 'é'][draw.below(kinds)];
            }
            3 => needle[at] = needle[at].to_ascii_uppercase(),
            _ => needle.insert(at, 'x'),
        }
    }
    if needle.is_empty() {
        needle.push('a');
    }
    needle.into_iter().collect()
}

fn compare(seed: u64, cases: usize, unicode: bool) {
    let mut draw = Draw(seed);
    let mut differ = Vec::new();
    let mut matched = 0;
    for _ in 0..cases {
        let text = path(&mut draw, unicode);
        let needle = needle(&mut draw, &text, unicode);
        for typos in 0..=6 {
            let (ours, theirs) = (matched_chars(&needle, typos, &text), frizbee(&needle, typos, &text));
            matched += usize::from(theirs > 0);
            if ours != theirs {
                differ.push(format!("{needle:?} typos {typos} on {text:?}: {ours}, frizbee {theirs}"));
            }
        }
    }
    assert!(matched > cases, "too few matches to compare: {matched}");
    assert!(
        differ.is_empty(),
        "{} of {} differ:\n{}",
        differ.len(),
        cases * 7,
        differ[..differ.len().min(20)].join("\n")
    );
}

#[test]
fn counts_as_frizbee_does_on_ascii_needles() {
    compare(0x9e37_79b9_7f4a_7c15, 10_000, false);
}

#[test]
fn counts_as_frizbee_does_on_unicode_needles_and_paths() {
    compare(0x2545_f491_4f6c_dd1d, 10_000, true);
}

#[test]
fn counts_matched_characters() {
    assert_eq!(matched_chars("main", 1, "src/main.rs"), 4);
    assert_eq!(matched_chars("main", 1, "src/man.rs"), 3);
    assert_eq!(matched_chars("main", 1, "README.md"), 0);
    assert_eq!(matched_chars("hanlder", 2, "src/handler.rs"), 6);
}
