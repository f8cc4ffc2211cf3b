//! The store's bytes. Little-endian, integers as LEB128 varints unless fixed:
//!
//! ```text
//! magic "FSNINDEX" | format version (u32) | fsnative version | roots | index options
//! | per root: what listing it left out, its stamps, its entries in walk order
//!   (each path sharing a prefix with the one before, its kind, and per kind: a directory's
//!   skips and stamps; a file's content and stamp)
//! | signatures: per class, its chunks and words (u64)
//! | blake3 of everything before (32 bytes)
//! ```
//!
//! Decoding reads through the file once, hashing as it goes, and bounds every count by the
//! bytes left, so a damaged count never makes it allocate more than what the file holds. The
//! lists come first so that their check against the tree can start, once every entry checked
//! out, while the signatures and the checksum are read; what it decodes is used only once the
//! checksum at the end matched.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::sync::Mutex;

use super::super::content::{class_words, slot_parts, Signatures, CLASSES};
use super::super::stamp::{DirStamps, Stamp};
use super::super::tree::{walk_order, Content, Entry, EntryId, Kind, ListingSkips, Tree};
use super::super::update::parent;
use super::super::IndexOptions;

/// The first bytes of a store.
const MAGIC: &[u8; 8] = b"FSNINDEX";
/// The layout's version: bumped whenever the bytes change meaning (3: signatures hold junctions;
/// 4: and junctions at camel-case humps).
pub(super) const FORMAT: u32 = 4;
/// The version of the library writing and reading the store.
const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Bytes of the checksum that ends a store.
const CHECKSUM: u64 = 32;
/// The most entries of a root made room for before they are read.
const PREALLOCATED: usize = 1 << 16;

/// What a store was built for: it is used only for the same.
pub(super) struct Identity<'a> {
    pub roots: &'a [PathBuf],
    pub options: &'a IndexOptions,
}

/// A writer that hashes what it writes.
struct Out<W: Write> {
    inner: W,
    hasher: blake3::Hasher,
}

impl<W: Write> Out<W> {
    fn bytes(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.hasher.update(bytes);
        self.inner.write_all(bytes)
    }

    fn varint(&mut self, mut value: u64) -> io::Result<()> {
        let mut buffer = [0u8; 10];
        let mut len = 0;
        loop {
            let low = (value & 0x7f) as u8;
            value >>= 7;
            buffer[len] = low | if value == 0 { 0 } else { 0x80 };
            len += 1;
            if value == 0 {
                return self.bytes(&buffer[..len]);
            }
        }
    }

    fn fixed(&mut self, value: u64) -> io::Result<()> {
        self.bytes(&value.to_le_bytes())
    }

    fn blob(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.varint(bytes.len() as u64)?;
        self.bytes(bytes)
    }
}

/// Writes the store of `trees` and `signatures` to `out`, checksum last.
pub(super) fn encode<W: Write>(
    out: W,
    identity: &Identity<'_>,
    trees: &[Tree],
    signatures: &Signatures,
) -> io::Result<W> {
    let mut out = Out { inner: out, hasher: blake3::Hasher::new() };
    out.bytes(MAGIC)?;
    out.bytes(&FORMAT.to_le_bytes())?;
    out.blob(VERSION.as_bytes())?;
    encode_identity(&mut out, identity)?;
    for tree in trees {
        encode_tree(&mut out, tree)?;
    }
    let mut buffer = Vec::with_capacity(64 * 1024);
    for words in signatures.words() {
        out.varint(words.len() as u64)?;
        for piece in words.chunks(8 * 1024) {
            buffer.clear();
            buffer.extend(piece.iter().flat_map(|word| word.to_le_bytes()));
            out.bytes(&buffer)?;
        }
    }
    let checksum = out.hasher.finalize();
    out.inner.write_all(checksum.as_bytes())?;
    Ok(out.inner)
}

fn encode_identity<W: Write>(out: &mut Out<W>, identity: &Identity<'_>) -> io::Result<()> {
    out.varint(identity.roots.len() as u64)?;
    for root in identity.roots {
        out.blob(root.as_os_str().as_encoded_bytes())?;
    }
    let options = identity.options;
    out.varint(options.max_files as u64)?;
    out.varint(options.max_memory as u64)?;
    out.bytes(&[u8::from(options.content)])
}

fn encode_tree<W: Write>(out: &mut Out<W>, tree: &Tree) -> io::Result<()> {
    encode_dir(out, tree.root_skips, tree.dir_stamps(None))?;
    out.varint(tree.len() as u64)?;
    let mut previous: &[u8] = &[];
    for &id in tree.order() {
        let entry = tree.entry(id);
        let shared = previous.iter().zip(entry.path.iter()).take_while(|(a, b)| a == b).count();
        out.varint(shared as u64)?;
        out.blob(&entry.path[shared..])?;
        previous = &entry.path;
        match entry.kind {
            Kind::Dir => {
                out.bytes(&[KIND_DIR])?;
                encode_dir(out, entry.skips(), tree.dir_stamps(Some(id)))?;
            }
            Kind::Symlink => out.bytes(&[KIND_SYMLINK])?,
            // The order holds live entries only.
            Kind::File | Kind::Free => {
                out.bytes(&[KIND_FILE])?;
                encode_content(out, entry.content(), entry.stamp)?;
            }
        }
    }
    Ok(())
}

/// The tag of an entry's kind in the store.
const KIND_FILE: u8 = 0;
const KIND_DIR: u8 = 1;
const KIND_SYMLINK: u8 = 2;

/// The tag of a file's content in the store.
const CONTENT_UNKNOWN: u8 = 0;
const CONTENT_OPAQUE: u8 = 1;
const CONTENT_TEXT: u8 = 2;
const CONTENT_MEASURED: u8 = 3;

fn encode_dir<W: Write>(out: &mut Out<W>, skips: ListingSkips, stamps: DirStamps) -> io::Result<()> {
    out.varint(u64::from(skips.special))?;
    out.varint(u64::from(skips.errors))?;
    out.fixed(stamps.listing.0)?;
    out.fixed(stamps.ignores.0)
}

fn encode_content<W: Write>(out: &mut Out<W>, content: Content, stamp: Stamp) -> io::Result<()> {
    match content {
        Content::Unknown => return out.bytes(&[CONTENT_UNKNOWN]),
        Content::Opaque => out.bytes(&[CONTENT_OPAQUE])?,
        Content::Text { size, slot } => {
            out.bytes(&[CONTENT_TEXT])?;
            out.varint(size)?;
            out.varint(u64::from(slot))?;
        }
        Content::Measured { slot, bytes, binary_offset } => {
            out.bytes(&[CONTENT_MEASURED])?;
            out.varint(u64::from(slot))?;
            out.varint(bytes)?;
            out.varint(binary_offset.map_or(0, |offset| offset.saturating_add(1)))?;
        }
    }
    out.fixed(stamp.0)
}

/// A reader that hashes what it reads, a block at a time, and knows how many bytes are left
/// before the checksum.
struct In<R: Read> {
    inner: R,
    hasher: blake3::Hasher,
    block: Box<[u8]>,
    /// The bytes of `block` not handed out yet.
    start: usize,
    end: usize,
    /// Bytes before the checksum not handed out yet...
    left: u64,
    /// ...and not read into a block yet.
    unread: u64,
}

/// Why a store is not used, in words for the index's status.
type Refusal = String;

const TRUNCATED: &str = "truncated";
/// Bytes read (and hashed) at a time.
const BLOCK: usize = 256 * 1024;

impl<R: Read> In<R> {
    fn new(inner: R, left: u64) -> In<R> {
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

    fn bytes(&mut self, buffer: &mut [u8]) -> Result<(), Refusal> {
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

    fn byte(&mut self) -> Result<u8, Refusal> {
        let mut byte = [0];
        self.bytes(&mut byte)?;
        Ok(byte[0])
    }

    fn varint(&mut self) -> Result<u64, Refusal> {
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

    fn fixed(&mut self) -> Result<u64, Refusal> {
        let mut bytes = [0; 8];
        self.bytes(&mut bytes)?;
        Ok(u64::from_le_bytes(bytes))
    }

    /// A count of items that take at least `each` bytes apiece.
    fn count(&mut self, each: u64) -> Result<usize, Refusal> {
        let count = self.varint()?;
        if count > self.left / each.max(1) {
            return Err(TRUNCATED.to_owned());
        }
        Ok(count as usize)
    }

    fn blob(&mut self) -> Result<Vec<u8>, Refusal> {
        let mut bytes = vec![0; self.count(1)?];
        self.bytes(&mut bytes)?;
        Ok(bytes)
    }
}

fn corrupt(what: &str) -> Refusal {
    format!("corrupt ({what})")
}

/// Reads a store of `len` bytes from `input`: its lists and signatures, and what `check` made
/// of the lists, when it was written by this version for `identity` and is whole; else why
/// not. `check` runs once the lists are read and every entry checked out, beside the reading
/// of the rest; `ran_check` says whether it ran (its work is to be undone when the store is
/// refused after all).
pub(super) fn decode<R: Read, T: Send>(
    input: R,
    len: u64,
    identity: &Identity<'_>,
    check: impl FnOnce(&[Tree]) -> T + Send,
    ran_check: &mut bool,
) -> Result<(Vec<Tree>, Signatures, T), Refusal> {
    let Some(left) = len.checked_sub(CHECKSUM) else {
        return Err(TRUNCATED.to_owned());
    };
    let mut input = In::new(input, left);
    let mut magic = [0; 8];
    input.bytes(&mut magic)?;
    if &magic != MAGIC {
        return Err("not an fsnative index store".to_owned());
    }
    let mut format = [0; 4];
    input.bytes(&mut format)?;
    let format = u32::from_le_bytes(format);
    if format != FORMAT {
        return Err(format!("format version {format} (this build reads {FORMAT})"));
    }
    let version = input.blob()?;
    if version != VERSION.as_bytes() {
        let version = String::from_utf8_lossy(&version);
        return Err(format!("written by fsnative {version} (this is {VERSION})"));
    }
    decode_identity(&mut input, identity)?;
    let mut slots = Slots { used: vec![Vec::new(); CLASSES] };
    let mut trees = Vec::with_capacity(identity.roots.len());
    let mut entries = 0;
    for _ in identity.roots {
        let tree = decode_tree(&mut input, &mut slots)?;
        entries += tree.len();
        trees.push(tree);
    }
    if entries > identity.options.max_files {
        return Err(corrupt("more entries than max_files"));
    }
    // The check runs on a thread of its own while the rest is read here (or here after it, when
    // no thread can be started).
    let check = Mutex::new(Some(check));
    let run_check = &|| check.lock().ok().and_then(|mut check| check.take()).map(|check| check(&trees));
    let (signatures, checked) = std::thread::scope(|scope| {
        let helper =
            std::thread::Builder::new().name("fsnative-check".to_owned()).spawn_scoped(scope, run_check);
        let signatures = decode_signatures(&mut input, slots);
        let checked = match helper {
            Ok(helper) => helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            Err(_) => run_check(),
        };
        (signatures, checked)
    });
    *ran_check = checked.is_some();
    let signatures = signatures?;
    let mut checksum = [0; CHECKSUM as usize];
    input.inner.read_exact(&mut checksum).map_err(|_| TRUNCATED.to_owned())?;
    if input.hasher.finalize() != blake3::Hash::from_bytes(checksum) {
        return Err(corrupt("checksum mismatch"));
    }
    let checked = checked.ok_or_else(|| "the check did not run".to_owned())?;
    Ok((trees, signatures, checked))
}

fn decode_identity<R: Read>(input: &mut In<R>, identity: &Identity<'_>) -> Result<(), Refusal> {
    let count = input.count(1)?;
    let mut roots = Vec::with_capacity(count);
    for _ in 0..count {
        roots.push(input.blob()?);
    }
    let same_roots = roots.len() == identity.roots.len()
        && roots
            .iter()
            .zip(identity.roots)
            .all(|(stored, root)| stored == root.as_os_str().as_encoded_bytes());
    if !same_roots {
        return Err("built for other roots".to_owned());
    }
    let options = identity.options;
    let (max_files, max_memory, content) = (input.varint()?, input.varint()?, input.byte()?);
    if (max_files, max_memory, content)
        != (options.max_files as u64, options.max_memory as u64, u8::from(options.content))
    {
        return Err("built with other index options".to_owned());
    }
    Ok(())
}

/// The slots the entries refer to, per class, one bit each: each may be referred to once, and
/// must exist among the signatures read after the lists.
struct Slots {
    used: Vec<Vec<u64>>,
}

impl Slots {
    /// Takes `slot` for an entry; false when its class does not exist or it was taken.
    fn claim(&mut self, slot: u64) -> bool {
        let Ok(slot) = u32::try_from(slot) else {
            return false;
        };
        let (class, index) = slot_parts(slot);
        let Some(used) = self.used.get_mut(class) else {
            return false;
        };
        if used.len() <= index / 64 {
            used.resize(index / 64 + 1, 0);
        }
        let word = &mut used[index / 64];
        let bit = 1 << (index % 64);
        let free = *word & bit == 0;
        *word |= bit;
        free
    }
}

/// Reads the signatures, which must hold every slot the lists claimed.
fn decode_signatures<R: Read>(input: &mut In<R>, slots: Slots) -> Result<Signatures, Refusal> {
    let mut all = Vec::with_capacity(CLASSES);
    let mut used = slots.used;
    let mut buffer = vec![0u8; 64 * 1024];
    for (class, used) in used.iter_mut().enumerate() {
        let count = input.count(8)?;
        let size = class_words(class);
        if count % size != 0 {
            return Err(corrupt("signature sizes"));
        }
        if used.len() > count / size {
            return Err(corrupt("a signature's slot"));
        }
        let mut words = Vec::with_capacity(count);
        while words.len() < count {
            let take = (count - words.len()).min(buffer.len() / 8);
            let piece = &mut buffer[..take * 8];
            input.bytes(piece)?;
            words.extend(piece.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default())));
        }
        used.resize(count / size, 0);
        all.push(words);
    }
    if input.left != 0 {
        return Err(corrupt("bytes after the signatures"));
    }
    Signatures::restore(all, used).ok_or_else(|| corrupt("signature sizes"))
}

fn decode_tree<R: Read>(input: &mut In<R>, slots: &mut Slots) -> Result<Tree, Refusal> {
    let (root_skips, root_stamps) = decode_dir(input)?;
    // An entry takes at least three bytes: its shared prefix, its name's length, its kind.
    let count = input.count(3)?;
    // Grown as entries are read: a damaged count costs no more than the entries there are.
    let mut entries: Vec<Entry> = Vec::with_capacity(count.min(PREALLOCATED));
    let mut ignores = HashMap::new();
    // The directories holding the entry being read, outermost first (positions in `entries`).
    let mut open: Vec<usize> = Vec::new();
    let mut previous: Vec<u8> = Vec::new();
    for at in 0..count {
        let shared = usize::try_from(input.varint()?).unwrap_or(usize::MAX);
        if shared > previous.len() {
            return Err(corrupt("a path"));
        }
        let mut path = previous[..shared].to_vec();
        path.extend_from_slice(&input.blob()?);
        if !valid_path(&path) || walk_order(&previous, &path) != std::cmp::Ordering::Less {
            return Err(corrupt("a path out of order"));
        }
        let dir = parent(&path);
        while open.last().is_some_and(|&top| &*entries[top].path != dir) {
            open.pop();
        }
        if !dir.is_empty() && open.is_empty() {
            return Err(corrupt("an entry outside its directory"));
        }
        previous.clone_from(&path);
        let entry = match input.byte()? {
            KIND_FILE => {
                let (content, stamp) = decode_content(input, slots)?;
                Entry::stored_file(path.into(), content, stamp)
            }
            KIND_DIR => {
                let (skips, stamps) = decode_dir(input)?;
                let mut entry = Entry::new(path.into(), Kind::Dir, skips);
                entry.stamp = stamps.listing;
                if stamps.ignores != Stamp::NO_IGNORES {
                    ignores.insert(at as EntryId, stamps.ignores);
                }
                open.push(at);
                entry
            }
            KIND_SYMLINK => Entry::new(path.into(), Kind::Symlink, ListingSkips::default()),
            _ => return Err(corrupt("an entry's kind")),
        };
        entries.push(entry);
    }
    Ok(Tree::restore(entries, ignores, root_skips, root_stamps))
}

/// A path below a root: names joined by `/`, none empty, `.` or `..`, no NUL.
fn valid_path(path: &[u8]) -> bool {
    !path.contains(&0) && path.split(|&b| b == b'/').all(|name| !matches!(name, b"" | b"." | b".."))
}

fn decode_dir<R: Read>(input: &mut In<R>) -> Result<(ListingSkips, DirStamps), Refusal> {
    let mut small = || u32::try_from(input.varint()?).map_err(|_| corrupt("a count"));
    let skips = ListingSkips { special: small()?, errors: small()? };
    let stamps = DirStamps { listing: Stamp(input.fixed()?), ignores: Stamp(input.fixed()?) };
    Ok((skips, stamps))
}

fn decode_content<R: Read>(input: &mut In<R>, slots: &mut Slots) -> Result<(Content, Stamp), Refusal> {
    let mut slot = |input: &mut In<R>| {
        let slot = input.varint()?;
        if slots.claim(slot) {
            Ok(slot as u32)
        } else {
            Err(corrupt("a signature's slot"))
        }
    };
    let content = match input.byte()? {
        CONTENT_UNKNOWN => return Ok((Content::Unknown, Stamp::UNKNOWN)),
        CONTENT_OPAQUE => Content::Opaque,
        CONTENT_TEXT => {
            let size = input.varint()?;
            Content::Text { size, slot: slot(input)? }
        }
        CONTENT_MEASURED => {
            let slot = slot(input)?;
            let bytes = input.varint()?;
            let binary_offset = input.varint()?.checked_sub(1);
            Content::Measured { slot, bytes, binary_offset }
        }
        _ => return Err(corrupt("a file's content")),
    };
    Ok((content, Stamp(input.fixed()?)))
}
