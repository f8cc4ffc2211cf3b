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
//! lists come first, and each piece of them goes to the check against the tree as soon as it is
//! read, so the check runs beside the reading of the rest of the lists, of the signatures and
//! of the checksum; what it decodes is used only once the checksum at the end matched.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::path::PathBuf;

use super::super::content::{class_words, slot_parts, Signatures, CLASSES};
use super::super::stamp::{DirStamps, Stamp};
use super::super::tree::{walk_order, Content, Entry, EntryId, Kind, ListingSkips, Tree};
use super::super::update::parent;
use super::super::IndexOptions;
use super::check::{Checker, Piece};
use super::input::{corrupt, In, Refusal, TRUNCATED};

/// The first bytes of a store.
const MAGIC: &[u8; 8] = b"FSNINDEX";
/// The layout's version: bumped whenever the bytes change meaning (3: signatures hold junctions;
/// 4: and junctions at camel-case humps; 5: and capital trigrams).
pub(super) const FORMAT: u32 = 5;
/// The version of the library writing and reading the store.
const VERSION: &str = env!("CARGO_PKG_VERSION");
/// Bytes of the checksum that ends a store.
const CHECKSUM: u64 = 32;
/// Entries a piece of the check holds.
const PIECE: usize = 2048;
/// The most helper threads that check pieces while the store is read.
const MAX_CHECKERS: usize = 4;

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

/// Reads a store of `len` bytes from `input`: its lists and signatures, when it was written by
/// this version for `identity` and is whole; else why not. `checker` checks the lists while
/// they are read: each root's directory once its stamps are read, and each piece of its
/// entries on helper threads (or here, once the rest is read) as soon as the piece is read.
/// Its work is to be undone when the store is refused after all.
pub(super) fn decode<R: Read>(
    input: R,
    len: u64,
    identity: &Identity<'_>,
    checker: &Checker<'_, '_>,
) -> Result<(Vec<Tree>, Signatures), Refusal> {
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
    let (to_check, unchecked) = crossbeam_channel::unbounded::<Piece>();
    let (to_keep, checked) = crossbeam_channel::unbounded::<Piece>();
    let check_one = |piece: Piece| {
        checker.piece(&piece);
        // The receiver lives until the pieces are put together below.
        let _ = to_keep.send(piece);
    };
    let helpers = std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_CHECKERS);
    let (roots, signatures) = crate::pool::scope(|scope| {
        for _ in 0..helpers {
            scope.spawn(|| unchecked.iter().for_each(check_one));
        }
        let read = decode_lists(&mut input, identity, checker, to_check)
            .and_then(|(roots, slots)| Ok((roots, decode_signatures(&mut input, slots)?)));
        if read.is_ok() {
            // The pieces no helper took yet (a helper may not have started at all).
            unchecked.try_iter().for_each(check_one);
        }
        read
    })?;
    let mut checksum = [0; CHECKSUM as usize];
    input.inner.read_exact(&mut checksum).map_err(|_| TRUNCATED.to_owned())?;
    if input.hasher.finalize() != blake3::Hash::from_bytes(checksum) {
        return Err(corrupt("checksum mismatch"));
    }
    Ok((assemble(roots, checked.try_iter()), signatures))
}

/// What a root's list holds besides its entries, which went to the check in pieces.
struct RootHead {
    skips: ListingSkips,
    stamps: DirStamps,
    len: usize,
}

/// Reads every root's list, handing each piece to `to_check`; the roots' heads, and the
/// signature slots the entries claimed.
fn decode_lists<R: Read>(
    input: &mut In<R>,
    identity: &Identity<'_>,
    checker: &Checker<'_, '_>,
    to_check: crossbeam_channel::Sender<Piece>,
) -> Result<(Vec<RootHead>, Slots), Refusal> {
    let mut slots = Slots { used: vec![Vec::new(); CLASSES] };
    let mut roots = Vec::with_capacity(identity.roots.len());
    let mut entries = 0;
    for root in 0..identity.roots.len() {
        let head = decode_tree(input, root, &mut slots, checker, &to_check)?;
        entries += head.len;
        roots.push(head);
        if entries > identity.options.max_files {
            return Err(corrupt("more entries than max_files"));
        }
    }
    Ok((roots, slots))
}

/// The roots' trees, from their heads and their checked pieces (in any order).
fn assemble(heads: Vec<RootHead>, pieces: impl Iterator<Item = Piece>) -> Vec<Tree> {
    let mut pieces: Vec<Piece> = pieces.collect();
    pieces.sort_unstable_by_key(|piece| (piece.root, piece.first));
    let mut pieces = pieces.into_iter().peekable();
    let mut trees = Vec::with_capacity(heads.len());
    for (root, head) in heads.into_iter().enumerate() {
        let mut entries = Vec::with_capacity(head.len);
        let mut ignores = HashMap::new();
        while let Some(piece) = pieces.next_if(|piece| piece.root == root) {
            entries.extend(piece.entries);
            ignores.extend(piece.ignores);
        }
        trees.push(Tree::restore(entries, ignores, head.skips, head.stamps));
    }
    trees
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

/// Reads root `root`'s list: its head here, its entries in pieces handed to `to_check` (the
/// root's own directory is checked first).
fn decode_tree<R: Read>(
    input: &mut In<R>,
    root: usize,
    slots: &mut Slots,
    checker: &Checker<'_, '_>,
    to_check: &crossbeam_channel::Sender<Piece>,
) -> Result<RootHead, Refusal> {
    let (skips, stamps) = decode_dir(input)?;
    checker.root(root, stamps);
    // An entry takes at least three bytes: its shared prefix, its name's length, its kind.
    let count = input.count(3)?;
    let new_piece = |first: usize| Piece {
        root,
        first: first as EntryId,
        // Grown as entries are read: a damaged count costs no more than the entries there are.
        entries: Vec::with_capacity(PIECE.min(count - first)),
        ignores: Vec::new(),
    };
    let mut piece = new_piece(0);
    // The directories holding the entry being read, outermost first, by the length of their
    // paths: each is a leading part of the entry read before.
    let mut open: Vec<usize> = Vec::new();
    let mut previous: Vec<u8> = Vec::new();
    for at in 0..count {
        let shared = usize::try_from(input.varint()?).unwrap_or(usize::MAX);
        if shared > previous.len() {
            return Err(corrupt("a path"));
        }
        let path = input.blob_after(&previous[..shared])?;
        if !valid_path(&path) || walk_order(&previous, &path) != std::cmp::Ordering::Less {
            return Err(corrupt("a path out of order"));
        }
        let dir = parent(&path);
        while open.last().is_some_and(|&len| previous[..len] != *dir) {
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
                open.push(path.len());
                let mut entry = Entry::new(path.into(), Kind::Dir, skips);
                entry.stamp = stamps.listing;
                if stamps.ignores != Stamp::NO_IGNORES {
                    piece.ignores.push((at as EntryId, stamps.ignores));
                }
                entry
            }
            KIND_SYMLINK => Entry::new(path.into(), Kind::Symlink, ListingSkips::default()),
            _ => return Err(corrupt("an entry's kind")),
        };
        piece.entries.push(entry);
        if piece.entries.len() == PIECE {
            // With no receiver left (no thread took any), `decode` checks what is queued.
            let _ = to_check.send(std::mem::replace(&mut piece, new_piece(at + 1)));
        }
    }
    if !piece.entries.is_empty() {
        let _ = to_check.send(piece);
    }
    Ok(RootHead { skips, stamps, len: count })
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
