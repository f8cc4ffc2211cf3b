//! Searching one file and collecting what it contributes.

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::mem::ManuallyDrop;
use std::sync::Arc;

use grep_matcher::Matcher;
use grep_regex::RegexMatcher;
use grep_searcher::{
    sinks, BinaryDetection, Searcher, SearcherBuilder, Sink, SinkContext, SinkContextKind, SinkFinish,
    SinkMatch,
};

use crate::control::Control;
use crate::request::{GrepRequest, OutputMode};
use crate::result::{ContextLine, Match, RawText, Truncation};

/// How one file is searched: the parts of a request that shape a single file's search.
#[derive(Clone, Debug)]
pub(crate) struct FileSearchConfig {
    pub mode: OutputMode,
    pub max_columns: Option<usize>,
    /// The section-end matcher (`section_end_patterns`), if any.
    pub sections: Option<Arc<RegexMatcher>>,
    /// Content mode: stop collecting a file after this many records (the page limit plus
    /// one, so the caller can tell whether more exist).
    pub record_cap: Option<u64>,
}

/// What one file contributed.
#[derive(Debug, Default)]
pub(crate) struct FileOutcome {
    /// Content mode: the match records after the skipped ones.
    pub matches: Vec<Match>,
    /// Records found after the skipped ones (matching lines in count mode, 0/1 in files mode).
    pub records: u64,
    /// The search stopped at a NUL byte at this offset (binary detection).
    pub binary_offset: Option<u64>,
    /// The file was opened and searched.
    pub searched: bool,
    /// Bytes the searcher read.
    pub bytes: u64,
    /// The search stopped early for this reason.
    pub interrupted: Option<Truncation>,
}

/// The most memory one file's search may hold for a line (or, in multiline mode, for the
/// whole file). A file that needs more is skipped and counted in `skipped_errors`.
pub const MAX_BUFFER_BYTES: usize = 64 * 1024 * 1024;

/// Files up to this size are read whole with one `read` and searched in memory; larger ones
/// are streamed. (Streaming costs two more system calls per file: a 3-byte read to sniff a
/// byte-order mark and a read that finds the end.)
const READ_WHOLE_MAX: u64 = 1024 * 1024;

/// One thread's means to search files: the configured searcher, and the buffer small files
/// are read into.
pub(crate) struct FileSearcher {
    /// Taken back by `drop` for the thread's next file searcher.
    searcher: ManuallyDrop<Searcher>,
    /// What `searcher` was built from.
    shape: SearcherShape,
    /// Where files read whole go: only its first bytes (as many as the file held) are the
    /// file's; it keeps its length between files, so it is zeroed only when it grows.
    buffer: Vec<u8>,
    /// How many bytes of `buffer` hold the whole file the last search opened (it was searched
    /// in memory).
    whole: Option<usize>,
}

/// The settings of a request a searcher is built from: a kept searcher serves any request
/// with the same.
#[derive(Clone, Copy, PartialEq, Eq)]
struct SearcherShape {
    content: bool,
    invert: bool,
    multiline: bool,
    before: usize,
    after: usize,
    max_count: Option<u64>,
    search_binary: bool,
}

/// Builds a file searcher for `request` (one per searching thread), from what the last one
/// this thread dropped left.
pub(crate) fn searcher(request: &GrepRequest) -> FileSearcher {
    let content = request.mode == OutputMode::Content;
    let shape = SearcherShape {
        content,
        invert: request.invert,
        multiline: request.multiline,
        before: if content { request.lines_before() } else { 0 },
        after: if content { request.lines_after() } else { 0 },
        max_count: request.max_count_per_file,
        search_binary: request.search_binary,
    };
    let (kept, buffer) = SPARE.take();
    let searcher = match kept {
        Some((kept_shape, searcher)) if kept_shape == shape => searcher,
        _ => configured_searcher(&shape),
    };
    FileSearcher { searcher: ManuallyDrop::new(searcher), shape, buffer, whole: None }
}

/// A searcher this thread dropped, with its shape, and its read buffer.
type Spare = (Option<(SearcherShape, Searcher)>, Vec<u8>);

thread_local! {
    /// What the last file searcher this thread dropped leaves for its next one. A new
    /// searcher zeroes 72 KB of buffers, and a new read buffer has its pages faulted in anew
    /// (mimalloc gives the pages of a large freed block back to the system soon after); in a
    /// process that has just forked (Node spawning a tool, as between an agent's calls)
    /// every page written once more faults too, so a small project's search wrote ~50–90
    /// pages and spent more in faults than in searching.
    static SPARE: std::cell::Cell<Spare> = const { std::cell::Cell::new((None, Vec::new())) };
}

impl Drop for FileSearcher {
    fn drop(&mut self) {
        // A file read whole is at most `READ_WHOLE_MAX`, so a thread keeps about that much.
        // SAFETY: `searcher` is not used again: this is the file searcher's end.
        let searcher = unsafe { ManuallyDrop::take(&mut self.searcher) };
        SPARE.set((Some((self.shape, searcher)), std::mem::take(&mut self.buffer)));
    }
}

impl FileSearcher {
    /// The contents of the file the last search opened, when it was read whole (what a later
    /// search of the same version may search as [`Source::Bytes`]).
    pub fn read_whole(&self) -> Option<&[u8]> {
        self.whole.map(|len| &self.buffer[..len])
    }
}

/// What a search reads: an open file of a given size, or the contents of one as an earlier
/// search read them whole (the content cache's).
pub(crate) enum Source<'a> {
    Open(&'a File, u64),
    Bytes(&'a [u8]),
}

fn configured_searcher(shape: &SearcherShape) -> Searcher {
    let mut builder = SearcherBuilder::new();
    builder
        .line_number(shape.content)
        .invert_match(shape.invert)
        .multi_line(shape.multiline)
        .before_context(shape.before)
        .after_context(shape.after)
        .max_matches(shape.max_count)
        .binary_detection(if shape.search_binary {
            BinaryDetection::none()
        } else {
            BinaryDetection::quit(b'\x00')
        })
        .bom_sniffing(true)
        .heap_limit(Some(MAX_BUFFER_BYTES));
    builder.build()
}

/// What a file's search reads: the file read whole, or the open file, streamed.
enum Contents<'a> {
    Whole(&'a [u8]),
    Streamed(&'a File),
}

impl Contents<'_> {
    /// Runs `searcher` over the contents from their start.
    fn search<S: Sink<Error = io::Error>>(
        &self,
        searcher: &mut Searcher,
        matcher: &RegexMatcher,
        sink: S,
    ) -> io::Result<()> {
        match *self {
            Contents::Whole(bytes) if lines_before_binary_read(searcher, bytes) => {
                searcher.search_reader(matcher, bytes, sink)
            }
            Contents::Whole(bytes) => searcher.search_slice(matcher, bytes, sink),
            Contents::Streamed(mut file) => {
                if file.stream_position()? != 0 {
                    file.seek(SeekFrom::Start(0))?;
                }
                searcher.search_file(matcher, file, sink)
            }
        }
    }
}

/// How many bytes a streamed search reads first: the byte-order-mark check peeks at them alone,
/// so lines they complete are searched before the next read meets a binary byte.
const FIRST_READ: usize = 3;

/// Whether `bytes` hold a binary byte and their first read ([`FIRST_READ`]) completes a line:
/// ripgrep then searches and counts that line before it stops, as the streamed search does,
/// while a search of the bytes in memory stops before its first line.
fn lines_before_binary_read(searcher: &Searcher, bytes: &[u8]) -> bool {
    let Some(quit) = searcher.binary_detection().quit_byte() else {
        return false;
    };
    let first = &bytes[..bytes.len().min(FIRST_READ)];
    memchr::memchr(b'\n', first).is_some() && memchr::memchr(quit, bytes).is_some()
}

/// Up to where an in-memory search sees a binary-detection byte before it starts. A streamed
/// search sees each buffer it reads, so a file with such a byte further on is streamed, to
/// give the same answer.
const BINARY_CHECKED_UPFRONT: usize = 32 * 1024;

/// Whether `bytes` start with a byte-order mark (UTF-8, or UTF-16 either way round): the
/// searcher then decodes the text (see `bom_sniffing`).
pub(crate) fn starts_with_bom(bytes: &[u8]) -> bool {
    [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"].iter().any(|mark| bytes.starts_with(mark))
}

/// Reads `file` (of `size` bytes) whole into `buffer`, unless it is large, starts with a
/// byte-order mark (only the streaming search decodes those) or holds the binary byte `quit`
/// past [`BINARY_CHECKED_UPFRONT`].
fn read_whole<'a>(
    mut file: &File,
    size: u64,
    quit: Option<u8>,
    buffer: &'a mut Vec<u8>,
) -> io::Result<Option<&'a [u8]>> {
    if size > READ_WHOLE_MAX {
        return Ok(None);
    }
    // One read of the listed size (`read_to_end` would read 8, 16, 32 KiB... in turn: three
    // system calls for a 40 KB file); a file that grew is read to its listed size, one that
    // shrank to its end.
    let size = size as usize;
    if buffer.len() < size {
        buffer.resize(size, 0);
    }
    let mut filled = 0;
    while filled < size {
        match file.read(&mut buffer[filled..size]) {
            Ok(0) => break,
            Ok(read) => filled += read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    let bytes = &buffer[..filled];
    let has_bom = starts_with_bom(bytes);
    let late_binary = quit.is_some_and(|byte| {
        bytes.get(BINARY_CHECKED_UPFRONT..).is_some_and(|rest| memchr::memchr(byte, rest).is_some())
    });
    Ok((!has_bom && !late_binary).then_some(bytes))
}

/// Searches a file, skipping its first `skip` records (a cursor resuming inside it).
pub(crate) fn search(
    searcher: &mut FileSearcher,
    matcher: &RegexMatcher,
    source: Source<'_>,
    config: &FileSearchConfig,
    skip: u64,
    control: &Control,
) -> io::Result<FileOutcome> {
    let mut sink = Collector {
        matcher,
        config,
        control,
        skip,
        seen: 0,
        pending_before: Vec::new(),
        last_kept: false,
        broke: false,
        outcome: FileOutcome::default(),
    };
    sink.outcome.searched = true;
    let FileSearcher { searcher, buffer, whole, .. } = searcher;
    let quit = searcher.binary_detection().quit_byte();
    *whole = None;
    let contents = match source {
        Source::Bytes(bytes) => Contents::Whole(bytes),
        Source::Open(file, size) => match read_whole(file, size, quit, buffer)? {
            Some(bytes) => {
                *whole = Some(bytes.len());
                Contents::Whole(bytes)
            }
            None => Contents::Streamed(file),
        },
    };
    contents.search(searcher, matcher, &mut sink)?;
    let mut outcome = sink.outcome;
    if config.mode != OutputMode::Content && outcome.binary_offset.is_some() {
        // ripgrep's `-c` and `-l` treat a search that quit at a NUL byte as a filter: the file
        // is not counted or listed at all, whatever matched before it. (`-l` mostly stops at
        // its first match, before any NUL; an inverted search does not stop there.)
        outcome.records = 0;
    }
    if let Some(sections) = &config.sections {
        if !outcome.matches.is_empty() {
            mark_section_ends(searcher, sections, &contents, &mut outcome.matches)?;
        }
    }
    Ok(outcome)
}

/// What a search that finds nothing reads of `file` (`size` bytes, read from its start) with
/// ripgrep's default binary handling, line by line: the bytes read and the offset of the NUL
/// it gave up at. The index records it for binary files, so the count of bytes searched is the
/// same when the index rules such a file out.
pub(crate) fn no_match(file: &File, size: u64) -> io::Result<(u64, Option<u64>)> {
    static NEVER: std::sync::OnceLock<Option<RegexMatcher>> = std::sync::OnceLock::new();
    // An empty class of bytes: a pattern that matches nowhere.
    let never = NEVER.get_or_init(|| RegexMatcher::new(r"(?-u:[^\x00-\xFF])").ok());
    let Some(never) = never else {
        return Err(io::Error::other("the never-matching pattern did not compile"));
    };
    let request = GrepRequest::default();
    let config = FileSearchConfig { mode: request.mode, max_columns: None, sections: None, record_cap: None };
    let control = Control::unlimited();
    let outcome = search(&mut searcher(&request), never, Source::Open(file, size), &config, 0, &control)?;
    Ok((outcome.bytes, outcome.binary_offset))
}

/// Sets each match's `section_end`: a second pass over the file lists the lines that match a
/// section pattern, and each match takes the first one after its last line.
fn mark_section_ends(
    searcher: &Searcher,
    sections: &RegexMatcher,
    contents: &Contents<'_>,
    matches: &mut [Match],
) -> io::Result<()> {
    let mut boundaries = Vec::new();
    let mut plain = SearcherBuilder::new();
    plain.line_number(true).binary_detection(searcher.binary_detection().clone()).bom_sniffing(true);
    contents.search(
        &mut plain.heap_limit(Some(MAX_BUFFER_BYTES)).build(),
        sections,
        sinks::Bytes(|line, _| {
            boundaries.push(line);
            Ok(true)
        }),
    )?;
    for found in matches {
        let last_line = found.line_number + found.text.matches('\n').count() as u64;
        let next = boundaries.partition_point(|&line| line <= last_line);
        found.section_end = boundaries.get(next).copied();
    }
    Ok(())
}

/// The grep-searcher sink that turns callbacks into [`Match`] records.
struct Collector<'a> {
    matcher: &'a RegexMatcher,
    config: &'a FileSearchConfig,
    control: &'a Control,
    skip: u64,
    seen: u64,
    pending_before: Vec<ContextLine>,
    /// The most recent match was kept (so after-context lines belong to it).
    last_kept: bool,
    /// The searcher reported a context break (rg's `--`) and no line since.
    broke: bool,
    outcome: FileOutcome,
}

impl Sink for Collector<'_> {
    type Error = io::Error;

    fn matched(&mut self, searcher: &Searcher, found: &SinkMatch<'_>) -> Result<bool, io::Error> {
        self.broke = false;
        if let Some(reason) = self.control.interruption() {
            self.outcome.interrupted = Some(reason);
            return Ok(false);
        }
        self.seen += 1;
        if self.seen <= self.skip {
            self.pending_before.clear();
            self.last_kept = false;
            return Ok(true);
        }
        self.outcome.records += 1;
        match self.config.mode {
            OutputMode::Files => return Ok(false),
            OutputMode::Count => {
                // ripgrep's `-c -U` counts matches, not records, when a match can span lines.
                if searcher.multi_line_with_matcher(self.matcher) {
                    let mut found_here = 0u64;
                    record_matches(self.matcher, found, |_| found_here += 1);
                    self.outcome.records += found_here.max(1) - 1;
                }
            }
            OutputMode::Content => {
                let record = self.build_match(searcher, found);
                self.outcome.matches.push(record);
                self.last_kept = true;
            }
        }
        let capped = self.config.record_cap.is_some_and(|cap| self.outcome.records >= cap);
        Ok(!capped)
    }

    fn context(&mut self, searcher: &Searcher, context: &SinkContext<'_>) -> Result<bool, io::Error> {
        self.broke = false;
        let mut ranges = Vec::new();
        if searcher.invert_match() && self.config.mode == OutputMode::Content {
            // A context line of an inverted search is one that matches: say where, as rg does.
            let _ = self.matcher.find_iter(strip_terminator(context.bytes()), |m| {
                ranges.push([m.start(), m.end()]);
                true
            });
        }
        let line = ContextLine::from_bytes(
            context.line_number().unwrap_or(0),
            context.absolute_byte_offset(),
            context.bytes(),
            self.config.max_columns,
            ranges,
        );
        match context.kind() {
            SinkContextKind::Before => self.pending_before.push(line),
            SinkContextKind::After => {
                if self.last_kept {
                    if let Some(last) = self.outcome.matches.last_mut() {
                        last.after.push(line);
                    }
                }
            }
            SinkContextKind::Other => {}
        }
        Ok(true)
    }

    fn context_break(&mut self, _: &Searcher) -> Result<bool, io::Error> {
        self.broke = true;
        Ok(true)
    }

    fn finish(&mut self, _: &Searcher, finish: &SinkFinish) -> Result<(), io::Error> {
        self.outcome.bytes = finish.byte_count();
        self.outcome.binary_offset = finish.binary_byte_offset();
        if self.outcome.binary_offset.is_some() && self.last_kept {
            // A multiline search looks for a NUL byte in each line just before it passes the
            // line on. When it finds one in a match or its before-context, it has already
            // passed on that match's earlier before-context lines and the `--` that opens
            // their group: ripgrep prints them after the last match (only the `--` when the
            // NUL was on the group's first line).
            if let Some(last) = self.outcome.matches.last_mut() {
                last.after.append(&mut self.pending_before);
                last.break_after = self.broke;
            }
        }
        Ok(())
    }
}

impl Collector<'_> {
    fn build_match(&mut self, searcher: &Searcher, found: &SinkMatch<'_>) -> Match {
        let raw = strip_terminator(found.bytes());
        let mut ranges: Vec<[usize; 2]> = Vec::new();
        if !searcher.invert_match() {
            // As ripgrep does: when a match may span lines, search the record with its
            // terminator (a match may end with it); and drop an empty match at the record's
            // very end. The record was reported because it matches, so searching it again
            // cannot fail.
            let bytes = found.bytes();
            if searcher.multi_line_with_matcher(self.matcher) {
                // A match that runs past the record (cut off by `max_count`) keeps the part
                // in it, as rg's `-o` prints it.
                record_matches(self.matcher, found, |[start, end]| {
                    ranges.push([start, end.min(bytes.len())])
                });
            } else {
                let _ = self.matcher.find_iter(raw, |m| {
                    ranges.push([m.start(), m.end()]);
                    true
                });
            }
            if ranges.last().is_some_and(|&[start, end]| start == end && start >= bytes.len()) {
                ranges.pop();
            }
        }
        let (text, submatches, raw_text) = decode_lossy(raw, ranges);
        let (text, truncated) = cut(text, self.config.max_columns);
        let column = submatches.first().map_or(1, |r| r[0] as u64 + 1);
        Match {
            line_number: found.line_number().unwrap_or(0),
            column,
            byte_offset: found.absolute_byte_offset(),
            text,
            truncated,
            unterminated: raw.len() == found.bytes().len(),
            raw: raw_text.filter(|_| !truncated),
            submatches,
            section_end: None,
            before: std::mem::take(&mut self.pending_before),
            after: Vec::new(),
            break_after: false,
        }
    }
}

impl ContextLine {
    fn from_bytes(
        line_number: u64,
        byte_offset: u64,
        line: &[u8],
        max_columns: Option<usize>,
        ranges: Vec<[usize; 2]>,
    ) -> ContextLine {
        let raw = strip_terminator(line);
        let (text, submatches, raw_text) = decode_lossy(raw, ranges);
        let (text, truncated) = cut(text, max_columns);
        let unterminated = raw.len() == line.len();
        let raw = raw_text.filter(|_| !truncated);
        ContextLine { line_number, byte_offset, text, truncated, unterminated, submatches, raw }
    }
}

/// How far past a multiline record ripgrep's printers let the regex look when they find the
/// record's matches again (`MAX_LOOK_AHEAD` in its grep-printer crate).
const RECORD_LOOK_AHEAD: usize = 128;

/// Calls `each` with the matches that start in a multiline record, found as ripgrep's printers
/// find them: in the searcher's buffer from the record's start, seeing [`RECORD_LOOK_AHEAD`]
/// bytes past its end. A match may so run past the record: when `max_count` cut the search
/// off inside it, rg's `-c` still counts it.
fn record_matches(matcher: &RegexMatcher, found: &SinkMatch<'_>, mut each: impl FnMut([usize; 2])) {
    let buffer = found.buffer();
    let range = found.bytes_range_in_buffer();
    let end = range.end.saturating_add(RECORD_LOOK_AHEAD).min(buffer.len());
    // The record was reported because it matches, so searching it again cannot fail.
    let _ = matcher.find_iter_at(&buffer[..end], range.start, |m| {
        if m.start() >= range.end {
            return false;
        }
        each([m.start() - range.start, m.end() - range.start]);
        true
    });
}

/// Drops one trailing `\n` (a `\r` before it is kept, as ripgrep keeps it).
fn strip_terminator(bytes: &[u8]) -> &[u8] {
    bytes.strip_suffix(b"\n").unwrap_or(bytes)
}

/// Decodes `raw` as UTF-8, replacing each invalid sequence with U+FFFD, and moves the byte
/// `ranges` so they point at the same text in the decoded string. A line that is not valid
/// UTF-8 also keeps its bytes and byte ranges, which renderers print as rg does.
fn decode_lossy(raw: &[u8], ranges: Vec<[usize; 2]>) -> (String, Vec<[usize; 2]>, Option<Box<RawText>>) {
    if let Ok(text) = std::str::from_utf8(raw) {
        return (text.to_owned(), ranges, None);
    }
    let kept = Box::new(RawText { bytes: raw.to_vec(), submatches: ranges.clone() });
    // (original offset, decoded offset) at the start of every valid or invalid run.
    let mut text = String::with_capacity(raw.len() + 8);
    let mut marks: Vec<(usize, usize, bool)> = Vec::new();
    let mut offset = 0;
    for chunk in raw.utf8_chunks() {
        marks.push((offset, text.len(), true));
        text.push_str(chunk.valid());
        offset += chunk.valid().len();
        if !chunk.invalid().is_empty() {
            marks.push((offset, text.len(), false));
            text.push(char::REPLACEMENT_CHARACTER);
            offset += chunk.invalid().len();
        }
    }
    let map = |at: usize| -> usize {
        let index = marks.partition_point(|m| m.0 <= at).saturating_sub(1);
        let (start, decoded_start, valid) = marks[index];
        if valid {
            decoded_start + (at - start)
        } else if at == start {
            decoded_start
        } else {
            decoded_start + char::REPLACEMENT_CHARACTER.len_utf8()
        }
    };
    let moved = ranges.into_iter().map(|r| [map(r[0]), map(r[1])]).collect();
    (text, moved, Some(kept))
}

/// Cuts `text` to at most `max` bytes at a character boundary; true if it was cut.
fn cut(mut text: String, max: Option<usize>) -> (String, bool) {
    match max {
        Some(max) if text.len() > max => {
            let mut end = max;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            text.truncate(end);
            (text, true)
        }
        _ => (text, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lossy_decoding_moves_ranges() {
        let (text, ranges, _) = decode_lossy(b"a\xffbc", vec![[2, 4]]);
        assert_eq!(text, "a\u{fffd}bc");
        assert_eq!(ranges, vec![[4, 6]]);
    }

    #[test]
    fn a_file_is_read_whole_to_its_listed_size_or_its_end() {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("file");
        let mut buffer = Vec::new();
        for (contents, listed, expected) in [
            (&b"hello world"[..], 11, &b"hello world"[..]),
            (b"hello world", 5, b"hello"),
            (b"hi", 11, b"hi"),
            (b"", 0, b""),
        ] {
            std::fs::write(&path, contents).expect("written");
            let file = File::open(&path).expect("opened");
            let read = read_whole(&file, listed, None, &mut buffer).expect("read");
            assert_eq!(read, Some(expected), "{contents:?} listed at {listed} bytes");
        }
        std::fs::write(&path, b"\xEF\xBB\xBFtext").expect("written");
        let file = File::open(&path).expect("opened");
        assert_eq!(
            read_whole(&file, 7, None, &mut buffer).expect("read"),
            None,
            "a byte-order mark is streamed"
        );
    }

    #[test]
    fn cut_respects_char_boundaries() {
        assert_eq!(cut("héllo".to_owned(), Some(2)), ("h".to_owned(), true));
        assert_eq!(cut("hello".to_owned(), Some(5)), ("hello".to_owned(), false));
    }
}
