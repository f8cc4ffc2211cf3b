//! [`Sandbox`]: the facade on top of the layers. It holds the roots, the compiled-pattern
//! cache, the warm index and the ranking signals, and hands each call to the layer that does
//! the work.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::control::CancelToken;
use crate::error::{Error, ErrorCode, Result};
use crate::find;
use crate::glob;
use crate::grep::{self, MatcherCache, Ranking};
use crate::index::{Index, IndexOptions, IndexStatus};
use crate::rank::{
    BoostStatus, Frecency, FrecencyOptions, FrecencyStatus, PathBoost, ThesaurusSource, DEFAULT_BOOST_WEIGHT,
    DEFAULT_MAX_BOOST,
};
use crate::request::{FindRequest, GlobRequest, GrepRequest};
use crate::result::{FindResult, GlobResult, GrepResult};
use crate::roots::{Intent, Roots};

/// A set of allowed root directories and the rules that keep every operation inside them.
///
/// Built once and shared: validation and searches only read it.
///
/// ```
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use fsnative::{Intent, Sandbox};
/// let dir = std::env::temp_dir();
/// let sandbox = Sandbox::new([&dir])?;
/// let inside = sandbox.validate(dir.join("new-file.txt"), Intent::Write)?;
/// assert!(inside.starts_with(&sandbox.roots()[0]));
/// assert!(sandbox.validate("/", Intent::Read).is_err());
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Sandbox {
    roots: Roots,
    /// Compiled grep patterns kept for reuse by every clone of this sandbox.
    matchers: Arc<MatcherCache>,
    /// The warm index, when one was asked for; shared by every clone.
    index: Option<Arc<Index>>,
    /// The frecency database, when one was attached.
    frecency: Option<Frecency>,
    /// Record an access to each file a grep returns (needs `frecency`).
    record_hits: bool,
    /// The path boost, when a thesaurus was attached; shared by every clone (its watcher
    /// stops when the last one goes).
    boost: Option<Arc<PathBoost>>,
}

/// What a sandbox is built with besides its roots; see [`Sandbox::with_options`]. Bindings
/// build it from their caller's options with
/// [`SandboxOptions::from_options`](crate::options).
#[derive(Clone, Debug)]
pub struct SandboxOptions {
    /// A warm index (see [`Sandbox::with_index`]); `None`: none.
    pub index: Option<IndexOptions>,
    /// A frecency database to record accesses in and rank by; `None`: none.
    pub frecency: Option<FrecencyOptions>,
    /// Record an access to each file a grep returns (needs `frecency`).
    pub record_hits: bool,
    /// A thesaurus for path boosts; `None`: none.
    pub thesaurus: Option<ThesaurusSource>,
    /// The boost per distinct concept a path mentions (default 5).
    pub boost_weight: u32,
    /// The cap on a path's boost (default 30).
    pub max_boost: u32,
}

impl Default for SandboxOptions {
    fn default() -> SandboxOptions {
        SandboxOptions {
            index: None,
            frecency: None,
            record_hits: false,
            thesaurus: None,
            boost_weight: DEFAULT_BOOST_WEIGHT,
            max_boost: DEFAULT_MAX_BOOST,
        }
    }
}

impl Sandbox {
    /// Builds a sandbox from one or more root directories. Each must exist and be a
    /// directory; it is canonicalised once (exact duplicates are kept once).
    pub fn new<I, P>(roots: I) -> Result<Sandbox>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        Ok(Sandbox {
            roots: Roots::new(roots)?,
            matchers: Arc::default(),
            index: None,
            frecency: None,
            record_hits: false,
            boost: None,
        })
    }

    /// Builds a sandbox with everything `options` ask for: the index, the frecency database
    /// (opened, and purged), the thesaurus (loaded, and watched when it is a file).
    pub fn with_options<I, P>(roots: I, options: &SandboxOptions) -> Result<Sandbox>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let mut sandbox = match &options.index {
            Some(index) => Sandbox::new(roots)?.with_index(index.clone())?,
            None => Sandbox::new(roots)?,
        };
        if let Some(frecency) = &options.frecency {
            sandbox = sandbox.with_frecency(frecency.open()?);
        }
        if let Some(thesaurus) = &options.thesaurus {
            sandbox = sandbox.with_path_boost(thesaurus.open(options.boost_weight, options.max_boost)?);
        }
        Ok(sandbox.recording_hits(options.record_hits))
    }

    /// This sandbox, recording accesses in `frecency` and ranking by it.
    pub fn with_frecency(mut self, frecency: Frecency) -> Sandbox {
        self.frecency = Some(frecency);
        self
    }

    /// This sandbox, boosting paths by `boost`.
    pub fn with_path_boost(mut self, boost: PathBoost) -> Sandbox {
        self.boost = Some(Arc::new(boost));
        self
    }

    /// This sandbox, recording an access to each file a grep returns when `record` is true
    /// (and it has a frecency database).
    pub fn recording_hits(mut self, record: bool) -> Sandbox {
        self.record_hits = record;
        self
    }

    /// This sandbox, with a warm index of its roots (replacing any index it had): built on a
    /// thread of its own, then kept current by a filesystem watcher. Searches it can answer
    /// (the walk's default options, path order) read it instead of walking and skip files its
    /// content prefilter rules out; the answers are the same. Until it is ready, searches walk.
    ///
    /// Refuses (`INVALID_OPTION`) to index `/` or a directory holding the home directory
    /// unless [`IndexOptions::allow_home`] is set.
    pub fn with_index(mut self, options: IndexOptions) -> Result<Sandbox> {
        self.index = Some(Arc::new(Index::start(&self.roots, options, grep::no_match)?));
        Ok(self)
    }

    /// The index's state, files, memory and watcher; `None` without an index.
    pub fn index_status(&self) -> Option<IndexStatus> {
        self.index.as_ref().map(|index| index.status())
    }

    /// Waits until the index is ready and has read every file (at most `timeout`, forever
    /// when `None`); true when it is. False at once without an index, or when it failed or
    /// was closed.
    pub fn wait_for_index(&self, timeout: Option<Duration>) -> bool {
        self.wait_for_index_cancellable(timeout, &CancelToken::new())
    }

    /// Like [`wait_for_index`](Sandbox::wait_for_index), stopped early (false) when `cancel`
    /// is cancelled: a binding's caller may give up (Ctrl-C) without a timeout.
    pub fn wait_for_index_cancellable(&self, timeout: Option<Duration>, cancel: &CancelToken) -> bool {
        self.index.as_ref().is_some_and(|index| index.wait(timeout, cancel))
    }

    /// Drops the index: stops its thread and watcher and frees its memory. Searches walk
    /// from then on. Closing twice, or without an index, does nothing.
    pub fn close(&self) {
        if let Some(index) = &self.index {
            index.close();
        }
    }

    /// The canonical roots, in the order given.
    pub fn roots(&self) -> &[PathBuf] {
        self.roots.paths()
    }

    /// Checks that `path` lies inside the sandbox and returns its canonical absolute form.
    ///
    /// Relative paths resolve against the first root; `~` and `~/x` expand to the current
    /// user's home (`~name` is an ordinary relative name); `"."` is the first root and `""`
    /// is an error. Symlinks are resolved component by component (at most
    /// [`MAX_SYMLINK_HOPS`](crate::MAX_SYMLINK_HOPS)). With [`Intent::Write`] the path may be missing: its nearest
    /// existing ancestor and the path itself (with `..` applied) must both be inside.
    pub fn validate(&self, path: impl AsRef<Path>, intent: Intent) -> Result<PathBuf> {
        self.roots.validate(path.as_ref(), intent)
    }

    /// The index of the root containing the canonical `path`, if any.
    pub fn root_of(&self, canonical: &Path) -> Option<usize> {
        self.roots.root_of(canonical)
    }

    /// True when `canonical` (already resolved) lies inside a root.
    pub fn contains(&self, canonical: &Path) -> bool {
        self.roots.contains(canonical)
    }

    /// Searches file contents. See [`GrepRequest`] for every option.
    pub fn grep(&self, request: &GrepRequest) -> Result<GrepResult> {
        self.grep_cancellable(request, &CancelToken::new())
    }

    /// Like [`grep`](Sandbox::grep), stoppable from another thread through `cancel`.
    pub fn grep_cancellable(&self, request: &GrepRequest, cancel: &CancelToken) -> Result<GrepResult> {
        let ranking = Ranking { frecency: self.frecency.as_ref(), record_hits: self.record_hits };
        grep::run(&self.roots, &self.matchers, self.index.as_deref(), ranking, request, cancel)
    }

    /// Lists entries whose path matches glob patterns. See [`GlobRequest`].
    pub fn glob(&self, request: &GlobRequest) -> Result<GlobResult> {
        self.glob_cancellable(request, &CancelToken::new())
    }

    /// Like [`glob`](Sandbox::glob), stoppable from another thread through `cancel`.
    pub fn glob_cancellable(&self, request: &GlobRequest, cancel: &CancelToken) -> Result<GlobResult> {
        glob::run(&self.roots, self.index.as_deref(), self.frecency.as_ref(), request, cancel)
    }

    /// Records an access to `path`, now, in the frecency database. The path is validated
    /// first (it must exist inside the sandbox) and recorded under its canonical form.
    /// An [`ErrorCode::InvalidArgument`] error without a frecency database.
    pub fn record_access(&self, path: impl AsRef<Path>) -> Result<()> {
        let frecency = self.frecency_or_error()?;
        frecency.record_access(&self.validate(path, Intent::Read)?)
    }

    /// The frecency score of `path` (validated as by [`Sandbox::record_access`]); 0 when it
    /// was never recorded. An [`ErrorCode::InvalidArgument`] error without a frecency
    /// database.
    pub fn frecency_score(&self, path: impl AsRef<Path>) -> Result<f64> {
        let frecency = self.frecency_or_error()?;
        frecency.score(&self.validate(path, Intent::Read)?)
    }

    /// The path boost of `path` (validated; it must exist inside the sandbox): the thesaurus
    /// concepts its path relative to its root mentions, times the weight, capped. An
    /// [`ErrorCode::InvalidArgument`] error without a thesaurus.
    pub fn path_boost(&self, path: impl AsRef<Path>) -> Result<u32> {
        let boost = self.boost.as_deref().ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidArgument,
                "this sandbox has no thesaurus (Sandbox option `thesaurus`)",
            )
        })?;
        let canonical = self.validate(path, Intent::Read)?;
        let root = self.roots.root_of(&canonical).unwrap_or(0);
        let relative = canonical.strip_prefix(&self.roots.paths()[root]).unwrap_or(&canonical);
        Ok(boost.boost(relative.as_os_str().as_encoded_bytes()))
    }

    /// The frecency database, when the sandbox has one.
    pub fn frecency(&self) -> Option<&Frecency> {
        self.frecency.as_ref()
    }

    /// The frecency database's directory and profile; `None` without one (the sandbox then
    /// refuses `sort: "frecency"` and the frecency calls).
    pub fn frecency_status(&self) -> Option<FrecencyStatus> {
        self.frecency.as_ref().map(Frecency::status)
    }

    /// The path boost, when the sandbox has a thesaurus.
    pub fn boost(&self) -> Option<&PathBoost> {
        self.boost.as_deref()
    }

    /// The thesaurus's state (its file, size, reloads and last failure); `None` without one.
    pub fn thesaurus_status(&self) -> Option<BoostStatus> {
        self.boost.as_ref().map(|boost| boost.status())
    }

    fn frecency_or_error(&self) -> Result<&Frecency> {
        self.frecency.as_ref().ok_or_else(|| {
            Error::new(
                ErrorCode::InvalidArgument,
                "this sandbox has no frecency database (Sandbox option `frecency`)",
            )
        })
    }

    /// Fuzzy-finds files by path, typo-tolerant, best first. See [`FindRequest`].
    pub fn find(&self, request: &FindRequest) -> Result<FindResult> {
        self.find_cancellable(request, &CancelToken::new())
    }

    /// Like [`find`](Sandbox::find), stoppable from another thread through `cancel`.
    pub fn find_cancellable(&self, request: &FindRequest, cancel: &CancelToken) -> Result<FindResult> {
        let signals = find::Signals { frecency: self.frecency.as_ref(), boost: self.boost.as_deref() };
        find::run(&self.roots, self.index.as_deref(), &signals, request, cancel)
    }
}
