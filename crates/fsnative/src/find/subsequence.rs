//! A second prefilter, before the matcher: the longest common subsequence of each query part
//! and a path, computed along the index's shared directory prefixes.
//!
//! frizbee matches a part to a path only when its own prefilter finds the part's characters in
//! the path in order, all but `typos` of them (`match_haystack_*_typos`: each needle character
//! is looked for after the previous one found, and up to `typos` may be skipped). Then the
//! part and the path have a common subsequence of at least `len - typos` characters, so a
//! path whose longest common subsequence with a part is shorter can never match: dropping it
//! changes no result. The character set of [`crate::index::char_set`] bounds the same thing
//! from one side only (which characters are there, not in which order).
//!
//! The subsequence is counted with the bit-parallel recurrence of Allison and Dix (one 64-bit
//! word per part, a few operations per path byte), whose state after a directory's path is
//! the state every path below it starts from: a walk in walk order feeds each entry's name to
//! its parent's state, so a million paths cost their names' bytes, not their full lengths.
//!
//! Characters are compared as frizbee's prefilter compares them: bytes, ASCII letters in
//! either case unless the part holds an upper-case letter (smart case). A part that is not
//! ASCII (frizbee then compares characters, with Unicode case folding) or longer than 64
//! bytes is not filtered here.

/// One query part's subsequence counter.
struct Part {
    /// For each byte, the positions in the part that it matches.
    masks: Box<[u64; 256]>,
    /// The part's length in bytes (at most 64).
    len: u32,
    /// The common subsequence a match needs at least: `len - typos`.
    need: u32,
}

/// The subsequence counters of a query's parts; a path's state holds one word per part.
pub(super) struct Subsequences {
    parts: Vec<Part>,
}

impl Subsequences {
    /// The counters for parts given as (needle, typos allowed).
    pub fn new<'a>(parts: impl IntoIterator<Item = (&'a str, u16)>) -> Subsequences {
        let parts = parts
            .into_iter()
            .filter(|(needle, typos)| {
                needle.is_ascii() && needle.len() <= 64 && needle.len() > usize::from(*typos)
            })
            .map(|(needle, typos)| {
                let case_sensitive = needle.bytes().any(|b| b.is_ascii_uppercase());
                let mut masks = Box::new([0u64; 256]);
                for (at, byte) in needle.bytes().enumerate() {
                    masks[usize::from(byte)] |= 1 << at;
                    if !case_sensitive {
                        masks[usize::from(byte.to_ascii_lowercase())] |= 1 << at;
                        masks[usize::from(byte.to_ascii_uppercase())] |= 1 << at;
                    }
                }
                let len = needle.len() as u32;
                Part { masks, len, need: len - u32::from(typos) }
            })
            .collect();
        Subsequences { parts }
    }

    /// Words in a state: one per filtered part (0: nothing is filtered).
    pub fn width(&self) -> usize {
        self.parts.len()
    }

    /// Whether `path` may match every part (the whole path fed at once).
    pub fn path_passes(&self, path: &[u8]) -> bool {
        self.parts.iter().all(|part| part.passes(part.feed(u64::MAX, path)))
    }

    /// For each part: the longest common subsequence of it and `text`, its length, and
    /// whether that passes.
    pub fn matched<'t>(&'t self, text: &'t [u8]) -> impl Iterator<Item = (u32, u32, bool)> + 't {
        self.parts.iter().map(move |part| {
            let v = part.feed(u64::MAX, text);
            (matched(v, part.len), part.len, part.passes(v))
        })
    }

    /// The state before any byte: one word per part.
    pub fn start(&self) -> Vec<u64> {
        vec![u64::MAX; self.parts.len()]
    }

    /// Advances `states` (one word per part, as [`Subsequences::start`] gives) over `bytes`.
    pub fn feed(&self, states: &mut [u64], bytes: &[u8]) {
        for (part, v) in self.parts.iter().zip(states) {
            *v = part.feed(*v, bytes);
        }
    }

    /// [`Subsequences::matched`] of the text that took the parts to `states`.
    pub fn matched_at<'t>(&'t self, states: &'t [u64]) -> impl Iterator<Item = (u32, u32, bool)> + 't {
        self.parts.iter().zip(states).map(|(part, &v)| (matched(v, part.len), part.len, part.passes(v)))
    }

    /// Whether `byte` matches one of part `at`'s characters.
    pub fn holds(&self, at: usize, byte: u8) -> bool {
        self.parts[at].masks[usize::from(byte)] != 0
    }
}

impl Part {
    /// The state `v` advanced over `bytes`. A zero bit at position i of the state: the
    /// common subsequence grew at part character i (Allison and Dix's recurrence).
    fn feed(&self, mut v: u64, bytes: &[u8]) -> u64 {
        for &byte in bytes {
            let m = self.masks[usize::from(byte)];
            v = v.wrapping_add(v & m) | (v & !m);
        }
        v
    }

    /// The longest common subsequence in state `v` is as long as a match needs.
    fn passes(&self, v: u64) -> bool {
        matched(v, self.len) >= self.need
    }

    /// The fewest bytes that, fed to state `v`, could make it pass (0: it passes): at most
    /// the part's first `len - more` characters are matched before `more` bytes (as `v`
    /// says), and each byte matches at most one more. That bound grows with `more`.
    fn shortest_to_pass(&self, v: u64) -> u32 {
        (0..=self.len).find(|&more| matched(v, self.len - more) + more >= self.need).unwrap_or(self.len)
    }
}

/// How long the common subsequence of state `v` with the part's first `chars` characters is.
fn matched(v: u64, chars: u32) -> u32 {
    let low = if chars >= 64 { u64::MAX } else { (1u64 << chars) - 1 };
    (!v & low).count_ones()
}

/// What the walk keeps of one part for a directory.
#[derive(Clone, Copy)]
struct Word {
    /// The part's state after the directory's path.
    v: u64,
    /// The shortest name below it that could pass (see [`Part::shortest_to_pass`]); 0: the
    /// directory passes, and so does everything below it, unfed (a longer path has a
    /// subsequence at least as long).
    shortest: u32,
}

/// The states of the directories above the entry being walked, deepest last: the walk feeds
/// each entry's name to its parent's state.
pub(super) struct PrefixStates<'s> {
    filter: &'s Subsequences,
    /// `width` words per depth, depth 0 (the directory searched) first.
    words: Vec<Word>,
    /// The length of the path of the directory at each depth (0 for depth 0).
    lens: Vec<usize>,
}

impl<'s> PrefixStates<'s> {
    pub fn new(filter: &'s Subsequences) -> PrefixStates<'s> {
        let words = filter.parts.iter().map(|part| Word::of(part, u64::MAX)).collect();
        PrefixStates { filter, words, lens: vec![0] }
    }

    /// Feeds the entry at `path` (relative to the directory searched, `depth` ≥ 1 below it,
    /// its parent walked before it) and tells whether it may match. A directory's state is
    /// kept for the entries below it.
    pub fn enter(&mut self, path: &[u8], depth: usize, dir: bool) -> bool {
        let width = self.filter.width();
        if width == 0 {
            return true;
        }
        let parent = depth - 1;
        if parent >= self.lens.len() {
            // Its directories were not walked before it (a walk begun below them): they are
            // entered from its path first.
            let slashes: Vec<usize> = (0..path.len()).filter(|&at| path[at] == b'/').collect();
            for ancestor in self.lens.len()..=parent {
                match slashes.get(ancestor - 1) {
                    Some(&end) => {
                        self.enter(&path[..end], ancestor, true);
                    }
                    None => return self.filter.path_passes(path),
                }
            }
        }
        // Below the directory's path: its `/` (past depth 1) and the entry's name.
        let name = &path[self.lens[parent]..];
        let above = &self.words[parent * width..depth * width];
        if !dir {
            // A file: a name too short for any part settles it unread; then the parts its
            // directory does not pass are fed, the first one it fails settling it.
            let len = u32::try_from(name.len()).unwrap_or(u32::MAX);
            return above.iter().all(|word| len >= word.shortest)
                && self
                    .filter
                    .parts
                    .iter()
                    .zip(above)
                    .all(|(part, word)| word.shortest == 0 || part.passes(part.feed(word.v, name)));
        }
        let mut words: [Word; 4] = [Word { v: 0, shortest: 0 }; 4];
        let mut spilled = Vec::new();
        let fed = |(part, word): (&Part, &Word)| {
            if word.shortest == 0 {
                *word
            } else {
                Word::of(part, part.feed(word.v, name))
            }
        };
        let new: &[Word] = if width <= words.len() {
            for (slot, word) in words.iter_mut().zip(self.filter.parts.iter().zip(above).map(fed)) {
                *slot = word;
            }
            &words[..width]
        } else {
            spilled.extend(self.filter.parts.iter().zip(above).map(fed));
            &spilled
        };
        let passes = new.iter().all(|word| word.shortest == 0);
        self.words.truncate(depth * width);
        self.words.extend_from_slice(new);
        self.lens.truncate(depth);
        self.lens.push(path.len());
        passes
    }
}

impl PrefixStates<'_> {
    /// Where the name of the entry at `path` (`depth` ≥ 1 below the directory searched) starts,
    /// when [`PrefixStates::enter`] has just fed it and kept its directory's path length
    /// (`None`: not known here).
    pub fn name_start(&self, path: &[u8], depth: usize) -> Option<usize> {
        if depth == 1 {
            return Some(0);
        }
        let len = *self.lens.get(depth - 1)?;
        (path.get(len) == Some(&b'/')).then_some(len + 1)
    }
}

impl Word {
    fn of(part: &Part, v: u64) -> Word {
        Word { v, shortest: part.shortest_to_pass(v) }
    }
}

#[cfg(test)]
mod tests {
    use neo_frizbee::{Config, Matcher, SortStrategy};

    use super::*;

    /// A small seeded generator (xorshift64*), so the property tests repeat.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }

        /// A string of `len` characters drawn from `alphabet`.
        fn text(&mut self, alphabet: &[u8], len: usize) -> String {
            (0..len).map(|_| char::from(alphabet[self.below(alphabet.len())])).collect()
        }
    }

    /// The longest common subsequence by the textbook table, bytes compared as `same` says.
    fn lcs(a: &[u8], b: &[u8], same: impl Fn(u8, u8) -> bool) -> u32 {
        let mut row = vec![0u32; b.len() + 1];
        for &x in a {
            let mut diagonal = 0;
            for (j, &y) in b.iter().enumerate() {
                let above = row[j + 1];
                row[j + 1] = if same(x, y) { diagonal + 1 } else { above.max(row[j]) };
                diagonal = above;
            }
        }
        row[b.len()]
    }

    #[test]
    fn the_bit_parallel_count_is_the_longest_common_subsequence() {
        let mut rng = Rng(0x5eed);
        for round in 0..3000 {
            let len = 1 + rng.below(if round % 10 == 0 { 64 } else { 12 });
            let needle = rng.text(b"abcAB/_x", len);
            let path_len = rng.below(40);
            let path = rng.text(b"abcdAB/_.xy", path_len);
            let case_sensitive = needle.bytes().any(|b| b.is_ascii_uppercase());
            let same = |x: u8, y: u8| if case_sensitive { x == y } else { x.eq_ignore_ascii_case(&y) };
            let expected = lcs(needle.as_bytes(), path.as_bytes(), same);
            // The least typos that let this path pass is exactly the part's length less it.
            for typos in 0..len.min(8) as u16 {
                let filter = Subsequences::new([(needle.as_str(), typos)]);
                let passes = expected + u32::from(typos) >= len as u32;
                assert_eq!(
                    filter.path_passes(path.as_bytes()),
                    passes,
                    "{needle:?} in {path:?}, {typos} typos"
                );
            }
        }
    }

    #[test]
    fn no_path_the_matcher_matches_is_filtered_out() {
        let mut rng = Rng(0xf1e1d);
        let alphabet = b"aAbcdeE/_.-12\xc3\xa9";
        for _ in 0..400 {
            let needle_len = 1 + rng.below(14);
            let needle = rng.text(b"abcdeAE/_.1", needle_len);
            let needle = needle.as_str();
            let typos = rng.below(needle.len().min(7) + 1) as u16;
            let paths: Vec<String> = (0..200)
                .map(|_| {
                    let len = rng.below(48);
                    String::from_utf8_lossy(rng.text(alphabet, len).as_bytes()).into_owned()
                })
                .collect();
            let texts: Vec<&str> = paths.iter().map(String::as_str).collect();
            let config = Config { max_typos: Some(typos), sort: SortStrategy::Unsorted, ..Config::default() };
            let filter = Subsequences::new([(needle, typos)]);
            for found in Matcher::new(needle, &config).match_list(&texts) {
                let path = texts[found.index as usize];
                assert!(filter.path_passes(path.as_bytes()), "{needle:?} ({typos} typos) matches {path:?}");
            }
        }
    }

    #[test]
    fn the_bound_before_feeding_never_rules_out_a_pass() {
        let mut rng = Rng(0xb0b);
        for _ in 0..3000 {
            let needle_len = 1 + rng.below(20);
            let needle = rng.text(b"abcd/_", needle_len);
            let typos = rng.below(needle_len.min(6)) as u16;
            let filter = Subsequences::new([(needle.as_str(), typos)]);
            let Some(part) = filter.parts.first() else { continue };
            let (head_len, tail_len) = (rng.below(30), rng.below(12));
            let (head, tail) = (rng.text(b"abcde/_", head_len), rng.text(b"abcde/_", tail_len));
            let v = part.feed(u64::MAX, head.as_bytes());
            if part.passes(part.feed(v, tail.as_bytes())) {
                assert!(tail.len() as u32 >= part.shortest_to_pass(v), "{needle:?}: {head:?} then {tail:?}");
            }
            assert_eq!(part.shortest_to_pass(v) == 0, part.passes(v), "{needle:?}: {head:?}");
        }
    }

    #[test]
    fn prefix_states_give_the_whole_paths_answer() {
        let filter = Subsequences::new([("srchand", 2), ("rs", 0)]);
        let walk = [
            ("src", 1, true),
            ("src/handler.rs", 2, false),
            ("src/lib", 2, true),
            ("src/lib/hand.rs", 3, false),
            ("src/lib/x.py", 3, false),
            ("srs", 1, false),
            ("tests", 1, true),
            ("tests/handler.rs", 2, false),
        ];
        let mut states = PrefixStates::new(&filter);
        for (path, depth, dir) in walk {
            let passes = states.enter(path.as_bytes(), depth, dir);
            assert_eq!(passes, filter.path_passes(path.as_bytes()), "{path}");
            let name_start = path.rfind('/').map_or(0, |slash| slash + 1);
            assert_eq!(states.name_start(path.as_bytes(), depth), Some(name_start), "{path}");
        }
        assert!(filter.path_passes(b"src/handler.rs") && !filter.path_passes(b"tests/handler.py"));
    }

    #[test]
    fn a_find_filtered_along_the_walk_ranks_as_the_unfiltered_one() {
        use super::super::score::{Query, Texts};

        let words = ["src", "lib", "handler", "hanlder", "test", "tests", "pkg0451", "api", "v1", "Parser"];
        let mut rng = Rng(0xacce55);
        let mut entries: Vec<(String, bool)> = Vec::new();
        for _ in 0..1500 {
            let depth = 1 + rng.below(4);
            let mut path = String::new();
            for level in 0..depth {
                if level > 0 {
                    path.push('/');
                }
                path.push_str(words[rng.below(words.len())]);
                if rng.below(3) == 0 {
                    path.push_str(&format!("_{}", rng.below(30)));
                }
                entries.push((path.clone(), level + 1 < depth));
            }
            path.push_str([".rs", ".py", ".c"][rng.below(3)]);
            entries.pop();
            entries.push((path, false));
        }
        // Walk order: name by name, a directory before its contents (`/` sorts first).
        let key = |path: &str| path.bytes().map(|b| if b == b'/' { 0 } else { b }).collect::<Vec<u8>>();
        entries.sort_by_key(|entry| key(&entry.0));
        entries.dedup_by(|a, b| a.0 == b.0);
        let files: Vec<&str> = entries.iter().filter(|e| !e.1).map(|e| e.0.as_str()).collect();
        let queries =
            ["hanlder", "src/hand", "pkg0451 api v1", "test", "Parser", "lib hand_2.rs", "tsts/prser"];
        let mut ruled_out = 0;
        for query in queries {
            let parsed = Query::parse(query).unwrap();
            let ranked = |texts: &[&str]| -> Vec<(String, i64)> {
                let ranking = parsed.rank(&Texts::new(texts.to_vec(), |_| None), |_| true, usize::MAX, 1);
                ranking
                    .best
                    .iter()
                    .map(|r| (texts[r.at].to_owned(), r.fuzzy + r.filename_bonus + r.exact_bonus))
                    .collect()
            };
            let all = ranked(&files);
            assert!(!all.is_empty(), "{query}");
            let filter = parsed.subsequences();
            // Walked whole, and in two runs as threads walk it (the second begun mid-tree).
            let middle = entries.len() / 2;
            for splits in [&[0, entries.len()][..], &[0, middle, entries.len()]] {
                let runs = splits.windows(2).map(|run| run[0]..run[1]);
                let mut kept = Vec::new();
                for run in runs {
                    let mut states = PrefixStates::new(&filter);
                    for (path, dir) in &entries[run] {
                        let depth = 1 + path.matches('/').count();
                        if states.enter(path.as_bytes(), depth, *dir) && !dir {
                            kept.push(path.as_str());
                            let name_start = path.rfind('/').map_or(0, |slash| slash + 1);
                            let known = states.name_start(path.as_bytes(), depth);
                            assert_eq!(known, Some(name_start), "{path}, from run {splits:?}");
                        }
                    }
                }
                ruled_out += files.len() - kept.len();
                assert_eq!(ranked(&kept), all, "{query}");
            }
        }
        assert!(ruled_out > 0, "the filter left every path to the matcher");
    }

    #[test]
    fn parts_it_cannot_judge_pass_everything() {
        let filter = Subsequences::new([("h\u{e9}llo", 1), (&*"x".repeat(65), 2), ("ab", 2)]);
        assert_eq!(filter.width(), 0);
        assert!(filter.path_passes(b"zzz"));
        assert!(PrefixStates::new(&filter).enter(b"zzz", 1, false));
    }
}
