//! A grep result crosses into JavaScript as three values that are cheap to make and cheap to
//! take apart (`npm/lib/transfer.js` builds the documented objects from them):
//!
//! - `head`: the camelCase JSON of the result without its files (counts, truncation, cursor,
//!   mode, stats), so every such field reaches JavaScript by the one naming rule;
//! - `text`: every path and line of the files, end to end, as one string;
//! - `numbers`: a `Float64Array` of the files' numbers, in the order [`GrepTransfer::new`]
//!   writes them, with the end of each piece of `text` as a UTF-16 offset into it.
//!
//! One JSON.parse of the whole result cost about 1 ms for 500 matches with context; making
//! `text` is one copy (a Latin-1 string when it is ASCII) and `numbers` one copy into memory
//! V8 allocates, and slicing a string in JavaScript shares its characters. (Handing V8 the
//! vector itself saved the copy but cost more: the vector's memory then lived until V8's
//! garbage collector freed it, so every call wrote its numbers to pages the allocator had
//! just taken from the kernel, each first write a page fault that zeroed a huge page.)

use std::path::Path;
use std::ptr;

use base64::Engine as _;
use fsnative::{ContextLine, FileMatches, GrepResult, Match};
use napi::bindgen_prelude::{ToNapiValue, TypeName};
use napi::{check_status, sys, ValueType};

use crate::output::camel_case_json;

/// Flags of a file record: its path, or its relative path, is not UTF-8 and its piece of
/// `text` is the base64 of its bytes (the core's `{ "bytes": … }`).
const PATH_BYTES: f64 = 1.0;
const RELATIVE_PATH_BYTES: f64 = 2.0;

/// How many numbers a file record, a match record (without its submatches) and a context
/// line take.
const FILE_NUMBERS: usize = 7;
const MATCH_NUMBERS: usize = 9;
const LINE_NUMBERS: usize = 4;

/// A grep result packed for JavaScript. The layout of `numbers`, record by record:
///
/// - file: `flags` ([`PATH_BYTES`] | [`RELATIVE_PATH_BYTES`]), end of `path`, end of
///   `relativePath`, `count`, number of matches, `bytesSearched`, `binaryOffset` (-1 for
///   `null`); then its matches;
/// - match: `lineNumber`, `column`, `byteOffset`, end of `text`, `truncated` (0 or 1),
///   `sectionEnd` (0 for `null`: line numbers start at 1), numbers of submatches, of lines
///   before and of lines after; then `[start, end]` of each submatch, then its context lines;
/// - context line: `lineNumber`, `byteOffset`, end of `text`, `truncated`.
///
/// Pieces of `text` follow each other in the same order; each starts where the one before
/// ended.
pub struct GrepTransfer {
    head: String,
    text: String,
    /// `text` is ASCII, so its bytes are its UTF-16 code units (and Latin-1 characters).
    ascii: bool,
    /// The length of `text` in UTF-16 code units, the offsets JavaScript slices by.
    units: usize,
    numbers: Vec<f64>,
}

impl GrepTransfer {
    /// Packs `result`.
    pub fn new(mut result: GrepResult) -> fsnative::Result<GrepTransfer> {
        let files = std::mem::take(&mut result.files);
        let (mut text_bytes, mut numbers) = (0, 0);
        for file in &files {
            text_bytes += file.path.as_os_str().len() + file.relative_path.as_os_str().len();
            numbers += FILE_NUMBERS;
            for found in &file.matches {
                text_bytes += found.text.len();
                numbers += MATCH_NUMBERS + 2 * found.submatches.len();
                for line in found.before.iter().chain(&found.after) {
                    text_bytes += line.text.len();
                    numbers += LINE_NUMBERS;
                }
            }
        }
        let mut transfer = GrepTransfer {
            head: camel_case_json(&result)?,
            // The base64 of a path that is not UTF-8 makes room for itself.
            text: String::with_capacity(text_bytes),
            ascii: true,
            units: 0,
            numbers: Vec::with_capacity(numbers),
        };
        for file in &files {
            transfer.file(file);
        }
        Ok(transfer)
    }

    fn file(&mut self, file: &FileMatches) {
        let flags = self.numbers.len();
        self.numbers.push(0.0);
        let mut kind = 0.0;
        if !self.path(&file.path) {
            kind += PATH_BYTES;
        }
        if !self.path(&file.relative_path) {
            kind += RELATIVE_PATH_BYTES;
        }
        self.numbers[flags] = kind;
        self.numbers.extend([
            file.count as f64,
            file.matches.len() as f64,
            file.bytes_searched as f64,
            file.binary_offset.map_or(-1.0, |offset| offset as f64),
        ]);
        for found in &file.matches {
            self.found(found);
        }
    }

    fn found(&mut self, found: &Match) {
        self.numbers.extend([found.line_number as f64, found.column as f64, found.byte_offset as f64]);
        self.piece(&found.text);
        self.numbers.extend([
            f64::from(u8::from(found.truncated)),
            found.section_end.unwrap_or(0) as f64,
            found.submatches.len() as f64,
            found.before.len() as f64,
            found.after.len() as f64,
        ]);
        for [start, end] in &found.submatches {
            self.numbers.extend([*start as f64, *end as f64]);
        }
        for line in found.before.iter().chain(&found.after) {
            self.context(line);
        }
    }

    fn context(&mut self, line: &ContextLine) {
        self.numbers.extend([line.line_number as f64, line.byte_offset as f64]);
        self.piece(&line.text);
        self.numbers.push(f64::from(u8::from(line.truncated)));
    }

    /// Appends a path: its text when it is UTF-8 (true), else the base64 of its bytes.
    fn path(&mut self, path: &Path) -> bool {
        match path.to_str() {
            Some(text) => {
                self.piece(text);
                true
            }
            None => {
                let bytes = path.as_os_str().as_encoded_bytes();
                self.piece(&base64::engine::general_purpose::STANDARD.encode(bytes));
                false
            }
        }
    }

    /// Appends `piece` to `text` and its end, in UTF-16 code units, to `numbers`.
    fn piece(&mut self, piece: &str) {
        self.text.push_str(piece);
        self.units += if piece.is_ascii() {
            piece.len()
        } else {
            self.ascii = false;
            piece.encode_utf16().count()
        };
        self.numbers.push(self.units as f64);
    }
}

impl TypeName for GrepTransfer {
    fn type_name() -> &'static str {
        "GrepTransfer"
    }

    fn value_type() -> ValueType {
        ValueType::Object
    }
}

impl ToNapiValue for GrepTransfer {
    /// `{ head, text, numbers }`.
    unsafe fn to_napi_value(env: sys::napi_env, value: Self) -> napi::Result<sys::napi_value> {
        let GrepTransfer { head, text, ascii, numbers, .. } = value;
        let text = if ascii {
            // Latin-1 is a copy of the bytes; UTF-8 would be decoded on the way.
            let mut latin1 = ptr::null_mut();
            let length =
                isize::try_from(text.len()).map_err(|_| napi::Error::from_reason("text too long"))?;
            check_status!(sys::napi_create_string_latin1(env, text.as_ptr().cast(), length, &mut latin1))?;
            latin1
        } else {
            String::to_napi_value(env, text)?
        };
        let fields = [
            (c"head", String::to_napi_value(env, head)?),
            (c"text", text),
            (c"numbers", float64_array(env, &numbers)?),
        ];
        let mut object = ptr::null_mut();
        check_status!(sys::napi_create_object(env, &mut object))?;
        for (name, field) in fields {
            check_status!(sys::napi_set_named_property(env, object, name.as_ptr(), field))?;
        }
        Ok(object)
    }
}

/// A `Float64Array` of V8's own memory holding a copy of `numbers`.
unsafe fn float64_array(env: sys::napi_env, numbers: &[f64]) -> napi::Result<sys::napi_value> {
    let mut data = ptr::null_mut();
    let mut buffer = ptr::null_mut();
    check_status!(sys::napi_create_arraybuffer(env, std::mem::size_of_val(numbers), &mut data, &mut buffer))?;
    if !numbers.is_empty() {
        // The buffer is as long as the numbers, and V8 aligns its backing stores for any type.
        ptr::copy_nonoverlapping(numbers.as_ptr(), data.cast::<f64>(), numbers.len());
    }
    let mut array = ptr::null_mut();
    check_status!(sys::napi_create_typedarray(
        env,
        sys::TypedarrayType::float64_array,
        numbers.len(),
        buffer,
        0,
        &mut array
    ))?;
    Ok(array)
}
