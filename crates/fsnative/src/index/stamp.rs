//! What an inode looked like when the index read or listed it: a hash of its device, number,
//! mode, size and modification and change times (nanoseconds). A persisted index trusts a
//! stored file's signature, or a stored directory's listing, only when its stamp is unchanged.
//!
//! A stamp is taken before the read or the listing it vouches for, so any change after it moves
//! the change time. A change within the same tick of the file system's clock could leave the
//! times as they were, so a stamp taken within a tick of the inode's change time vouches for
//! nothing ([`Stamp::UNKNOWN`]): that file is read, that directory listed, again. How long a
//! tick may be is told by the change time itself: whole seconds (no nanoseconds) on file
//! systems that keep seconds or two ([`RACY_COARSE`]), a clock tick of a few milliseconds on
//! those that keep nanoseconds ([`RACY_FINE`], with a wide margin).

use std::ffi::OsStr;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::roots::open_regular_at;
use crate::sys::{self, AsHandle, EntryType, HandleRef, Meta};

/// How recent a change whose time has no nanoseconds may be for a stamp to vouch for nothing:
/// two seconds covers the coarsest clocks of common file systems (FAT's two seconds, one second
/// on ext3, HFS+ and others).
const RACY_COARSE: Duration = Duration::from_secs(2);
/// The same for a change time with nanoseconds: the kernel's coarse clock, which stamps them,
/// ticks every 1 to 10 ms.
const RACY_FINE: Duration = Duration::from_millis(100);

/// The ignore files whose change changes what a directory's walk admits (the walk reads them
/// through the directory's handle, without following links).
const IGNORE_FILES: [&str; 4] = [".rgignore", ".ignore", ".gitignore", ".git/info/exclude"];

/// A hash of an inode's identity and times; [`Stamp::UNKNOWN`] vouches for nothing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Stamp(pub u64);

impl Stamp {
    /// Not taken, or taken too soon after a change to tell the next one apart.
    pub const UNKNOWN: Stamp = Stamp(0);
    /// A directory without ignore files.
    pub const NO_IGNORES: Stamp = Stamp(1);

    /// The stamp of `stat`, taken at `now`.
    pub fn of(stat: &Meta, now: SystemTime) -> Stamp {
        if racy(stat, now) {
            return Stamp::UNKNOWN;
        }
        Stamp::finish(mix(0, stat))
    }

    /// The stamp of the open file or directory `fd`, taken now.
    pub fn of_handle(handle: HandleRef<'_>) -> Stamp {
        sys::stat(handle).map_or(Stamp::UNKNOWN, |stat| Stamp::of(&stat, SystemTime::now()))
    }

    /// A stored stamp that vouches for what it was taken with, given the stamp now.
    pub fn vouches(self, now: Stamp) -> bool {
        self != Stamp::UNKNOWN && self == now
    }

    fn finish(hash: u64) -> Stamp {
        // 0 and 1 mean something else.
        Stamp(hash.max(2))
    }
}

/// Folds the fields of `stat` into `hash`: each field multiplied, 64 by 64 bits, with an odd
/// constant after a key of its own is mixed in, and the product's halves folded (as wyhash
/// does). Stable across builds and platforms: stamps are stored.
fn mix(mut hash: u64, stat: &Meta) -> u64 {
    const KEYS: [u64; 8] = [
        0xa076_1d64_78bd_642f,
        0xe703_7ed1_a0b4_28db,
        0x8ebc_6af0_9c88_c6e3,
        0x5899_65cc_7537_4cc3,
        0x1d8e_4e27_c47d_124f,
        0x9e37_79b9_7f4a_7c15,
        0xbf58_476d_1ce4_e5b9,
        0x94d0_49bb_1331_11eb,
    ];
    let fields: [u64; 8] = [
        stat.identity.0,
        stat.identity.1,
        u64::from(stat.mode),
        stat.size,
        stat.modified.0 as u64,
        u64::from(stat.modified.1),
        stat.changed.0 as u64,
        u64::from(stat.changed.1),
    ];
    for (field, key) in fields.into_iter().zip(KEYS) {
        let product = u128::from(hash ^ field ^ key) * u128::from(key | 1);
        hash = (product as u64) ^ ((product >> 64) as u64);
    }
    hash
}

/// The inode changed within a tick of its file system's clock before `now` (or in the future).
fn racy(stat: &Meta, now: SystemTime) -> bool {
    let (seconds, nanos) = stat.changed;
    let changed = match u64::try_from(seconds) {
        Ok(seconds) => UNIX_EPOCH + Duration::new(seconds, nanos),
        Err(_) => return false,
    };
    let window = if nanos == 0 { RACY_COARSE } else { RACY_FINE };
    !now.duration_since(changed).is_ok_and(|age| age >= window)
}

/// What a directory's listing depends on: the directory itself (its names) and its ignore
/// files (what is admitted there and below).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct DirStamps {
    pub listing: Stamp,
    pub ignores: Stamp,
}

impl DirStamps {
    /// The stamps of the directory open as `dir`, taken now (before it is listed).
    pub fn of(dir: HandleRef<'_>) -> DirStamps {
        let now = SystemTime::now();
        let listing = sys::stat(dir).map_or(Stamp::UNKNOWN, |stat| Stamp::of(&stat, now));
        DirStamps { listing, ignores: ignore_stamp(dir, now) }
    }
}

/// The stamp of the ignore files of the directory `dir`: which are there, and each one's stamp.
fn ignore_stamp(dir: HandleRef<'_>, now: SystemTime) -> Stamp {
    let mut hash = 0u64;
    let mut any = false;
    for (index, name) in IGNORE_FILES.iter().enumerate() {
        let stat = match name.split_once('/') {
            // Only a real `.git` directory holds an exclude file the walk reads.
            Some((first, _)) => sys::stat_at(dir, OsStr::new(first), false)
                .ok()
                .filter(|stat| stat.kind == EntryType::Dir)
                .and_then(|_| open_regular_at(dir, name))
                .and_then(|file| sys::stat(file.handle()).ok()),
            None => sys::stat_at(dir, OsStr::new(name), false).ok(),
        };
        let Some(stat) = stat else { continue };
        if racy(&stat, now) {
            return Stamp::UNKNOWN;
        }
        any = true;
        hash = mix(hash ^ (index as u64 + 1), &stat);
    }
    if any {
        Stamp::finish(hash)
    } else {
        Stamp::NO_IGNORES
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fresh_change_vouches_for_nothing_and_an_old_one_for_itself() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.txt");
        std::fs::write(&path, "one\n").unwrap();
        let file = std::fs::File::open(&path).unwrap();
        let stat = sys::stat(file.handle()).unwrap();
        assert_eq!(Stamp::of(&stat, SystemTime::now()), Stamp::UNKNOWN, "changed just now");
        let later = SystemTime::now() + RACY_COARSE;
        let stamp = Stamp::of(&stat, later);
        assert!(stamp.vouches(Stamp::of(&sys::stat(file.handle()).unwrap(), later)));
        std::fs::write(&path, "two\n").unwrap();
        assert!(
            !stamp.vouches(Stamp::of(&sys::stat(file.handle()).unwrap(), later + RACY_COARSE)),
            "same size, new content"
        );
        assert!(!Stamp::UNKNOWN.vouches(Stamp::UNKNOWN));
    }

    #[test]
    fn ignore_stamps_see_ignore_files_come_change_and_go() {
        let dir = tempfile::tempdir().unwrap();
        let handle = sys::open_dir(dir.path()).unwrap();
        let later = || SystemTime::now() + RACY_COARSE;
        assert_eq!(ignore_stamp(handle.handle(), later()), Stamp::NO_IGNORES);
        std::fs::write(dir.path().join(".gitignore"), "*.log\n").unwrap();
        let first = ignore_stamp(handle.handle(), later());
        assert_ne!(first, Stamp::NO_IGNORES);
        assert_eq!(ignore_stamp(handle.handle(), SystemTime::now()), Stamp::UNKNOWN, "changed just now");
        std::fs::create_dir_all(dir.path().join(".git/info")).unwrap();
        std::fs::write(dir.path().join(".git/info/exclude"), "x\n").unwrap();
        let second = ignore_stamp(handle.handle(), later());
        assert_ne!(second, first);
        std::fs::remove_file(dir.path().join(".gitignore")).unwrap();
        assert_ne!(ignore_stamp(handle.handle(), later()), second);
    }
}
