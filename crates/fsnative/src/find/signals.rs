//! The sandbox's ranking signals added to a find's matches: path boost and frecency.

use std::cmp::Reverse;

use crate::error::Result;
use crate::rank::{Frecency, PathBoost};
use crate::result::FindEntry;
use crate::roots::Roots;

/// Points a unit of frecency adds to a find's score. A fuzzy match earns 12 to 16 points a
/// query character, so a file opened about once a day lately (frecency 3 to 5) gains about
/// one character's worth, and the most used files (frecency 10 to 20, where it grows by its
/// square root) three to six: frecency orders close matches, it does not overrule the query.
pub const FRECENCY_POINTS: f64 = 4.0;

/// How many times `limit` matches are ranked again with the signals (Terraphim's 4×).
pub(super) const OVER_FETCH: usize = 4;

/// What ranks a find's matches besides the query; each is optional.
#[derive(Clone, Copy, Default)]
pub(crate) struct Signals<'a> {
    /// The frecency database whose scores are added.
    pub(crate) frecency: Option<&'a Frecency>,
    /// The thesaurus whose path boosts are added.
    pub(crate) boost: Option<&'a PathBoost>,
}

impl Signals<'_> {
    /// No signal: the matches rank by the query alone.
    pub(crate) fn is_empty(&self) -> bool {
        self.frecency.is_none() && self.boost.is_none()
    }

    /// Adds each signal's part to `entries` (best first by the query) and orders them by
    /// the new scores; ties keep the query's order.
    pub(super) fn add_to(&self, roots: &Roots, entries: &mut [FindEntry]) -> Result<()> {
        if self.is_empty() {
            return Ok(());
        }
        if let Some(boost) = self.boost {
            let thesaurus = boost.thesaurus();
            for entry in entries.iter_mut() {
                let root = roots.root_of(&entry.path).unwrap_or(0);
                let relative = entry.path.strip_prefix(&roots.paths()[root]).unwrap_or(&entry.path);
                entry.path_boost =
                    i64::from(boost.boost_with(&thesaurus, relative.as_os_str().as_encoded_bytes()));
            }
        }
        if let Some(frecency) = self.frecency {
            let scores = frecency.scores(entries.iter().map(|entry| entry.path.as_path()))?;
            for (entry, score) in entries.iter_mut().zip(scores) {
                entry.frecency = (score * FRECENCY_POINTS).round() as i64;
            }
        }
        for entry in entries.iter_mut() {
            entry.score += entry.path_boost + entry.frecency;
        }
        entries.sort_by_key(|entry| Reverse(entry.score));
        Ok(())
    }
}
