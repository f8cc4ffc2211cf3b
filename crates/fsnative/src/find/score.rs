//! The query, the matcher and the parts of a score.
//!
//! # The matcher: `neo_frizbee`
//!
//! Each part of the query is matched against each relative path by `neo_frizbee` (the matcher
//! of fff): Smith-Waterman with affine gaps, computed with SIMD, which allows typos in the
//! alignment itself (a query character left out or matched to another one costs a penalty,
//! not the match) and rejects most paths with a SIMD prefilter that counts the query's
//! characters missing from the path before any alignment is computed.
//!
//! It was chosen over `nucleo-matcher` plus a typo pass of our own, measured on the bench's
//! trees (docs/find.md says why): on 100,000 paths frizbee ranked
//! and matched within the same few milliseconds as nucleo without typos, while nucleo with a
//! typo pass (a bit-parallel longest-common-subsequence count over the paths nucleo rejects)
//! took about twice as long; both put the intended file first on the same labelled queries
//! when typos were allowed, but only frizbee scores a typo'd match by the same alignment as a
//! clean one (the pass has to invent a second scale). frizbee is also MIT-licensed (nucleo is
//! MPL-2.0) and is what fff ranks with, so fsnative's order is comparable with fff's.
//!
//! # The score
//!
//! `fuzzy` is frizbee's alignment score, summed over the query's parts. The last part (after
//! its last `/`, the part a user types for the file name) earns a `filename_bonus` when its
//! best alignment ends inside the file name, or, failing that, when it matches the file name
//! alone (then scaled by how good that match is), and an `exact_bonus` when it is the file
//! name or the name without its extension. Ties go to sources before build artefacts and cached
//! copies ([`is_derived`]), then to the shorter path, then to path order.

mod bounded;

use std::borrow::Cow;
use std::cmp::Reverse;

use fsnative_matcher::{match_list, Config, SortStrategy};

use super::alignment::matched_chars;
use super::bound::Bound;
use super::subsequence::Subsequences;
use crate::error::{Error, ErrorCode, Result};
use crate::index::{missing, query_char_set};

/// The longest query accepted, in bytes.
const MAX_QUERY_BYTES: usize = 1024;

/// Texts from which a ranking bounds the scores before aligning (below, the pass over every
/// text costs about what it saves).
const BOUNDED_TEXTS: usize = 4096;

/// One whitespace-separated part of a query.
struct Part {
    needle: String,
    /// The needle after its last `/`: what is compared with the file name.
    name: String,
    config: Config,
    /// The needle's characters (see [`query_char_set`]) and how many may be missing.
    chars: u64,
    typos: u16,
}

impl Part {
    fn new(needle: &str) -> Part {
        let name = needle.rsplit('/').next().unwrap_or(needle).to_owned();
        let typos = typos_allowed(needle);
        let config = Config { max_typos: Some(typos), sort: SortStrategy::Unsorted, ..Config::default() };
        Part { needle: needle.to_owned(), name, config, chars: query_char_set(needle), typos }
    }
}

/// Typos allowed in a needle of this many characters: a quarter of them, at least 2 and at
/// most 6 (FFF's rule), and never more than half of them (so a short needle still has to be
/// mostly there).
fn typos_allowed(needle: &str) -> u16 {
    let chars = needle.chars().count();
    let allowed = (chars / 4).clamp(2, 6).min(chars / 2);
    u16::try_from(allowed).unwrap_or(0)
}

/// A parsed query.
pub(super) struct Query {
    parts: Vec<Part>,
}

/// One of the best matches.
pub(super) struct Ranked {
    /// Its position in the texts ranked.
    pub at: usize,
    pub fuzzy: i64,
    pub filename_bonus: i64,
    pub exact_bonus: i64,
}

/// The outcome of a ranking.
pub(super) struct Ranking {
    /// Texts that matched (and were kept).
    pub total: usize,
    /// The best of them, best first.
    pub best: Vec<Ranked>,
}

/// The relative paths a ranking reads, each with where its file name starts (after its last
/// `/`), which the walk that collected them already knew.
pub(super) struct Texts<'t> {
    paths: Cow<'t, [&'t str]>,
    name_starts: Vec<u32>,
}

impl<'t> Texts<'t> {
    /// `paths`, the name of each starting where `name_start` says (`None`: after its last `/`).
    pub fn new(
        paths: impl Into<Cow<'t, [&'t str]>>,
        name_start: impl Fn(usize) -> Option<usize>,
    ) -> Texts<'t> {
        let paths = paths.into();
        let name_starts = (0..paths.len())
            .map(|at| {
                let start = name_start(at).unwrap_or_else(|| name_start_of(paths[at]));
                u32::try_from(start).unwrap_or(u32::MAX)
            })
            .collect();
        Texts { paths, name_starts }
    }

    /// How many texts there are.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// The path at `at`.
    fn path(&self, at: usize) -> &'t str {
        self.paths[at]
    }

    /// Where the file name of the path at `at` starts.
    fn name_start(&self, at: usize) -> usize {
        match self.name_starts[at] {
            u32::MAX => name_start_of(self.paths[at]),
            start => start as usize,
        }
    }

    /// The file name of the path at `at`.
    fn name(&self, at: usize) -> &'t str {
        &self.paths[at][self.name_start(at)..]
    }
}

/// A match while it is scored.
#[derive(Clone, Copy)]
struct Scored {
    /// Its position in the texts ranked.
    at: u32,
    fuzzy: i32,
    /// Where the last part's alignment ends (a byte offset in the text).
    end: u32,
    /// A build artefact or a cached copy (ties go to sources first); set by [`set_derived`]
    /// before the order is read, for the matches still in reach of the best.
    derived: bool,
    /// The text's length in bytes (ties go to the shorter).
    len: u32,
    filename_bonus: i32,
    exact_bonus: i32,
    /// The alignment ended in the directories and the file name has not yet been matched
    /// alone (see [`name_matches`]).
    in_dirs: bool,
}

impl Scored {
    fn score(&self) -> i64 {
        i64::from(self.fuzzy) + i64::from(self.filename_bonus) + i64::from(self.exact_bonus)
    }

    /// The order of the ranking: best score first, then sources, the shorter path, the first.
    fn order(&self) -> (Reverse<i64>, bool, u32, u32) {
        (Reverse(self.score()), self.derived, self.len, self.at)
    }

    /// The most `score` can become once the bonuses are added (see [`bonuses`]).
    fn ceiling(&self) -> i64 {
        BonusCaps::ceiling(self.fuzzy, Exact::Name)
    }
}

/// Directories whose files are built or cached copies of sources elsewhere.
const DERIVED_DIRS: [&str; 3] = ["__pycache__", "dist", "build"];
/// Endings of files that are built from, or minified or compiled copies of, sources.
const DERIVED_ENDINGS: [&str; 8] = [".pyc", ".pyo", ".o", ".obj", ".class", ".min.js", ".min.css", ".map"];

/// Whether the relative path `path`, whose file name starts at `name_start`, is a build
/// artefact or a cached copy of a source (in `__pycache__/`, `dist/` or `build/`, or compiled or
/// minified: `.pyc`, `.o`, `.min.js`, …): on equal scores a source ranks above it.
fn is_derived(path: &str, name_start: usize) -> bool {
    let (dirs, name) = (&path[..name_start.saturating_sub(1)], &path[name_start..]);
    dirs.split('/').any(|dir| DERIVED_DIRS.contains(&dir))
        || DERIVED_ENDINGS.iter().any(|end| name.ends_with(end))
}

impl Query {
    /// Splits `query` into its whitespace-separated parts; at least one is required.
    pub fn parse(query: &str) -> Result<Query> {
        if query.len() > MAX_QUERY_BYTES {
            return Err(Error::new(
                ErrorCode::PatternTooLarge,
                format!(
                    "the find query is {} bytes long; at most {MAX_QUERY_BYTES} are accepted",
                    query.len()
                ),
            ));
        }
        let parts: Vec<Part> = query.split_whitespace().map(Part::new).collect();
        if parts.is_empty() {
            return Err(Error::new(ErrorCode::InvalidArgument, "find needs a query"));
        }
        Ok(Query { parts })
    }

    /// Whether a path holding the characters `chars` (see [`char_set`](crate::index::char_set))
    /// may match: no part misses more characters than the typos it allows. Cheap; the
    /// matcher's verdict is final.
    pub fn may_match(&self, chars: u64) -> bool {
        self.parts.iter().all(|part| missing(part.chars, chars) <= u32::from(part.typos))
    }

    /// The subsequence prefilter of the parts (see [`Subsequences`]).
    pub fn subsequences(&self) -> Subsequences {
        Subsequences::new(self.parts.iter().map(|part| (part.needle.as_str(), part.typos)))
    }

    /// Matches every text, drops the matches `keep` refuses, and returns how many are left
    /// and the best `limit` of them.
    pub fn rank(
        &self,
        texts: &Texts<'_>,
        keep: impl Fn(usize) -> bool,
        limit: usize,
        threads: usize,
    ) -> Ranking {
        self.rank_bounded(texts, keep, limit, threads, BOUNDED_TEXTS)
    }

    /// [`Query::rank`], bounding the scores first when there are at least `bounded` texts
    /// (see [`Query::candidates`]).
    fn rank_bounded(
        &self,
        texts: &Texts<'_>,
        keep: impl Fn(usize) -> bool,
        limit: usize,
        threads: usize,
        bounded: usize,
    ) -> Ranking {
        let part = self.parts.last().expect("a query has a part");
        let (total, mut scored) =
            match self.bound().filter(|_| texts.len() >= bounded.max(limit.saturating_mul(8))) {
                Some(bound) => self.candidates(&bound, texts, keep, limit, threads),
                None => {
                    let mut scored = self.matches(&texts.paths, threads);
                    scored.retain(|s| keep(s.at as usize));
                    (scored.len(), scored)
                }
            };
        if limit < scored.len() {
            scored = best_of(scored, texts, part, limit);
        } else {
            for s in &mut scored {
                bonuses(s, texts, part);
            }
            name_matches(&mut scored, texts, part, |s| s.in_dirs);
            set_derived(&mut scored, texts);
        }
        let key = Scored::order;
        scored.sort_unstable_by_key(key);
        let best = scored
            .into_iter()
            .map(|s| Ranked {
                at: s.at as usize,
                fuzzy: s.fuzzy.into(),
                filename_bonus: s.filename_bonus.into(),
                exact_bonus: s.exact_bonus.into(),
            })
            .collect();
        Ranking { total, best }
    }

    /// The texts every part matches, with their summed scores (`derived` and the bonuses not
    /// set).
    ///
    /// Every call to the matcher passes `&str` texts: each other type of text would compile
    /// frizbee's SIMD kernels again (a minute or more of optimised compile for each).
    fn matches(&self, texts: &[&str], threads: usize) -> Vec<Scored> {
        let (first, rest) = self.parts.split_first().expect("a query has a part");
        let mut scored: Vec<Scored> = match_list(&first.needle, &first.config, texts, threads)
            .into_iter()
            .map(|m| Scored {
                at: m.index,
                fuzzy: i32::from(m.score),
                end: u32::from(m.end_col),
                derived: false,
                len: u32::try_from(texts[m.index as usize].len()).unwrap_or(u32::MAX),
                filename_bonus: 0,
                exact_bonus: 0,
                in_dirs: false,
            })
            .collect();
        for part in rest {
            let subset: Vec<&str> = scored.iter().map(|s| texts[s.at as usize]).collect();
            let found = match_list(&part.needle, &part.config, &subset, threads);
            let mut next: Vec<Scored> = found
                .into_iter()
                .map(|m| {
                    let s = scored[m.index as usize];
                    Scored { fuzzy: s.fuzzy + i32::from(m.score), end: u32::from(m.end_col), ..s }
                })
                .collect();
            next.sort_unstable_by_key(|s| s.at);
            scored = next;
        }
        scored
    }

    /// Query characters that the best alignments leave unmatched or match to another one
    /// (an alignment of its own: count them only for the matches returned).
    pub fn typos(&self, text: &str) -> u32 {
        self.parts
            .iter()
            .map(|part| {
                let matched = matched_chars(&part.needle, part.typos, text);
                u32::try_from(part.needle.chars().count().saturating_sub(matched)).unwrap_or(u32::MAX)
            })
            .sum()
    }
}

/// What each bonus adds at most to a match of fuzzy score `fuzzy`: every rule about the
/// bonuses' sizes, which [`bonuses`], [`name_matches`] and [`Scored::ceiling`] all read.
struct BonusCaps {
    /// The query's name part is the file name: two fifths of the fuzzy score.
    exact_name: i32,
    /// The name part is the file name without its extension: a quarter.
    exact_stem: i32,
    /// The name part matched inside the file name: a sixth, at most 30 (scaled by how good
    /// that match is when it is matched alone).
    name: i32,
}

impl BonusCaps {
    fn of(fuzzy: i32) -> BonusCaps {
        BonusCaps { exact_name: fuzzy * 2 / 5, exact_stem: fuzzy / 4, name: (fuzzy / 6).min(30) }
    }

    /// The exact bonus for a file name that is `exact`.
    fn exact(&self, exact: Exact) -> i32 {
        match exact {
            Exact::Name => self.exact_name,
            Exact::Stem => self.exact_stem,
            Exact::Neither => 0,
        }
    }

    /// The most a match of fuzzy score `fuzzy` whose file name is `exact` can score with its
    /// bonuses (each cap grows with `fuzzy`, so an upper bound of the fuzzy score gives one of
    /// the score).
    fn ceiling(fuzzy: i32, exact: Exact) -> i64 {
        let caps = BonusCaps::of(fuzzy);
        i64::from(fuzzy) + i64::from(caps.exact(exact)) + i64::from(caps.name)
    }
}

/// Whether a file name is the query's name part.
#[derive(Clone, Copy)]
enum Exact {
    /// The whole name, ignoring ASCII case.
    Name,
    /// The name without its extension.
    Stem,
    Neither,
}

/// Whether the file name `file` is `name`, or is it once its extension is left out.
fn exact(file: &str, name: &str) -> Exact {
    let stem = file.rfind('.').filter(|&dot| dot > 0).map_or(file, |dot| &file[..dot]);
    if name.eq_ignore_ascii_case(file) {
        Exact::Name
    } else if name.eq_ignore_ascii_case(stem) {
        Exact::Stem
    } else {
        Exact::Neither
    }
}

/// The best `limit` of `scored` (more than `limit` matches), their bonuses added; the
/// others are left out as soon as their ceiling shows they cannot be among them, so most
/// matches of a short query are never looked at again.
fn best_of(mut scored: Vec<Scored>, texts: &Texts<'_>, part: &Part, limit: usize) -> Vec<Scored> {
    if limit == 0 {
        return Vec::new();
    }
    // A match scores at least its fuzzy score: one whose ceiling is below the `limit`-th
    // best fuzzy score cannot be among the best.
    let mut floors: Vec<i32> = scored.iter().map(|s| s.fuzzy).collect();
    let floor = i64::from(*floors.select_nth_unstable_by_key(limit - 1, |&f| Reverse(f)).1);
    scored.retain(|s| s.ceiling() >= floor);
    // The `limit` highest ceilings, scored in full, raise that floor to their lowest score.
    if scored.len() > limit {
        scored.select_nth_unstable_by_key(limit - 1, |s| Reverse(s.ceiling()));
    }
    let mut rest = scored.split_off(limit.min(scored.len()));
    for s in &mut scored {
        bonuses(s, texts, part);
    }
    name_matches(&mut scored, texts, part, |s| s.in_dirs);
    let floor = scored.iter().map(Scored::score).min().unwrap_or(i64::MIN);
    rest.retain(|s| s.ceiling() >= floor);
    for s in &mut rest {
        bonuses(s, texts, part);
    }
    scored.append(&mut rest);
    if scored.len() > limit {
        // Only a match that could still reach the best `limit` is matched against its file
        // name alone: bonuses only raise a score.
        let threshold = lowest_of_best(&mut scored, limit);
        // The bonus grows with the file name's own score, which its bound caps (see [`Bound`];
        // `None`: the name does not match and earns nothing).
        let name_bound = Bound::new(&[(part.name.as_str(), typos_allowed(&part.name))]);
        let most = |s: &Scored| match &name_bound {
            Some(bound) => bound.ceiling(texts.name(s.at as usize).as_bytes()).map(|c| c.fuzzy),
            None => Some(u32::MAX),
        };
        let reach = |s: &Scored| {
            s.in_dirs
                && s.score() + i64::from(BonusCaps::of(s.fuzzy).name) >= threshold
                && most(s).is_some_and(|most| {
                    let most = i32::try_from(most).unwrap_or(i32::MAX);
                    s.score() + i64::from(name_bonus(s.fuzzy, most, part)) >= threshold
                })
        };
        name_matches(&mut scored, texts, part, reach);
        // The best `limit` in the order are the best of those scoring at least the `limit`-th
        // best score: only their ties need telling apart.
        let threshold = lowest_of_best(&mut scored, limit);
        scored.retain(|s| s.score() >= threshold);
    }
    set_derived(&mut scored, texts);
    if scored.len() > limit {
        scored.select_nth_unstable_by_key(limit - 1, Scored::order);
        scored.truncate(limit);
    }
    scored
}

/// The `limit`-th best score of `scored` (more than `limit` matches, `limit` ≥ 1), which it
/// reorders.
fn lowest_of_best(scored: &mut [Scored], limit: usize) -> i64 {
    scored.select_nth_unstable_by_key(limit - 1, |s| Reverse(s.score())).1.score()
}

/// Tells the build artefacts and cached copies among `scored` (see [`is_derived`]).
fn set_derived(scored: &mut [Scored], texts: &Texts<'_>) {
    for s in scored {
        let at = s.at as usize;
        s.derived = is_derived(texts.path(at), texts.name_start(at));
    }
}

/// Sets the bonuses that need no second match (the exact name, and the alignment of `part`
/// ending inside the file name).
fn bonuses(s: &mut Scored, texts: &Texts<'_>, part: &Part) {
    let name_start = texts.name_start(s.at as usize);
    let caps = BonusCaps::of(s.fuzzy);
    s.exact_bonus = caps.exact(exact(texts.name(s.at as usize), &part.name));
    // Where the alignment of the name part starts, roughly: its end less its length.
    let starts = (s.end as usize + 1).saturating_sub(part.name.len());
    if starts >= name_start && !part.name.is_empty() {
        s.filename_bonus = caps.name;
    } else {
        s.in_dirs = !part.name.is_empty();
    }
}

/// The name bonus of a match of fuzzy score `fuzzy` whose file name, matched alone to the name
/// part, scores `name_score`: the cap, scaled by that score (it grows with it).
fn name_bonus(fuzzy: i32, name_score: i32, part: &Part) -> i32 {
    // A perfect name match scores about 16 per character.
    let perfect = i32::try_from(part.name.len() * 16).unwrap_or(i32::MAX).max(1);
    BonusCaps::of(fuzzy).name * name_score.min(perfect) / perfect
}

/// Where the file name of the relative path `text` starts: after its last `/`.
fn name_start_of(text: &str) -> usize {
    text.rfind('/').map_or(0, |slash| slash + 1)
}

/// For the matches `wanted` picks, whose alignment ended in the directories: matches the
/// name part against the file name alone, and gives the name bonus scaled by that match.
fn name_matches(scored: &mut [Scored], texts: &Texts<'_>, part: &Part, wanted: impl Fn(&Scored) -> bool) {
    let picked: Vec<usize> = (0..scored.len()).filter(|&i| wanted(&scored[i])).collect();
    if picked.is_empty() {
        return;
    }
    let names: Vec<&str> = picked.iter().map(|&i| texts.name(scored[i].at as usize)).collect();
    let config = Config { max_typos: Some(typos_allowed(&part.name)), ..part.config };
    for m in match_list(&part.name, &config, &names, 1) {
        let s = &mut scored[picked[m.index as usize]];
        s.filename_bonus = name_bonus(s.fuzzy, i32::from(m.score), part);
    }
    for &i in &picked {
        scored[i].in_dirs = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(query: &str, texts: &[&str], limit: usize) -> Vec<(String, Ranked)> {
        let ranking =
            Query::parse(query).unwrap().rank(&Texts::new(texts.to_vec(), |_| None), |_| true, limit, 1);
        ranking.best.into_iter().map(|r| (texts[r.at].to_string(), r)).collect()
    }

    #[test]
    fn typos_allowed_follow_fff_but_keep_half_the_needle() {
        let allowed: Vec<u16> =
            [1, 2, 3, 4, 8, 12, 24, 40].iter().map(|&n| typos_allowed(&"x".repeat(n))).collect();
        assert_eq!(allowed, [0, 1, 1, 2, 2, 3, 6, 6]);
    }

    #[test]
    fn exact_names_and_name_regions_win() {
        let found = rank("config", &["config/a.py", "lib/config.py", "lib/my_config_x.py"], 10);
        assert_eq!(found[0].0, "lib/config.py");
        assert!(found[0].1.exact_bonus > 0 && found[0].1.filename_bonus > 0);
        let names: Vec<&str> = found.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(names, ["lib/config.py", "lib/my_config_x.py", "config/a.py"]);
    }

    #[test]
    fn typos_are_counted_and_ties_go_to_the_shorter_path_then_the_first() {
        let found = rank("hanlder", &["src/b/handler.rs", "src/handler.rs", "src/a/handler.rs"], 10);
        let names: Vec<&str> = found.iter().map(|(t, _)| t.as_str()).collect();
        assert_eq!(names, ["src/handler.rs", "src/b/handler.rs", "src/a/handler.rs"]);
        let query = Query::parse("hanlder").unwrap();
        assert_eq!((query.typos("src/handler.rs"), query.typos("handler")), (1, 1));
        assert_eq!(Query::parse("handler").unwrap().typos("src/handler.rs"), 0);
    }

    #[test]
    fn parts_must_all_match_and_limits_keep_the_best() {
        let texts = ["a/parser.rs", "b/lexer.rs", "c/parser.py"];
        let found = rank("parser rs", &texts, 10);
        assert_eq!(found[0].0, "a/parser.rs");
        assert!(rank("zzzz qqqq", &texts, 10).is_empty());
        assert_eq!(rank("parser", &texts, 1).len(), 1);
        assert!(rank("parser", &texts, 0).is_empty());
        assert_eq!(Query::parse("  ").err().map(|e| e.code()), Some(ErrorCode::InvalidArgument));
    }

    #[test]
    fn among_equal_scores_sources_come_before_shorter_copies() {
        // The copies are one byte shorter: only telling them apart puts the sources first,
        // whether the best few are picked from many matches or all are ranked.
        let paths: Vec<String> =
            (0..40).flat_map(|n| [format!("x{n}/dist/parser.py"), format!("x{n}/zzzzz/parser.py")]).collect();
        let texts: Vec<&str> = paths.iter().map(String::as_str).collect();
        for limit in [5, 40, 80] {
            let found = rank("parser", &texts, limit);
            assert_eq!(found.len(), limit);
            let sources = found.iter().take(40).filter(|(path, _)| path.contains("zzzzz")).count();
            assert_eq!(sources, limit.min(40), "limit {limit}");
            assert!(found.iter().all(|(_, r)| r.fuzzy + r.filename_bonus + r.exact_bonus
                == found[0].1.fuzzy + found[0].1.filename_bonus + found[0].1.exact_bonus));
        }
    }

    #[test]
    fn the_best_few_are_the_head_of_the_full_order() {
        // Paths of every shape a short query meets: names, directories, typos, repeats.
        let words = ["test", "tests", "tset", "latest", "attest", "text", "best", "the", "est"];
        let texts: Vec<String> = (0..600)
            .map(|n| {
                let [a, b, c] = [n % 9, n / 9 % 9, n / 81 % 9].map(|i| words[i]);
                match n % 4 {
                    0 => format!("{a}/{b}_{c}.py"),
                    1 => format!("src/{a}{b}/{c}.rs"),
                    2 => format!("{a}_{b}/{c}/mod.rs"),
                    _ => format!("{c}.{a}"),
                }
            })
            .collect();
        let texts = Texts::new(texts.iter().map(String::as_str).collect::<Vec<_>>(), |_| None);
        for query in ["test", "tst", "src test", "best.py", "tests/mod"] {
            let parsed = Query::parse(query).unwrap();
            let order = |limit| -> Vec<(usize, i64)> {
                let ranking = parsed.rank(&texts, |_| true, limit, 1);
                ranking.best.iter().map(|r| (r.at, r.fuzzy + r.filename_bonus + r.exact_bonus)).collect()
            };
            let full = order(usize::MAX);
            assert!(full.len() > 30, "{query}: {} matches", full.len());
            for limit in [1, 3, 20] {
                assert_eq!(order(limit), full[..limit], "{query}, limit {limit}");
            }
        }
    }
}
