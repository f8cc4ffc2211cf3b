//! The count for a needle that is not ASCII, where frizbee aligns one row per character of
//! the needle against the path's bytes.
//!
//! A character matches at the byte where it starts (in either case, when the case flip has
//! the same length in UTF-8). A cell inside a character of the path (a continuation byte)
//! scores nothing of its own; a gap over the path costs one extension per character skipped,
//! not per byte, and the gap-open penalty after a match is paid at the next character start
//! the gap crosses. Each matched needle character counts its bytes (frizbee's indices are byte
//! positions), and the window, the greedy match of long windows and the block width are the
//! ASCII needle's ([`super`]).

use super::{
    column_bonus, lanes, prefilter, Alignment, Lanes, Needle, GAP_EXTEND, GAP_OPEN, MAX_ALIGNED, MAX_LANES,
};

/// A needle character and its other case (itself when the flip is not one character of the
/// same length).
struct Char {
    own: char,
    flipped: char,
}

impl Char {
    fn new(own: char, case_sensitive: bool) -> Char {
        let only = |mut chars: std::iter::Peekable<std::vec::IntoIter<char>>| {
            chars.next().filter(|_| chars.peek().is_none())
        };
        let flip = if case_sensitive {
            None
        } else if own.is_uppercase() {
            only(own.to_lowercase().collect::<Vec<_>>().into_iter().peekable())
        } else if own.is_lowercase() {
            only(own.to_uppercase().collect::<Vec<_>>().into_iter().peekable())
        } else {
            None
        };
        let flipped = flip.filter(|c| c.len_utf8() == own.len_utf8()).unwrap_or(own);
        Char { own, flipped }
    }

    fn matches(&self, other: char) -> bool {
        other == self.own || other == self.flipped
    }

    /// Whether the character is at byte `at` of `hay` (either case), and in its own case.
    fn at(&self, hay: &[u8], at: usize) -> (bool, bool) {
        let is = |c: char| {
            let mut buffer = [0; 4];
            let bytes = c.encode_utf8(&mut buffer).as_bytes();
            bytes.iter().enumerate().all(|(k, &b)| hay.get(at + k).copied().unwrap_or(0) == b)
        };
        let own = is(self.own);
        (own || is(self.flipped), own)
    }
}

/// [`super::matched_chars`] for a needle that is not ASCII.
pub(super) fn matched_bytes(needle: &str, typos: usize, text: &str) -> usize {
    let case_sensitive = needle.chars().any(char::is_uppercase);
    let chars: Vec<Char> = needle.chars().map(|c| Char::new(c, case_sensitive)).collect();
    let lanes = lanes(needle.len());
    let Some((start, end)) = window(&chars, typos, text, lanes) else {
        return 0;
    };
    let start = start.saturating_sub(1);
    let hay = &text.as_bytes()[start..end];
    if hay.len() > MAX_ALIGNED {
        return Needle { bytes: needle.as_bytes(), case_sensitive }.greedy(hay);
    }
    let inside = |at: usize| hay.get(at).is_some_and(|b| b & 0xC0 == 0x80);
    let widths: Vec<usize> = chars.iter().map(|c| c.own.len_utf8()).collect();
    align(&chars, hay, start == 0, lanes.scores).matched(typos, inside, |row| widths[row - 1])
}

/// frizbee's prefilter on characters (see [`super::window`]); `end` is where the last
/// occurrence ends.
fn window(chars: &[Char], typos: usize, text: &str, lanes: Lanes) -> Option<(usize, usize)> {
    let n = chars.len();
    if typos > 0 && n <= typos {
        return Some((0, text.len()));
    }
    let hay = text.as_bytes();
    let start = prefilter::first_byte(n, typos, hay.len(), lanes.prefilter, |i, at| chars[i].at(hay, at).0)?;
    let last =
        |(at, c): (usize, char)| (n - 1 - typos..n).any(|i| chars[i].matches(c)).then(|| at + c.len_utf8());
    let end = text.char_indices().rev().find_map(last)?;
    Some((start, end))
}

/// The score matrix of the characters `chars` on the bytes `hay` (see [`Alignment::new`]).
fn align(chars: &[Char], hay: &[u8], prefix: bool, lanes: usize) -> Alignment {
    let mut alignment = Alignment::zeroed(chars.len(), hay.len(), lanes);
    let width = alignment.width;
    let inside = |at: usize| hay.get(at).is_some_and(|b| (0x80..0xC0).contains(b));
    let starts = |at: usize| at < hay.len() && !inside(at);
    // Columns before each column that start a character, and that are not inside one (past
    // the window's end, neither).
    let mut counts = vec![(0u16, 0u16); width + 1];
    for at in 0..width {
        let (start, outside) = counts[at];
        counts[at + 1] = (start + u16::from(starts(at)), outside + u16::from(!inside(at)));
    }
    let bonuses: Vec<u16> = (0..width).map(|at| column_bonus(hay, at, prefix)).collect();
    let mut pending = vec![false; width];
    for row in 1..=chars.len() {
        let (above, current) = alignment.row(row);
        for at in 0..width {
            let (matched, own_case) = chars[row - 1].at(hay, at);
            let matched = matched && starts(at);
            current.matches[at] = matched;
            pending[at] = matched;
            current.scores[at] = if starts(at) { above.cell(at, matched, own_case, bonuses[at]) } else { 0 };
        }
        for block in (0..width).step_by(lanes) {
            spread_gaps(current.scores, &mut pending, &counts, block, lanes);
        }
    }
    alignment
}

/// [`super::spread_gaps`] over bytes: a step from column `from` to column `to` costs one
/// extension per column in `from + 1..=to` not inside a character, and the gap-open penalty
/// when a match is pending at `from` (a match, carried over the continuation bytes after it)
/// and a character starts in that span.
fn spread_gaps(row: &mut [u16], pending: &mut [bool], counts: &[(u16, u16)], block: usize, lanes: usize) {
    let mut step = 1;
    let (mut before, mut before_pending) = ([0u16; MAX_LANES], [false; MAX_LANES]);
    while step < lanes {
        before[..lanes].copy_from_slice(&row[block..block + lanes]);
        before_pending[..lanes].copy_from_slice(&pending[block..block + lanes]);
        for lane in 0..lanes {
            let to = block + lane;
            let Some(from) = to.checked_sub(step) else {
                continue;
            };
            let (source, open) = if lane >= step {
                (before[lane - step], before_pending[lane - step])
            } else {
                (row[from], pending[from])
            };
            let crosses_start = counts[to + 1].0 > counts[from + 1].0;
            let extensions = counts[to + 1].1 - counts[from + 1].1;
            let penalty =
                GAP_EXTEND * extensions + if open && crosses_start { GAP_OPEN - GAP_EXTEND } else { 0 };
            row[to] = row[to].max(source.saturating_sub(penalty));
            pending[to] |= open && !crosses_start;
        }
        step *= 2;
    }
}
