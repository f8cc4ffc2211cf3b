//! Plumbing for the Node and Python bindings, not for Rust callers: catching panics at the
//! language boundary, the helper threads async calls run on, turning host values into
//! [`Options`](crate::options::Options), the two key spellings, the MCP filesystem server's
//! textual path check, how long `wait_for_index` waits in a host's unit, and a path from a
//! host's bytes. Hidden from the docs; it may change in any release.

pub use crate::error::catch_panic;
pub use crate::options::host_values::{
    camel_to_snake, snake_to_camel, unconvertible, OptionsOf, MAX_VALUE_DEPTH,
};
pub use crate::options::index::wait_timeout;
pub use crate::pool::{run_in_background, BACKGROUND_CALLS};
pub use crate::roots::is_path_within;

/// The path whose bytes are `bytes`, as a binding receives a path that is not text (a Node
/// `Buffer`, Python's `os.fsencode`): on Unix the name's own bytes; on Windows WTF-8 (UTF-8 that
/// may hold an unpaired surrogate), and other bytes read as UTF-8 with their faults replaced.
/// The reverse is `OsStr::as_encoded_bytes`.
pub fn path_from_bytes(bytes: Vec<u8>) -> std::path::PathBuf {
    crate::sys::path_buf(bytes)
}
