//! A compact copy of a tree's walk order for a fuzzy find: for each entry its name (the last
//! part of its path, in one byte arena), its depth, kind, character set and number, 24 bytes
//! a record. A find reads these in order instead of the entries themselves (80 bytes each,
//! reached through the order), and feeds each name to its directory's subsequence state; it
//! goes to the entry only for the few paths that pass.
//!
//! The table is built from the tree on the first find that needs it and dropped by every
//! change to the tree's order or entries ([`super::tree::Tree`] holds it), so it is never
//! stale: a find after a change builds it again.

use super::tree::{Entry, EntryId, Kind};

/// Records between two kept arena offsets (see [`Names::starts`]).
const STEP: usize = 1024;

/// One entry of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Record {
    /// The characters of the entry's whole path (see [`super::chars`]).
    pub chars: u64,
    pub id: EntryId,
    /// The name's length in bytes.
    len: u32,
    /// Depth below the root.
    pub depth: u16,
    pub kind: Kind,
}

/// The table of one tree, in its walk order.
#[derive(Debug, Default)]
pub(crate) struct Names {
    records: Vec<Record>,
    /// The names, one after another in walk order.
    arena: Vec<u8>,
    /// Where the name of record `STEP * i` starts in the arena, so that a run of records can
    /// begin anywhere without a sum over all those before it.
    starts: Vec<usize>,
}

/// An entry as the table gives it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Named<'n> {
    pub record: Record,
    /// The last part of the entry's path.
    pub name: &'n [u8],
}

/// The last part of `path` (after its last `/`).
pub(crate) fn name_of(path: &[u8]) -> &[u8] {
    path.iter().rposition(|&b| b == b'/').map_or(path, |slash| &path[slash + 1..])
}

impl Names {
    /// The table of `entries` taken in `order`.
    pub fn build<'e>(order: &[EntryId], entry: impl Fn(EntryId) -> &'e Entry) -> Names {
        let mut names = Names {
            records: Vec::with_capacity(order.len()),
            arena: Vec::new(),
            starts: Vec::with_capacity(order.len() / STEP + 1),
        };
        // The path lengths of the directories above the entry, by depth: in walk order an
        // entry's name starts just past its parent's path, so its path is not searched for
        // its last `/` (that is checked by the name holding none).
        let mut dirs: Vec<usize> = vec![0];
        for (at, &id) in order.iter().enumerate() {
            let entry = entry(id);
            if at % STEP == 0 {
                names.starts.push(names.arena.len());
            }
            let path = &entry.path[..];
            let depth = usize::from(entry.depth);
            let start = match dirs.get(depth.wrapping_sub(1)) {
                Some(&0) if depth == 1 => 0,
                Some(&end) if path.get(end) == Some(&b'/') => end + 1,
                _ => usize::MAX,
            };
            let name = match path.get(start..) {
                Some(name) if !name.contains(&b'/') => name,
                _ => name_of(path),
            };
            if entry.kind == Kind::Dir && depth > 0 {
                dirs.truncate(depth);
                dirs.resize(depth, usize::MAX);
                dirs.push(path.len());
            }
            names.arena.extend_from_slice(name);
            let len = u32::try_from(name.len()).expect("a name shorter than 4 GiB");
            names.records.push(Record { chars: entry.chars, id, len, depth: entry.depth, kind: entry.kind });
        }
        names.records.shrink_to_fit();
        names.arena.shrink_to_fit();
        names
    }

    /// Bytes held.
    pub fn memory(&self) -> usize {
        self.records.capacity() * std::mem::size_of::<Record>()
            + self.arena.capacity()
            + self.starts.capacity() * std::mem::size_of::<usize>()
    }

    /// The records at positions `start..end` of the walk order, with their names.
    pub fn run(&self, start: usize, end: usize) -> impl Iterator<Item = Named<'_>> + '_ {
        let end = end.min(self.records.len());
        let start = start.min(end);
        let first = start - start % STEP;
        let skipped: usize = self.records[first..start].iter().map(|r| r.len as usize).sum();
        let mut offset = self.starts.get(first / STEP).map_or(0, |&at| at) + skipped;
        self.records[start..end].iter().map(move |&record| {
            let name = &self.arena[offset..offset + record.len as usize];
            offset += record.len as usize;
            Named { record, name }
        })
    }

    /// Number of records.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.records.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::tree::ListingSkips;

    #[test]
    fn a_run_can_start_anywhere_and_gives_each_entry_its_own_name() {
        // Directories `dK` and `dK/sub`, files in both, in walk order.
        let entries: Vec<Entry> = (0..3 * STEP + 7)
            .map(|at| {
                let (dir, sub) = (at / 40, at % 40);
                let (path, kind) = match sub {
                    0 => (format!("d{dir}"), Kind::Dir),
                    1..=9 => (format!("d{dir}/a{sub}{}", "x".repeat(at % 13)), Kind::File),
                    10 => (format!("d{dir}/sub"), Kind::Dir),
                    _ => (format!("d{dir}/sub/f{sub}"), Kind::File),
                };
                Entry::new(path.into_bytes().into(), kind, ListingSkips::default())
            })
            .collect();
        // In walk order, and backwards (each name then found from its path).
        let forward: Vec<EntryId> = (0..entries.len() as EntryId).collect();
        let backward: Vec<EntryId> = forward.iter().rev().copied().collect();
        for order in [forward, backward] {
            let names = Names::build(&order, |id| &entries[id as usize]);
            assert_eq!(names.len(), entries.len());
            for start in [0, 1, STEP - 1, STEP, STEP + 3, 2 * STEP + 500, entries.len()] {
                let run: Vec<Named<'_>> = names.run(start, start + 40).collect();
                assert_eq!(run.len(), (entries.len() - start).min(40));
                for (at, named) in (start..).zip(run) {
                    let entry = &entries[order[at] as usize];
                    assert_eq!(named.record.id, order[at]);
                    assert_eq!(named.name, name_of(&entry.path));
                    assert_eq!((named.record.depth, named.record.chars), (entry.depth, entry.chars));
                }
            }
        }
        assert_eq!(name_of(b"top"), b"top");
        assert_eq!(name_of(b"a/b/c.rs"), b"c.rs");
    }
}
