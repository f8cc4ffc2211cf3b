//! The fuzzy matcher that `fsnative::find` ranks with: `neo_frizbee`'s list matcher, behind one
//! plain function.
//!
//! frizbee's kernels are generic (over the SIMD backend chosen at run time, the typos allowed,
//! Unicode and the text type), so the crate that calls them compiles every one of them: 1.4 MB
//! of the x86-64 addon's code at opt-level 3, 1.06 MB optimised for size. Here they compile in
//! a crate of their own, so the release profile can optimise them apart from the core (the
//! workspace's `Cargo.toml` says how and why), and on one core while the core compiles on the
//! other. This crate holds no rule of fsnative's: the query, its typos, the scores and the
//! bonuses stay in the core.

use neo_frizbee::Matcher;
pub use neo_frizbee::{Config, Match, SortStrategy};

/// Matches `needle` against every text on up to `threads` threads (1: on this one); each match
/// names its text by position.
pub fn match_list(needle: &str, config: &Config, texts: &[&str], threads: usize) -> Vec<Match> {
    Matcher::new(needle, config).match_list_parallel(texts, threads)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_with_typos_and_names_each_text_by_position() {
        let config = Config { max_typos: Some(1), sort: SortStrategy::Unsorted, ..Config::default() };
        let texts = ["README.md", "src/main.rs", "src/man.rs"];
        let found: Vec<u32> = match_list("main", &config, &texts, 1).iter().map(|m| m.index).collect();
        assert_eq!(found, [1, 2]);
        let strict = Config { max_typos: Some(0), ..config };
        let found: Vec<u32> = match_list("main", &strict, &texts, 1).iter().map(|m| m.index).collect();
        assert_eq!(found, [1]);
    }
}
