//! An upper bound on frizbee's alignment score of a path, computed before the alignment, so
//! that a find with many matches aligns only the paths that could still be among the best.
//!
//! # Why it is an upper bound
//!
//! frizbee (0.13, `smith_waterman/algo/ascii.rs`) scores an ASCII part against a path by
//! Smith-Waterman: each cell of the table is 0 (saturating subtraction: the alignment starts
//! afresh) or a neighbour's value plus one step, and the score is the best cell of the part's
//! last row. The only step that adds is the diagonal onto two equal characters (equal ignoring
//! case unless the part holds an upper-case letter, smart case). Those pairs, in increasing
//! order in both strings, are a common subsequence of the part and the path: at most `L` of
//! them, `L` the longest common subsequence (counted as [`Subsequences`] counts it, with the
//! same case rule). Each pair adds the match score 12, plus at most:
//!
//! - 4 for matching the part's case exactly;
//! - 4 for following a delimiter (the path's previous byte is ASCII and not a letter or digit,
//!   this one is not such a delimiter), or for a capital after a lower-case letter (not both:
//!   the previous byte cannot be both);
//! - 12 for the path's first byte (the prefix bonus), only when that byte is one of the part's
//!   characters.
//!
//! Every other step subtracts, and the first step out of a cell of two equal characters that is
//! not another such diagonal subtracts at least 5 (a gap opened after a match costs 5, a
//! mismatch 6). Split an alignment's pairs into runs, each run pairing consecutive characters
//! of both strings: a run of `r` pairs adds at most `16 r + 4`, as inside a run the path's
//! previous byte is the part's previous character, so a pair inside it earns the delimiter or
//! capital bonus only where the part itself has a delimiter then a non-delimiter, or (matching
//! case) a lower-case letter then a capital, while a capital matched to a lower-case part
//! character earns no case bonus: `B` such places in the part add at most `4 B` in all. Between
//! two runs, and after the last run if it ends before the part's last character (the score is
//! read in the last row), at least 5 is subtracted. So `R` runs of `L'` pairs in all score at
//! most `16 L' + 4 R + 4 B - 5 (R - 1) <= 16 L + 4 + 4 B`, plus 12 for the prefix. frizbee then
//! adds 8 when the path *is* the part, byte for byte, so only when it is as long as the part.
//!
//! frizbee aligns a trimmed window of the path (its prefilter's); a window scores no more than
//! the whole path, as it starts without the bonuses its first byte could have had. Paths longer
//! than 1,024 bytes are scored greedily instead, so they get no bound (`u32::MAX`).
//!
//! # Which paths match
//!
//! frizbee matches a part to a path when its prefilter finds all the part's characters in the
//! path in order but at most `typos` of them: exactly when the longest common subsequence is
//! at least `len - typos` (its typo prefilter keeps, for each number of skipped characters,
//! the longest prefix of the part found so far, which is that test). So the same pass that
//! counts `L` tells which paths match; a unit test checks both against frizbee.
//!
//! Parts that are not ASCII or longer than 64 bytes are not bounded (frizbee then compares
//! characters with Unicode case folding): a query with one is ranked without bounds.

use super::subsequence::Subsequences;

/// Texts longer than this are scored by frizbee's greedy fallback, which is not bounded here.
const LONGEST_ALIGNED: usize = 1024;

/// The score bounds of a query's parts.
pub(super) struct Bound {
    filter: Subsequences,
    /// For each part, the places in it where a character inside a run may earn a bonus (`B`
    /// in the module's comment).
    inner_bonuses: Vec<u32>,
}

impl Bound {
    /// The bound of parts given as (needle, typos allowed); `None` when one of them cannot be
    /// bounded.
    pub fn new(parts: &[(&str, u16)]) -> Option<Bound> {
        let filter = Subsequences::new(parts.iter().copied());
        if filter.width() != parts.len() {
            return None;
        }
        let inner_bonuses = parts.iter().map(|(needle, _)| inner_bonuses(needle.as_bytes())).collect();
        Some(Bound { filter, inner_bonuses })
    }

    /// `None` when frizbee does not match every part to `text`; else the most the sum of
    /// the parts' alignment scores can be (see the module's comment).
    pub fn ceiling(&self, text: &[u8]) -> Option<Ceiling> {
        self.ceiling_of(text, self.filter.matched(text))
    }

    /// [`Bound::ceiling`] of `text`, given each part's common subsequence with it (as
    /// [`Subsequences::matched`] gives them).
    fn ceiling_of(&self, text: &[u8], parts: impl Iterator<Item = (u32, u32, bool)>) -> Option<Ceiling> {
        let mut fuzzy = 0u32;
        let mut last_whole = false;
        for (at, (matched, len, passes)) in parts.enumerate() {
            if !passes {
                return None;
            }
            let prefix = text.first().is_some_and(|&byte| self.filter.holds(at, byte));
            let inner = self.inner_bonuses[at].min(matched.saturating_sub(1));
            fuzzy += 16 * matched
                + 4
                + 4 * inner
                + 12 * u32::from(prefix)
                + 8 * u32::from(text.len() == len as usize);
            last_whole = matched == len;
        }
        let fuzzy = if text.len() > LONGEST_ALIGNED { u32::MAX } else { fuzzy };
        Some(Ceiling { fuzzy, last_whole })
    }

    /// The ceiling of each text, `None` for those that do not match; on up to `threads`
    /// threads. `texts` gives each text with where its file name starts: the texts of one
    /// directory that follow each other feed its path once.
    pub fn ceilings<'t>(
        &self,
        count: usize,
        texts: impl Fn(usize) -> (&'t str, usize) + Sync,
        threads: usize,
    ) -> Vec<Option<Ceiling>> {
        let mut ceilings = vec![None; count];
        let share = count.div_ceil(threads.max(1)).max(1);
        let run = |first: usize, out: &mut [Option<Ceiling>]| {
            let (mut dir, mut dir_states, mut states) = (None, self.filter.start(), self.filter.start());
            for (at, ceiling) in (first..).zip(out) {
                let (text, name_start) = texts(at);
                let (path, name) = text.as_bytes().split_at(name_start);
                if dir != Some(path) {
                    dir_states.fill(u64::MAX);
                    self.filter.feed(&mut dir_states, path);
                    dir = Some(path);
                }
                states.copy_from_slice(&dir_states);
                self.filter.feed(&mut states, name);
                *ceiling = self.ceiling_of(text.as_bytes(), self.filter.matched_at(&states));
            }
        };
        if threads <= 1 || count < 2 * share {
            run(0, &mut ceilings);
            return ceilings;
        }
        std::thread::scope(|scope| {
            let run = &run;
            for (number, out) in ceilings.chunks_mut(share).enumerate() {
                scope.spawn(move || run(number * share, out));
            }
        });
        ceilings
    }
}

/// What [`Bound::ceiling`] knows of a text that matches.
#[derive(Clone, Copy)]
pub(super) struct Ceiling {
    /// The most the sum of the parts' alignment scores can be.
    pub fuzzy: u32,
    /// Every character of the last part is in its subsequence (as it is when the text
    /// holds the part whole).
    pub last_whole: bool,
}

/// Where frizbee may give a bonus to a character of `needle` matched right after the one
/// before it: after a delimiter (a non-delimiter), or, when the needle's case is matched, a
/// capital after a lower-case letter.
fn inner_bonuses(needle: &[u8]) -> u32 {
    let delimiter = |b: u8| b.is_ascii() && !b.is_ascii_alphanumeric();
    let case_sensitive = needle.iter().any(u8::is_ascii_uppercase);
    let places = needle.windows(2).filter(|pair| {
        (delimiter(pair[0]) && !delimiter(pair[1]))
            || (case_sensitive && pair[0].is_ascii_lowercase() && pair[1].is_ascii_uppercase())
    });
    places.count() as u32
}

/// The highest ceiling `c` such that at least `count` of `ceilings` are `c` or more (the
/// lowest of them when there are fewer).
pub(super) fn threshold(ceilings: impl Iterator<Item = i64>, count: usize) -> i64 {
    // Ceilings are small numbers: counted in buckets, the highest holding all above it.
    const BUCKETS: usize = 1 << 16;
    let mut buckets = vec![0usize; BUCKETS];
    for ceiling in ceilings {
        buckets[ceiling.clamp(0, BUCKETS as i64 - 1) as usize] += 1;
    }
    let mut above = 0;
    for (ceiling, &n) in buckets.iter().enumerate().rev() {
        above += n;
        if above >= count {
            return ceiling as i64;
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use neo_frizbee::{Config, Matcher, SortStrategy};

    use super::*;

    /// A small seeded generator (xorshift64*), so the property test repeats.
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
        }

        fn text(&mut self, alphabet: &[u8], len: usize) -> String {
            (0..len).map(|_| char::from(alphabet[self.below(alphabet.len())])).collect()
        }
    }

    /// On generated parts and paths (delimiters, capitals, digits, repeats, paths that are the
    /// part): frizbee matches exactly the paths the bound calls matches, and never scores one
    /// above its bound.
    #[test]
    fn the_bound_is_never_below_the_score_and_tells_the_matches() {
        let mut rng = Rng(0xb0_0d);
        let needle_chars = b"abtesAT/_.1";
        let path_chars = b"abtestABTS/_.-1 x";
        let mut matches = 0;
        for round in 0..600 {
            let needle_len = 1 + rng.below(if round % 8 == 0 { 40 } else { 9 });
            let needle = rng.text(needle_chars, needle_len);
            let typos = rng.below(needle_len.div_ceil(2).min(7)) as u16;
            let mut paths: Vec<String> = (0..150)
                .map(|_| {
                    let len = rng.below(if round % 5 == 0 { 90 } else { 30 });
                    rng.text(path_chars, len)
                })
                .collect();
            paths.push(needle.clone());
            paths.push(format!("{needle}/{needle}"));
            paths.push(format!("x/{}", needle.to_ascii_uppercase()));
            let texts: Vec<&str> = paths.iter().map(String::as_str).collect();
            let config = Config { max_typos: Some(typos), sort: SortStrategy::Unsorted, ..Config::default() };
            let bound = Bound::new(&[(needle.as_str(), typos)]).unwrap();
            let found = Matcher::new(needle.as_str(), &config).match_list(&texts);
            let mut matched = vec![false; texts.len()];
            for m in &found {
                let text = texts[m.index as usize];
                matched[m.index as usize] = true;
                let ceiling = bound.ceiling(text.as_bytes()).map(|c| c.fuzzy);
                let ceiling = ceiling.unwrap_or_else(|| panic!("{needle:?} ({typos}) matches {text:?}"));
                assert!(u32::from(m.score) <= ceiling, "{needle:?} on {text:?}: {} > {ceiling}", m.score);
                matches += 1;
            }
            for (text, matched) in texts.iter().zip(matched) {
                assert_eq!(
                    bound.ceiling(text.as_bytes()).is_some(),
                    matched,
                    "{needle:?} ({typos}) on {text:?}"
                );
            }
        }
        assert!(matches > 10_000, "{matches} matches");
    }

    /// Texts of one directory in a row feed its path once: each ceiling is still the one of
    /// the whole text, on one thread or several.
    #[test]
    fn ceilings_by_directory_are_those_of_whole_texts() {
        let mut rng = Rng(0xd1e);
        let mut texts = Vec::new();
        for _ in 0..300 {
            let dir_len = rng.below(20);
            let dir = rng.text(b"abtes/_", dir_len);
            let name_start = if dir.is_empty() { 0 } else { dir.len() + 1 };
            for _ in 0..1 + rng.below(6) {
                let name_len = 1 + rng.below(12);
                let name = rng.text(b"abtesAT_.x", name_len);
                let text = if dir.is_empty() { name } else { format!("{dir}/{name}") };
                texts.push((text, name_start));
            }
        }
        for (needles, typos) in [(&["test"][..], 2), (&["tes", "ab_"][..], 1), (&["aTe"][..], 1)] {
            let parts: Vec<(&str, u16)> = needles.iter().map(|&needle| (needle, typos)).collect();
            let bound = Bound::new(&parts).unwrap();
            let whole: Vec<_> = texts
                .iter()
                .map(|(text, _)| bound.ceiling(text.as_bytes()).map(|c| (c.fuzzy, c.last_whole)))
                .collect();
            assert!(whole.iter().flatten().count() > 100, "{needles:?}");
            for threads in [1, 2, 3] {
                let by_dir = bound.ceilings(texts.len(), |at| (texts[at].0.as_str(), texts[at].1), threads);
                let by_dir: Vec<_> = by_dir.iter().map(|c| c.map(|c| (c.fuzzy, c.last_whole))).collect();
                assert_eq!(by_dir, whole, "{needles:?}, {threads} threads");
            }
        }
    }

    #[test]
    fn the_bound_is_tight_on_a_clean_match_and_refuses_what_it_cannot_bound() {
        let bound = Bound::new(&[("test", 2)]).unwrap();
        let score = |text: &str| {
            let config = Config { max_typos: Some(2), sort: SortStrategy::Unsorted, ..Config::default() };
            Matcher::new("test", &config).match_list(&[text])[0].score
        };
        let fuzzy = |text: &[u8]| bound.ceiling(text).map(|c| c.fuzzy);
        assert_eq!(fuzzy(b"lib/test.rs"), Some(68));
        assert_eq!(score("lib/test.rs"), 68);
        assert_eq!(fuzzy(b"lib/tst.rs"), Some(52), "3 characters of 4");
        assert_eq!(fuzzy(b"src/test.rs"), Some(80), "the first byte is one of its characters");
        assert_eq!(fuzzy(b"lib/xx.rs"), None);
        assert!(
            bound.ceiling(b"lib/test.rs").unwrap().last_whole
                && !bound.ceiling(b"lib/tst.rs").unwrap().last_whole
        );
        assert_eq!(inner_bonuses(b"src/hand"), 1);
        assert_eq!(inner_bonuses(b"HeaderValueParser"), 2);
        assert_eq!(inner_bonuses(b"headervalue"), 0);
        assert!(Bound::new(&[("t\u{e9}st", 1)]).is_none());
        assert!(Bound::new(&[("test", 2), (&*"x".repeat(65), 6)]).is_none());
    }
}
