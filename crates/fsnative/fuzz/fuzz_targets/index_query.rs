//! The warm index's prefilter (a pattern's trigram query tested against each file's trigram
//! signature) never rules out a file that matches: random patterns over random contents get
//! the same matches from an indexed sandbox, once its content is read, as from a walk.
#![no_main]

use std::time::{Duration, Instant};

use fsnative::{CaseMode, GrepRequest, GrepResult, IndexOptions, OneOrMany, Sandbox};
use libfuzzer_sys::fuzz_target;

#[path = "input.rs"]
mod input;

/// Each file's matches: its name, then each match's line number and text.
fn matches(result: &GrepResult) -> Vec<(String, Vec<(u64, String)>)> {
    let lines = |file: &fsnative::FileMatches| file.matches.iter().map(|m| (m.line_number, m.text.clone())).collect();
    result
        .files
        .iter()
        .map(|file| (file.path.file_name().unwrap().to_string_lossy().into_owned(), lines(file)))
        .collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((flags, pattern, contents)) = input::flags_pattern_contents(data) else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    // The contents as given, and with ASCII letter case swapped (the signatures fold case).
    let swapped: Vec<u8> = contents
        .iter()
        .map(|&b| if b.is_ascii_alphabetic() { b ^ 0x20 } else { b })
        .collect();
    std::fs::write(dir.path().join("given.txt"), contents).expect("write");
    std::fs::write(dir.path().join("swapped.txt"), &swapped).expect("write");
    let plain = Sandbox::new([dir.path()]).expect("sandbox");
    let indexed = Sandbox::new([dir.path()]).unwrap().with_index(IndexOptions::default()).expect("indexed sandbox");
    assert!(indexed.wait_for_index(Some(Duration::from_secs(30))), "{:?}", indexed.index_status());
    let began = Instant::now();
    while indexed.index_status().is_some_and(|status| status.content_pending > 0) {
        assert!(began.elapsed() < Duration::from_secs(30), "content never read");
        std::thread::sleep(Duration::from_micros(200));
    }
    let request = GrepRequest {
        patterns: OneOrMany(pattern.split('\n').map(str::to_owned).collect()),
        fixed_strings: flags & 1 != 0,
        case_mode: match flags >> 1 & 3 {
            0 => CaseMode::Sensitive,
            1 => CaseMode::Smart,
            _ => CaseMode::Insensitive,
        },
        word: flags & 8 != 0,
        multiline: flags & 16 != 0,
        invert: flags & 32 != 0,
        search_binary: flags & 64 != 0,
        limit: None,
        ..GrepRequest::default()
    };
    let searches = indexed.index_status().map_or(0, |status| status.searches);
    match (plain.grep(&request), indexed.grep(&request)) {
        (Ok(walked), Ok(from_index)) => {
            assert_eq!(matches(&walked), matches(&from_index), "pattern {pattern:?}, flags {flags:#x}");
            let answered = indexed.index_status().map_or(0, |status| status.searches);
            assert_eq!(answered, searches + 1, "the index did not answer");
        }
        (Err(walked), Err(from_index)) => assert_eq!(walked.code(), from_index.code()),
        (walked, from_index) => panic!("{pattern:?}: walked {:?}, indexed {:?}", walked.err(), from_index.err()),
    }
});
