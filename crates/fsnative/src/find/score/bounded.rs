//! A ranking that bounds every match's score before aligning it (see [`super::super::bound`]),
//! so that of many matches only those that could be among the best are aligned.

use super::super::bound::{threshold, Bound, Ceiling};
use super::{best_of, exact, BonusCaps, Exact, Query, Scored, Texts};

/// Texts aligned at least in the first round of a bounded ranking (see [`Query::candidates`]).
const FIRST_ROUND: usize = 256;

impl Query {
    /// The bound of the parts' scores, if every part can be bounded (see [`Bound`]).
    pub(super) fn bound(&self) -> Option<Bound> {
        let parts: Vec<(&str, u16)> =
            self.parts.iter().map(|part| (part.needle.as_str(), part.typos)).collect();
        Bound::new(&parts)
    }

    /// How many texts `keep` leaves of those every part matches, and those of them that may
    /// be among the best `limit`, aligned: the texts of highest ceilings first (at least
    /// [`FIRST_ROUND`] of them), then only those whose ceiling reaches the `limit`-th best
    /// score of the first round. A text left out scores at most its ceiling, below that of
    /// `limit` texts kept, so the best `limit` of those kept are the best of all.
    pub(super) fn candidates(
        &self,
        bound: &Bound,
        texts: &Texts<'_>,
        keep: impl Fn(usize) -> bool,
        limit: usize,
        threads: usize,
    ) -> (usize, Vec<Scored>) {
        let part = self.parts.last().expect("a query has a part");
        let mut ceilings = bound.ceilings(texts.len(), |at| (texts.path(at), texts.name_start(at)), threads);
        for (at, ceiling) in ceilings.iter_mut().enumerate() {
            if ceiling.is_some() && !keep(at) {
                *ceiling = None;
            }
        }
        let total = ceilings.iter().flatten().count();
        if limit == 0 {
            return (total, Vec::new());
        }
        // A lower-case name part that is the whole part is in the path whole when it is the
        // file name (or its stem): else the exact bonus is out of reach. Where it may be in
        // reach, the ceiling counts it until the file name is read (`tight`).
        let plain = part.name == part.needle && !part.name.bytes().any(|b| b.is_ascii_uppercase());
        let named = |c: &Ceiling| c.last_whole || !plain;
        let most = |c: &Ceiling, exact: Exact| match i32::try_from(c.fuzzy) {
            Ok(fuzzy) => BonusCaps::ceiling(fuzzy, exact),
            Err(_) => i64::MAX,
        };
        let loose = |c: &Ceiling| most(c, if named(c) { Exact::Name } else { Exact::Neither });
        let tight = |at: usize, c: &Ceiling| {
            if named(c) {
                most(c, exact(texts.name(at), &part.name))
            } else {
                loose(c)
            }
        };
        let top = threshold(ceilings.iter().flatten().map(loose), limit.max(FIRST_ROUND));
        let mut first =
            self.matches_of(texts, |at| ceilings[at].as_ref().is_some_and(|c| loose(c) >= top), threads);
        if first.len() < limit {
            // Too few to set a floor: every match is aligned.
            let rest = |at: usize| ceilings[at].as_ref().is_some_and(|c| loose(c) < top);
            first.extend(self.matches_of(texts, rest, threads));
            return (total, first);
        }
        let mut best = best_of(first, texts, part, limit);
        let floor = best.iter().map(Scored::score).min().unwrap_or(i64::MIN);
        for s in &mut best {
            *s = Scored { derived: false, filename_bonus: 0, exact_bonus: 0, in_dirs: false, ..*s };
        }
        let reach = |at: usize| {
            ceilings[at].as_ref().is_some_and(|c| (floor..top).contains(&loose(c)) && tight(at, c) >= floor)
        };
        best.extend(self.matches_of(texts, reach, threads));
        (total, best)
    }

    /// [`Query::matches`] of the texts `wanted` picks by position.
    fn matches_of(&self, texts: &Texts<'_>, wanted: impl Fn(usize) -> bool, threads: usize) -> Vec<Scored> {
        let picked: Vec<u32> = (0..texts.len() as u32).filter(|&at| wanted(at as usize)).collect();
        let subset: Vec<&str> = picked.iter().map(|&at| texts.path(at as usize)).collect();
        let mut scored = self.matches(&subset, threads);
        for s in &mut scored {
            s.at = picked[s.at as usize];
        }
        scored
    }
}

#[cfg(test)]
mod tests {
    use super::super::Ranking;
    use super::*;

    /// Bounding the scores first changes no ranking and no count, and leaves paths unaligned.
    #[test]
    fn a_bounded_ranking_is_the_full_ranking() {
        let words = ["test", "tests", "src", "Parser", "pkg0451", "pkg0457", "handler", "api", "v1", "tab"];
        let mut state = 0x5eed_u64;
        let mut below = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        let texts: Vec<String> = (0..3000)
            .map(|_| {
                let depth = 1 + below(4);
                let mut dirs: Vec<String> = (0..depth)
                    .map(|_| {
                        let word = words[below(words.len())];
                        if below(3) == 0 {
                            format!("{word}_{}", below(40))
                        } else {
                            word.to_owned()
                        }
                    })
                    .collect();
                let name = dirs.pop().unwrap();
                dirs.push(format!("{name}{}", [".rs", ".py", "", ".pyc"][below(4)]));
                dirs.join("/")
            })
            .collect();
        let texts = Texts::new(texts.iter().map(String::as_str).collect::<Vec<_>>(), |_| None);
        let keep = |at: usize| !at.is_multiple_of(97);
        let mut pruned = 0;
        for query in ["test", "tst", "pkg0451 hand", "src/Parser", "api v1 tab.rs", "hanlder", "v1"] {
            let parsed = Query::parse(query).unwrap();
            let scores = |ranking: Ranking| -> Vec<(usize, i64)> {
                ranking.best.iter().map(|r| (r.at, r.fuzzy + r.filename_bonus + r.exact_bonus)).collect()
            };
            let every = scores(parsed.rank(&texts, keep, usize::MAX, 1));
            for limit in [1, 20] {
                let head = scores(parsed.rank_bounded(&texts, keep, limit, 2, 0));
                assert_eq!(head, every[..limit], "{query}: the head of the whole order, limit {limit}");
            }
            for (limit, threads) in [(0, 2), (1, 1), (20, 2), (20, 1), (100, 2)] {
                let ranked = |bounded| {
                    let ranking = parsed.rank_bounded(&texts, keep, limit, threads, bounded);
                    let best: Vec<_> = ranking
                        .best
                        .iter()
                        .map(|r| (r.at, r.fuzzy, r.filename_bonus, r.exact_bonus))
                        .collect();
                    (ranking.total, best)
                };
                let full = ranked(usize::MAX);
                assert!(full.0 > limit, "{query}: {} matches", full.0);
                assert_eq!(ranked(0), full, "{query}, limit {limit}, {threads} threads");
            }
            let bound = parsed.bound().unwrap();
            let (total, aligned) = parsed.candidates(&bound, &texts, keep, 20, 1);
            pruned += total - aligned.len();
        }
        assert!(pruned > 0, "every match was aligned");
    }
}
