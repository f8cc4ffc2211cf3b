//! Paths between JavaScript and the core. They go in as strings or, for names that are not
//! UTF-8, as Buffers of raw bytes; they come out as strings, or as `{ bytes: base64 }` when
//! they are not UTF-8 (the core's own serde form), so that no name is silently rewritten.

use std::path::{Path, PathBuf};

use base64::Engine as _;
use napi::bindgen_prelude::{Buffer, Either};
use napi_derive::napi;

/// A path from JavaScript: a string, or a Buffer holding its raw bytes.
pub type PathArg = Either<String, Buffer>;

/// A path to JavaScript: a string, or its raw bytes when it is not UTF-8.
pub type PathValue = Either<String, NonUtf8Path>;

/// A path that is not valid UTF-8.
#[napi(object)]
pub struct NonUtf8Path {
    /// The path's bytes, base64-encoded.
    pub bytes: String,
}

/// The path a JavaScript argument names, byte for byte.
pub fn from_js(path: PathArg) -> PathBuf {
    match path {
        Either::A(text) => PathBuf::from(text),
        Either::B(bytes) => fsnative::host::path_from_bytes(bytes.to_vec()),
    }
}

/// The JavaScript value of a path: its text, or its bytes when it is not UTF-8.
pub fn to_js(path: &Path) -> PathValue {
    match path.to_str() {
        Some(text) => Either::A(text.to_owned()),
        None => Either::B(NonUtf8Path {
            bytes: base64::engine::general_purpose::STANDARD.encode(path.as_os_str().as_encoded_bytes()),
        }),
    }
}
