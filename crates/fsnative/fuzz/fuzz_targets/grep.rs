//! Random patterns over random contents: never a panic, never a line the file does not hold.
#![no_main]

use fsnative::{CaseMode, GrepRequest, OneOrMany, Sandbox};
use libfuzzer_sys::fuzz_target;

#[path = "input.rs"]
mod input;

fuzz_target!(|data: &[u8]| {
    let Some((flags, pattern, contents)) = input::flags_pattern_contents(data) else { return };
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("input.txt"), contents).expect("write");
    let sandbox = Sandbox::new([dir.path()]).expect("sandbox");
    let request = GrepRequest {
        patterns: OneOrMany(pattern.split('\n').map(str::to_owned).collect()),
        fixed_strings: flags & 1 != 0,
        case_mode: if flags & 2 != 0 { CaseMode::Smart } else { CaseMode::Sensitive },
        word: flags & 4 != 0,
        multiline: flags & 8 != 0,
        invert: flags & 16 != 0,
        search_binary: flags & 32 != 0,
        context: Some(usize::from(flags >> 6)),
        max_columns: Some(64),
        limit: Some(50),
        ..GrepRequest::default()
    };
    // UTF-16 files are transcoded, so their lines are not substrings of the raw bytes.
    let utf16 = contents.starts_with(&[0xff, 0xfe]) || contents.starts_with(&[0xfe, 0xff]);
    if let Ok(found) = sandbox.grep(&request) {
        let text = String::from_utf8_lossy(contents);
        for file in &found.files {
            for m in &file.matches {
                assert!(m.text.len() <= 64);
                assert!(m.submatches.iter().all(|r| r[0] <= r[1]));
                if !utf16 && !m.truncated && !m.text.contains('\u{fffd}') {
                    assert!(text.contains(m.text.as_str()), "{:?} is not in the file", m.text);
                }
            }
        }
    }
});
