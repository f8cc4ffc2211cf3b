//! The warm index: the file list of a sandbox's roots and a content prefilter, kept in
//! memory and current, so repeated searches skip the walk and most of the reading. It stands
//! on the walking layer (its list is what a walk with the default options finds) and the
//! roots layer; grep and glob ask it for a [`View`] and walk when it has none.
//!
//! Never stale, by construction: before a view is handed out, the watcher's pending events
//! are read and applied ([`watch`], [`update`]), so every change whose system call returned
//! before the query began is in the answer. Files changed since they were read are searched,
//! not ruled out, until a background thread has read them again.
//!
//! Its modules: `tree` (one root's entries in walk order), `chars` (which characters a path
//! holds, for fuzzy path search), `gram` (what the prefilter's grams are),
//! `content` (gram signatures),
//! `query` (what a pattern requires), `watch` (the OS's watcher's events as changes), `update` (listing and applying
//! changes), `reader` (the background thread), `view` (what a search reads), `stamp` (what
//! an inode looked like when read), `persist` (the index kept on disk between runs), `cache`
//! (the bytes of small files searches read often).

mod cache;
mod chars;
mod content;
mod gram;
mod persist;
mod query;
mod reader;
mod stamp;
#[cfg(test)]
mod tests;
mod tree;
mod update;
mod view;
mod watch;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::control::{CancelToken, Control};
use crate::error::{Error, ErrorCode, Result};
use crate::roots::{RootDirs, Roots};
use crate::sys;
use crate::walk::WalkOptions;

pub(crate) use chars::{char_set, missing, query_char_set};
pub(crate) use query::{Case as GramCase, GramQuery};
pub use reader::NoMatch;
pub(crate) use tree::{Content, Kind};
pub(crate) use view::{Prefilter, Unsearched, View};

pub use cache::DEFAULT_CACHE_MEMORY;
pub(crate) use cache::{vouched, CacheKey, ContentCache};
use content::Signatures;
use persist::Store;
pub use persist::StoreStart;
use tree::Tree;
use update::{Lister, Lists};
use watch::{Changes, Watcher};

/// How a sandbox's index is built and bounded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IndexOptions {
    /// The most entries (files, directories, links) the index holds. Past it the index gives
    /// up (state `failed`) and searches walk, as without an index.
    pub max_files: usize,
    /// The most memory, in bytes, the index may hold. Past it, files are listed but not read
    /// into the content prefilter: they are searched, never ruled out.
    pub max_memory: usize,
    /// Build the content prefilter (else the index holds the file list only).
    pub content: bool,
    /// Index `/` or a directory holding the user's home directory (refused otherwise).
    pub allow_home: bool,
    /// Keep the index in this directory between runs: loaded at start (and checked against
    /// the tree) instead of reading the tree again, written after the first build, after
    /// large changes and when the index closes.
    pub persist: Option<PathBuf>,
    /// The most memory, in bytes, the content cache may hold: the contents of small files
    /// that searches read again and again, so that they are not read from disk each time
    /// (0: no cache). Counted apart from `max_memory`.
    pub cache_memory: usize,
}

/// Default of [`IndexOptions::max_files`].
pub const DEFAULT_INDEX_MAX_FILES: usize = 1_000_000;
/// Default of [`IndexOptions::max_memory`]: 512 MiB.
pub const DEFAULT_INDEX_MAX_MEMORY: usize = 512 << 20;

impl Default for IndexOptions {
    fn default() -> IndexOptions {
        IndexOptions {
            max_files: DEFAULT_INDEX_MAX_FILES,
            max_memory: DEFAULT_INDEX_MAX_MEMORY,
            content: true,
            allow_home: false,
            persist: None,
            cache_memory: DEFAULT_CACHE_MEMORY,
        }
    }
}

/// Where an index stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum IndexState {
    /// Listing the roots; searches walk meanwhile.
    Building,
    /// Answering searches (the content prefilter may still be filling: see
    /// [`IndexStatus::content_pending`]).
    Ready,
    /// Given up (see [`IndexStatus::error`]); searches walk.
    Failed,
    /// Closed by its owner; searches walk.
    Closed,
}

/// How the index learns of changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Watching {
    /// Every listed directory is watched.
    Live,
    /// Some directories could not be watched (the kernel's watch limit): those are listed
    /// again before every search, and their files always searched.
    Partial,
    /// Nothing is watched (the index is not ready).
    Off,
}

/// A snapshot of an index's state, for `index_status()`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct IndexStatus {
    /// Building, ready, failed or closed.
    pub state: IndexState,
    /// Files listed.
    pub files: u64,
    /// Directories listed.
    pub dirs: u64,
    /// Bytes of the files read into the content prefilter.
    pub bytes: u64,
    /// Memory the index holds, in bytes (its lists and signatures, and the content cache).
    pub memory_bytes: u64,
    /// How changes are heard of.
    pub watching: Watching,
    /// Directories watched.
    pub watched_dirs: u64,
    /// Directories that could not be watched (listed again before every search).
    pub unwatched_dirs: u64,
    /// Times the whole tree was listed again because the kernel dropped events.
    pub rescans: u64,
    /// Files whose content the prefilter knows.
    pub content_files: u64,
    /// Files waiting to be read (new or changed); they are searched meanwhile. (Files in a
    /// directory that cannot be watched are never read: they are always searched.)
    pub content_pending: u64,
    /// Time to list the roots, in milliseconds, once done.
    pub list_ms: Option<f64>,
    /// Time from the start until every file was first read, once done.
    pub content_ms: Option<f64>,
    /// Searches (grep and glob) answered from the index so far.
    pub searches: u64,
    /// Why the index failed.
    pub error: Option<String>,
    /// With `persist`: how the index started, from the store or rebuilt (and why).
    pub store: Option<StoreStart>,
    /// Why the last write of the store failed, if it did (the store on disk is the one before).
    pub store_error: Option<String>,
    /// Size in bytes of the store last loaded or written.
    pub store_bytes: u64,
    /// Files and directories that the check at load found changed while no index watched
    /// them (read or listed again before the first answer).
    pub store_changes: u64,
    /// Bytes of file contents the content cache holds.
    pub cache_bytes: u64,
    /// Files the content cache holds.
    pub cache_files: u64,
    /// Files searched from the content cache instead of read from disk, so far.
    pub cache_hits: u64,
}

/// What the index holds; guarded by the index's lock.
pub(crate) struct State {
    state: IndexState,
    error: Option<String>,
    trees: Vec<Tree>,
    signatures: Signatures,
    watcher: Option<Watcher>,
    /// Files to read into the prefilter (numbers may be stale: checked when read).
    unread: Vec<(usize, tree::EntryId)>,
    /// Files taken from `unread` and being read.
    reading: usize,
    rescans: u64,
    bytes: u64,
    list_ms: Option<f64>,
    content_ms: Option<f64>,
    /// Changes (files read, directories listed) since the store was last written or loaded.
    unsaved: u64,
    /// When the store was last written or loaded unchanged.
    last_save: Option<Instant>,
}

impl State {
    /// Drops the lists, the signatures and the watcher (the index closed or failed; searches
    /// walk from now on).
    fn drop_lists(&mut self) {
        self.trees = Vec::new();
        self.signatures = Signatures::default();
        self.watcher = None;
        self.unread = Vec::new();
        self.reading = 0;
    }
}

/// What the index's owner and its thread share.
pub(crate) struct Shared {
    roots: Roots,
    options: IndexOptions,
    state: RwLock<State>,
    closed: AtomicBool,
    /// The wake-up that `close` sends, waking the thread from its wait for events at once
    /// (without it, the thread sees the close within [`reader`]'s idle interval).
    wake: Option<sys::Wake>,
    /// Searches answered.
    searches: AtomicU64,
    /// Counts steps of the state or the reading, signalled at each (for `wait`).
    progress: (Mutex<u64>, Condvar),
    started: Instant,
    no_match: NoMatch,
    /// With `persist`: the store.
    store: Option<Store>,
    /// The contents of small files searches read often.
    cache: ContentCache,
}

/// A sandbox's warm index; closing or dropping it stops its thread and watcher.
pub(crate) struct Index {
    shared: Arc<Shared>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for Index {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Index({:?})", self.status().state)
    }
}

/// How often a wait for the index looks at its cancel token.
const CANCEL_CHECK_INTERVAL: Duration = Duration::from_millis(50);

/// The walk options the index lists with: a plain walk's.
fn index_walk_options() -> WalkOptions {
    WalkOptions::default()
}

impl Index {
    /// Starts indexing `roots` on a thread of its own. `no_match` tells what a search that
    /// finds nothing reads of a binary file (the grep layer knows).
    pub fn start(roots: &Roots, options: IndexOptions, no_match: NoMatch) -> Result<Index> {
        if !options.allow_home {
            refuse_home(roots)?;
        }
        let state = State {
            state: IndexState::Building,
            error: None,
            trees: Vec::new(),
            signatures: Signatures::default(),
            watcher: None,
            unread: Vec::new(),
            reading: 0,
            rescans: 0,
            bytes: 0,
            list_ms: None,
            content_ms: None,
            unsaved: 0,
            last_save: None,
        };
        let store = options.persist.as_deref().map(Store::new);
        let cache = ContentCache::new(options.cache_memory);
        let shared = Arc::new(Shared {
            roots: roots.clone(),
            options,
            state: RwLock::new(state),
            closed: AtomicBool::new(false),
            wake: sys::Wake::new().ok(),
            searches: AtomicU64::new(0),
            progress: (Mutex::new(0), Condvar::new()),
            started: Instant::now(),
            no_match,
            store,
            cache,
        });
        let worker = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("fsnative-index".to_owned())
            .spawn(move || reader::run(&worker))
            .map_err(|e| Error::new(ErrorCode::Io, format!("cannot start the index thread: {e}")))?;
        Ok(Index { shared, thread: Mutex::new(Some(thread)) })
    }

    /// A view to search from, with every change made so far applied; `None` while the index
    /// is not ready (the caller walks).
    pub fn view(&self) -> Option<View<'_>> {
        {
            // With nothing to apply, no write lock: searches run side by side, and beside a
            // write of the store.
            let state = self.shared.state.read().ok()?;
            if state.state != IndexState::Ready {
                return None;
            }
            if !state.watcher.as_ref().is_some_and(Watcher::behind) {
                self.shared.searches.fetch_add(1, Ordering::Relaxed);
                return Some(View::new(state, &self.shared.cache));
            }
        }
        {
            let mut state = self.shared.state.write().ok()?;
            if state.state != IndexState::Ready {
                return None;
            }
            self.shared.catch_up(&mut state);
        }
        let state = self.shared.state.read().ok()?;
        if state.state != IndexState::Ready {
            return None;
        }
        self.shared.searches.fetch_add(1, Ordering::Relaxed);
        Some(View::new(state, &self.shared.cache))
    }

    pub fn status(&self) -> IndexStatus {
        self.shared.status()
    }

    /// Waits until the index is ready and every file read (or it failed or closed), at most
    /// `timeout`, or until `cancel` is cancelled; true when it is ready and complete.
    pub fn wait(&self, timeout: Option<Duration>, cancel: &CancelToken) -> bool {
        let deadline = timeout.map(|t| Instant::now() + t);
        let (lock, signal) = &self.shared.progress;
        loop {
            // The progress count is read before the state, and the state is read without the
            // progress lock held (the index thread takes them in the other order).
            let seen = *lock.lock().unwrap_or_else(|e| e.into_inner());
            let (state, pending) = match self.shared.state.read() {
                Ok(state) => (state.state, state.unread.len() + state.reading),
                Err(_) => (IndexState::Failed, 0),
            };
            let complete = state == IndexState::Ready && pending == 0;
            if complete || matches!(state, IndexState::Failed | IndexState::Closed) {
                return complete;
            }
            if cancel.is_cancelled() {
                return false;
            }
            let wait = match deadline {
                Some(deadline) => match deadline.checked_duration_since(Instant::now()) {
                    Some(left) => left,
                    None => return false,
                },
                None => Duration::from_secs(3600),
            };
            // Woken now and then to look at `cancel` (a binding's token may poll for Ctrl-C).
            let wait = wait.min(CANCEL_CHECK_INTERVAL);
            let guard = lock.lock().unwrap_or_else(|e| e.into_inner());
            if *guard == seen {
                drop(signal.wait_timeout(guard, wait).unwrap_or_else(|e| e.into_inner()));
            }
        }
    }

    /// Stops the thread and the watcher and frees the lists; searches walk from now on.
    pub fn close(&self) {
        self.shared.closed.store(true, Ordering::Relaxed);
        if let Some(wake) = &self.shared.wake {
            wake.wake();
        }
        let thread = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(thread) = thread {
            let _ = thread.join();
            if let Some(store) = &self.shared.store {
                let unsaved = self.shared.state.read().is_ok_and(|state| state.unsaved > 0);
                if unsaved {
                    store.save(&self.shared);
                }
            }
        }
        if let Ok(mut state) = self.shared.state.write() {
            state.state = IndexState::Closed;
            state.drop_lists();
        }
        self.shared.cache.clear();
        self.shared.notify();
    }
}

impl Drop for Index {
    fn drop(&mut self) {
        self.close();
    }
}

impl Shared {
    /// Reads the watcher's pending events and applies them; lists again the directories it
    /// cannot watch. On failure (the cap on entries) the index gives up.
    fn catch_up(&self, state: &mut State) {
        let Some(watcher) = state.watcher.as_mut() else {
            return;
        };
        let mut changes = Changes::default();
        watcher.drain(&mut changes);
        if changes.is_empty() && watcher.unwatched.is_empty() {
            return;
        }
        if changes.overflow {
            state.rescans += 1;
            self.cache.clear();
        }
        let Ok(dirs) = RootDirs::open(&self.roots) else {
            return self.fail(state, "a root can no longer be opened".to_owned());
        };
        let options = index_walk_options();
        let control = Control::unlimited();
        let entries: usize = state.trees.iter().map(Tree::len).sum();
        state.unsaved += if changes.overflow {
            entries as u64
        } else {
            (changes.relist.len() + changes.rescan.len() + changes.touched.len()) as u64
        };
        let State { trees, signatures, watcher, unread, .. } = state;
        let Some(watcher) = watcher.as_mut() else {
            return;
        };
        let mut lister = Lister {
            dirs: &dirs,
            options: &options,
            control: &control,
            watcher,
            max_entries: self.options.max_files,
        };
        let mut lists = Lists { trees, signatures, unread, cache: &self.cache };
        if !update::apply(&mut lister, &mut lists, changes) {
            self.fail(state, self.over_cap());
        }
    }

    fn over_cap(&self) -> String {
        format!(
            "the roots hold more than {} entries (the index's max_files); searches walk the tree instead",
            self.options.max_files
        )
    }

    /// Gives up: frees everything and records why.
    fn fail(&self, state: &mut State, error: String) {
        state.state = IndexState::Failed;
        state.error = Some(error);
        state.drop_lists();
        self.cache.clear();
        self.notify();
    }

    fn notify(&self) {
        *self.progress.0.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.progress.1.notify_all();
    }

    fn status(&self) -> IndexStatus {
        let Ok(state) = self.state.read() else {
            return IndexStatus::empty(IndexState::Failed, Some("the index failed".to_owned()));
        };
        let mut status = IndexStatus::empty(state.state, state.error.clone());
        let mut content_files = 0;
        for tree in &state.trees {
            for &id in tree.order() {
                let entry = tree.entry(id);
                match entry.kind {
                    Kind::File => {
                        status.files += 1;
                        content_files += u64::from(entry.content() != Content::Unknown);
                    }
                    Kind::Dir => status.dirs += 1,
                    _ => {}
                }
            }
        }
        status.content_files = content_files;
        status.content_pending = (state.unread.len() + state.reading) as u64;
        status.bytes = state.bytes;
        let cache = self.cache.figures();
        status.memory_bytes = (state.trees.iter().map(Tree::memory).sum::<usize>()
            + state.signatures.memory()
            + state.unread.capacity() * std::mem::size_of::<(usize, tree::EntryId)>())
            as u64
            + cache.memory;
        status.cache_bytes = cache.bytes;
        status.cache_files = cache.files;
        status.cache_hits = cache.hits;
        if let Some(watcher) = &state.watcher {
            status.watched_dirs = watcher.watched() as u64;
            status.unwatched_dirs = watcher.unwatched.len() as u64;
            status.watching = if watcher.unwatched.is_empty() { Watching::Live } else { Watching::Partial };
        }
        status.rescans = state.rescans;
        status.searches = self.searches.load(Ordering::Relaxed);
        status.list_ms = state.list_ms;
        status.content_ms = state.content_ms;
        if let Some(store) = &self.store {
            let report = store.report();
            status.store = report.start;
            status.store_error = report.error;
            status.store_bytes = report.bytes;
            status.store_changes = report.changes;
        }
        status
    }
}

impl IndexStatus {
    fn empty(state: IndexState, error: Option<String>) -> IndexStatus {
        IndexStatus {
            state,
            files: 0,
            dirs: 0,
            bytes: 0,
            memory_bytes: 0,
            watching: Watching::Off,
            watched_dirs: 0,
            unwatched_dirs: 0,
            rescans: 0,
            content_files: 0,
            content_pending: 0,
            list_ms: None,
            content_ms: None,
            searches: 0,
            error,
            store: None,
            store_error: None,
            store_bytes: 0,
            store_changes: 0,
            cache_bytes: 0,
            cache_files: 0,
            cache_hits: 0,
        }
    }
}

/// Refuses a file system's root (`/`, `C:\`) and any root that is or holds the user's home
/// directory (`HOME`, on Windows `USERPROFILE`), compared as the roots are (on Windows without
/// case).
fn refuse_home(roots: &Roots) -> Result<()> {
    let home = std::env::var_os(sys::HOME_VARIABLE)
        .filter(|home| !home.is_empty())
        .and_then(|home| crate::roots::canonical(Path::new(&home)));
    for root in roots.paths() {
        let holds_home = home.as_deref().is_some_and(|home| crate::roots::below(home, root).is_some());
        if root.parent().is_none() || holds_home {
            return Err(Error::new(
                ErrorCode::InvalidOption,
                format!(
                    "index: refusing to index {}: it is the root of a file system or holds the home directory (allow_home: true indexes it anyway)",
                    root.display()
                ),
            )
            .with_option("index"));
        }
    }
    Ok(())
}
