//! Frecency: how often and how recently each file was accessed, as one number (the formula
//! and the profiles are in `profile`).
//!
//! Accesses are kept in an LMDB environment (a directory holding `data.mdb` and `lock.mdb`),
//! keyed by the BLAKE3 hash of the path's bytes, the value being the access times in
//! milliseconds since the Unix epoch (little-endian `u64`, oldest first, at most
//! [`MAX_ACCESSES_PER_FILE`](crate::MAX_ACCESSES_PER_FILE)). Several processes may use one database at once: LMDB's lock
//! file serialises writers and readers never wait. Within one process every [`Frecency`]
//! opened on the same directory shares one environment (LMDB forbids opening it twice), see
//! `store`.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::Serialize;

use super::profile::FrecencyProfile;
use super::store::{key, Key, Store};
use crate::error::{Error, ErrorCode, Result};

/// The environment variable naming a frecency database directory, for callers that are not
/// given a path (a binding's `frecency: true`).
pub const FRECENCY_DB_ENV: &str = "FSNATIVE_FRECENCY_DB";

/// Where a [`Frecency`] reads the time.
#[derive(Clone, Debug, Default)]
pub enum Clock {
    /// The system clock.
    #[default]
    System,
    /// A clock that reads the milliseconds since the Unix epoch its holder stores (for tests:
    /// set it, advance it, and scores follow).
    Manual(Arc<AtomicU64>),
}

impl Clock {
    /// The time, in milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> u64 {
        match self {
            Clock::System => {
                SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |since| since.as_millis() as u64)
            }
            Clock::Manual(ms) => ms.load(Ordering::Relaxed),
        }
    }
}

/// Which frecency database a sandbox keeps ([`Sandbox::frecency_status`](crate::Sandbox::frecency_status)).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FrecencyStatus {
    /// The database's directory (canonical); serialized as a string, or `{"bytes": base64}`
    /// when it is not UTF-8.
    #[serde(serialize_with = "crate::result::serialize_path")]
    pub path: PathBuf,
    /// The profile it was created with.
    pub profile: FrecencyProfile,
}

/// A frecency database: records accesses to files and scores them.
///
/// Paths are taken as given (their bytes are hashed): give canonical absolute paths, as
/// [`Sandbox::record_access`](crate::Sandbox::record_access) does. Clones share the database.
///
/// ```
/// use fsnative::{Frecency, FrecencyProfile};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let dir = tempfile::tempdir()?;
/// let frecency = Frecency::open(dir.path().join("frecency"), FrecencyProfile::Ai)?;
/// frecency.record_access("/repo/src/main.rs".as_ref())?;
/// assert!(frecency.score("/repo/src/main.rs".as_ref())? > 0.99);
/// assert_eq!(frecency.score("/repo/src/lib.rs".as_ref())?, 0.0);
/// # Ok(()) }
/// ```
#[derive(Clone)]
pub struct Frecency {
    store: Arc<Store>,
    clock: Clock,
}

impl std::fmt::Debug for Frecency {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Frecency").field("path", &self.path()).field("profile", &self.profile()).finish()
    }
}

impl Frecency {
    /// Opens (creating it and its directory if needed) the database in directory `path`,
    /// and purges it of expired accesses.
    ///
    /// A database keeps the profile it was created with: opening it with the other one is an
    /// [`ErrorCode::InvalidArgument`] error (the shorter window would purge what the longer
    /// one keeps).
    pub fn open(path: impl AsRef<Path>, profile: FrecencyProfile) -> Result<Frecency> {
        Frecency::open_with_clock(path, profile, Clock::System)
    }

    /// Like [`Frecency::open`], reading the time from `clock`.
    pub fn open_with_clock(
        path: impl AsRef<Path>,
        profile: FrecencyProfile,
        clock: Clock,
    ) -> Result<Frecency> {
        let store = Store::open(path.as_ref(), profile, clock.now_ms())?;
        Ok(Frecency { store, clock })
    }

    /// Opens the database named by the environment variable [`FRECENCY_DB_ENV`]; an
    /// [`ErrorCode::InvalidArgument`] error when it is unset or empty.
    pub fn from_env(profile: FrecencyProfile) -> Result<Frecency> {
        match std::env::var_os(FRECENCY_DB_ENV).filter(|path| !path.is_empty()) {
            Some(path) => Frecency::open(PathBuf::from(path), profile),
            None => Err(Error::new(
                ErrorCode::InvalidArgument,
                format!("no frecency database path was given and {FRECENCY_DB_ENV} is not set"),
            )),
        }
    }

    /// The database's directory (canonical).
    pub fn path(&self) -> &Path {
        self.store.path()
    }

    /// The database's profile.
    pub fn profile(&self) -> FrecencyProfile {
        self.store.profile()
    }

    /// The database's directory and profile, as one value a binding can hand on.
    pub fn status(&self) -> FrecencyStatus {
        FrecencyStatus { path: self.path().to_path_buf(), profile: self.profile() }
    }

    /// The time by this database's clock, in milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> u64 {
        self.clock.now_ms()
    }

    /// Records one access to `path`, now.
    pub fn record_access(&self, path: &Path) -> Result<()> {
        self.record_accesses([path])
    }

    /// Records one access now to each of `paths`, in one write transaction.
    pub fn record_accesses<'p>(&self, paths: impl IntoIterator<Item = &'p Path>) -> Result<()> {
        self.record_accesses_at(paths, self.clock.now_ms())
    }

    /// Records one access at `at` (milliseconds since the Unix epoch) to each of `paths`.
    pub(crate) fn record_accesses_at<'p>(
        &self,
        paths: impl IntoIterator<Item = &'p Path>,
        at: u64,
    ) -> Result<()> {
        let keys: Vec<Key> = paths.into_iter().map(key).collect();
        self.store.record(&keys, at)
    }

    /// The score of `path` now (0 for a path never recorded).
    pub fn score(&self, path: &Path) -> Result<f64> {
        Ok(self.scores([path])?[0])
    }

    /// The scores of `paths` now, in their order, read in one transaction at most. Built for
    /// ranking: what was read is kept in memory until the database changes (any process's
    /// write), so ranking the same candidates again reads nothing.
    pub fn scores<'p>(&self, paths: impl IntoIterator<Item = &'p Path>) -> Result<Vec<f64>> {
        let keys: Vec<Key> = paths.into_iter().map(key).collect();
        self.store.scores(&keys, self.clock.now_ms(), false)
    }

    /// The scores of `paths` as they were at `as_of`: accesses recorded after it are left
    /// out (a grep's later pages score as its first page did).
    pub(crate) fn scores_as_of<'p>(
        &self,
        paths: impl IntoIterator<Item = &'p Path>,
        as_of: u64,
    ) -> Result<Vec<f64>> {
        let keys: Vec<Key> = paths.into_iter().map(key).collect();
        self.store.scores(&keys, as_of, true)
    }

    /// Deletes every file whose accesses all lie outside the window, and drops expired
    /// accesses from the others; returns how many files were deleted. Opening a database
    /// purges it, and so does a write when the last purge is an hour old.
    pub fn purge(&self) -> Result<usize> {
        self.store.purge(self.clock.now_ms())
    }
}
