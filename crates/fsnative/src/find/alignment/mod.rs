//! How many of a query part's characters the best alignment on a path matches: what the typo
//! count of the entries a find returns is read from (see `Query::typos`).
//!
//! The count is the one `neo_frizbee` gives as the length of `match_one_indices(..).indices`,
//! computed here with a plain scalar dynamic programme, so that frizbee's kernels that track
//! positions (a second full set of its SIMD kernels, about 1 MB of the Node addon) are not
//! compiled at all. It runs for the entries returned only (a few dozen calls per find). To
//! give the same count, it follows frizbee 0.13's rules step by step:
//!
//! - **The window.** Its prefilter must find the needle in the path with at most `typos`
//!   characters missing, the way it searches (see [`prefilter`]; else the count is 0); the
//!   alignment then sees the path from one byte
//!   before the first occurrence of any of the needle's first `typos + 1` characters, to the
//!   last occurrence of any of its last `typos + 1`. A window longer than 1,024 bytes is matched
//!   greedily instead: every character when the needle is a subsequence of it, else none.
//! - **The scores.** Smith-Waterman with affine gaps and bonuses (prefix, delimiter,
//!   capitalisation, matching case). frizbee computes a row in blocks of `lanes` columns (the
//!   width of its SIMD registers: 8 to 64, from the CPU and the needle's length) and spreads a
//!   gap along a block in steps of 1, 2, 4, … columns, paying the gap-open penalty again at
//!   each step that starts on a matching column; the scores, and so the alignment, depend on
//!   that width, which [`lanes`] picks as frizbee does.
//! - **The traceback.** From the first column of the last row holding the best score: a
//!   matching cell is always taken as a match; otherwise the best of the diagonal, the left
//!   and the cell above (in that order on ties). It stops when a score reaches 0, at the left
//!   edge, or once more than `typos` characters were mismatched or skipped.
//!
//! Needles that are not ASCII are aligned character by character (see [`unicode`]).

mod prefilter;
mod unicode;

/// frizbee's default scoring.
const MATCH: u16 = 12;
const MISMATCH: u16 = 6;
const GAP_OPEN: u16 = 5;
const GAP_EXTEND: u16 = 1;
const PREFIX_BONUS: u16 = 12;
const DELIMITER_BONUS: u16 = 4;
const CAPITAL_BONUS: u16 = 4;
const CASE_BONUS: u16 = 4;
/// Windows longer than this are matched greedily.
const MAX_ALIGNED: usize = 1024;
/// The widest block frizbee computes (AVX-512, one byte per score).
const MAX_LANES: usize = 64;

/// How many of `needle`'s characters (bytes, for a needle that is not ASCII: frizbee counts
/// the bytes of each matched character) the best alignment on `text` matches, with up to
/// `typos` characters mismatched or missing; 0 when the needle does not match at all.
pub(super) fn matched_chars(needle: &str, typos: u16, text: &str) -> usize {
    let typos = usize::from(typos);
    if needle.is_empty() || text.len() < needle.chars().count().saturating_sub(typos) {
        return 0;
    }
    if !needle.is_ascii() {
        return unicode::matched_bytes(needle, typos, text);
    }
    let needle = Needle::new(needle.as_bytes());
    let hay = text.as_bytes();
    let lanes = lanes(needle.bytes.len());
    let Some((start, end)) = window(&needle, typos, hay, lanes) else {
        return 0;
    };
    // One byte before the window, for the delimiter bonus of its first character.
    let start = start.saturating_sub(1);
    let hay = &hay[start..end];
    if hay.len() > MAX_ALIGNED {
        return needle.greedy(hay);
    }
    Alignment::new(&needle, hay, start == 0, lanes.scores).matched(typos, |_| false, |_| 1)
}

/// A needle and how its bytes compare (frizbee's smart case: ASCII letters match either case
/// unless the needle holds an upper-case letter).
struct Needle<'a> {
    bytes: &'a [u8],
    case_sensitive: bool,
}

impl<'a> Needle<'a> {
    fn new(bytes: &'a [u8]) -> Needle<'a> {
        Needle { bytes, case_sensitive: bytes.iter().any(u8::is_ascii_uppercase) }
    }

    /// How many of its characters a window too long to align matches: all of them when the
    /// needle is a subsequence of it (frizbee's greedy match), else none.
    fn greedy(&self, hay: &[u8]) -> usize {
        let mut at = 0;
        for &byte in hay {
            if at < self.bytes.len() && self.matches(at, byte) {
                at += 1;
            }
        }
        if at == self.bytes.len() {
            at
        } else {
            0
        }
    }

    fn matches(&self, at: usize, byte: u8) -> bool {
        let own = self.bytes[at];
        own == byte || (!self.case_sensitive && own.eq_ignore_ascii_case(&byte))
    }
}

/// frizbee's prefilter: whether the needle is in `hay` with at most `typos` characters
/// missing, and then the window the alignment sees (`start..end`, before the byte added in
/// front): up to the last occurrence of any of the needle's last `typos + 1` characters.
fn window(needle: &Needle<'_>, typos: usize, hay: &[u8], lanes: Lanes) -> Option<(usize, usize)> {
    let n = needle.bytes.len();
    if typos > 0 && n <= typos {
        return Some((0, hay.len()));
    }
    let start =
        prefilter::first_byte(n, typos, hay.len(), lanes.prefilter, |i, at| needle.matches(i, hay[at]))?;
    let end = hay.iter().rposition(|&b| (n - 1 - typos..n).any(|i| needle.matches(i, b)))? + 1;
    Some((start, end))
}

/// The widths of frizbee's blocks for a needle: of its alignment and of its prefilter.
#[derive(Clone, Copy)]
struct Lanes {
    scores: usize,
    prefilter: usize,
}

/// The block widths of frizbee's backend for a needle of `needle_bytes` bytes on this CPU:
/// its widest SIMD, with twice the lanes when every score fits in a byte (needles of up to 13
/// bytes with the default scoring).
fn lanes(needle_bytes: usize) -> Lanes {
    let max_per_char = MATCH + CASE_BONUS + CAPITAL_BONUS.max(DELIMITER_BONUS).div_ceil(2);
    let one_time = CAPITAL_BONUS.max(DELIMITER_BONUS) / 2;
    let fits_in_byte = usize::from(max_per_char) * needle_bytes
        + usize::from(one_time + PREFIX_BONUS + MISMATCH)
        <= usize::from(u8::MAX);
    simd_lanes(fits_in_byte)
}

/// x86-64: AVX-512 (with VBMI for one-byte scores) aligns 32 two-byte or 64 one-byte scores
/// at once and prefilters 64 bytes; AVX2 16 or 32, and 32; else (SSE4.1, or frizbee's scalar
/// code) 8 or 16, and 16.
#[cfg(target_arch = "x86_64")]
fn simd_lanes(one_byte_scores: bool) -> Lanes {
    use std::arch::is_x86_feature_detected as has;
    let avx512 = has!("avx512f") && has!("avx512bw") && has!("bmi1") && has!("bmi2");
    let level = if avx512 && (!one_byte_scores || has!("avx512vbmi")) {
        2
    } else if has!("avx2") {
        1
    } else {
        0
    };
    let words = 8 << level;
    Lanes { scores: if one_byte_scores { 2 * words } else { words }, prefilter: 16 << level }
}

/// Elsewhere (NEON, or frizbee's scalar code): 8 or 16 scores, and 16 bytes.
#[cfg(not(target_arch = "x86_64"))]
fn simd_lanes(one_byte_scores: bool) -> Lanes {
    Lanes { scores: if one_byte_scores { 16 } else { 8 }, prefilter: 16 }
}

/// Whether a byte is an ASCII letter or digit or outside ASCII: the bytes a delimiter bonus
/// is never earned after.
fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte > 127
}

/// The score of matching column `at`, less the match itself: prefix, delimiter and
/// capitalisation bonuses (frizbee's haystack-side bonuses). `byte(at)` is 0 past the end.
fn column_bonus(hay: &[u8], at: usize, prefix: bool) -> u16 {
    let byte = |at: usize| hay.get(at).copied().unwrap_or(0);
    let mut bonus = 0;
    if at == 0 {
        return if prefix { PREFIX_BONUS } else { 0 };
    }
    let (this, before) = (byte(at), byte(at - 1));
    if !is_word(before) && is_word(this) {
        bonus += DELIMITER_BONUS;
    }
    if this.is_ascii_uppercase() && before.is_ascii_lowercase() {
        bonus += CAPITAL_BONUS;
    }
    bonus
}

/// frizbee's score matrix of one needle on one window, with its match masks; row 0 and the
/// column left of the window are zeros.
struct Alignment {
    /// Columns: the window's length rounded up to a whole block.
    width: usize,
    /// `(rows + 1) × width` scores, row by row (row 0 first).
    scores: Vec<u16>,
    /// Whether the row's needle character matches the column's byte, as `scores`.
    matches: Vec<bool>,
    rows: usize,
}

impl Alignment {
    fn new(needle: &Needle<'_>, hay: &[u8], prefix: bool, lanes: usize) -> Alignment {
        let mut alignment = Alignment::zeroed(needle.bytes.len(), hay.len(), lanes);
        let bonuses: Vec<u16> = (0..alignment.width).map(|at| column_bonus(hay, at, prefix)).collect();
        let byte = |at: usize| hay.get(at).copied().unwrap_or(0);
        for row in 1..=alignment.rows {
            let (above, current) = alignment.row(row);
            for (at, &bonus) in bonuses.iter().enumerate() {
                let matched = needle.matches(row - 1, byte(at));
                let own_case = needle.bytes[row - 1] == byte(at);
                current.scores[at] = above.cell(at, matched, own_case, bonus);
                current.matches[at] = matched;
            }
            for block in (0..current.scores.len()).step_by(lanes) {
                spread_gaps(&mut current.scores[..block + lanes], current.matches, block, lanes);
            }
        }
        alignment
    }

    /// A matrix of zeros for `rows` needle characters on a window of `len` bytes.
    fn zeroed(rows: usize, len: usize, lanes: usize) -> Alignment {
        let width = len.div_ceil(lanes) * lanes;
        Alignment {
            width,
            scores: vec![0; (rows + 1) * width],
            matches: vec![false; (rows + 1) * width],
            rows,
        }
    }

    /// Row `row - 1`, finished, and row `row`, to fill.
    fn row(&mut self, row: usize) -> (Row<'_>, RowMut<'_>) {
        let width = self.width;
        let (done, rest) = self.scores.split_at_mut(row * width);
        let (done_m, rest_m) = self.matches.split_at_mut(row * width);
        (
            Row { scores: &done[(row - 1) * width..], matches: &done_m[(row - 1) * width..] },
            RowMut { scores: &mut rest[..width], matches: &mut rest_m[..width] },
        )
    }

    fn score(&self, row: usize, column: Option<usize>) -> u16 {
        column.map_or(0, |at| self.scores[row * self.width + at])
    }

    /// What the traceback matches, with at most `typos` needle characters mismatched or
    /// skipped: the sum of `weight(row)` over the rows matched. A column that `inside(column)`
    /// (inside a character of the path) is stepped over to the left.
    fn matched(
        &self,
        typos: usize,
        inside: impl Fn(usize) -> bool,
        weight: impl Fn(usize) -> usize,
    ) -> usize {
        let last = &self.scores[self.rows * self.width..];
        let best = last.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return 0;
        }
        let mut column = last.iter().position(|&s| s == best);
        let (mut row, mut score, mut mistakes, mut matched) = (self.rows, best, 0, 0);
        while let Some(at) = column {
            if row == 0 || mistakes > typos || score == 0 {
                break;
            }
            let before = at.checked_sub(1);
            if inside(at) {
                (column, score) = (before, self.score(row, before));
                continue;
            }
            if self.matches[row * self.width + at] {
                matched += weight(row);
                (row, column) = (row - 1, before);
                score = self.score(row, column);
                continue;
            }
            let diagonal = self.score(row - 1, before);
            let left = self.score(row, before);
            let up = self.score(row - 1, column);
            if diagonal >= left && diagonal >= up {
                (row, column, score) = (row - 1, before, diagonal);
                mistakes += 1;
            } else if left >= up {
                (column, score) = (before, left);
            } else {
                (row, score) = (row - 1, up);
                mistakes += 1;
            }
        }
        matched
    }
}

/// One row of an [`Alignment`]: its scores and match masks.
struct Row<'a> {
    scores: &'a [u16],
    matches: &'a [bool],
}

/// The row of an [`Alignment`] being filled.
struct RowMut<'a> {
    scores: &'a mut [u16],
    matches: &'a mut [bool],
}

impl Row<'_> {
    /// The score of the cell below column `at` of this row, before gaps along its own row:
    /// the diagonal (a match with its bonuses, or a mismatch) or this row's cell less a gap.
    fn cell(&self, at: usize, matched: bool, own_case: bool, bonus: u16) -> u16 {
        let diagonal = if at == 0 { 0 } else { self.scores[at - 1] };
        let mut score = if matched { diagonal + MATCH + bonus } else { diagonal.saturating_sub(MISMATCH) };
        if own_case {
            score += CASE_BONUS;
        }
        let open = if self.matches[at] { GAP_OPEN - GAP_EXTEND } else { 0 };
        score.max(self.scores[at].saturating_sub(GAP_EXTEND + open))
    }
}

/// Spreads horizontal gaps along the block of `lanes` columns starting at `block` of one row,
/// as frizbee's SIMD does: in steps of 1, 2, 4, … columns, all columns of a step at once,
/// from the block's own scores or the finished block before it; a step from a matching
/// column also pays the gap-open penalty.
fn spread_gaps(row: &mut [u16], matches: &[bool], block: usize, lanes: usize) {
    let mut step = 1;
    let mut before = [0u16; MAX_LANES];
    while step < lanes {
        before[..lanes].copy_from_slice(&row[block..block + lanes]);
        for lane in 0..lanes {
            let Some(from) = (block + lane).checked_sub(step) else {
                continue;
            };
            let source = if lane >= step { before[lane - step] } else { row[from] };
            let open = if matches[from] { GAP_OPEN - GAP_EXTEND } else { 0 };
            let penalty = GAP_EXTEND * step as u16 + open;
            row[block + lane] = row[block + lane].max(source.saturating_sub(penalty));
        }
        step *= 2;
    }
}

#[cfg(test)]
mod tests;
