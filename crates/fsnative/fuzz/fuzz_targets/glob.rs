//! Any glob pattern either fails with a typed error or lists only entries inside the root.
#![no_main]

use fsnative::{GlobRequest, OneOrMany};
use libfuzzer_sys::fuzz_target;

#[path = "fixture.rs"]
mod fixture;

fuzz_target!(|data: &[u8]| {
    let Some((&flags, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let fx = fixture::fixture();
    let request = GlobRequest {
        patterns: OneOrMany(text.split('\n').map(str::to_owned).collect()),
        hidden: flags & 1 != 0,
        follow_links: flags & 2 != 0,
        case_insensitive: flags & 4 != 0,
        ..GlobRequest::default()
    };
    if let Ok(listed) = fx.sandbox.glob(&request) {
        for entry in &listed.entries {
            assert!(entry.path.starts_with(&fx.root), "{:?} listed for {text:?}", entry.path);
        }
    }
});
