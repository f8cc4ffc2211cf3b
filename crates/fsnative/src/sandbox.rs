//! [`Sandbox`]: the facade on top of the layers. It holds the roots, the compiled-pattern
//! cache and the warm index, and hands each call to the layer that does the work.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use crate::control::CancelToken;
use crate::error::Result;
use crate::find;
use crate::glob;
use crate::grep::{self, MatcherCache};
use crate::index::{Index, IndexOptions, IndexStatus};
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
}

impl Sandbox {
    /// Builds a sandbox from one or more root directories. Each must exist and be a
    /// directory; it is canonicalised once (exact duplicates are kept once).
    pub fn new<I, P>(roots: I) -> Result<Sandbox>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        Ok(Sandbox { roots: Roots::new(roots)?, matchers: Arc::default(), index: None })
    }

    /// Like [`Sandbox::new`], with a warm index of the roots: built on a thread of its own,
    /// then kept current by a filesystem watcher. Searches it can answer (the walk's default
    /// options, path order) read it instead of walking and skip files its content prefilter
    /// rules out; the answers are the same. Until it is ready, searches walk.
    ///
    /// Refuses (`INVALID_OPTION`) to index `/` or a directory holding the home directory
    /// unless [`IndexOptions::allow_home`] is set.
    pub fn with_index<I, P>(roots: I, options: IndexOptions) -> Result<Sandbox>
    where
        I: IntoIterator<Item = P>,
        P: AsRef<Path>,
    {
        let mut sandbox = Sandbox::new(roots)?;
        sandbox.index = Some(Arc::new(Index::start(&sandbox.roots, options, grep::no_match)?));
        Ok(sandbox)
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
        grep::run(&self.roots, &self.matchers, self.index.as_deref(), request, cancel)
    }

    /// Lists entries whose path matches glob patterns. See [`GlobRequest`].
    pub fn glob(&self, request: &GlobRequest) -> Result<GlobResult> {
        self.glob_cancellable(request, &CancelToken::new())
    }

    /// Like [`glob`](Sandbox::glob), stoppable from another thread through `cancel`.
    pub fn glob_cancellable(&self, request: &GlobRequest, cancel: &CancelToken) -> Result<GlobResult> {
        glob::run(&self.roots, self.index.as_deref(), request, cancel)
    }

    /// Fuzzy-finds files by path, typo-tolerant, best first. See [`FindRequest`].
    pub fn find(&self, request: &FindRequest) -> Result<FindResult> {
        self.find_cancellable(request, &CancelToken::new())
    }

    /// Like [`find`](Sandbox::find), stoppable from another thread through `cancel`.
    pub fn find_cancellable(&self, request: &FindRequest, cancel: &CancelToken) -> Result<FindResult> {
        find::run(&self.roots, self.index.as_deref(), request, cancel)
    }
}
