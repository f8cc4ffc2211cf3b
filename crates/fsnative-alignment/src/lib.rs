//! The alignment that `fsnative::find` counts a match's typos on: `neo_frizbee`'s, with the
//! positions of the matched characters, behind one plain function.
//!
//! frizbee's SIMD kernels are generic (over the backend, the typos allowed and the text type),
//! so the crate that calls them compiles them. The kernels that track positions are the largest
//! (about 150 s of optimised compile on one thread, more than the rest of the core); in a crate
//! of their own they compile on one core while the core and its other dependencies compile on
//! the other. This crate holds no rule of fsnative's: the query, the scores and the bonuses stay
//! in the core.

pub use neo_frizbee::Config;
use neo_frizbee::Matcher;

/// How many of `needle`'s characters the best alignment on `text` matches (0 when it does not
/// match at all).
pub fn matched_chars(needle: &str, config: &Config, text: &str) -> usize {
    Matcher::new(needle, config).match_one_indices(text, 0).map_or(0, |m| m.indices.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_matched_characters() {
        let config = Config { max_typos: Some(1), ..Config::default() };
        assert_eq!(matched_chars("main", &config, "src/main.rs"), 4);
        assert_eq!(matched_chars("main", &config, "src/man.rs"), 3);
        assert_eq!(matched_chars("main", &config, "README.md"), 0);
    }
}
