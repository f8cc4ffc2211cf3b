//! Pagination cursors: where the previous page of the same request stopped.
//!
//! A cursor names the last file a page took records from (by its sort key) and how many
//! records of that file were taken, plus a fingerprint of the request. Resuming skips every
//! file before that key and the taken records of that file, so no match is lost or repeated
//! even when a page ends inside a file, provided the tree did not change in between. A search
//! in frecency order also names the instant its scores were taken at: later pages score as of
//! then, so accesses recorded in between (a page's own hits among them) move nothing.

use std::path::PathBuf;

use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine as _;
use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode, Result};
use crate::request::GrepRequest;

/// Where a file stands in the result order.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct SortKey {
    /// 0 in path order; minus the modification time (ns) in mtime order, so newer sorts
    /// first; minus the frecency score's bits (a non-negative `f64` orders as its bits) in
    /// frecency order.
    pub rank: i128,
    /// Index of the search target the file was found under.
    pub target: usize,
    /// The file's path.
    pub path: PathBuf,
}

/// A decoded cursor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Position {
    /// The last file the previous page took records from.
    pub key: SortKey,
    /// Records of that file already returned.
    pub taken: u64,
}

impl Position {
    /// The position before every file: a page cut before it took anything resumes here.
    pub fn start() -> Position {
        Position { key: SortKey { rank: i128::MIN, target: 0, path: PathBuf::new() }, taken: 0 }
    }

    /// Records to skip in the file with `key`, or `None` when the file lies wholly before
    /// the cursor.
    pub fn skip_for(&self, key: &SortKey) -> Option<u64> {
        use std::cmp::Ordering::*;
        match key.cmp(&self.key) {
            Less => None,
            Equal => Some(self.taken),
            Greater => Some(0),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Wire {
    v: u8,
    fp: String,
    rank: String,
    target: usize,
    path: String,
    taken: u64,
    /// When the scores of a frecency order were taken (milliseconds since the Unix epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    as_of: Option<u64>,
}

const VERSION: u8 = 1;

/// A fingerprint of everything in `request` that decides the result set and its order (not
/// the page size, cursor, timeout or threads), plus the resolved targets.
pub(crate) fn fingerprint(request: &GrepRequest, targets: &[PathBuf]) -> String {
    let mut shape = request.clone();
    shape.cursor = None;
    shape.limit = None;
    shape.timeout_ms = None;
    shape.threads = None;
    let mut hash = Fnv1a::default();
    hash.write(serde_json::to_string(&shape).unwrap_or_default().as_bytes());
    for target in targets {
        hash.write(target.as_os_str().as_encoded_bytes());
        hash.write(&[0]);
    }
    format!("{:016x}", hash.0)
}

/// Encodes `position` for the request with `fingerprint`, whose scores (in frecency order)
/// were taken `as_of`.
pub(crate) fn encode(fingerprint: &str, position: &Position, as_of: Option<u64>) -> String {
    let wire = Wire {
        v: VERSION,
        fp: fingerprint.to_owned(),
        rank: position.key.rank.to_string(),
        target: position.key.target,
        path: STANDARD.encode(position.key.path.as_os_str().as_encoded_bytes()),
        taken: position.taken,
        as_of,
    };
    let json = serde_json::to_vec(&wire).unwrap_or_default();
    URL_SAFE_NO_PAD.encode(json)
}

/// Decodes a cursor, checking that it was made for the request with `fingerprint`; with the
/// instant its frecency scores were taken, if any.
pub(crate) fn decode(cursor: &str, fingerprint: &str) -> Result<(Position, Option<u64>)> {
    let malformed = || {
        Error::new(ErrorCode::InvalidCursor, "the cursor is malformed; pass a `next_cursor` back unchanged")
    };
    let bytes = URL_SAFE_NO_PAD.decode(cursor.trim()).map_err(|_| malformed())?;
    let wire: Wire = serde_json::from_slice(&bytes).map_err(|_| malformed())?;
    if wire.v != VERSION {
        return Err(malformed());
    }
    if wire.fp != fingerprint {
        return Err(Error::new(
            ErrorCode::InvalidCursor,
            "the cursor belongs to a different request; repeat the request that returned it, changing only `cursor`, `limit` or `timeout_ms`",
        ));
    }
    let path_bytes = STANDARD.decode(&wire.path).map_err(|_| malformed())?;
    let rank: i128 = wire.rank.parse().map_err(|_| malformed())?;
    let key = SortKey { rank, target: wire.target, path: crate::sys::path_buf(path_bytes) };
    Ok((Position { key, taken: wire.taken }, wire.as_of))
}

/// 64-bit FNV-1a: small, stable across Rust versions and platforms.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let position =
            Position { key: SortKey { rank: -17, target: 1, path: PathBuf::from("/r/a b.txt") }, taken: 3 };
        let cursor = encode("00ff", &position, None);
        assert_eq!(decode(&cursor, "00ff").unwrap(), (position.clone(), None));
        let cursor = encode("00ff", &position, Some(1_700_000_000_123));
        assert_eq!(decode(&cursor, "00ff").unwrap(), (position, Some(1_700_000_000_123)));
        assert_eq!(decode(&cursor, "00fe").unwrap_err().code(), ErrorCode::InvalidCursor);
        assert_eq!(decode("not a cursor", "00ff").unwrap_err().code(), ErrorCode::InvalidCursor);
    }
}
