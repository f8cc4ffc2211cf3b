//! The LMDB side of frecency: one environment per database directory and process, the
//! accesses of each file, and an in-memory cache of what was read.
//!
//! LMDB forbids opening one environment twice in a process (heed refuses with
//! `EnvAlreadyOpened`), so a registry hands every opener of a directory the same [`Store`]
//! while one is alive. Other processes open their own; LMDB's lock file keeps them
//! consistent.
//!
//! The cache remembers each key read (and each key found missing) together with the id of
//! the last committed transaction it was read at; when LMDB's last transaction id moves (a
//! write by any process), the cache is dropped and filled again as keys are asked for.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError, Weak};

use heed::types::{Bytes, Str};
use heed::{Database, Env, EnvFlags, EnvOpenOptions, RwTxn, WithoutTls};

use super::profile::FrecencyProfile;
use crate::error::{Error, ErrorCode, Result};

/// The most accesses kept per file: the newest. Older ones are dropped as new ones come (with
/// the normal profile, 128 accesses within a day already score above 20).
pub const MAX_ACCESSES_PER_FILE: usize = 128;

/// The largest the database may grow: LMDB maps this much address space (the file grows
/// only as it fills). About 200,000 files at the full [`MAX_ACCESSES_PER_FILE`].
const MAP_SIZE: usize = 256 << 20;
/// The cache is dropped when it holds more keys than this.
const CACHE_MAX: usize = 1 << 18;
/// A write purges the database when the last purge is older than this (milliseconds).
const PURGE_INTERVAL_MS: u64 = 3_600_000;

/// Names in the `meta` database.
const PROFILE: &str = "profile";
const LAST_PURGE: &str = "last_purge";
const FORMAT: &str = "format";

/// The layout of the databases this version writes and reads. A store written by a later
/// layout is refused at open; one without the key is of this layout (stores written before
/// the key existed have it).
const FORMAT_VERSION: u64 = 1;

/// The open databases of this process, by canonical directory.
static OPEN: Mutex<Vec<(PathBuf, Weak<Store>)>> = Mutex::new(Vec::new());

/// A database key: the BLAKE3 hash of a path's bytes.
pub(super) type Key = [u8; 32];

/// The key of `path`.
pub(super) fn key(path: &Path) -> Key {
    *blake3::hash(path.as_os_str().as_encoded_bytes()).as_bytes()
}

/// One open frecency database.
pub(super) struct Store {
    path: PathBuf,
    profile: FrecencyProfile,
    env: Env<WithoutTls>,
    /// Key → access times (milliseconds, oldest first).
    accesses: Database<Bytes, Bytes>,
    /// `profile` (its name) and `last_purge` (milliseconds, little-endian).
    meta: Database<Str, Bytes>,
    cache: Mutex<Cache>,
}

/// Accesses read, by key; `None` for keys found missing.
#[derive(Default)]
struct Cache {
    /// LMDB's last committed transaction when the entries were read.
    txn: usize,
    entries: HashMap<Key, Option<Box<[u64]>>, BuildHasherDefault<KeyHasher>>,
}

impl Store {
    /// The store of directory `path` (created if missing), opened with `profile`, purged as
    /// of `now`.
    pub fn open(path: &Path, profile: FrecencyProfile, now: u64) -> Result<Arc<Store>> {
        std::fs::create_dir_all(path).map_err(|e| Error::from_io(&e, path))?;
        let path = crate::roots::canonicalize(path)?;
        let mut open = OPEN.lock().unwrap_or_else(PoisonError::into_inner);
        open.retain(|(_, store)| store.strong_count() > 0);
        if let Some(store) = open.iter().find(|(dir, _)| *dir == path).and_then(|(_, store)| store.upgrade())
        {
            store.check_profile(profile)?;
            return Ok(store);
        }
        let failed = |e: heed::Error| database_error(&path, e);
        let mut options = EnvOpenOptions::new().read_txn_without_tls();
        options.map_size(MAP_SIZE).max_dbs(2);
        // SAFETY: NO_SYNC skips flushing at each commit (a commit still writes its pages, so
        // other processes see it at once): an operating-system crash may lose the last
        // commits, or damage the file where the filesystem reorders writes. Frecency is a
        // ranking hint; a flush would cost each recorded grep milliseconds (8 ms measured
        // here, 2.4 with NO_META_SYNC instead). The environment is opened once per process
        // (the registry above); its files are changed only through LMDB, whose lock file
        // coordinates processes.
        let env = unsafe {
            options.flags(EnvFlags::NO_SYNC);
            options.open(&path)
        }
        .map_err(failed)?;
        // Reader slots a dead process left would pin old pages (the file would only grow).
        env.clear_stale_readers().map_err(failed)?;
        let mut txn = env.write_txn().map_err(failed)?;
        let accesses = env.create_database(&mut txn, Some("accesses")).map_err(failed)?;
        let meta: Database<Str, Bytes> = env.create_database(&mut txn, Some("meta")).map_err(failed)?;
        let format = meta.get(&txn, FORMAT).map_err(failed)?.map_or(FORMAT_VERSION, read_u64);
        if format > FORMAT_VERSION {
            let message = format!(
                "frecency database {} has store format {format}, written by a newer fsnative; this one reads format {FORMAT_VERSION}: use a newer fsnative or another directory",
                path.display()
            );
            return Err(Error::new(ErrorCode::InvalidArgument, message).with_path(path));
        }
        meta.put(&mut txn, FORMAT, &FORMAT_VERSION.to_le_bytes()).map_err(failed)?;
        let created = match meta.get(&txn, PROFILE).map_err(failed)? {
            Some(name) => FrecencyProfile::from_name(std::str::from_utf8(name).unwrap_or("")),
            None => {
                meta.put(&mut txn, PROFILE, profile.name().as_bytes()).map_err(failed)?;
                Some(profile)
            }
        };
        txn.commit().map_err(failed)?;
        let Some(created) = created else {
            let message = format!("{} is not a frecency database of this version", path.display());
            return Err(Error::new(ErrorCode::InvalidArgument, message).with_path(path));
        };
        let store = Arc::new(Store {
            path: path.clone(),
            profile: created,
            env,
            accesses,
            meta,
            cache: Mutex::default(),
        });
        store.check_profile(profile)?;
        store.purge(now)?;
        open.push((path, Arc::downgrade(&store)));
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn profile(&self) -> FrecencyProfile {
        self.profile
    }

    fn check_profile(&self, asked: FrecencyProfile) -> Result<()> {
        if asked == self.profile {
            return Ok(());
        }
        Err(Error::new(
            ErrorCode::InvalidArgument,
            format!(
                "frecency database {} uses the {:?} profile, not {:?}; open it with that profile or use another directory",
                self.path.display(),
                self.profile.name(),
                asked.name()
            ),
        )
        .with_path(&self.path))
    }

    /// Adds an access at `at` to each key, in one write transaction; purges when due. When no
    /// other write came between the cache's and this one, the cache takes what was written
    /// instead of being dropped.
    pub fn record(&self, keys: &[Key], at: u64) -> Result<()> {
        if keys.is_empty() {
            return Ok(());
        }
        let failed = |e| database_error(&self.path, e);
        let mut txn = self.env.write_txn().map_err(failed)?;
        let mut written = Vec::with_capacity(keys.len());
        for key in keys {
            let mut times = match self.accesses.get(&txn, key).map_err(failed)? {
                Some(value) => decode(value),
                None => Vec::new(),
            };
            times.retain(|&time| self.profile.counts(time, at));
            let place = times.partition_point(|&time| time <= at);
            times.insert(place, at);
            let excess = times.len().saturating_sub(MAX_ACCESSES_PER_FILE);
            times.drain(..excess);
            self.accesses.put(&mut txn, key, &encode(&times)).map_err(failed)?;
            written.push((*key, times));
        }
        let last_purge = self.meta.get(&txn, LAST_PURGE).map_err(failed)?.map_or(0, read_u64);
        let purged = at.saturating_sub(last_purge) >= PURGE_INTERVAL_MS;
        if purged {
            self.purge_in(&mut txn, at)?;
        }
        let id = txn.id();
        txn.commit().map_err(failed)?;
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        if !purged && cache.txn + 1 == id {
            cache.txn = id;
            for (key, times) in written {
                cache.entries.insert(key, Some(times.into()));
            }
        }
        Ok(())
    }

    /// The scores of `keys` as of `now`, from the cache or one read transaction; with
    /// `until_now`, accesses after `now` are left out (else they count as new).
    pub fn scores(&self, keys: &[Key], now: u64, until_now: bool) -> Result<Vec<f64>> {
        let failed = |e| database_error(&self.path, e);
        let mut cache = self.cache.lock().unwrap_or_else(PoisonError::into_inner);
        let txn_now = self.env.info().last_txn_id;
        if cache.txn != txn_now || cache.entries.len() > CACHE_MAX {
            cache.entries.clear();
            cache.txn = txn_now;
        }
        if keys.iter().any(|key| !cache.entries.contains_key(key)) {
            let txn = self.env.read_txn().map_err(failed)?;
            for key in keys {
                if !cache.entries.contains_key(key) {
                    let times = self.accesses.get(&txn, key).map_err(failed)?.map(|v| decode(v).into());
                    cache.entries.insert(*key, times);
                }
            }
        }
        Ok(keys
            .iter()
            .map(|key| match cache.entries.get(key) {
                Some(Some(times)) if until_now => {
                    self.profile.score(&times[..times.partition_point(|&time| time <= now)], now)
                }
                Some(Some(times)) => self.profile.score(times, now),
                _ => 0.0,
            })
            .collect())
    }

    /// Purges the database as of `now`; returns how many files were deleted.
    pub fn purge(&self, now: u64) -> Result<usize> {
        let failed = |e| database_error(&self.path, e);
        let mut txn = self.env.write_txn().map_err(failed)?;
        let deleted = self.purge_in(&mut txn, now)?;
        txn.commit().map_err(failed)?;
        Ok(deleted)
    }

    fn purge_in(&self, txn: &mut RwTxn<'_>, now: u64) -> Result<usize> {
        let failed = |e| database_error(&self.path, e);
        let mut changed: Vec<(Vec<u8>, Vec<u64>)> = Vec::new();
        for entry in self.accesses.iter(txn).map_err(failed)? {
            let (key, value) = entry.map_err(failed)?;
            let times = decode(value);
            let kept: Vec<u64> =
                times.iter().copied().filter(|&time| self.profile.counts(time, now)).collect();
            if kept.len() != times.len() {
                changed.push((key.to_vec(), kept));
            }
        }
        let mut deleted = 0;
        for (key, kept) in changed {
            if kept.is_empty() {
                self.accesses.delete(txn, &key).map_err(failed)?;
                deleted += 1;
            } else {
                self.accesses.put(txn, &key, &encode(&kept)).map_err(failed)?;
            }
        }
        self.meta.put(txn, LAST_PURGE, &now.to_le_bytes()).map_err(failed)?;
        Ok(deleted)
    }
}

fn database_error(path: &Path, error: heed::Error) -> Error {
    let message = match &error {
        heed::Error::Mdb(heed::MdbError::MapFull) => format!(
            "frecency database {} is full ({} MiB); purge it or use another directory",
            path.display(),
            MAP_SIZE >> 20
        ),
        heed::Error::Mdb(
            heed::MdbError::Corrupted | heed::MdbError::Invalid | heed::MdbError::PageNotFound,
        ) => {
            format!(
                "frecency database {} is damaged ({error}); delete the directory to start afresh",
                path.display()
            )
        }
        other => format!("frecency database {}: {other}", path.display()),
    };
    let code = match &error {
        heed::Error::Io(io) => Error::from_io(io, path).code(),
        _ => ErrorCode::Io,
    };
    Error::new(code, message).with_path(path)
}

/// Access times from their stored form (a trailing partial value is ignored).
fn decode(value: &[u8]) -> Vec<u64> {
    value.chunks_exact(8).map(read_u64).collect()
}

fn encode(times: &[u64]) -> Vec<u8> {
    times.iter().flat_map(|time| time.to_le_bytes()).collect()
}

fn read_u64(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    let n = bytes.len().min(8);
    word[..n].copy_from_slice(&bytes[..n]);
    u64::from_le_bytes(word)
}

/// Hashes a [`Key`] by its first eight bytes: it is a BLAKE3 hash already.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        // A `[u8; 32]` hashes as its length, then its bytes: the bytes are the last write.
        self.0 = read_u64(bytes);
    }

    fn write_usize(&mut self, _length: usize) {}
}
