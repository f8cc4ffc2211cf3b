//! Ranking signals that do not depend on a query: frecency (how often and how recently a
//! file was accessed, persisted in LMDB) and path boost (how many thesaurus concepts a path
//! mentions). Searches add them to their own scores or order by them; this layer knows
//! nothing of roots or walks, only paths.
//!
//! Its modules: `profile` (the formula and the profiles), `store` (LMDB: one environment per
//! directory and process, the cache), `frecency` (the [`Frecency`] handle), `thesaurus` (terms to
//! concepts, one Aho-Corasick automaton), `boost` ([`PathBoost`]) and `reload` (the thread
//! that watches a thesaurus file).

mod boost;
mod frecency;
mod profile;
mod reload;
mod store;
mod thesaurus;

use std::path::PathBuf;

pub use boost::{BoostStatus, PathBoost, DEFAULT_BOOST_WEIGHT, DEFAULT_MAX_BOOST};
pub use frecency::{Clock, Frecency, FrecencyStatus, FRECENCY_DB_ENV};
pub use profile::FrecencyProfile;
pub use store::MAX_ACCESSES_PER_FILE;
pub use thesaurus::Thesaurus;

use crate::error::Result;

/// Which frecency database a sandbox opens.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrecencyOptions {
    /// The database's directory; `None`: the one [`FRECENCY_DB_ENV`] names.
    pub path: Option<PathBuf>,
    /// The profile (the database must have been created with it, if it exists).
    pub profile: FrecencyProfile,
}

impl FrecencyOptions {
    /// Opens the database these options name.
    pub fn open(&self) -> Result<Frecency> {
        match &self.path {
            Some(path) => Frecency::open(path, self.profile),
            None => Frecency::from_env(self.profile),
        }
    }
}

/// Where a sandbox's thesaurus comes from.
#[derive(Clone, Debug)]
pub enum ThesaurusSource {
    /// A JSON file, watched and reloaded (see [`PathBoost::watch`]).
    File(PathBuf),
    /// A thesaurus given in memory.
    Mapping(Thesaurus),
}

impl ThesaurusSource {
    /// The path boost of this thesaurus, with `weight_per_term` per concept, at most
    /// `max_boost`.
    pub fn open(&self, weight_per_term: u32, max_boost: u32) -> Result<PathBoost> {
        let boost = match self {
            ThesaurusSource::File(path) => PathBoost::watch(path)?,
            ThesaurusSource::Mapping(thesaurus) => PathBoost::new(thesaurus.clone()),
        };
        Ok(boost.with_weights(weight_per_term, max_boost))
    }
}
