//! How failures reach JavaScript: an `Error` whose `code` is the core's stable code
//! (`OUTSIDE_SANDBOX`, …), or [`INVALID_OPTION`] for options the core cannot use. The
//! package's JavaScript turns the first into `FsnativeError` and the second into `TypeError`.

use napi::{Env, JsError};

/// The `code` of errors about options; Node uses it for `TypeError`s about argument values.
pub const INVALID_OPTION: &str = "ERR_INVALID_ARG_VALUE";

/// A napi error whose status string becomes the JavaScript error's `code`.
pub type CodedError = napi::Error<&'static str>;

/// The result of every entry point (napi recognises the name `Result`).
pub type Result<T, E = CodedError> = std::result::Result<T, E>;

/// Runs `work` under [`fsnative::catch_panic`]: a panic anywhere in it becomes an `INTERNAL`
/// error.
pub fn guarded<T>(work: impl FnOnce() -> Result<T>) -> Result<T> {
    fsnative::catch_panic(|| Ok(work())).map_err(from_core)?
}

/// The core's error, keeping its code and message.
pub fn from_core(err: fsnative::Error) -> CodedError {
    napi::Error::new(err.code().as_str(), err.message())
}

/// An error about options; `message` names the option.
pub fn invalid_option(message: String) -> CodedError {
    napi::Error::new(INVALID_OPTION, message)
}

/// The core's error as the rejection of a promise: napi rejects with the JavaScript error
/// object an error was made from, so the code survives the trip through the task.
pub fn rejection(env: Env, err: fsnative::Error) -> napi::Error {
    napi::Error::from(JsError::from(from_core(err)).into_unknown(env))
}
