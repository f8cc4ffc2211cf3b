//! Frecency in a grep: ordering files by it (`sort: "frecency"`), and recording an access to
//! each file a page returns (a sandbox's `record_hits`).

use std::path::PathBuf;

use super::cursor::SortKey;
use crate::error::{Error, ErrorCode, Result};
use crate::rank::Frecency;
use crate::request::{GrepRequest, SortOrder};
use crate::result::FileMatches;
use crate::roots::{Location, Roots};

/// What a sandbox ranks and records with.
#[derive(Clone, Copy)]
pub(crate) struct Ranking<'a> {
    pub frecency: Option<&'a Frecency>,
    /// Record an access to each file a page returns.
    pub record_hits: bool,
}

impl<'a> Ranking<'a> {
    /// The database to order `request` by and the instant to score at (`as_of` from its
    /// cursor, else now), when it asks for frecency order; an error when it does without a
    /// database.
    pub fn order(&self, request: &GrepRequest, as_of: Option<u64>) -> Result<Option<(&'a Frecency, u64)>> {
        if request.sort != SortOrder::Frecency {
            return Ok(None);
        }
        let frecency = self.frecency.ok_or_else(|| {
            let message = "grep option `sort` is \"frecency\", but the sandbox has no frecency database (Sandbox option `frecency`)";
            Error::new(ErrorCode::InvalidOption, message).with_option("sort")
        })?;
        Ok(Some((frecency, as_of.unwrap_or_else(|| frecency.now_ms()))))
    }

    /// Records an access to each of `files` when the sandbox records hits: now, and after the
    /// instant the page's frecency order was scored at (`as_of`), so that the next page of
    /// the same search does not count them.
    pub fn record(
        &self,
        roots: &Roots,
        request: &GrepRequest,
        files: &[FileMatches],
        as_of: Option<u64>,
    ) -> Result<()> {
        let Some(frecency) = self.frecency.filter(|_| self.record_hits) else {
            return Ok(());
        };
        // Without links followed, a walk finds files under their canonical paths.
        let real: Vec<PathBuf> = match request.follow_links {
            false => files.iter().map(|file| file.path.clone()).collect(),
            true => files
                .iter()
                .filter_map(|file| crate::roots::canonical(&file.path))
                .filter(|real| roots.contains(real))
                .collect(),
        };
        let at = frecency.now_ms().max(as_of.map_or(0, |as_of| as_of + 1));
        frecency.record_accesses_at(real.iter().map(PathBuf::as_path), at)
    }
}

/// Ranks candidate files (key, root, where a followed link put it) by their frecency as of
/// `as_of`, highest first: each key's rank becomes minus its score's bits, and its target 0
/// so that the order is one across targets.
pub(super) fn rank_by_frecency(
    frecency: &Frecency,
    as_of: u64,
    roots: &Roots,
    files: &mut [(SortKey, usize, Option<Location>)],
) -> Result<()> {
    let linked: Vec<Option<PathBuf>> = files
        .iter()
        .map(|(_, _, at)| at.as_ref().map(|at| roots.paths()[at.root].join(&at.relative)))
        .collect();
    let paths = files.iter().zip(&linked).map(|((key, _, _), linked)| linked.as_deref().unwrap_or(&key.path));
    let scores = frecency.scores_as_of(paths, as_of)?;
    for ((key, _, _), score) in files.iter_mut().zip(scores) {
        key.rank = -i128::from(score.to_bits());
        key.target = 0;
    }
    Ok(())
}
