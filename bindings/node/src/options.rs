//! Options arrive as the JSON text of the caller's (camelCase) object, which JavaScript made
//! with `JSON.stringify`; `fsnative::options` holds every name, default, rule and complaint
//! about them. Only values with no JSON form are judged in JavaScript (`npm/lib/arguments.js`),
//! in the core's words (`unconvertible`, exported by [`crate`]).

use fsnative::options::{KeyStyle, Options};
use fsnative::{Error, ErrorCode};

/// Builds a core type from the JSON text of an options object, with camelCase names.
pub fn build<T>(json: &str, from: fn(&Options, KeyStyle) -> fsnative::Result<T>) -> fsnative::Result<T> {
    let options: Options = serde_json::from_str(json).map_err(|err| {
        // JavaScript sends what JSON.stringify made of an object: this is a bug.
        Error::new(ErrorCode::Internal, format!("options are not the JSON of an object: {err}"))
    })?;
    from(&options, KeyStyle::CamelCase)
}
