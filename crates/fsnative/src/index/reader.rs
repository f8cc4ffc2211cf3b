//! The index's thread: lists the roots, then reads new and changed files into the content
//! prefilter and applies the watcher's events between searches (so the kernel's queue does
//! not overflow while nobody searches).

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};

use encoding_rs_io::DecodeReaderBytesBuilder;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use super::content::{Signature, Signatures, Sketch};
use super::stamp::Stamp;
use super::tree::{Content, Kind, Tree};
use super::update::Lister;
use super::watch::Watcher;
use super::{index_walk_options, IndexState, Shared, State};
use crate::control::Control;
use crate::memory::release_free_memory;
use crate::roots::RootDirs;
use crate::sys::{self, AsHandle};

/// What a search that finds nothing reads of a binary file, `(file, size)` → (bytes read,
/// offset of the NUL it stopped at), for ripgrep's default binary handling, line by line.
/// The grep layer provides it, so the count of bytes searched is the same with an index.
pub type NoMatch = fn(&File, u64) -> io::Result<(u64, Option<u64>)>;

/// Files read per turn of the lock when few wait (changes heard of).
const BATCH: usize = 128;
/// Files read per turn of the lock while many wait (a first build, a rescan), on every core.
/// Searches meanwhile read the files not yet read themselves and hold the lock while they run,
/// so each turn can wait for one; with few turns the build does not crawl behind them.
const BUILD_BATCH: usize = 2048;
/// Files waiting from which batches are read on every core, [`BUILD_BATCH`] at a time (all of
/// them when fewer than [`BUILD_BATCH`] and this wait).
pub(super) const PARALLEL_FROM: usize = 4 * BATCH;
/// The most threads that read one batch, the index's own included.
const MAX_READERS: usize = 8;
/// Files larger than this are not read into the prefilter (they are always searched).
const MAX_READ: u64 = 64 << 20;
/// How long the thread sleeps when idle before it looks at the close flag again.
const IDLE: Duration = Duration::from_millis(50);
/// Once written, the store is written again (besides when the index closes) when this share
/// of the entries changed...
const RESAVE_SHARE: u64 = 10;
/// ...or at least this many...
const RESAVE_MIN: u64 = 1000;
/// ...and no sooner than this after the last write.
const RESAVE_INTERVAL: Duration = Duration::from_secs(60);

/// The thread's body.
pub(super) fn run(shared: &Shared) {
    if !build(shared) {
        return;
    }
    let mut scratches = vec![Scratch::default()];
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_READERS);
    // Whether what the last burst of reading (or the build) freed has been given back.
    let mut released = false;
    while !shared.closed.load(Ordering::Relaxed) {
        let read_some = shared.options.content && read_batch(shared, &mut scratches, cores);
        if read_some {
            released = false;
        } else {
            save_if_due(shared);
            if !released {
                scratches.truncate(1);
                release_free_memory();
                released = true;
            }
            wait_for_events(shared);
        }
        if let Ok(mut state) = shared.state.write() {
            if state.state == IndexState::Ready {
                shared.catch_up(&mut state);
            }
        }
    }
}

/// Lists every root (watching each directory before it is listed, so nothing changed
/// meanwhile is missed), or loads the store and checks it, and makes the index ready. False
/// when it failed or was closed.
fn build(shared: &Shared) -> bool {
    let outcome = (|| {
        let mut watcher = Watcher::new().map_err(|e| format!("cannot watch for changes: {e}"))?;
        let dirs = RootDirs::open(&shared.roots).map_err(|e| e.message().to_owned())?;
        let options = index_walk_options();
        let control = Control::unlimited();
        let mut lister = Lister {
            dirs: &dirs,
            options: &options,
            control: &control,
            watcher: &mut watcher,
            max_entries: shared.options.max_files,
        };
        let loaded = match &shared.store {
            Some(store) => store.load(shared, &mut lister)?,
            None => None,
        };
        let fresh = loaded.is_none();
        let (trees, signatures) = match loaded {
            Some(loaded) => loaded,
            None => {
                let mut trees = Vec::new();
                for root in 0..shared.roots.paths().len() {
                    trees.push(lister.root(root).ok_or_else(|| shared.over_cap())?);
                }
                (trees, Signatures::default())
            }
        };
        Ok((watcher, trees, signatures, fresh))
    })();
    let Ok(mut state) = shared.state.write() else {
        return false;
    };
    if shared.closed.load(Ordering::Relaxed) {
        return false;
    }
    match outcome {
        Ok((watcher, trees, signatures, fresh)) => {
            if shared.options.content {
                for (root, tree) in trees.iter().enumerate() {
                    let unknown = |id: &&u32| {
                        let entry = tree.entry(**id);
                        entry.kind == Kind::File && entry.content() == Content::Unknown
                    };
                    state.unread.extend(tree.order().iter().filter(unknown).map(|&id| (root, id)));
                }
                // Read in walk order: the first pages of a search come from the top.
                state.unread.reverse();
            }
            state.bytes = trees.iter().map(text_bytes).sum();
            let changes = shared.store.as_ref().map_or(0, |store| store.report().changes);
            // A store loaded without a change stands as written; anything else is written
            // once the reading is done.
            if fresh || changes > 0 {
                state.unsaved = state.unsaved.max(1);
            } else {
                state.last_save = Some(Instant::now());
            }
            state.trees = trees;
            state.signatures = signatures;
            state.watcher = Some(watcher);
            state.state = IndexState::Ready;
            state.list_ms = Some(shared.started.elapsed().as_secs_f64() * 1000.0);
            shared.notify();
            true
        }
        Err(error) => {
            shared.fail(&mut state, error);
            false
        }
    }
}

/// Bytes of the files of `tree` read into the prefilter as text.
fn text_bytes(tree: &Tree) -> u64 {
    let size = |id: &u32| match tree.entry(*id).content() {
        Content::Text { size, .. } => size,
        _ => 0,
    };
    tree.order().iter().map(size).sum()
}

/// Writes the store when it is due: with `persist`, once nothing waits to be read, after the
/// first build (or a load that found changes), and after large changes.
fn save_if_due(shared: &Shared) {
    let Some(store) = &shared.store else { return };
    let due = match shared.state.read() {
        Ok(state) => {
            let entries: u64 = state.trees.iter().map(|tree| tree.len() as u64).sum();
            let large = (entries / RESAVE_SHARE).max(RESAVE_MIN);
            let idle = state.unread.is_empty() && state.reading == 0;
            let again = |last: Instant| state.unsaved >= large && last.elapsed() >= RESAVE_INTERVAL;
            state.state == IndexState::Ready && idle && state.unsaved > 0 && state.last_save.is_none_or(again)
        }
        Err(_) => false,
    };
    if due {
        store.save(shared);
    }
}

/// Sleeps until the watcher has events, the index is closed, or [`IDLE`] passes.
fn wait_for_events(shared: &Shared) {
    let events = {
        let Ok(state) = shared.state.read() else {
            return std::thread::sleep(IDLE);
        };
        match state.watcher.as_ref().map(|w| w.handle().try_clone_to_owned()) {
            Some(Ok(handle)) => handle,
            _ => return std::thread::sleep(IDLE),
        }
    };
    let _ = match &shared.wake {
        Some(wake) => sys::wait([events.handle(), wake.handle()], Some(IDLE)).map(|_| ()),
        None => sys::wait([events.handle()], Some(IDLE)).map(|_| ()),
    };
}

/// A file to read: where it is and which generation of it.
struct Unread {
    root: usize,
    id: u32,
    generation: u32,
    path: Box<[u8]>,
}

/// What reading a file gave, with its signature.
enum Outcome {
    Text { size: u64, signature: Signature },
    Measured { bytes: u64, binary_offset: Option<u64>, signature: Signature },
    Opaque,
}

/// What reading a file gave, and its stamp taken before it was read.
struct Scanned {
    outcome: Outcome,
    stamp: Stamp,
}

/// The reading thread's buffers, reused from file to file.
struct Scratch {
    sketch: Sketch,
    buffer: Vec<u8>,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch { sketch: Sketch::default(), buffer: vec![0; 256 * 1024] }
    }
}

/// Reads one batch of waiting files, a large one on up to `cores` threads when many wait (the
/// buffers of each in `scratches`, kept while they are used); false when none was waiting.
fn read_batch(shared: &Shared, scratches: &mut Vec<Scratch>, cores: usize) -> bool {
    let batch: Vec<Unread> = {
        let Ok(mut state) = shared.state.write() else {
            return false;
        };
        if state.state != IndexState::Ready {
            return false;
        }
        let waiting = state.unread.len();
        let (threads, size) = if waiting < PARALLEL_FROM {
            (1, BATCH)
        } else if waiting < BUILD_BATCH + PARALLEL_FROM {
            // What would be left after a full batch is too short to be read on every core
            // (the stdlib copy's last 402 files took 25 ms on one thread): it joins this one.
            (cores, waiting)
        } else {
            (cores, BUILD_BATCH)
        };
        scratches.resize_with(threads, Scratch::default);
        let mut batch = Vec::with_capacity(size);
        while batch.len() < size {
            let Some((root, id)) = state.unread.pop() else {
                break;
            };
            let entry = state.trees[root].entry(id);
            if entry.kind == Kind::File
                && entry.content() == Content::Unknown
                && watched_parent(&state, root, &entry.path)
            {
                batch.push(Unread { root, id, generation: entry.generation, path: entry.path.clone() });
            }
        }
        if batch.is_empty() {
            finish_reading(shared, &mut state);
            return false;
        }
        state.reading += batch.len();
        batch
    };
    let scanned = read_files(shared, &batch, scratches);
    let Ok(mut state) = shared.state.write() else {
        return false;
    };
    // Zeroed meanwhile if the index failed or closed.
    state.reading = state.reading.saturating_sub(batch.len());
    state.unsaved += batch.len() as u64;
    for (file, scanned) in batch.into_iter().zip(scanned) {
        let Scanned { outcome, stamp } =
            scanned.unwrap_or(Scanned { outcome: Outcome::Opaque, stamp: Stamp::UNKNOWN });
        let State { trees, signatures, bytes, .. } = &mut *state;
        let Some(tree) = trees.get_mut(file.root) else {
            break;
        };
        let entry = tree.entry(file.id);
        if entry.kind != Kind::File
            || entry.generation != file.generation
            || entry.content() != Content::Unknown
        {
            continue;
        }
        let over_budget = signatures.memory() >= shared.options.max_memory;
        let content = match outcome {
            Outcome::Text { size, signature } if !over_budget => {
                *bytes += size;
                Content::Text { size, slot: signatures.insert(&signature) }
            }
            Outcome::Measured { bytes: read, binary_offset, signature } if !over_budget => {
                Content::Measured { slot: signatures.insert(&signature), bytes: read, binary_offset }
            }
            _ => Content::Opaque,
        };
        tree.set_content(file.id, content);
        tree.entry_mut(file.id).stamp = stamp;
    }
    finish_reading(shared, &mut state);
    shared.notify();
    true
}

/// Reads `batch` on the calling thread and one helper per further scratch buffer, each taking
/// the next file as it is free; a file that could not be read (or whose helper failed) is `None`,
/// and is then searched whenever asked, as an unreadable one is.
fn read_files(shared: &Shared, batch: &[Unread], scratches: &mut [Scratch]) -> Vec<Option<Scanned>> {
    let dirs = RootDirs::open(&shared.roots);
    let next = AtomicUsize::new(0);
    let work = |scratch: &mut Scratch| {
        let mut done = Vec::new();
        loop {
            let at = next.fetch_add(1, Ordering::Relaxed);
            let Some(file) = batch.get(at) else {
                return done;
            };
            let dirs = dirs.as_ref().ok();
            done.push((at, dirs.and_then(|dirs| read_file(dirs, file, shared.no_match, scratch).ok())));
        }
    };
    let work = &work;
    let mut scanned: Vec<Option<Scanned>> = batch.iter().map(|_| None).collect();
    let Some((own, helpers)) = scratches.split_first_mut() else {
        return scanned;
    };
    std::thread::scope(|scope| {
        let spawned: Vec<_> = helpers
            .iter_mut()
            .filter_map(|scratch| {
                let helper = move || {
                    // Searches, on threads of normal priority, take the cores first, so they
                    // keep their latency during a build.
                    sys::lower_thread_priority();
                    work(scratch)
                };
                std::thread::Builder::new().name("fsnative-read".to_owned()).spawn_scoped(scope, helper).ok()
            })
            .collect();
        let mut place = |done: Vec<(usize, Option<Scanned>)>| {
            for (at, read) in done {
                scanned[at] = read;
            }
        };
        place(work(own));
        for helper in spawned {
            // A helper that panicked leaves its files unread.
            if let Ok(done) = helper.join() {
                place(done);
            }
        }
    });
    scanned
}

/// Notes when the first reading of every file ended: nothing waits and no reader holds any.
fn finish_reading(shared: &Shared, state: &mut State) {
    if state.unread.is_empty() && state.reading == 0 && state.content_ms.is_none() {
        state.content_ms = Some(shared.started.elapsed().as_secs_f64() * 1000.0);
        shared.notify();
    }
}

/// The file's directory is watched, so a change to the file will be heard of.
fn watched_parent(state: &State, root: usize, path: &[u8]) -> bool {
    let parent = super::update::parent(path);
    state.watcher.as_ref().is_some_and(|w| !w.unwatched.contains(&(root, parent.into())))
}

/// Reads a file whole into a sketch of its grams. A binary file's sketch holds only what
/// a search reads of it before giving up at its NUL byte: nothing after can be reported. A
/// file that starts with a byte-order mark is measured the same way, its sketch taken from
/// the text the searcher decodes.
fn read_file(
    dirs: &RootDirs<'_>,
    file: &Unread,
    no_match: super::NoMatch,
    scratch: &mut Scratch,
) -> io::Result<Scanned> {
    let relative = Path::new(crate::sys::os_str(&file.path));
    let Some((mut handle, size)) = dirs.open_file(file.root, relative, false)? else {
        return Ok(Scanned { outcome: Outcome::Opaque, stamp: Stamp::UNKNOWN });
    };
    let stamp = Stamp::of_handle(handle.handle());
    let outcome = read_content(&mut handle, size, no_match, scratch)?;
    Ok(Scanned { outcome, stamp })
}

/// Reads the open file `handle` of `size` bytes into a sketch (see [`read_file`]).
fn read_content(
    handle: &mut File,
    size: u64,
    no_match: super::NoMatch,
    scratch: &mut Scratch,
) -> io::Result<Outcome> {
    if size > MAX_READ {
        return Ok(Outcome::Opaque);
    }
    let Scratch { sketch, buffer } = scratch;
    sketch.clear();
    let mut has_nul = false;
    let mut bom = false;
    let mut first = true;
    let total = read_pieces(handle, buffer, MAX_READ + 1, |piece| {
        if std::mem::take(&mut first) {
            bom = crate::grep::starts_with_bom(piece);
        }
        has_nul = has_nul || memchr::memchr(0, piece).is_some();
        // A file with a NUL or a byte-order mark is sketched below, from what a search reads
        // of it, so reading it here stops: the stdlib copy's 169 binary files hold 65 of its
        // 102 MB.
        if has_nul || bom {
            return false;
        }
        sketch.add(piece);
        true
    })?;
    if !has_nul && !bom {
        return Ok(match total.filter(|&total| total <= MAX_READ) {
            Some(total) => Outcome::Text { size: total, signature: sketch.signature() },
            None => Outcome::Opaque,
        });
    }
    handle.seek(SeekFrom::Start(0))?;
    let (bytes, binary_offset) = no_match(handle, size)?;
    handle.seek(SeekFrom::Start(0))?;
    sketch.clear();
    let mut left = bytes;
    // What the searcher reads: the text after a byte-order mark, UTF-16 decoded to UTF-8.
    let mut decoded = DecodeReaderBytesBuilder::new().bom_sniffing(true).build(&*handle);
    read_pieces(&mut decoded, buffer, bytes, |piece| {
        let take = piece.len().min(left as usize);
        sketch.add(&piece[..take]);
        left -= take as u64;
        true
    })?;
    Ok(Outcome::Measured { bytes, binary_offset, signature: sketch.signature() })
}

/// Reads `file` from where it stands in pieces (into `buffer`), handing each to `piece` until it returns
/// false (then `None`), the end, or `limit` bytes; returns the bytes read.
fn read_pieces(
    file: &mut impl Read,
    buffer: &mut [u8],
    limit: u64,
    mut piece: impl FnMut(&[u8]) -> bool,
) -> io::Result<Option<u64>> {
    let mut total = 0u64;
    while total < limit {
        let read = match file.read(buffer) {
            Ok(0) => break,
            Ok(read) => read,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(err),
        };
        if !piece(&buffer[..read]) {
            return Ok(None);
        }
        total += read as u64;
    }
    Ok(Some(total))
}
