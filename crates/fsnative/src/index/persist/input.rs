//! The store's reader: hashes what it reads, a block at a time, and knows how many bytes are
//! left before the checksum, so a damaged length never reads past it.

use std::io::{self, Read};

/// A reader that hashes what it reads, a block at a time, and knows how many bytes are left
/// before the checksum.
pub(super) struct In<R: Read> {
    pub inner: R,
    pub hasher: blake3::Hasher,
    block: Box<[u8]>,
    /// The bytes of `block` not handed out yet.
    start: usize,
    end: usize,
    /// Bytes before the checksum not handed out yet...
    pub left: u64,
    /// ...and not read into a block yet.
    unread: u64,
}

/// Why a store is not used, in words for the index's status.
pub(super) type Refusal = String;

pub(super) const TRUNCATED: &str = "truncated";
/// Bytes read (and hashed) at a time.
const BLOCK: usize = 256 * 1024;

impl<R: Read> In<R> {
    pub fn new(inner: R, left: u64) -> In<R> {
        let block = vec![0; BLOCK].into_boxed_slice();
        In { inner, hasher: blake3::Hasher::new(), block, start: 0, end: 0, left, unread: left }
    }

    /// Reads the next block (none past the checksum).
    fn refill(&mut self) -> Result<(), Refusal> {
        let want = self.block.len().min(usize::try_from(self.unread).unwrap_or(usize::MAX));
        let block = &mut self.block[..want];
        self.inner.read_exact(block).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => TRUNCATED.to_owned(),
            _ => format!("unreadable: {e}"),
        })?;
        self.hasher.update(block);
        self.unread -= want as u64;
        (self.start, self.end) = (0, want);
        Ok(())
    }

    pub fn bytes(&mut self, buffer: &mut [u8]) -> Result<(), Refusal> {
        if buffer.len() as u64 > self.left {
            return Err(TRUNCATED.to_owned());
        }
        let mut filled = 0;
        while filled < buffer.len() {
            if self.start == self.end {
                self.refill()?;
            }
            let take = (buffer.len() - filled).min(self.end - self.start);
            buffer[filled..filled + take].copy_from_slice(&self.block[self.start..self.start + take]);
            self.start += take;
            filled += take;
        }
        self.left -= buffer.len() as u64;
        Ok(())
    }

    pub fn byte(&mut self) -> Result<u8, Refusal> {
        // The bytes of the block not handed out yet are all before the checksum.
        if self.start < self.end {
            let byte = self.block[self.start];
            self.start += 1;
            self.left -= 1;
            return Ok(byte);
        }
        let mut byte = [0];
        self.bytes(&mut byte)?;
        Ok(byte[0])
    }

    pub fn varint(&mut self) -> Result<u64, Refusal> {
        let mut value = 0u64;
        for shift in (0..64).step_by(7) {
            let byte = self.byte()?;
            value |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(value);
            }
        }
        Err(corrupt("an overlong number"))
    }

    pub fn fixed(&mut self) -> Result<u64, Refusal> {
        let mut bytes = [0; 8];
        self.bytes(&mut bytes)?;
        Ok(u64::from_le_bytes(bytes))
    }

    /// A count of items that take at least `each` bytes apiece.
    pub fn count(&mut self, each: u64) -> Result<usize, Refusal> {
        let count = self.varint()?;
        if count > self.left / each.max(1) {
            return Err(TRUNCATED.to_owned());
        }
        Ok(count as usize)
    }

    pub fn blob(&mut self) -> Result<Vec<u8>, Refusal> {
        self.blob_after(&[])
    }

    /// `prefix` followed by a blob, in a vector of just their size.
    pub fn blob_after(&mut self, prefix: &[u8]) -> Result<Vec<u8>, Refusal> {
        let len = self.count(1)?;
        let mut bytes = Vec::with_capacity(prefix.len() + len);
        bytes.extend_from_slice(prefix);
        bytes.resize(prefix.len() + len, 0);
        self.bytes(&mut bytes[prefix.len()..])?;
        Ok(bytes)
    }
}

pub(super) fn corrupt(what: &str) -> Refusal {
    format!("corrupt ({what})")
}
