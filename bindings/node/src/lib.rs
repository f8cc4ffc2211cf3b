//! Node.js binding of fsnative (napi-rs): converts types and errors, nothing more.
//!
//! The addon is loaded by the `fsnative` npm package (`npm/`), whose JavaScript gives it its
//! public shape: `AbortSignal`s, error classes and building results from what the addon sends
//! (packed grep results, JSON for the others). Options are judged by the core
//! (`fsnative::options`).
//! This crate exports a native `Sandbox` class, a `CancelToken` class, `unconvertible` (the
//! core's complaint about a value with no JSON form), `MAX_VALUE_DEPTH`, and the core's
//! key-naming rule (`snakeToCamel`, `camelToSnake`), which the package's tests use to speak
//! the core's snake_case.

mod call;
mod cancel;
mod errors;
mod options;
mod output;
mod paths;
mod sandbox;
mod transfer;

/// The core's `snake_to_camel`, so tests convert names with the rule options are named by.
#[napi_derive::napi(js_name = "snakeToCamel")]
pub fn snake_to_camel(key: String) -> String {
    fsnative::options::snake_to_camel(&key).into_owned()
}

/// The MCP filesystem server's path check by text alone (the core's `is_path_within`).
#[napi_derive::napi(js_name = "isPathWithin")]
pub fn is_path_within(path: String, dirs: Vec<String>) -> bool {
    let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    fsnative::is_path_within(&path, &dirs)
}

#[napi_derive::napi(js_name = "camelToSnake")]
pub fn camel_to_snake(key: String) -> String {
    fsnative::options::camel_to_snake(&key).into_owned()
}

/// Deepest nesting of arrays and objects in an option's value that JavaScript converts (the
/// core's `MAX_VALUE_DEPTH`); deeper is refused before `JSON.stringify` could overflow the
/// stack.
#[napi_derive::napi]
pub const MAX_VALUE_DEPTH: u32 = fsnative::options::MAX_VALUE_DEPTH as u32;

/// Throws the core's `INVALID_OPTION` error for a JavaScript value that has no JSON form
/// (`options::unconvertible`): `operation` as the core names it (`grep`, `glob`, `render`,
/// `validate_path`), the option `key` as the caller spelled it, and `got` describing the value.
#[napi_derive::napi]
pub fn unconvertible(env: napi::Env, operation: String, key: String, got: String) -> napi::Result<()> {
    let error =
        fsnative::options::unconvertible(&operation, &key, fsnative::options::KeyStyle::CamelCase, &got);
    Err(errors::to_js(&env, &error))
}
