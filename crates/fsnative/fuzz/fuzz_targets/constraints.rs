//! Any constraint string either fails with a typed error or only filters: what a glob lists
//! with it is a subset of what it lists without, and lies inside the root.
#![no_main]

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::OnceLock;

use fsnative::{EntryKind, GlobRequest, OneOrMany};
use libfuzzer_sys::fuzz_target;

#[path = "fixture.rs"]
mod fixture;

fn request(constraints: Option<String>, hidden: bool) -> GlobRequest {
    GlobRequest {
        patterns: OneOrMany(vec!["**".to_owned()]),
        constraints,
        hidden,
        kind: EntryKind::All,
        limit: None,
        ..GlobRequest::default()
    }
}

/// The fixture's listing without constraints, with and without hidden entries.
fn unconstrained(hidden: bool) -> &'static HashSet<PathBuf> {
    static LISTINGS: OnceLock<[HashSet<PathBuf>; 2]> = OnceLock::new();
    let listings = LISTINGS.get_or_init(|| {
        let list = |hidden| {
            let listed = fixture::fixture().sandbox.glob(&request(None, hidden)).expect("plain glob");
            listed.entries.into_iter().map(|entry| entry.path).collect()
        };
        [list(false), list(true)]
    });
    &listings[usize::from(hidden)]
}

fuzz_target!(|data: &[u8]| {
    let Some((&flags, text)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(text) else { return };
    let fx = fixture::fixture();
    let hidden = flags & 1 != 0;
    let Ok(listed) = fx.sandbox.glob(&request(Some(text.to_owned()), hidden)) else { return };
    let all = unconstrained(hidden);
    for entry in &listed.entries {
        assert!(entry.path.starts_with(&fx.root), "{:?} listed for {text:?}", entry.path);
        assert!(all.contains(&entry.path), "{:?} listed with {text:?}, not without", entry.path);
    }
});
