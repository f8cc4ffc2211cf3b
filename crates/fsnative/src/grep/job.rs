//! One candidate file: how it is opened beneath its root and searched.

use std::fs::File;
use std::io;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use grep_regex::RegexMatcher;

use super::cursor::SortKey;
use super::file::{self, FileOutcome, FileSearchConfig, FileSearcher, Source};
use crate::control::Control;
use crate::index::{vouched, CacheKey, ContentCache, Unsearched};
use crate::request::{GrepRequest, OutputMode};
use crate::roots::{Location, RootDirs};
use crate::walk::SkipCounters;

/// One candidate file, numbered in result order.
pub(super) struct Job {
    pub seq: u64,
    pub key: SortKey,
    /// The root the walk found it in (its relative path in the result is below that root).
    pub root: usize,
    /// Where it really lies, when a followed link put it elsewhere than `key.path`.
    pub at: Option<Location>,
    /// The key its contents may be cached under (a file the index knows).
    pub cached: Option<CacheKey>,
    /// Records of this file to skip (a cursor resuming inside it).
    pub skip: u64,
    /// Files the index ruled out between the previous job and this one.
    pub unsearched: Unsearched,
}

/// A job and what searching it gave.
pub(super) struct Done {
    pub job: Job,
    pub outcome: io::Result<FileOutcome>,
}

/// What searching a job takes, shared by every thread that searches.
pub(super) struct JobSearch<'a> {
    /// The roots, opened once: files are opened beneath these handles.
    pub dirs: &'a RootDirs<'a>,
    pub request: &'a GrepRequest,
    pub matcher: &'a RegexMatcher,
    pub config: FileSearchConfig,
    pub control: &'a Control,
    pub skipped: &'a SkipCounters,
    /// The index's content cache, when the index answers the search.
    pub cache: Option<&'a ContentCache>,
    /// Set when the page is complete; workers skip what is left.
    pub stop: AtomicBool,
}

impl<'a> JobSearch<'a> {
    /// How each file of `request` is searched, given its section-end matcher.
    pub fn config(request: &GrepRequest, sections: Option<Arc<RegexMatcher>>) -> FileSearchConfig {
        FileSearchConfig {
            sections,
            mode: request.mode,
            max_columns: request.max_columns,
            record_cap: match request.mode {
                OutputMode::Content => request.limit.map(|l| l.saturating_add(1)),
                _ => None,
            },
        }
    }

    /// A file searcher for one thread.
    pub fn searcher(&self) -> FileSearcher {
        file::searcher(self.request)
    }

    /// Searches the file of `job`: its cached contents when the cache holds this version of
    /// it, else the file opened and read (kept in the cache when the cache admits it).
    pub fn search(&self, searcher: &mut FileSearcher, job: &Job) -> io::Result<FileOutcome> {
        let whole_file_taken = job.skip > 0 && self.request.mode != OutputMode::Content;
        if whole_file_taken {
            return Ok(FileOutcome::default());
        }
        let cache = self.cache.zip(job.cached.as_ref());
        if let Some(bytes) = cache.and_then(|(cache, key)| cache.get(key)) {
            let source = Source::Bytes(&bytes);
            return file::search(searcher, self.matcher, source, &self.config, job.skip, self.control);
        }
        match self.open(job)? {
            Some((handle, size)) => {
                let fill = cache
                    .filter(|(cache, key)| cache.admits(key, size))
                    .and_then(|(cache, key)| Some((cache, key, vouched(&handle, key)?)));
                let source = Source::Open(&handle, size);
                let outcome =
                    file::search(searcher, self.matcher, source, &self.config, job.skip, self.control)?;
                if let (Some((cache, key, stamp)), Some(bytes)) = (fill, searcher.read_whole()) {
                    cache.insert(key, stamp, bytes);
                }
                Ok(outcome)
            }
            None => {
                SkipCounters::add(&self.skipped.special);
                Ok(FileOutcome::default())
            }
        }
    }

    /// Opens a job's file beneath a root: where a followed link put it, else by the path the
    /// walk found it at.
    fn open(&self, job: &Job) -> io::Result<Option<(File, u64)>> {
        let (root, relative) = self.dirs.roots().place(job.root, &job.key.path, job.at.as_ref());
        self.dirs.open_file(root, relative, self.request.follow_links)
    }
}
