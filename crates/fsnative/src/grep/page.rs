//! The page: outcomes accepted in result order until the limit, with where it ends.

use std::path::Path;

use super::cursor::Position;
use super::job::{Done, Job};
use crate::index::Unsearched;
use crate::request::{GrepRequest, OutputMode};
use crate::result::{FileMatches, GrepStats, Match, Truncation};
use crate::roots::Roots;

/// The page being assembled by the calling thread.
pub(super) struct Page<'a> {
    request: &'a GrepRequest,
    roots: &'a Roots,
    pub files: Vec<FileMatches>,
    records: u64,
    pub truncated: Option<Truncation>,
    /// Where this page ends (the last file it took records from).
    pub position: Option<Position>,
    pub stats: GrepStats,
}

impl<'a> Page<'a> {
    /// An empty page of `request`, starting where `resume` says.
    pub fn new(request: &'a GrepRequest, roots: &'a Roots, resume: Option<&Position>) -> Page<'a> {
        Page {
            request,
            roots,
            files: Vec::new(),
            records: 0,
            truncated: None,
            position: resume.cloned(),
            stats: GrepStats::default(),
        }
    }

    /// The page is complete, or the search was interrupted.
    pub fn is_done(&self) -> bool {
        self.truncated.is_some()
    }

    /// Counts files the index ruled out as searched without a match, as a walk would have.
    pub fn add_unsearched(&mut self, unsearched: Unsearched) {
        self.stats.files_walked += unsearched.files;
        self.stats.files_searched += unsearched.files;
        self.stats.bytes_searched += unsearched.bytes;
        self.stats.skipped_binary += unsearched.binary;
    }

    /// Adds one file's outcome to the page; true when the page is complete.
    pub fn accept(&mut self, item: Done) -> bool {
        let Done { job, outcome } = item;
        self.add_unsearched(job.unsearched);
        self.stats.files_walked += 1;
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(_) => {
                self.stats.skipped_errors += 1;
                return false;
            }
        };
        self.stats.files_searched += u64::from(outcome.searched);
        self.stats.bytes_searched += outcome.bytes;
        if outcome.binary_offset.is_some() && outcome.records == 0 {
            self.stats.skipped_binary += 1;
        }
        let content = self.request.mode == OutputMode::Content;
        if outcome.interrupted.is_some() && !content {
            // A partial count is no count: leave the file to the next page.
            self.truncated = outcome.interrupted;
            return true;
        }
        // What the limit counts: match records in content mode, files otherwise.
        let units = if content { outcome.records } else { u64::from(outcome.records > 0) };
        let limit = self.request.limit.unwrap_or(u64::MAX);
        if units > 0 {
            if self.records >= limit {
                // The page was already full; this file proves that more results exist.
                self.truncated = Some(Truncation::Limit);
                return true;
            }
            self.stats.files_matched += 1;
            let taken = units.min(limit - self.records);
            self.records += taken;
            self.position = Some(Position { key: job.key.clone(), taken: job.skip + taken });
            let mut entry = self.file_matches(&job, outcome.matches, outcome.records, taken);
            entry.bytes_searched = outcome.bytes;
            entry.binary_offset = outcome.binary_offset;
            self.files.push(entry);
            if taken < units {
                self.truncated = Some(Truncation::Limit);
                return true;
            }
        }
        if let Some(reason) = outcome.interrupted {
            self.truncated = Some(reason);
            if units == 0 {
                self.position = Some(Position { key: job.key, taken: job.skip });
            }
            return true;
        }
        false
    }

    /// The page entry for a file of which `taken` units (see `accept`) fit on the page.
    fn file_matches(&self, job: &Job, mut matches: Vec<Match>, records: u64, taken: u64) -> FileMatches {
        let root = &self.roots.paths()[job.root];
        let relative_path =
            crate::roots::strip_base(&job.key.path, root).unwrap_or(Path::new("")).to_path_buf();
        let relative_path = crate::result::slashed_relative(relative_path);
        let count = match self.request.mode {
            OutputMode::Content => {
                matches.truncate(taken as usize);
                taken
            }
            OutputMode::Files => 1,
            OutputMode::Count => records,
        };
        FileMatches {
            path: job.key.path.clone(),
            relative_path,
            count,
            matches,
            bytes_searched: 0,
            binary_offset: None,
        }
    }
}
