//! The file list of one root: every entry the default walk admits, in walk order, with what
//! is known of each file's content.

use std::cmp::Ordering;
use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::Ordering::Relaxed;

use super::stamp::{DirStamps, Stamp};
use crate::walk::SkipCounters;

/// An entry's number; stable while the entry lives (numbers of removed entries are reused).
pub(super) type EntryId = u32;

/// What an entry is, as the walk yielded it (links are not followed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    File,
    Dir,
    Symlink,
    /// A removed entry whose number waits for reuse.
    Free,
}

/// What the walk counted as left out when it listed a directory (a FIFO, an entry it could
/// not read, the directory itself when it cannot be opened).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ListingSkips {
    pub special: u32,
    pub errors: u32,
}

/// What is known of a file's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Content {
    /// Not read yet, changed since, or in a directory that cannot be watched: searched
    /// whatever the pattern.
    Unknown,
    /// Read, but it cannot be ruled out (unreadable, not a regular file, UTF-16 that does not
    /// decode, over the size or memory limit): searched whatever the pattern, and not read
    /// again until it changes.
    Opaque,
    /// Read in full: `size` bytes, no NUL and no byte-order mark; the signature in `slot`
    /// holds its grams.
    Text { size: u64, slot: u32 },
    /// Read in full; it holds a NUL byte or starts with a byte-order mark, so what a
    /// search reads of it was measured by searching it for nothing: `bytes`, stopping at
    /// `binary_offset` (ripgrep's default binary handling, line by line). The signature holds
    /// what that search read.
    Measured { slot: u32, bytes: u64, binary_offset: Option<u64> },
}

/// One entry of the list.
#[derive(Debug)]
pub(crate) struct Entry {
    /// Path below the root: names joined by `/`, no leading or trailing slash.
    pub path: Box<[u8]>,
    pub kind: Kind,
    /// Depth below the root: 1 for an entry of the root directory.
    pub depth: u16,
    /// Directories: what listing it left out. Written through [`Tree::set_skips`] alone.
    skips: ListingSkips,
    /// Bumped at every change of the file, so a signature computed from older contents is
    /// not installed.
    pub generation: u32,
    /// Written through [`Tree::set_content`] alone, which keeps the tree's sieve in step.
    content: Content,
    /// Files: the stamp taken when the content was read ([`Stamp::UNKNOWN`] while it is
    /// unknown). Directories: the stamp taken when it was listed.
    pub stamp: Stamp,
    /// The characters of `path` (see [`super::chars`]).
    pub chars: u64,
    /// `path` is valid UTF-8: checked once here, so that a find reads it as text without
    /// checking it again.
    pub utf8: bool,
}

impl Entry {
    /// A new entry of `kind` at `path`, its content unknown.
    pub fn new(path: Box<[u8]>, kind: Kind, skips: ListingSkips) -> Entry {
        let depth = u16::try_from(depth_of(&path)).unwrap_or(u16::MAX);
        let chars = super::chars::char_set(&path);
        let utf8 = std::str::from_utf8(&path).is_ok();
        Entry {
            path,
            kind,
            depth,
            skips,
            generation: 0,
            content: Content::Unknown,
            stamp: Stamp::UNKNOWN,
            chars,
            utf8,
        }
    }

    /// A file of a stored list, its content and stamp as stored.
    pub fn stored_file(path: Box<[u8]>, content: Content, stamp: Stamp) -> Entry {
        Entry { content, stamp, ..Entry::new(path, Kind::File, ListingSkips::default()) }
    }

    /// What is known of the file's content.
    pub fn content(&self) -> Content {
        self.content
    }

    /// Directories: what listing it left out.
    pub fn skips(&self) -> ListingSkips {
        self.skips
    }
}

/// What a search's prefilter pass needs of an entry: whether it can skip the entry without
/// reading it, and for a file it may rule out, the signature slot and what searching the file
/// would count. Kept in a column of its own beside the entries, so that ruling files out
/// streams 16 bytes an entry rather than whole entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sieve {
    pub tag: SieveTag,
    /// The signature's slot (files read as text or measured).
    pub slot: u32,
    /// What a search counts as read: the size of a text file, the measured bytes of another.
    pub bytes: u64,
    pub binary: bool,
}

/// What kind of entry a [`Sieve`] stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SieveTag {
    /// A file read as text: its signature is in `slot`.
    Text,
    /// A file read with a NUL or a byte-order mark: its signature is in `slot`.
    Measured,
    /// A file whose content the prefilter does not know: always searched.
    Unknown,
    /// A directory whose listing left something out (a search counts it).
    Skipping,
    /// Nothing a search reads or counts: a directory whose listing left nothing out, a link, a
    /// free number.
    Passive,
}

impl Sieve {
    /// The sieve of `entry`.
    pub fn of(entry: &Entry) -> Sieve {
        let plain = |tag| Sieve { tag, slot: 0, bytes: 0, binary: false };
        match (entry.kind, entry.content) {
            (Kind::File, Content::Text { size, slot }) => {
                Sieve { tag: SieveTag::Text, slot, bytes: size, binary: false }
            }
            (Kind::File, Content::Measured { slot, bytes, binary_offset }) => {
                Sieve { tag: SieveTag::Measured, slot, bytes, binary: binary_offset.is_some() }
            }
            (Kind::File, _) => plain(SieveTag::Unknown),
            (Kind::Dir, _) if entry.skips != ListingSkips::default() => plain(SieveTag::Skipping),
            _ => plain(SieveTag::Passive),
        }
    }
}

/// The entries of one root in walk order (each directory's entries sorted by name, a
/// directory's contents right after it), and what listing the root itself left out.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    entries: Vec<Entry>,
    /// Each entry's [`Sieve`], by number.
    sieve: Vec<Sieve>,
    free: Vec<EntryId>,
    /// Live entry numbers in walk order.
    order: Vec<EntryId>,
    pub root_skips: ListingSkips,
    /// The root directory's stamps, taken when it was listed.
    pub root_stamps: DirStamps,
    /// The stamps of the ignore files of the directories that hold any (others: none).
    ignores: HashMap<EntryId, Stamp>,
}

/// Walk order of two paths below a root: name by name, a directory before its contents.
/// (Bytes compared with `/` as the lowest byte give exactly that.)
pub(crate) fn walk_order(a: &[u8], b: &[u8]) -> Ordering {
    let key = |&byte: &u8| if byte == b'/' { 0 } else { byte };
    a.iter().map(key).cmp(b.iter().map(key))
}

/// Depth of a path below its root: 0 for the root (""), 1 for an entry of the root.
pub(crate) fn depth_of(path: &[u8]) -> usize {
    if path.is_empty() {
        0
    } else {
        1 + path.iter().filter(|&&b| b == b'/').count()
    }
}

pub(crate) use crate::sys::is_below;

impl ListingSkips {
    /// Adds these to a walk's counters.
    pub fn add_to(self, counters: &SkipCounters) {
        counters.special.fetch_add(u64::from(self.special), Relaxed);
        counters.errors.fetch_add(u64::from(self.errors), Relaxed);
    }
}

impl Tree {
    /// A tree of `entries` already in walk order (a stored list), with the ignore stamps of
    /// its directories by position.
    pub fn restore(
        entries: Vec<Entry>,
        ignores: HashMap<EntryId, Stamp>,
        root_skips: ListingSkips,
        root_stamps: DirStamps,
    ) -> Tree {
        let order = (0..entries.len() as EntryId).collect();
        let sieve = entries.iter().map(Sieve::of).collect();
        Tree { entries, sieve, free: Vec::new(), order, root_skips, root_stamps, ignores }
    }

    /// Number of live entries.
    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn entry(&self, id: EntryId) -> &Entry {
        &self.entries[id as usize]
    }

    pub fn entry_mut(&mut self, id: EntryId) -> &mut Entry {
        &mut self.entries[id as usize]
    }

    /// The sieve of the entry `id`.
    #[inline]
    pub fn sieve(&self, id: EntryId) -> Sieve {
        self.sieve[id as usize]
    }

    /// Records what is known of the file `id`'s content; returns what was.
    pub fn set_content(&mut self, id: EntryId, content: Content) -> Content {
        let entry = &mut self.entries[id as usize];
        let old = std::mem::replace(&mut entry.content, content);
        self.sieve[id as usize] = Sieve::of(entry);
        old
    }

    /// Records what listing the directory `id` left out.
    pub fn set_skips(&mut self, id: EntryId, skips: ListingSkips) {
        let entry = &mut self.entries[id as usize];
        entry.skips = skips;
        self.sieve[id as usize] = Sieve::of(entry);
    }

    /// Entry numbers in walk order.
    pub fn order(&self) -> &[EntryId] {
        &self.order
    }

    /// Files a new entry; its place in the order is given by [`Tree::splice`].
    pub fn add(&mut self, entry: Entry) -> EntryId {
        match self.free.pop() {
            Some(id) => {
                let generation = self.entries[id as usize].generation.wrapping_add(1);
                self.sieve[id as usize] = Sieve::of(&entry);
                self.entries[id as usize] = Entry { generation, ..entry };
                id
            }
            None => {
                self.sieve.push(Sieve::of(&entry));
                self.entries.push(entry);
                (self.entries.len() - 1) as EntryId
            }
        }
    }

    /// Frees the entry `id` (already out of the order) and returns its old content.
    pub fn remove(&mut self, id: EntryId) -> Content {
        let entry = &mut self.entries[id as usize];
        entry.kind = Kind::Free;
        entry.path = Box::default();
        entry.generation = entry.generation.wrapping_add(1);
        entry.stamp = Stamp::UNKNOWN;
        self.ignores.remove(&id);
        self.free.push(id);
        self.set_content(id, Content::Unknown)
    }

    /// The stamps of the directory `id` (`None`: the root), taken when it was listed.
    pub fn dir_stamps(&self, id: Option<EntryId>) -> DirStamps {
        match id {
            None => self.root_stamps,
            Some(id) => DirStamps {
                listing: self.entries[id as usize].stamp,
                ignores: self.ignores.get(&id).copied().unwrap_or(Stamp::NO_IGNORES),
            },
        }
    }

    /// Records the stamps of the directory `id` (`None`: the root).
    pub fn set_dir_stamps(&mut self, id: Option<EntryId>, stamps: DirStamps) {
        let Some(id) = id else {
            self.root_stamps = stamps;
            return;
        };
        self.entries[id as usize].stamp = stamps.listing;
        if stamps.ignores == Stamp::NO_IGNORES {
            self.ignores.remove(&id);
        } else {
            self.ignores.insert(id, stamps.ignores);
        }
    }

    /// Where `path` is in the order, or where it would go.
    pub fn position(&self, path: &[u8]) -> Result<usize, usize> {
        self.order.binary_search_by(|&id| walk_order(&self.entries[id as usize].path, path))
    }

    /// The live entry at `path`.
    pub fn find(&self, path: &[u8]) -> Option<EntryId> {
        self.position(path).ok().map(|at| self.order[at])
    }

    /// The positions in the order of everything below the directory `dir` ("" for the root).
    /// `None` when `dir` is not a directory of the list.
    pub fn below(&self, dir: &[u8]) -> Option<Range<usize>> {
        if dir.is_empty() {
            return Some(0..self.order.len());
        }
        let at = self.position(dir).ok()?;
        if self.entries[self.order[at] as usize].kind != Kind::Dir {
            return None;
        }
        let rest = &self.order[at + 1..];
        let len = rest.partition_point(|&id| is_below(&self.entries[id as usize].path, dir));
        Some(at + 1..at + 1 + len)
    }

    /// Puts `ids` (in walk order) in place of the positions `range`; returns the numbers it
    /// took out.
    pub fn splice(&mut self, range: Range<usize>, ids: Vec<EntryId>) -> Vec<EntryId> {
        self.order.splice(range, ids).collect()
    }

    /// Bytes held (an estimate of the heap: entries, paths, order).
    pub fn memory(&self) -> usize {
        let paths: usize = self.order.iter().map(|&id| self.entries[id as usize].path.len()).sum();
        self.entries.capacity() * std::mem::size_of::<Entry>()
            + self.sieve.capacity() * std::mem::size_of::<Sieve>()
            + paths
            + (self.order.capacity() + self.free.capacity()) * std::mem::size_of::<EntryId>()
            // A slot of the map, and its control byte.
            + self.ignores.capacity() * (std::mem::size_of::<(EntryId, Stamp)>() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walk_order_puts_a_directory_before_its_contents_and_compares_name_by_name() {
        let mut paths = vec!["a.txt", "a/b", "a", "a-b", "a/b/c", "ab"];
        paths.sort_by(|a, b| walk_order(a.as_bytes(), b.as_bytes()));
        assert_eq!(paths, ["a", "a/b", "a/b/c", "a-b", "a.txt", "ab"]);
    }

    #[test]
    fn the_sieve_follows_every_change_of_kind_content_and_skips() {
        let mut tree = Tree::default();
        let dir = tree.add(Entry::new(b"d".as_slice().into(), Kind::Dir, ListingSkips::default()));
        let file = tree.add(Entry::new(b"d/f".as_slice().into(), Kind::File, ListingSkips::default()));
        tree.splice(0..0, vec![dir, file]);
        let in_step =
            |tree: &Tree| tree.order().iter().all(|&id| tree.sieve(id) == Sieve::of(tree.entry(id)));
        assert_eq!(tree.sieve(dir).tag, SieveTag::Passive);
        assert_eq!(tree.sieve(file).tag, SieveTag::Unknown);
        tree.set_skips(dir, ListingSkips { special: 1, errors: 0 });
        assert_eq!(tree.sieve(dir).tag, SieveTag::Skipping);
        tree.set_content(file, Content::Text { size: 7, slot: 3 });
        assert_eq!(tree.sieve(file), Sieve { tag: SieveTag::Text, slot: 3, bytes: 7, binary: false });
        assert!(in_step(&tree));
        tree.set_content(file, Content::Measured { slot: 4, bytes: 9, binary_offset: Some(2) });
        assert_eq!(tree.sieve(file), Sieve { tag: SieveTag::Measured, slot: 4, bytes: 9, binary: true });
        let removed = tree.splice(1..2, Vec::new());
        assert_eq!(tree.remove(removed[0]), Content::Measured { slot: 4, bytes: 9, binary_offset: Some(2) });
        assert_eq!(tree.sieve(file).tag, SieveTag::Passive, "a free number is never searched");
        let reused = tree.add(Entry::stored_file(b"d/g".as_slice().into(), Content::Opaque, Stamp::UNKNOWN));
        assert_eq!(tree.sieve(reused).tag, SieveTag::Unknown);
        assert!(in_step(&tree));
    }

    #[test]
    fn below_finds_a_directory_subtree_and_nothing_for_files() {
        let mut tree = Tree::default();
        let mut ids = Vec::new();
        for (path, kind) in [
            ("a", Kind::Dir),
            ("a/x", Kind::File),
            ("a/y", Kind::Dir),
            ("a/y/z", Kind::File),
            ("b", Kind::File),
        ] {
            ids.push(tree.add(Entry::new(path.as_bytes().into(), kind, ListingSkips::default())));
        }
        tree.splice(0..0, ids);
        assert_eq!(tree.below(b""), Some(0..5));
        assert_eq!(tree.below(b"a"), Some(1..4));
        assert_eq!(tree.below(b"a/y"), Some(3..4));
        assert_eq!(tree.below(b"b"), None);
        assert_eq!(tree.below(b"c"), None);
        let removed = tree.splice(3..4, Vec::new());
        let old = tree.entry(removed[0]).generation;
        tree.remove(removed[0]);
        let reused = tree.add(Entry::new(b"a/y/w".as_slice().into(), Kind::File, ListingSkips::default()));
        assert_eq!(reused, removed[0]);
        assert_ne!(tree.entry(reused).generation, old, "a reused number starts a new generation");
    }
}
