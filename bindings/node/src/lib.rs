//! Node.js binding of fsnative (napi-rs): converts types and errors, nothing more.
//!
//! The addon is loaded by the `fsnative` npm package (`npm/`), whose JavaScript gives it its
//! public shape: option checks, `AbortSignal`s, error classes and building results from what
//! the addon sends (packed grep results, JSON for the others).
//! This crate exports a native `Sandbox` class, a `CancelToken` class and the key-naming
//! functions of [`keys`] (`snakeToCamel`, `camelToSnake`), which the package's tests use to
//! speak the core's snake_case.

mod call;
mod cancel;
mod errors;
pub mod keys;
mod options;
mod output;
mod paths;
mod sandbox;
mod transfer;
