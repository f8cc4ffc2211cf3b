//! Any path either fails with a typed error or yields a canonical path inside the root.
#![no_main]

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;

use fsnative::Intent;
use libfuzzer_sys::fuzz_target;

#[path = "fixture.rs"]
mod fixture;

fuzz_target!(|data: &[u8]| {
    let Some((&flag, path)) = data.split_first() else { return };
    let fx = fixture::fixture();
    let intent = if flag & 1 == 0 { Intent::Read } else { Intent::Write };
    if let Ok(resolved) = fx.sandbox.validate(OsStr::from_bytes(path), intent) {
        assert!(resolved.starts_with(&fx.root), "{resolved:?} escaped for {path:?}");
        if intent == Intent::Read {
            let real = std::fs::canonicalize(&resolved).expect("a validated read path exists");
            assert_eq!(real, resolved, "validate returned a non-canonical path");
        }
    }
});
