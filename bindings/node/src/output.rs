//! Results leave Rust as one JSON text with camelCase keys, which JavaScript parses once:
//! about half the cost of building each object through N-API (see `npm/bench/conversion.mjs`).

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};

use crate::keys::write_camel;

/// Serializes `value` as compact JSON whose object keys are renamed to camelCase (see
/// [`crate::keys`]); string values are left exactly as they are.
pub fn camel_case_json<T: Serialize>(value: &T) -> fsnative::Result<String> {
    let mut out = Vec::with_capacity(4096);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, CamelCaseKeys::default());
    value.serialize(&mut serializer).map_err(internal)?;
    String::from_utf8(out).map_err(internal)
}

fn internal(err: impl std::fmt::Display) -> fsnative::Error {
    fsnative::Error::new(fsnative::ErrorCode::Internal, format!("serializing a result failed: {err}"))
}

/// serde_json's compact output, except that the text of object keys is renamed.
#[derive(Default)]
struct CamelCaseKeys {
    inner: CompactFormatter,
    in_key: bool,
}

impl Formatter for CamelCaseKeys {
    fn begin_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W, first: bool) -> io::Result<()> {
        self.in_key = true;
        self.inner.begin_object_key(writer, first)
    }

    fn end_object_key<W: ?Sized + io::Write>(&mut self, writer: &mut W) -> io::Result<()> {
        self.in_key = false;
        self.inner.end_object_key(writer)
    }

    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        if self.in_key {
            write_camel(fragment, |piece| self.inner.write_string_fragment(writer, piece))
        } else {
            self.inner.write_string_fragment(writer, fragment)
        }
    }
}
