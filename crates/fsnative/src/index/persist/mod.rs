//! The persisted index: one file in a directory the user names, written after the first build,
//! after large changes and when the index closes, and loaded at the next start instead of
//! reading the tree again.
//!
//! The file ([`format`]) names what it was built for (the roots, the index options, the
//! library's version) and ends with a checksum of the rest; a store that is missing,
//! truncated, damaged, of another version or built for something else is not used, and the
//! status says why. A loaded list is checked against the tree ([`check`]) before the index
//! answers from it: stamps tell which files to read again and which directories to list again.
//!
//! Writers take an advisory lock on a file beside the store, write a temporary file and rename
//! it over the store, so one process writes at a time and a reader, which takes no lock, opens
//! either the old store or the new one, whole. A failed write (a full disk) leaves the old
//! store as it was.

mod check;
mod format;
mod input;

use check::Checker;

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::content::Signatures;
use super::tree::Tree;
use super::update::{self, Lister, Lists};
use super::watch::Watcher;
use super::{IndexState, Shared};
use crate::sys;

/// The store's file in the directory.
const STORE: &str = "fsnative-index";
/// The file writers lock.
const LOCK: &str = "fsnative-index.lock";
/// The file a writer writes before renaming it over the store.
const TEMPORARY: &str = "fsnative-index.tmp";
/// How long a writer waits for another process's write to end before it gives up this write.
const LOCK_WAIT: Duration = Duration::from_secs(10);
/// How often it looks again meanwhile.
const LOCK_RETRY: Duration = Duration::from_millis(20);

/// The store of one index: where it is and what became of it.
pub(crate) struct Store {
    dir: PathBuf,
    report: Mutex<Report>,
}

/// Tests: every write of a store fails (as on a full disk) after this many bytes.
#[cfg(test)]
pub(super) static FAIL_WRITES_AFTER: std::sync::atomic::AtomicU64 =
    std::sync::atomic::AtomicU64::new(u64::MAX);

/// How an index with a store started: from the store, or by listing the tree again.
/// Serialized with its `outcome` tag: `{"outcome": "loaded"}` or
/// `{"outcome": "rebuilt", "reason": "…"}`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum StoreStart {
    /// The store was loaded and checked against the tree.
    Loaded,
    /// The store was not used, and the tree was listed again.
    Rebuilt {
        /// Why: none yet, truncated, corrupt, another version, other roots or options.
        reason: String,
    },
}

/// What became of the store, for the index's status.
#[derive(Clone, Debug, Default)]
pub(crate) struct Report {
    /// Loaded, or rebuilt and why the store was not used.
    pub start: Option<StoreStart>,
    /// Why the last write failed (the store on disk is the one before).
    pub error: Option<String>,
    /// Size of the store last loaded or written.
    pub bytes: u64,
    /// Files and directories the check at load found changed.
    pub changes: u64,
}

impl Store {
    /// The store in `dir` (relative: to the working directory).
    pub fn new(dir: &Path) -> Store {
        let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
        Store { dir, report: Mutex::new(Report::default()) }
    }

    pub fn report(&self) -> Report {
        self.report.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn update(&self, change: impl FnOnce(&mut Report)) {
        change(&mut self.report.lock().unwrap_or_else(|e| e.into_inner()));
    }

    /// The stored lists of `shared`'s roots, checked against the tree and brought up to date
    /// with `lister` (which watches every directory first); `None` when there is no store
    /// that can be used (the report says why). `Err` when the index cannot go on: the cap on
    /// entries was reached, or no new watcher could replace the one a refused store's check used.
    pub fn load(
        &self,
        shared: &Shared,
        lister: &mut Lister<'_>,
    ) -> Result<Option<(Vec<Tree>, Signatures)>, String> {
        let checker = Checker::new(lister.dirs, &mut *lister.watcher);
        let (mut trees, mut signatures, bytes) = match self.read(shared, &checker) {
            Ok(loaded) => loaded,
            Err(why) => {
                if checker.started() {
                    drop(checker);
                    // What the check watched was named by a store that is not used: start afresh.
                    *lister.watcher = Watcher::new().map_err(|e| format!("cannot watch for changes: {e}"))?;
                }
                self.update(|report| report.start = Some(StoreStart::Rebuilt { reason: why }));
                return Ok(None);
            }
        };
        let stale = checker.finish(&trees);
        let changes = stale.len() as u64;
        let mut unread = Vec::new();
        let mut lists = Lists {
            trees: &mut trees,
            signatures: &mut signatures,
            unread: &mut unread,
            cache: &shared.cache,
        };
        if !update::reconcile(lister, &mut lists, stale) {
            return Err(shared.over_cap());
        }
        self.update(|report| {
            report.start = Some(StoreStart::Loaded);
            report.bytes = bytes;
            report.changes = changes;
        });
        Ok(Some((trees, signatures)))
    }

    /// Reads and decodes the store, its lists checked by `checker` as they are read; with the
    /// store's size.
    fn read(
        &self,
        shared: &Shared,
        checker: &Checker<'_, '_>,
    ) -> Result<(Vec<Tree>, Signatures, u64), String> {
        let file = match File::open(self.dir.join(STORE)) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::NotFound => return Err("no store yet".to_owned()),
            Err(e) => return Err(format!("unreadable: {e}")),
        };
        let len = file.metadata().map_err(|e| format!("unreadable: {e}"))?.len();
        let identity = format::Identity { roots: shared.roots.paths(), options: &shared.options };
        let (trees, signatures) = format::decode(file, len, &identity, checker)?;
        Ok((trees, signatures, len))
    }

    /// Writes what `shared` holds, unless it is not ready; on failure the old store stays and
    /// the report says why. Searches go on meanwhile: the lists are only read.
    pub fn save(&self, shared: &Shared) {
        match self.write(shared) {
            Ok(Some((bytes, saved))) => {
                self.update(|report| {
                    report.error = None;
                    report.bytes = bytes;
                });
                if let Ok(mut state) = shared.state.write() {
                    state.unsaved = state.unsaved.saturating_sub(saved);
                    state.last_save = Some(Instant::now());
                }
            }
            Ok(None) => {}
            Err(e) => {
                self.update(|report| report.error = Some(format!("cannot write the index's store: {e}")))
            }
        }
    }

    /// Writes the store under the writers' lock: its size and how many changes it holds, or
    /// `None` when there was nothing to write.
    fn write(&self, shared: &Shared) -> io::Result<Option<(u64, u64)>> {
        fs::create_dir_all(&self.dir)?;
        let lock = OpenOptions::new().create(true).truncate(false).write(true).open(self.dir.join(LOCK))?;
        lock_exclusive(&lock)?;
        let temporary = self.dir.join(TEMPORARY);
        let written = self.write_temporary(shared, &temporary);
        let outcome = match written {
            Ok(Some(written)) => fs::rename(&temporary, self.dir.join(STORE))
                .and_then(|()| sys::sync_dir(&self.dir))
                .map(|()| Some(written)),
            other => other,
        };
        if !matches!(outcome, Ok(Some(_))) {
            let _ = fs::remove_file(&temporary);
        }
        outcome
    }

    fn write_temporary(&self, shared: &Shared, path: &Path) -> io::Result<Option<(u64, u64)>> {
        let file = File::create(path)?;
        let out = Limited { inner: BufWriter::with_capacity(256 * 1024, &file), written: 0 };
        let saved = {
            let Ok(state) = shared.state.read() else { return Ok(None) };
            if state.state != IndexState::Ready {
                return Ok(None);
            }
            let identity = format::Identity { roots: shared.roots.paths(), options: &shared.options };
            let mut out = format::encode(out, &identity, &state.trees, &state.signatures)?;
            out.flush()?;
            (out.written, state.unsaved)
        };
        file.sync_all()?;
        Ok(Some(saved))
    }
}

/// Takes the writers' lock, waiting for another writer at most [`LOCK_WAIT`].
fn lock_exclusive(lock: &File) -> io::Result<()> {
    let deadline = Instant::now() + LOCK_WAIT;
    while !sys::try_lock_exclusive(lock)? {
        if Instant::now() >= deadline {
            return Err(io::Error::new(io::ErrorKind::WouldBlock, "another process kept the store locked"));
        }
        std::thread::sleep(LOCK_RETRY);
    }
    Ok(())
}

/// The store's writer, counting what it wrote (and, in tests, failing as a full disk does).
struct Limited<W: Write> {
    inner: W,
    written: u64,
}

impl<W: Write> Write for Limited<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        #[cfg(test)]
        if self.written + bytes.len() as u64 > FAIL_WRITES_AFTER.load(std::sync::atomic::Ordering::Relaxed) {
            return Err(sys::OsError::NoSpace.error());
        }
        let written = self.inner.write(bytes)?;
        self.written += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}
