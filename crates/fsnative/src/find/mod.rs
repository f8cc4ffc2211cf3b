//! Fuzzy path search: the files below a directory, ranked by how well their paths match a
//! typo-tolerant query, on the walking and roots layers (and the index when it can answer).
//!
//! The files are those a glob of `**` finds (the walk's default options: ignore files
//! honoured, hidden entries left out, links not followed but kept when they lead to a file
//! inside), less those the constraints leave out. They come from the warm index when it is
//! ready, else from a walk. Each relative path is matched and scored by [`score`]; the best
//! `limit` are returned.
//!
//! Its modules: `score` (the query, the matcher and the score's parts), `subsequence` (the
//! prefilter along the walk), `bound` (the scores' upper bounds before alignment) and
//! `alignment` (the typo count of the entries returned: frizbee's count, computed by scalar
//! code of our own).

mod alignment;
mod bound;
mod score;
mod signals;
mod subsequence;

use std::borrow::Cow;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use crate::control::{default_threads, CancelToken, Control};
use crate::error::{Error, ErrorCode, Result};
use crate::glob::entry_is_dir;
use crate::index::{char_set, Index, Kind, View};
use crate::request::FindRequest;
use crate::result::{FindEntry, FindResult, FindStats, Truncation};
use crate::roots::{RootDirs, Roots};
use crate::walk::{self, forms, Constraints, SkipCounters, Target, WalkOptions, Walked, WalkedKind, Walker};

use crate::sys::os_str;
use score::{Query, Ranked, Texts};
pub(crate) use signals::Signals;
pub use signals::FRECENCY_POINTS;
use subsequence::{PrefixStates, Subsequences};

/// What a find keeps of a file the query is matched against, beside its text.
#[derive(Clone, Copy)]
struct Candidate {
    /// The search target it lies below.
    target: u32,
    /// How many bytes of its text its file name takes (after its last `/`), when the walk knew
    /// it; `u16::MAX`: not known (or too long to say), found from the text when needed.
    name_len: u16,
    /// A link that was not followed: kept only if it leads to a file inside.
    symlink: bool,
}

/// The files a query is matched against, in walk order: their texts (the paths relative to
/// the directory searched, as the matcher reads them) in one column, which a ranking reads as
/// it is when every text is borrowed from the index, and the rest in another.
struct Candidates<'v> {
    /// The texts borrowed from the index; "" where the text is in `owned`.
    texts: Vec<&'v str>,
    /// The texts that are not borrowed (walked, decoded lossily when not UTF-8, or in another
    /// normalization form), by position (ascending).
    owned: Vec<(usize, String)>,
    list: Vec<Candidate>,
    /// The bytes of the paths that are not UTF-8, or whose text the matcher reads in another
    /// normalization form, by position (ascending).
    raw: Vec<(usize, Box<[u8]>)>,
    /// Texts are matched in NFC (see [`forms`]).
    unified: bool,
}

impl<'v> Candidates<'v> {
    fn new(unified: bool) -> Candidates<'v> {
        Candidates { texts: Vec::new(), owned: Vec::new(), list: Vec::new(), raw: Vec::new(), unified }
    }

    /// Adds a path known to be UTF-8, whose file name starts at `name_start` if known.
    fn push_text(&mut self, text: &'v str, target: usize, symlink: bool, name_start: Option<usize>) {
        // A name start in the path's own bytes holds for the text only if it is those bytes.
        let name_len = match self.matched_form(Cow::Borrowed(text)) {
            Cow::Borrowed(_) => {
                self.texts.push(text);
                name_start.map_or(u16::MAX, |start| u16::try_from(text.len() - start).unwrap_or(u16::MAX))
            }
            Cow::Owned(normalized) => {
                self.owned.push((self.list.len(), normalized));
                self.texts.push("");
                u16::MAX
            }
        };
        let target = u32::try_from(target).expect("fewer than 2^32 search targets");
        self.list.push(Candidate { target, name_len, symlink });
    }

    /// `text` as the matcher reads it: in NFC where forms are unified, the path's own bytes
    /// then kept in `raw` (unless they are already, not being UTF-8).
    fn matched_form(&mut self, text: Cow<'v, str>) -> Cow<'v, str> {
        if !self.unified || text.is_ascii() {
            return text;
        }
        let Cow::Owned(normalized) = forms::nfc(&text) else {
            return text;
        };
        let at = self.list.len();
        if self.raw.last().is_none_or(|(last, _)| *last != at) {
            self.raw.push((at, text.as_bytes().into()));
        }
        Cow::Owned(normalized)
    }

    /// Adds a path, checking whether it is UTF-8.
    fn push(&mut self, relative: Cow<'v, [u8]>, target: usize, symlink: bool) {
        let text = match relative {
            Cow::Borrowed(bytes) => match std::str::from_utf8(bytes) {
                Ok(text) => Cow::Borrowed(text),
                Err(_) => {
                    self.raw.push((self.list.len(), bytes.into()));
                    String::from_utf8_lossy(bytes)
                }
            },
            Cow::Owned(bytes) => match String::from_utf8(bytes) {
                Ok(text) => Cow::Owned(text),
                Err(e) => {
                    let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                    self.raw.push((self.list.len(), e.into_bytes().into()));
                    Cow::Owned(text)
                }
            },
        };
        match self.matched_form(text) {
            Cow::Borrowed(text) => self.texts.push(text),
            Cow::Owned(text) => {
                self.owned.push((self.list.len(), text));
                self.texts.push("");
            }
        }
        let target = u32::try_from(target).expect("fewer than 2^32 search targets");
        self.list.push(Candidate { target, name_len: u16::MAX, symlink });
    }

    /// Moves `other`'s candidates to the end of these.
    fn append(&mut self, other: &mut Candidates<'v>) {
        let offset = self.list.len();
        self.raw.extend(other.raw.drain(..).map(|(at, bytes)| (at + offset, bytes)));
        self.owned.extend(other.owned.drain(..).map(|(at, text)| (at + offset, text)));
        self.texts.append(&mut other.texts);
        self.list.append(&mut other.list);
    }

    /// Makes room for `more` candidates.
    fn reserve(&mut self, more: usize) {
        self.texts.reserve(more);
        self.list.reserve(more);
    }

    /// The text of candidate `at`.
    fn text(&self, at: usize) -> &str {
        match self.owned.binary_search_by_key(&at, |&(position, _)| position) {
            Ok(found) => &self.owned[found].1,
            Err(_) => self.texts[at],
        }
    }

    /// Every candidate's text, by position: the borrowed column itself when it holds them all.
    fn all_texts(&self) -> Cow<'_, [&str]> {
        if self.owned.is_empty() {
            return Cow::Borrowed(&self.texts);
        }
        let mut texts = self.texts.clone();
        for (at, text) in &self.owned {
            texts[*at] = text;
        }
        Cow::Owned(texts)
    }

    /// The path of candidate `at` relative to the directory searched.
    fn relative(&self, at: usize) -> &Path {
        let bytes = match self.raw.binary_search_by_key(&at, |&(position, _)| position) {
            Ok(found) => &self.raw[found].1,
            Err(_) => self.text(at).as_bytes(),
        };
        Path::new(os_str(bytes))
    }
}

/// Runs `request` inside `roots`, from `index` when it can answer.
pub(crate) fn run(
    roots: &Roots,
    index: Option<&Index>,
    signals: &Signals<'_>,
    request: &FindRequest,
    cancel: &CancelToken,
) -> Result<FindResult> {
    run_forms(roots, index, signals, request, cancel, forms::UNIFIED)
}

/// [`run`], matching in NFC when `unified`.
fn run_forms(
    roots: &Roots,
    index: Option<&Index>,
    signals: &Signals<'_>,
    request: &FindRequest,
    cancel: &CancelToken,
    unified: bool,
) -> Result<FindResult> {
    let started = Instant::now();
    let control = Control::new(cancel, request.timeout_ms);
    let query = if unified { forms::nfc(&request.query) } else { Cow::Borrowed(request.query.as_str()) };
    let query = Query::parse(&query)?;
    let constraints = Constraints::parse(request.constraints.as_deref())?;
    // No path: every root, each file relative to its root.
    let targets = walk::targets(roots, request.path.as_slice())?;
    if let Some(file) = targets.iter().find(|t| !t.is_dir) {
        return Err(Error::new(
            ErrorCode::NotADirectory,
            format!("find base {} is not a directory", file.path.display()),
        )
        .with_path(&file.path));
    }
    // What the index's listings left out is not reported by a find (its walk counts none).
    let view = index.and_then(Index::view);
    let view = view.filter(|view| targets.iter().all(|t| view.lists(t.root, &t.below_root(roots))));
    let shared = constraints.clone().map(Arc::new);
    let mut candidates = Candidates::new(unified);
    let mut considered = 0;
    for (number, target) in targets.iter().enumerate() {
        considered += match &view {
            Some(view) => {
                from_index(view, roots, target, number, constraints.as_ref(), &query, &mut candidates)
            }
            None => from_walk(roots, target, number, shared.clone(), &control, &query, &mut candidates)?,
        };
    }
    let truncated = control.interruption();
    let mut result = rank(roots, &targets, &candidates, &query, signals, request.limit)?;
    result.stats.candidates = considered as u64;
    result.truncated = truncated.or(result.truncated);
    result.stats.indexed = view.is_some();
    result.stats.elapsed_ms = started.elapsed().as_secs_f64() * 1000.0;
    Ok(result)
}

/// Entries below a target from which a find's index walk is split between threads.
const PARALLEL_ENTRIES: usize = 32_768;

/// Adds the files below `target` (search target `number`) in the index that `query` may
/// match to `candidates`, in walk order; returns how many files there are. A large target's
/// entries are split in runs, one per thread.
fn from_index<'v>(
    view: &'v View<'_>,
    roots: &Roots,
    target: &Target,
    number: usize,
    constraints: Option<&Constraints>,
    query: &Query,
    candidates: &mut Candidates<'v>,
) -> usize {
    let dir = &*target.below_root(roots);
    let subsequences = query.subsequences();
    let entries = view.count_below(target.root, dir);
    let shares = if entries >= PARALLEL_ENTRIES { default_threads() } else { 1 };
    let share = |share: usize| {
        let mut found = Candidates::new(candidates.unified);
        // Room for every entry of the run, so that a list never grows by copying; the first
        // run's for every entry, so that the others are appended to it in place. What no
        // candidate fills is never touched, so never given memory.
        found.reserve(if share == 0 { entries } else { entries.div_ceil(shares) });
        let count = index_share(
            view,
            target,
            dir,
            (share, shares),
            number,
            constraints,
            query,
            &subsequences,
            &mut found,
        );
        (found, count)
    };
    let mut count = 0;
    let found: Vec<(Candidates<'v>, usize)> = if shares == 1 {
        vec![share(0)]
    } else {
        std::thread::scope(|scope| {
            let share = &share;
            let others: Vec<_> = (1..shares).map(|n| scope.spawn(move || share(n))).collect();
            let mut found = vec![share(0)];
            found.extend(others.into_iter().map(|other| other.join().expect("a find thread panicked")));
            found
        })
    };
    for (mut part, files) in found {
        count += files;
        if candidates.list.is_empty() && part.list.capacity() >= candidates.list.capacity() {
            std::mem::swap(candidates, &mut part);
        } else {
            candidates.append(&mut part);
        }
    }
    count
}

/// One run of [`from_index`]: the `share.0`-th of `share.1` runs of the entries below `dir`.
#[allow(clippy::too_many_arguments)]
fn index_share<'v>(
    view: &'v View<'_>,
    target: &Target,
    dir: &[u8],
    share: (usize, usize),
    number: usize,
    constraints: Option<&Constraints>,
    query: &Query,
    subsequences: &Subsequences,
    candidates: &mut Candidates<'v>,
) -> usize {
    let base = if dir.is_empty() { 0 } else { dir.len() + 1 };
    let mut prefixes = PrefixStates::new(subsequences);
    let mut count = 0;
    for (entry, depth) in view.walk_share(target.root, dir, share.0, share.1) {
        let relative = &entry.path[base..];
        match entry.kind {
            Kind::Dir => {
                prefixes.enter(relative, depth, true);
                continue;
            }
            Kind::File | Kind::Symlink if constraints.is_none_or(|c| c.matches(relative)) => {}
            _ => continue,
        }
        count += 1;
        // The characters of the path below the root: those below the target and maybe more,
        // so a path is never skipped that could match. Then the subsequence, from its
        // directory's.
        if query.may_match(entry.chars) && prefixes.enter(relative, depth, false) {
            let symlink = entry.kind == Kind::Symlink;
            if entry.utf8 {
                // SAFETY: the index found the whole path UTF-8 when it listed it, and `base` is
                // 0 or just past a `/`, so at the start of a character.
                let text = unsafe { std::str::from_utf8_unchecked(relative) };
                candidates.push_text(text, number, symlink, prefixes.name_start(relative, depth));
            } else {
                candidates.push(Cow::Borrowed(relative), number, symlink);
            }
        }
    }
    count
}

/// Adds the files below `target` (search target `number`), walked in path order, that
/// `query` may match to `candidates`; returns how many files there are.
fn from_walk(
    roots: &Roots,
    target: &Target,
    number: usize,
    constraints: Option<Arc<Constraints>>,
    control: &Control,
    query: &Query,
    candidates: &mut Candidates<'_>,
) -> Result<usize> {
    let dirs = RootDirs::open(roots)?;
    let options = WalkOptions { constraints, ..WalkOptions::default() };
    let skipped = SkipCounters::default();
    let base = target.path.as_os_str().as_encoded_bytes();
    let base = base.len() + usize::from(!crate::sys::ends_with_separator(base));
    let mut count = 0;
    let subsequences = query.subsequences();
    let prepare = |walked: Walked| {
        (walked.kind != WalkedKind::Dir).then(|| {
            let relative = &*crate::sys::slashed(&walked.path.as_os_str().as_encoded_bytes()[base..]);
            let symlink = walked.kind == WalkedKind::Symlink;
            (query.may_match(char_set(relative)) && subsequences.path_passes(relative))
                .then(|| (relative.to_vec(), symlink))
        })
    };
    Walker::new(&dirs, &options, &skipped, control).run_all(target, default_threads(), prepare, |file| {
        count += 1;
        if let Some((relative, symlink)) = file {
            candidates.push(Cow::Owned(relative), number, symlink);
        }
        true
    });
    Ok(count)
}

/// Scores the candidates and keeps the best `limit`. With ranking signals, four times as
/// many are kept by their match alone, then ranked again with the signals added.
fn rank(
    roots: &Roots,
    targets: &[Target],
    candidates: &Candidates<'_>,
    query: &Query,
    signals: &Signals<'_>,
    limit: Option<u64>,
) -> Result<FindResult> {
    let absolute = |at: usize| {
        targets[candidates.list[at].target as usize]
            .path
            .join(crate::sys::native_path(candidates.relative(at).as_os_str().as_encoded_bytes()))
    };
    // Links count only when they lead to a file inside the sandbox, as in a glob.
    let skipped = SkipCounters::default();
    let keep = |at: usize| {
        !candidates.list[at].symlink || {
            let link = Walked { path: absolute(at), kind: WalkedKind::Symlink, at: None, dataless: false };
            entry_is_dir(roots, &link, &skipped) == Some(false)
        }
    };
    let limit = limit.map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX));
    let fetched = if signals.is_empty() { limit } else { limit.saturating_mul(signals::OVER_FETCH) };
    let texts = Texts::new(candidates.all_texts(), |at| {
        let name_len = candidates.list[at].name_len;
        (name_len != u16::MAX).then(|| candidates.texts[at].len() - usize::from(name_len))
    });
    let ranked = query.rank(&texts, keep, fetched, default_threads());
    let mut entries = ranked
        .best
        .into_iter()
        .map(|Ranked { at, fuzzy, filename_bonus, exact_bonus }| FindEntry {
            path: absolute(at),
            relative_path: crate::result::slashed_relative(candidates.relative(at).to_path_buf()),
            score: fuzzy + filename_bonus + exact_bonus,
            fuzzy,
            filename_bonus,
            exact_bonus,
            path_boost: 0,
            frecency: 0,
            // Counted below, for the entries kept.
            typos: 0,
        })
        .collect::<Vec<_>>();
    signals.add_to(roots, &mut entries)?;
    entries.truncate(limit);
    for entry in &mut entries {
        entry.typos = query.typos(&entry.relative_path.to_string_lossy());
    }
    let total = ranked.total as u64;
    let truncated = (total > entries.len() as u64).then_some(Truncation::Limit);
    Ok(FindResult { entries, total, truncated, stats: FindStats::default() })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where names compare regardless of normalization (macOS), a query in either form finds a
    /// name stored in the other, and the path comes back as it is stored.
    #[test]
    fn where_forms_are_unified_either_spelling_finds_the_other() {
        let dir = tempfile::tempdir().unwrap();
        let stored = "cafe\u{301}/re\u{301}sume\u{301}.txt";
        std::fs::create_dir(dir.path().join("cafe\u{301}")).unwrap();
        std::fs::write(dir.path().join(stored), "x").unwrap();
        let roots = Roots::new([dir.path()]).unwrap();
        let signals = Signals { frecency: None, boost: None };
        let find = |query: &str| {
            let request = FindRequest::new(query);
            let result = run_forms(&roots, None, &signals, &request, &CancelToken::new(), true).unwrap();
            result.entries.iter().map(|entry| entry.relative_path.clone()).collect::<Vec<_>>()
        };
        for query in ["r\u{e9}sum\u{e9}", "re\u{301}sume\u{301}"] {
            assert_eq!(find(query), [std::path::PathBuf::from(stored)], "{query:?}");
        }
    }
}
