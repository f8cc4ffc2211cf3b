//! frizbee's prefilter verdict: whether a needle is in a haystack with at most `typos` of its
//! characters missing, the way frizbee 0.13 looks for it, and where its window starts.
//!
//! With no typo allowed it is an ordered search (exact). With 3 or more, one scan follows
//! `typos + 1` paths (path k may have skipped k characters; a path is never behind the one
//! before it plus one character), all advancing at each byte that holds their next character.
//! With 1 or 2, each path keeps its own position and the paths advance in turns, in blocks of
//! `lanes` bytes, a path catching up with the one before it at the start of each turn: this
//! rejects some haystacks a common subsequence would let through, and depends on the block
//! width, which is reproduced.

/// The byte where the window starts (the first byte holding one of the needle's first
/// `typos + 1` characters) when a needle of `n` characters with `typos` allowed (`n > typos`)
/// passes on a haystack of `len` bytes, where `occurs(i, at)` says whether character `i` of
/// the needle starts at byte `at`.
pub(super) fn first_byte(
    n: usize,
    typos: usize,
    len: usize,
    lanes: usize,
    occurs: impl Fn(usize, usize) -> bool,
) -> Option<usize> {
    match typos {
        0 => ordered(n, len, occurs),
        1 | 2 => in_turns(n, typos, len, lanes, occurs),
        _ => in_one_scan(n, typos, len, occurs),
    }
}

fn ordered(n: usize, len: usize, occurs: impl Fn(usize, usize) -> bool) -> Option<usize> {
    let mut next = 0;
    let mut first = None;
    for at in 0..len {
        if occurs(next, at) {
            first.get_or_insert(at);
            next += 1;
            if next == n {
                return first;
            }
        }
    }
    None
}

/// Moves each path to at least one character past the path before it; true when that
/// passes the needle's end (the last path may skip the last character).
fn catch_up(next: &mut [usize], n: usize) -> bool {
    for k in 1..next.len() {
        let skipped = next[k - 1] + 1;
        if skipped > next[k] {
            if skipped == n {
                return true;
            }
            next[k] = skipped;
        }
    }
    false
}

fn in_one_scan(n: usize, typos: usize, len: usize, occurs: impl Fn(usize, usize) -> bool) -> Option<usize> {
    let mut next = vec![0; typos + 1];
    let mut first = None;
    for at in 0..len {
        if catch_up(&mut next, n) {
            return first;
        }
        for path in next.iter_mut() {
            if occurs(*path, at) {
                first.get_or_insert(at);
                *path += 1;
                if *path == n {
                    return first;
                }
            }
        }
    }
    if catch_up(&mut next, n) {
        return first;
    }
    None
}

/// One path of [`in_turns`]: the next needle character, the bytes of the block it may still
/// use (a bit per byte, the lowest first) and where that character is in the block.
#[derive(Clone, Copy)]
struct Path {
    next: usize,
    free: u64,
    found: u64,
}

fn in_turns(
    n: usize,
    typos: usize,
    len: usize,
    lanes: usize,
    occurs: impl Fn(usize, usize) -> bool,
) -> Option<usize> {
    let mut paths = [Path { next: 0, free: 0, found: 0 }; 3];
    let paths = &mut paths[..=typos];
    for (k, path) in paths.iter_mut().enumerate() {
        path.next = k;
    }
    let all = if lanes == 64 { u64::MAX } else { (1 << lanes) - 1 };
    let mut first = usize::MAX;
    for block in (0..len).step_by(lanes) {
        let found = |i: usize| {
            (0..lanes)
                .filter(|&lane| block + lane < len && occurs(i, block + lane))
                .fold(0, |m, lane| m | 1 << lane)
        };
        for path in paths.iter_mut() {
            (path.free, path.found) = (all, found(path.next));
        }
        loop {
            for k in 1..paths.len() {
                let (before, path) = (paths[k - 1], &mut paths[k]);
                if before.next + 1 > path.next {
                    if before.next + 1 == n {
                        return Some(first);
                    }
                    (path.next, path.free, path.found) =
                        (before.next + 1, before.free, found(before.next + 1));
                } else if before.next + 1 == path.next && before.free > path.free {
                    path.free = before.free;
                }
            }
            let mut advanced = false;
            for (k, path) in paths.iter_mut().enumerate() {
                let hits = path.found & path.free;
                if hits == 0 {
                    continue;
                }
                first = first.min(block + hits.trailing_zeros() as usize);
                path.next += 1;
                if k > 0 && path.next >= n {
                    return Some(first);
                }
                path.free &= !(hits ^ (hits - 1));
                path.found = found(path.next);
                advanced = true;
            }
            if !advanced {
                break;
            }
        }
    }
    None
}
