//! Glob and `grepText` results leave Rust as one JSON text with camelCase keys, which
//! JavaScript parses once: about half the cost of building each object through N-API. Grep
//! results are packed instead (see [`crate::transfer`]), but their scalar fields still travel
//! as this JSON.

use std::io;

use fsnative::{GlobResult, GlobStats, Truncation};
use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter};

use fsnative::host::snake_to_camel;

/// Serializes `value` as compact JSON whose object keys are renamed to camelCase (by the
/// core's `snake_to_camel`, the rule options are named by); string values are left exactly as
/// they are.
pub fn camel_case_json<T: Serialize>(value: &T) -> fsnative::Result<String> {
    let mut out = Vec::with_capacity(4096);
    let mut serializer = serde_json::Serializer::with_formatter(&mut out, CamelCaseKeys::default());
    value.serialize(&mut serializer).map_err(internal)?;
    String::from_utf8(out).map_err(internal)
}

/// A glob result in columns, half the JSON of one object per entry and quicker to parse;
/// `npm/index.js` (`globResult`) rebuilds the entries. Each entry's path is its base, `/`, and
/// its relative path.
#[derive(Serialize)]
struct CompactGlob<'a> {
    /// The distinct bases the entries were matched from.
    bases: Vec<&'a str>,
    /// Per entry: the index of its base in `bases`, when there is more than one.
    base_of: Option<Vec<usize>>,
    relative: Vec<&'a str>,
    /// Per entry: `1` for a directory, else `0`.
    dirs: String,
    total: u64,
    truncated: Option<Truncation>,
    stats: &'a GlobStats,
}

/// The JSON of a glob result: in columns when every path is UTF-8, else entry by entry (where a
/// non-UTF-8 name is `{"bytes": …}`).
pub fn glob_json(result: &GlobResult) -> fsnative::Result<String> {
    let count = result.entries.len();
    let (mut bases, mut base_of, mut relatives) =
        (Vec::new(), Vec::with_capacity(count), Vec::with_capacity(count));
    let mut dirs = String::with_capacity(count);
    for entry in &result.entries {
        let (Some(path), Some(relative)) = (entry.path.to_str(), entry.relative_path.to_str()) else {
            return camel_case_json(result);
        };
        let Some(base) = path.strip_suffix(relative).and_then(|rest| rest.strip_suffix('/')) else {
            return camel_case_json(result);
        };
        let index = bases.iter().position(|known| *known == base).unwrap_or_else(|| {
            bases.push(base);
            bases.len() - 1
        });
        base_of.push(index);
        relatives.push(relative);
        dirs.push(if entry.is_dir { '1' } else { '0' });
    }
    camel_case_json(&CompactGlob {
        base_of: (bases.len() > 1).then_some(base_of),
        bases,
        relative: relatives,
        dirs,
        total: result.total,
        truncated: result.truncated,
        stats: &result.stats,
    })
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
            self.inner.write_string_fragment(writer, &snake_to_camel(fragment))
        } else {
            self.inner.write_string_fragment(writer, fragment)
        }
    }
}
