//! The content prefilter: for each file, the set of its grams (trigrams and case-kept grams:
//! [`super::gram`]) hashed into a bit signature, stored bit-sliced so one query tests 64 files
//! with a few word reads.
//!
//! Each gram is hashed to 16 bits and a file's signature keeps the low `m` bits of each hash,
//! `m` a power of two sized to the file (about 1.5 or 3 bits per distinct gram: see
//! [`bits_wanted`]). Signatures of one size share a [`Class`]; a class stores them in chunks of
//! 64, word `i` of a chunk holding bit `i` of its 64 signatures. A pattern becomes a boolean
//! query over grams ([`super::query`]); a file is ruled out when its signature lacks every way
//! to satisfy it. Trigrams are folded, so a signature is a superset of what any case-sensitive
//! or case-insensitive literal needs; case-kept grams are asked of case-sensitive
//! searches only. A file is never ruled out wrongly.

use super::gram::{each_cased_gram, fold, gram_hash};
use super::query::GramQuery;

/// Smallest and largest signature sizes, in bits.
const MIN_BITS_LOG2: u32 = 9;
const MAX_BITS_LOG2: u32 = 16;
/// Signature sizes (classes), smallest first.
pub(super) const CLASSES: usize = (MAX_BITS_LOG2 - MIN_BITS_LOG2 + 1) as usize;

/// Signature bits for `distinct` grams, before rounding up to a power of two: 1.5 a gram for
/// a small file, 3 for a large one. A file that passes the prefilter wrongly costs a search in
/// proportion to its size, so large files get the more selective signatures; small files, the
/// many, stay small. Junctions add about 60 % to a source file's distinct trigrams; with these
/// ratios (simulated on the stdlib copy and 8,000 files of the large bench tree) signatures
/// take 22-33 % more memory than trigrams alone at 2 and 4 bits a trigram, phrases rule out
/// 2-9 times as many files, and literals of one or two trigrams about as many as before.
fn bits_wanted(distinct: usize) -> usize {
    if distinct >= LARGE_GRAMS {
        distinct * 3
    } else {
        distinct * 3 / 2
    }
}
/// Distinct grams from which a file counts as large.
const LARGE_GRAMS: usize = 3276;

/// A file's gram set (trigrams and case-kept grams) before it is sized: all 16 hash bits.
///
/// While the file is small the set is a bitmap (8 KiB to clear and scan per file); once it
/// has grown past [`FLAGS_FROM`] bytes it is one byte per hash, so adding a gram is a
/// plain store instead of a read, an or and a store, for 64 KiB to clear and scan per file.
pub(super) struct Sketch {
    words: Box<[u64; WORDS]>,
    flags: Box<[u8; 1 << 16]>,
    /// The set is in `flags` (and `words` is empty).
    flagged: bool,
    /// Bytes of the file added so far.
    added: usize,
    /// The last two bytes seen (folded), so a file read in pieces hashes the trigrams that
    /// straddle them; `carried` of them are real (fewer at the start of a file).
    carry: [u8; 2],
    carried: usize,
    /// The last three bytes seen as they are, for the case-kept grams that straddle pieces;
    /// `raw_carried` of them are real.
    raw_carry: [u8; 3],
    raw_carried: usize,
}

/// Words of the bitmap: one bit per 16-bit hash.
const WORDS: usize = 1 << (MAX_BITS_LOG2 - 6);
/// Bytes of a file after which its set moves from the bitmap to the flags. Sketching the
/// stdlib copy's 97 MB took 1.90 ns a byte with the bitmap alone, 1.89 moving at 4 KiB, 1.69
/// at 16 KiB, 1.20 at 256 KiB and 1.18 at 1 MiB (best of 7 passes over the files in memory).
const FLAGS_FROM: usize = 256 * 1024;

/// Bytes folded and hashed per round of [`Sketch::add`].
const ROUND: usize = 4096;

impl Default for Sketch {
    fn default() -> Sketch {
        Sketch {
            words: Box::new([0; WORDS]),
            flags: Box::new([0; 1 << 16]),
            flagged: false,
            added: 0,
            carry: [0; 2],
            carried: 0,
            raw_carry: [0; 3],
            raw_carried: 0,
        }
    }
}

impl Sketch {
    /// Empties the sketch for the next file.
    pub fn clear(&mut self) {
        if self.flagged {
            self.flags.fill(0);
            self.flagged = false;
        } else {
            self.words.fill(0);
        }
        self.added = 0;
        self.carried = 0;
        self.raw_carried = 0;
    }

    /// Adds the grams of the next piece of the file.
    ///
    /// Each round folds a run of bytes into a buffer after the carried ones, then hashes
    /// every three-byte window of it ([`each_gram`]), and every case-kept gram of the bytes as
    /// they are ([`each_cased_gram`]).
    pub fn add(&mut self, bytes: &[u8]) {
        let mut folded = [0u8; ROUND + 2];
        let mut raw = [0u8; ROUND + 3];
        for piece in bytes.chunks(ROUND) {
            let start = 2 - self.carried;
            folded[start..2].copy_from_slice(&self.carry[start..]);
            for (to, &byte) in folded[2..].iter_mut().zip(piece) {
                *to = fold(byte);
            }
            let end = 2 + piece.len();
            if !self.flagged && self.added >= FLAGS_FROM {
                self.move_to_flags();
            }
            let raw_start = 3 - self.raw_carried;
            raw[raw_start..3].copy_from_slice(&self.raw_carry[raw_start..]);
            raw[3..3 + piece.len()].copy_from_slice(piece);
            let (text, raw_text) = (&folded[start..end], &raw[raw_start..3 + piece.len()]);
            if self.flagged {
                let flags = &mut self.flags;
                each_gram(text, |hash| flags[usize::from(hash)] = 1);
                each_cased_gram(raw_text, |hash| flags[usize::from(hash)] = 1);
            } else {
                let words = &mut self.words;
                each_gram(text, |hash| words[usize::from(hash >> 6)] |= 1 << (hash & 63));
                each_cased_gram(raw_text, |hash| words[usize::from(hash >> 6)] |= 1 << (hash & 63));
            }
            self.added += piece.len();
            let kept = (end - start).min(2);
            self.carry[2 - kept..].copy_from_slice(&folded[end - kept..end]);
            self.carried = kept;
            let raw_kept = raw_text.len().min(3);
            self.raw_carry[3 - raw_kept..].copy_from_slice(&raw_text[raw_text.len() - raw_kept..]);
            self.raw_carried = raw_kept;
        }
    }

    /// Moves the set from the bitmap to the flags, leaving the bitmap empty.
    fn move_to_flags(&mut self) {
        for (index, &word) in self.words.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                self.flags[index * 64 + rest.trailing_zeros() as usize] = 1;
                rest &= rest - 1;
            }
        }
        self.words.fill(0);
        self.flagged = true;
    }

    /// Moves the set from the flags back to the bitmap, leaving the flags empty: eight flags
    /// of 0 or 1 read as one number, times a constant that gathers them into a byte.
    fn move_to_words(&mut self) {
        for (word, flags) in self.words.iter_mut().zip(self.flags.chunks_exact(64)) {
            *word = flags.chunks_exact(8).enumerate().fold(0, |word, (eighth, eight)| {
                let eight = u64::from_le_bytes(eight.try_into().expect("eight flags"));
                word | (eight.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * eighth)
            });
        }
        self.flags.fill(0);
        self.flagged = false;
    }

    /// The file's signature: the set's hashes folded to the size its count of distinct hashes
    /// wants ([`class_of`]). The bitmap of all 16 bits folds by or-ing its words: bit `b` of
    /// the signature is set when a hash's low bits are `b`. (Listing the hashes first and
    /// setting their bits one by one took a sixth of a build of the 100k tree.)
    pub fn signature(&mut self) -> Signature {
        if self.flagged {
            self.move_to_words();
        }
        let distinct = self.words.iter().map(|word| word.count_ones() as usize).sum();
        let class = class_of(distinct);
        let mut words = vec![0u64; class_words(class) / 64].into_boxed_slice();
        for part in self.words.chunks_exact(words.len()) {
            words.iter_mut().zip(part).for_each(|(word, &part)| *word |= part);
        }
        Signature { class, words }
    }
}

/// A file's signature before it is stored: its size class and its bits, small enough to hold
/// for a batch of files (1.5 to 3 bits a gram, not the sketch's 8 KiB).
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Signature {
    class: usize,
    words: Box<[u64]>,
}

/// Hands `set` the hash of every three-byte window of `text`, six windows per 8-byte load:
/// the windows do not depend on one another, so the processor overlaps them. (One load per
/// window, with its bounds checks, took about three times as long.)
fn each_gram(text: &[u8], mut set: impl FnMut(u16)) {
    let mut at = 0;
    while let Some(eight) = text.get(at..at + 8) {
        let word = u64::from_le_bytes(eight.try_into().expect("eight bytes"));
        for shift in 0..6 {
            // Packed oldest byte lowest, as [`super::query`] packs a literal's trigrams.
            set(gram_hash((word >> (8 * shift)) as u32 & 0x00FF_FFFF));
        }
        at += 6;
    }
    for window in text[at..].windows(3) {
        set(gram_hash(u32::from_le_bytes([window[0], window[1], window[2], 0])));
    }
}

/// The size class (0 = smallest) that fits this many distinct hashes.
fn class_of(distinct: usize) -> usize {
    let wanted = bits_wanted(distinct).next_power_of_two().max(1 << MIN_BITS_LOG2);
    (wanted.trailing_zeros().min(MAX_BITS_LOG2) - MIN_BITS_LOG2) as usize
}

/// Signatures of one size.
#[derive(Debug, Default)]
struct Class {
    /// log2 of the signature size in bits.
    bits_log2: u32,
    /// Chunk `c` is `words[c << bits_log2 ..][.. 1 << bits_log2]`.
    words: Vec<u64>,
    /// Per chunk, the slots in use.
    used: Vec<u64>,
    free: Vec<u32>,
}

/// Every signature of an index. A slot number packs the class (top bits) and the slot in it.
#[derive(Debug)]
pub(crate) struct Signatures {
    classes: Vec<Class>,
}

const SLOT_BITS: u32 = 28;

/// The class of a slot number and the slot in it.
#[inline]
pub(super) fn slot_parts(slot: u32) -> (usize, usize) {
    ((slot >> SLOT_BITS) as usize, (slot & ((1 << SLOT_BITS) - 1)) as usize)
}

/// The words of one signature of class `class`.
pub(super) fn class_words(class: usize) -> usize {
    1 << (MIN_BITS_LOG2 as usize + class)
}

impl Default for Signatures {
    fn default() -> Signatures {
        let classes =
            (0..CLASSES).map(|c| Class { bits_log2: MIN_BITS_LOG2 + c as u32, ..Class::default() }).collect();
        Signatures { classes }
    }
}

/// The files a query rules out: per class, a bit per slot.
pub(crate) struct RuledOut {
    classes: Vec<Vec<u64>>,
}

impl RuledOut {
    /// The query cannot match the file whose signature is in `slot`.
    #[inline]
    pub fn contains(&self, slot: u32) -> bool {
        let (class, index) = slot_parts(slot);
        self.classes[class].get(index / 64).is_some_and(|word| word >> (index % 64) & 1 == 1)
    }
}

impl Signatures {
    /// Stores a file's signature ([`Sketch::signature`]) and returns its slot.
    pub fn insert(&mut self, signature: &Signature) -> u32 {
        let class_index = signature.class;
        let class = &mut self.classes[class_index];
        let slot = class.free.pop().unwrap_or_else(|| {
            let slot = (class.used.len() * 64) as u32;
            class.words.resize(class.words.len() + (1 << class.bits_log2), 0);
            class.used.push(0);
            class.free.extend((slot + 1..slot + 64).rev());
            slot
        });
        let (chunk, bit) = ((slot / 64) as usize, slot % 64);
        class.used[chunk] |= 1 << bit;
        let size = 1usize << class.bits_log2;
        let words = &mut class.words[chunk * size..(chunk + 1) * size];
        for (index, &word) in signature.words.iter().enumerate() {
            let mut rest = word;
            while rest != 0 {
                words[index * 64 + rest.trailing_zeros() as usize] |= 1 << bit;
                rest &= rest - 1;
            }
        }
        ((class_index as u32) << SLOT_BITS) | slot
    }

    /// Frees `slot`.
    pub fn remove(&mut self, slot: u32) {
        let class = &mut self.classes[(slot >> SLOT_BITS) as usize];
        let slot = slot & ((1 << SLOT_BITS) - 1);
        let (chunk, bit) = ((slot / 64) as usize, slot % 64);
        class.used[chunk] &= !(1 << bit);
        let size = 1usize << class.bits_log2;
        for word in &mut class.words[chunk * size..(chunk + 1) * size] {
            *word &= !(1 << bit);
        }
        class.free.push(slot);
    }

    /// The signatures that cannot satisfy `query`.
    pub fn ruled_out(&self, query: &GramQuery) -> RuledOut {
        let classes = self
            .classes
            .iter()
            .map(|class| {
                let size = 1usize << class.bits_log2;
                class
                    .used
                    .iter()
                    .enumerate()
                    .map(|(chunk, &used)| {
                        if used == 0 {
                            return 0;
                        }
                        let words = &class.words[chunk * size..(chunk + 1) * size];
                        used & !query.eval(&|hash| words[usize::from(hash) & (size - 1)])
                    })
                    .collect()
            })
            .collect();
        RuledOut { classes }
    }

    /// Each class's words, smallest class first, for storing.
    pub fn words(&self) -> impl Iterator<Item = &[u64]> {
        self.classes.iter().map(|class| class.words.as_slice())
    }

    /// Signatures from stored words (one vector per class, as [`Signatures::words`] gave them)
    /// and the slots in use (one bit per slot, per class). The bits of slots not in use are
    /// cleared, so a slot handed out again starts empty. `None` when the shapes do not fit.
    pub fn restore(words: Vec<Vec<u64>>, used: Vec<Vec<u64>>) -> Option<Signatures> {
        if words.len() != CLASSES || used.len() != CLASSES {
            return None;
        }
        let mut classes = Vec::with_capacity(CLASSES);
        for (index, (mut words, used)) in words.into_iter().zip(used).enumerate() {
            let size = class_words(index);
            if words.len() != used.len() * size {
                return None;
            }
            let mut free = Vec::new();
            for (chunk, &in_use) in used.iter().enumerate() {
                if in_use != u64::MAX {
                    words[chunk * size..(chunk + 1) * size].iter_mut().for_each(|word| *word &= in_use);
                }
                let base = (chunk * 64) as u32;
                free.extend((0..64).rev().filter(|bit| in_use >> bit & 1 == 0).map(|bit| base + bit));
            }
            classes.push(Class { bits_log2: MIN_BITS_LOG2 + index as u32, words, used, free });
        }
        Some(Signatures { classes })
    }

    /// No signature is stored.
    pub fn is_empty(&self) -> bool {
        self.classes.iter().all(|c| c.used.iter().all(|&used| used == 0))
    }

    /// Bytes held.
    pub fn memory(&self) -> usize {
        self.classes
            .iter()
            .map(|c| {
                (c.words.capacity() + c.used.capacity()) * std::mem::size_of::<u64>()
                    + c.free.capacity() * std::mem::size_of::<u32>()
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::index::query::{Case, GramQuery};

    fn signed(signatures: &mut Signatures, text: &str) -> u32 {
        let mut sketch = Sketch::default();
        // In two pieces, so grams across the cut are tested too.
        let (a, b) = text.as_bytes().split_at(text.len() / 2);
        sketch.add(a);
        sketch.add(b);
        signatures.insert(&sketch.signature())
    }

    #[test]
    fn a_sketch_holds_every_gram_whatever_the_pieces() {
        let text: Vec<u8> = (0..(FLAGS_FROM + 3 * ROUND) as u32 + 7)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .collect();
        let expected = |text: &[u8]| {
            let hash = |w: &[u8]| gram_hash(u32::from_le_bytes([fold(w[0]), fold(w[1]), fold(w[2]), 0]));
            let mut set: std::collections::BTreeSet<u16> = text.windows(3).map(hash).collect();
            each_cased_gram(text, |cased| {
                set.insert(cased);
            });
            folded(&set.into_iter().collect::<Vec<u16>>())
        };
        // One sketch for every case, so each also checks that `clear` empties it, from either set.
        let mut sketch = Sketch::default();
        for len in [FLAGS_FROM / 2, text.len()] {
            let text = &text[..len];
            for piece in [1, 2, 3, 5, ROUND - 1, ROUND, ROUND + 1, text.len()] {
                sketch.clear();
                text.chunks(piece).for_each(|chunk| sketch.add(chunk));
                assert_eq!(sketch.signature(), expected(text), "{len} bytes in pieces of {piece}");
            }
        }
        sketch.clear();
        sketch.add(b"ab");
        assert!(sketch.signature().words.iter().all(|&word| word == 0), "two bytes hold no trigram");
    }

    /// The signature of a set of distinct hashes, bit by bit.
    fn folded(hashes: &[u16]) -> Signature {
        let class = class_of(hashes.len());
        let mut words = vec![0u64; class_words(class) / 64];
        let mask = words.len() * 64 - 1;
        for &hash in hashes {
            let bit = usize::from(hash) & mask;
            words[bit / 64] |= 1 << (bit % 64);
        }
        Signature { class, words: words.into_boxed_slice() }
    }

    #[test]
    fn signatures_are_folded_to_their_class() {
        // Sets of sizes around the class bounds, from hashes spread over all 16 bits.
        for count in [0, 1, 300, 341, 342, 700, 2000, LARGE_GRAMS - 1, LARGE_GRAMS, 12_000, 30_000] {
            let hashes: Vec<u16> = (0..count as u32).map(|i| (i * 0x9E37 % 65_536) as u16).collect();
            let mut distinct = hashes.clone();
            distinct.sort_unstable();
            distinct.dedup();
            let mut sketch = Sketch::default();
            for &hash in &hashes {
                sketch.words[usize::from(hash >> 6)] |= 1 << (hash & 63);
            }
            assert_eq!(sketch.signature(), folded(&distinct), "{count} hashes");
        }
    }

    #[test]
    fn a_file_is_ruled_out_only_when_it_lacks_a_literal() {
        let mut signatures = Signatures::default();
        let hello = signed(&mut signatures, "fn main() { println!(\"Hello, world\"); }");
        let other = signed(&mut signatures, "nothing to see here");
        let query = GramQuery::literal(b"HELLO", Case::Folded);
        let out = signatures.ruled_out(&query);
        assert!(!out.contains(hello));
        assert!(out.contains(other));
        let big = signed(&mut signatures, &"abcdefghij".repeat(5000));
        assert!(!signatures.ruled_out(&GramQuery::literal(b"jab", Case::Exact)).contains(big));
        signatures.remove(other);
        assert!(!signatures.ruled_out(&query).contains(other), "a freed slot is never ruled out");
    }

    #[test]
    fn a_phrase_rules_out_files_that_hold_its_words_apart() {
        let mut signatures = Signatures::default();
        let apart = signed(&mut signatures, "def f(x):\n    if dx:\n        y = dumps(x)\n");
        let together = signed(&mut signatures, "def dumps(value):\n    return value\n");
        let other_case = signed(&mut signatures, "DEF DUMPS(value)\n");
        let exact = signatures.ruled_out(&GramQuery::literal(b"def dumps", Case::Exact));
        assert!(exact.contains(apart), "`def` and `dumps` never meet");
        assert!(!exact.contains(together));
        assert!(exact.contains(other_case), "junctions keep case");
        let folded = signatures.ruled_out(&GramQuery::literal(b"def dumps", Case::Folded));
        assert!(!folded.contains(other_case) && !folded.contains(apart), "trigrams alone, folded");
    }
}
