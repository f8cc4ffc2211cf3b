//! Path boost: `min(concepts × weight_per_term, max_boost)`, where `concepts` counts the
//! distinct thesaurus concepts whose terms occur in a path (Terraphim's `KgPathScorer`).
//!
//! The thesaurus is held behind a lock as an `Arc` and swapped whole: a reader takes the
//! current one and keeps it for as long as it scores, so it never sees half of a reload.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use serde::{Deserialize, Serialize};

use super::reload::Reloader;
use super::thesaurus::Thesaurus;
use crate::error::{Error, ErrorCode, Result};

/// The default boost per distinct concept found.
pub const DEFAULT_BOOST_WEIGHT: u32 = 5;
/// The default cap on a path's boost.
pub const DEFAULT_MAX_BOOST: u32 = 30;

/// Scores paths by the thesaurus concepts they mention; from a thesaurus in memory or from a
/// file that is watched and reloaded.
///
/// ```
/// use fsnative::{PathBoost, Thesaurus};
/// let boost = PathBoost::new(Thesaurus::from_pairs([("auth", "security"), ("db", "storage")])?);
/// assert_eq!(boost.boost(b"src/auth/db.rs"), 10);
/// assert_eq!(boost.with_weights(20, 30).boost(b"src/auth/db.rs"), 30);
/// # Ok::<(), fsnative::Error>(())
/// ```
#[derive(Debug)]
pub struct PathBoost {
    shared: Arc<Shared>,
    weight_per_term: u32,
    max_boost: u32,
    /// The thread that reloads the file, when there is one; stopped on drop.
    reloader: Option<Reloader>,
}

/// What the reloading thread and the scorers share.
#[derive(Debug)]
struct Shared {
    current: RwLock<Arc<Thesaurus>>,
    /// The file, when the thesaurus comes from one.
    path: Option<PathBuf>,
    reloads: AtomicU64,
    /// Why the last reload failed, until one succeeds.
    last_error: Mutex<Option<Error>>,
}

impl Shared {
    /// Reads the file again: swaps the thesaurus in when it compiles, else keeps the last good
    /// one and remembers why.
    fn reload(&self) {
        let Some(path) = &self.path else { return };
        let outcome = Thesaurus::load(path);
        let mut last_error = self.last_error.lock().unwrap_or_else(PoisonError::into_inner);
        match outcome {
            Ok(thesaurus) => {
                *self.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(thesaurus);
                self.reloads.fetch_add(1, Ordering::Relaxed);
                *last_error = None;
            }
            Err(error) => *last_error = Some(error),
        }
    }

    /// Records a failure that is not a reload's (the watch itself).
    fn fail(&self, error: Error) {
        *self.last_error.lock().unwrap_or_else(PoisonError::into_inner) = Some(error);
    }
}

/// Where a [`PathBoost`] stands: its thesaurus and the fate of its reloads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoostStatus {
    /// The thesaurus file, when it comes from one.
    pub path: Option<PathBuf>,
    /// Terms in the thesaurus in use.
    pub terms: u64,
    /// Distinct concepts in the thesaurus in use.
    pub concepts: u64,
    /// Reloads that succeeded since it was loaded.
    pub reloads: u64,
    /// Why the last reload failed (the thesaurus in use is then the last good one); `None`
    /// once one succeeds.
    pub last_error: Option<String>,
    /// The boost per distinct concept.
    pub weight_per_term: u32,
    /// The cap on a path's boost.
    pub max_boost: u32,
}

impl PathBoost {
    /// A boost from `thesaurus`, with the default weights (5 per concept, at most 30).
    pub fn new(thesaurus: Thesaurus) -> PathBoost {
        PathBoost::from_shared(Shared::new(thesaurus, None))
    }

    /// A boost from the thesaurus file at `path` (either JSON shape), loaded now, then
    /// watched: each change to it is read 500 ms after the last one, and replaces the
    /// thesaurus in one swap when it compiles; when it does not (unreadable, not JSON, a bad
    /// entry), the last good thesaurus stays and [`PathBoost::status`] says why. The watch is
    /// on the file's directory, so a file replaced by a rename is seen; it stops when the
    /// boost is dropped.
    ///
    /// Fails when the file cannot be loaded now, or cannot be watched.
    pub fn watch(path: impl AsRef<Path>) -> Result<PathBoost> {
        let given = path.as_ref();
        let dir = given.parent().filter(|dir| !dir.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let name = given.file_name().ok_or_else(|| {
            Error::new(ErrorCode::InvalidPath, format!("thesaurus path {} names no file", given.display()))
                .with_path(given)
        })?;
        // Absolute, so that a later change of the working directory changes nothing.
        let path = crate::roots::canonicalize(dir)?.join(name);
        let shared = Shared::new(Thesaurus::load(&path)?, Some(path.clone()));
        let mut boost = PathBoost::from_shared(shared);
        let (changed, stopped) = (Arc::clone(&boost.shared), Arc::clone(&boost.shared));
        boost.reloader =
            Some(Reloader::start(&path, move || changed.reload(), move |error| stopped.fail(error))?);
        Ok(boost)
    }

    fn from_shared(shared: Shared) -> PathBoost {
        PathBoost {
            shared: Arc::new(shared),
            weight_per_term: DEFAULT_BOOST_WEIGHT,
            max_boost: DEFAULT_MAX_BOOST,
            reloader: None,
        }
    }

    /// This boost with `weight_per_term` per distinct concept, capped at `max_boost`.
    pub fn with_weights(mut self, weight_per_term: u32, max_boost: u32) -> PathBoost {
        self.weight_per_term = weight_per_term;
        self.max_boost = max_boost;
        self
    }

    /// The boost of `path` (the bytes of a path relative to its root, as a sandbox passes
    /// it).
    pub fn boost(&self, path: &[u8]) -> u32 {
        self.boost_with(&self.thesaurus(), path)
    }

    /// The boost of `path` by `thesaurus` (a snapshot from [`PathBoost::thesaurus`], so that
    /// many paths are scored by one thesaurus and one lock).
    pub fn boost_with(&self, thesaurus: &Thesaurus, path: &[u8]) -> u32 {
        if self.weight_per_term == 0 {
            return 0;
        }
        let concepts = u32::try_from(thesaurus.concepts_in(path)).unwrap_or(u32::MAX);
        concepts.saturating_mul(self.weight_per_term).min(self.max_boost)
    }

    /// The thesaurus in use now.
    pub fn thesaurus(&self) -> Arc<Thesaurus> {
        Arc::clone(&self.shared.current.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Replaces the thesaurus in use, in one swap (a file's next reload replaces it again).
    pub fn set_thesaurus(&self, thesaurus: Thesaurus) {
        *self.shared.current.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(thesaurus);
    }

    /// The thesaurus in use, the file it comes from, and the last reload's failure.
    pub fn status(&self) -> BoostStatus {
        let thesaurus = self.thesaurus();
        let last_error = self.shared.last_error.lock().unwrap_or_else(PoisonError::into_inner);
        BoostStatus {
            path: self.shared.path.clone(),
            terms: thesaurus.terms() as u64,
            concepts: thesaurus.concepts() as u64,
            reloads: self.shared.reloads.load(Ordering::Relaxed),
            last_error: last_error.as_ref().map(|error| error.message().to_owned()),
            weight_per_term: self.weight_per_term,
            max_boost: self.max_boost,
        }
    }
}

impl Shared {
    fn new(thesaurus: Thesaurus, path: Option<PathBuf>) -> Shared {
        Shared {
            current: RwLock::new(Arc::new(thesaurus)),
            path,
            reloads: AtomicU64::new(0),
            last_error: Mutex::new(None),
        }
    }
}
