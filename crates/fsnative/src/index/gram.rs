//! What the prefilter's grams are, for files and patterns alike.
//!
//! A trigram is three bytes with ASCII letters folded to lower case, packed oldest byte lowest
//! and hashed to 16 bits. A junction is four bytes as they are (case kept) whose middle two lie
//! on either side of a word's edge (`f du` of `def dumps`, `s Re` of `class Request`) or of a
//! camel-case hump, a lower-case letter before an upper-case one (`stEn` of `TestEncode`): a
//! trigram set says a file holds `def` and `dumps`, or `test` and `encode`, its junctions that
//! they meet. A capital trigram is three upper-case letters as they are (`PYT`, `YTH` of
//! `PYTHON`), which folded trigrams cannot tell from the lower-case words of prose and code.
//! Junctions and capital trigrams are the case-kept grams. Files and patterns are cut into
//! grams the same way.

/// ASCII lower case; other bytes as they are.
pub(super) fn fold(byte: u8) -> u8 {
    byte.to_ascii_lowercase()
}

/// The 16-bit hash of three folded bytes packed little-endian.
pub(super) fn gram_hash(gram: u32) -> u16 {
    (gram.wrapping_mul(0x9E37_79B1) >> 16) as u16
}

/// Bytes of identifiers: ASCII letters, digits and `_`. Tested by ranges, which the compiler
/// turns into vector compares over a run of bytes (a table lookup per byte it cannot).
fn is_word(byte: u8) -> bool {
    let letter = (byte | 0x20).wrapping_sub(b'a') < 26;
    let digit = byte.wrapping_sub(b'0') < 10;
    letter | digit | (byte == b'_')
}

/// ASCII lower-case letters.
fn is_lower(byte: u8) -> bool {
    byte.wrapping_sub(b'a') < 26
}

/// ASCII upper-case letters.
fn is_upper(byte: u8) -> bool {
    byte.wrapping_sub(b'A') < 26
}

/// Hands `set` the hash of every case-kept gram of `text` (bytes as they are): its junctions
/// and its capital trigrams (three upper-case letters: `PYT` of `PYTHONPATH`).
///
/// Per 64 bytes, a mask of which are word bytes gives the word edges as a mask too (bit `e`:
/// bytes `e` and `e + 1` differ), masks of lower- and upper-case letters the humps (bit `e`:
/// byte `e` lower, `e + 1` upper) and the capital runs, and only those are visited: about one
/// position in four of source code. (Testing every window for an edge, a branch the processor
/// cannot predict, cost 1.8 ns a byte of the stdlib copy; this, about 1. Trigrams alone sketch
/// at 1.3-1.6 ns a byte, trigrams and junctions at 2.1-3.7: `Sketch::add` over the files in
/// memory, release.) Humps and capitals add about 1 % each to the distinct grams of a tree of
/// Python packages, and cut the files a camel-case or capital literal leaves to read (of
/// 19,236, simulated): `TestEncode(` 1,149 to 175, `RESTARTTOKEN` 185 to 4, `NOWAIT` 340 to 29.
pub(super) fn each_cased_gram(text: &[u8], mut set: impl FnMut(u16)) {
    for (block, chunk) in text.chunks(64).enumerate() {
        let base = block * 64;
        // Whether the `k`-th byte after the block is of a class, as bit 0.
        let after = |class: fn(u8) -> bool, k: usize| {
            text.get(base + 64 + k).map_or(0, |&byte| u64::from(class(byte)))
        };
        let words = mask(chunk, is_word);
        let uppers = mask(chunk, is_upper);
        let next_upper = uppers >> 1 | after(is_upper, 0) << 63;
        let mut edges = words ^ (words >> 1 | after(is_word, 0) << 63) | mask(chunk, is_lower) & next_upper;
        let mut capitals =
            uppers & next_upper & (uppers >> 2 | after(is_upper, 0) << 62 | after(is_upper, 1) << 63);
        while edges != 0 {
            // The junction's window starts one byte before its edge and holds four bytes.
            let edge = base + edges.trailing_zeros() as usize;
            edges &= edges - 1;
            if let Some(window) = edge.checked_sub(1).and_then(|start| text.get(start..start + 4)) {
                set(junction_hash([window[0], window[1], window[2], window[3]]));
            }
        }
        while capitals != 0 {
            let start = base + capitals.trailing_zeros() as usize;
            capitals &= capitals - 1;
            if let Some(window) = text.get(start..start + 3) {
                // No junction's window is two capitals between others: the hashes do not meet.
                set(junction_hash([window[0], window[1], window[2], 0]));
            }
        }
    }
}

/// Bit `i` set when `chunk[i]` (of at most 64 bytes) is of `class`: the flags packed eight
/// at a time, eight flags of 0 or 1 read as one number, times a constant that moves flag `i`
/// to bit `56 + i`.
#[inline(always)]
fn mask(chunk: &[u8], class: fn(u8) -> bool) -> u64 {
    let mut flags = [0u8; 64];
    for (flag, &byte) in flags.iter_mut().zip(chunk) {
        *flag = u8::from(class(byte));
    }
    flags.chunks_exact(8).enumerate().fold(0, |mask, (eighth, eight)| {
        let flags = u64::from_le_bytes(eight.try_into().expect("eight flags"));
        mask | (flags.wrapping_mul(0x0102_0408_1020_4080) >> 56) << (8 * eighth)
    })
}

/// The 16-bit hash of a junction's four bytes: every byte reaches the low bits that a small
/// signature keeps (a multiply's top half, of 64 bits so the fourth byte counts as much).
fn junction_hash(window: [u8; 4]) -> u16 {
    (u64::from(u32::from_le_bytes(window)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 48) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cased_grams_are_junctions_at_edges_and_humps_and_capital_runs() {
        // Words and separators of every length, so edges and humps fall on and around each
        // 64-byte block's ends; every byte value appears.
        let mut text = Vec::new();
        for round in 0..400u32 {
            let word = b"ab_Z9cDEFg".iter().cycle().skip(round as usize % 5).take((round % 9) as usize + 1);
            text.extend(word);
            text.extend((0..round % 4 + 1).map(|i| [b' ', b'(', 0xC3, b'\n'][((round + i) % 4) as usize]));
            text.push((round * 37 % 256) as u8);
        }
        for len in [0, 3, 4, 63, 64, 65, 127, 128, 129, text.len()] {
            let text = &text[..len];
            let mut found = Vec::new();
            each_cased_gram(text, |hash| found.push(hash));
            let mut expected: Vec<u16> = text
                .windows(4)
                .filter(|w| is_word(w[1]) != is_word(w[2]) || is_lower(w[1]) && is_upper(w[2]))
                .map(|w| junction_hash([w[0], w[1], w[2], w[3]]))
                .chain(
                    text.windows(3)
                        .filter(|w| w.iter().all(|&b| is_upper(b)))
                        .map(|w| junction_hash([w[0], w[1], w[2], 0])),
                )
                .collect();
            found.sort_unstable();
            expected.sort_unstable();
            assert_eq!(found, expected, "{len} bytes");
        }
        assert!((0..=255)
            .filter(|&b| is_word(b))
            .eq((0..=255u8).filter(|b| b.is_ascii_alphanumeric() || *b == b'_')));
        assert!((0..=255).filter(|&b| is_lower(b)).eq(b'a'..=b'z'));
        assert!((0..=255).filter(|&b| is_upper(b)).eq(b'A'..=b'Z'));
    }
}
