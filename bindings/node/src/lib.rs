//! Node.js binding of fsnative (napi-rs): converts types and errors, nothing more.
//!
//! The addon is loaded by the `fsnative` npm package (`npm/`), whose JavaScript gives it its
//! public shape: `AbortSignal`s, error classes and building results from what the addon sends
//! (packed grep results, JSON for the others). Options are judged by the core
//! (`fsnative::options`).
//! This crate exports a native `Sandbox` class, a `CancelToken` class, `unconvertible` (the
//! core's complaint about a value with no JSON form) with `optionsOf` (the calls it names),
//! `MAX_VALUE_DEPTH`, `fffCatalog` (the FFF drop-in's tools and limits), `isPathWithin`, and
//! the core's key-naming rule (`snakeToCamel`, `camelToSnake`), which the package's tests use
//! to speak the core's snake_case. All of it comes from the core's `host` module.

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
    fsnative::host::snake_to_camel(&key).into_owned()
}

/// The MCP filesystem server's path check by text alone (the core's `is_path_within`).
#[napi_derive::napi(js_name = "isPathWithin")]
pub fn is_path_within(path: String, dirs: Vec<String>) -> bool {
    let dirs: Vec<&str> = dirs.iter().map(String::as_str).collect();
    fsnative::host::is_path_within(&path, &dirs)
}

/// The core's `camel_to_snake`, so tests convert names back to the vectors' spelling.
#[napi_derive::napi(js_name = "camelToSnake")]
pub fn camel_to_snake(key: String) -> String {
    fsnative::host::camel_to_snake(&key).into_owned()
}

/// Deepest nesting of arrays and objects in an option's value that JavaScript converts (the
/// core's `MAX_VALUE_DEPTH`); deeper is refused before `JSON.stringify` could overflow the
/// stack.
#[napi_derive::napi]
pub const MAX_VALUE_DEPTH: u32 = fsnative::host::MAX_VALUE_DEPTH as u32;

/// The names of the calls whose options JavaScript converts (the core's `OptionsOf`), which
/// `unconvertible` takes: the package reads them from here rather than spelling them itself.
#[napi_derive::napi(js_name = "optionsOf")]
pub fn options_of() -> Vec<&'static str> {
    fsnative::host::OptionsOf::ALL.iter().map(|of| of.name()).collect()
}

/// Throws the core's `INVALID_OPTION` error for a JavaScript value that has no JSON form
/// (`host::unconvertible`): `operation` one of `optionsOf()`, the option `key` as the caller
/// spelled it, and `got` describing the value.
#[napi_derive::napi]
pub fn unconvertible(env: napi::Env, operation: String, key: String, got: String) -> napi::Result<()> {
    let error = match fsnative::host::OptionsOf::from_name(&operation) {
        Some(of) => fsnative::host::unconvertible(of, &key, fsnative::options::KeyStyle::CamelCase, &got),
        None => fsnative::Error::new(fsnative::ErrorCode::Internal, format!("no call named `{operation}`")),
    };
    Err(errors::to_js(&env, &error))
}

/// The camelCase JSON of the FFF drop-in's tools (names, descriptions, arguments) and limits
/// (the core's `render::fff::tools::catalog`), which `fsnative/fff` registers and exports.
#[napi_derive::napi(js_name = "fffCatalog")]
pub fn fff_catalog() -> napi::Result<String> {
    output::camel_case_json(&fsnative::render::fff::tools::catalog())
        .map_err(|error| napi::Error::from_reason(error.message().to_owned()))
}
