//! How the core's errors reach JavaScript: an `Error` whose `code` is the core's stable code
//! (`OUTSIDE_SANDBOX`, `INVALID_OPTION`, …), with `option` (the option it is about) and `path`
//! (the path it is about: a string, or a Buffer of raw bytes when it is not UTF-8) when the
//! core gives them. The package's JavaScript turns it into `FsnativeError` or, for
//! `INVALID_OPTION`, `InvalidOptionError`.

use napi::bindgen_prelude::{Buffer, Object};
use napi::{Env, JsError, JsValue};

/// Runs `work` under [`fsnative::host::catch_panic`] (a panic becomes an `INTERNAL` error) and
/// makes its error the JavaScript error.
pub fn guarded<T>(env: &Env, work: impl FnOnce() -> fsnative::Result<T>) -> napi::Result<T> {
    fsnative::host::catch_panic(work).map_err(|err| to_js(env, &err))
}

/// The core's error as the JavaScript error object that napi throws or rejects with.
pub fn to_js(env: &Env, err: &fsnative::Error) -> napi::Error {
    let coded = napi::Error::new(err.code().as_str(), err.message());
    let error = JsError::from(coded).into_unknown(*env);
    let fields = error.coerce_to_object().and_then(|mut object: Object| {
        if let Some(option) = err.option() {
            object.set("option", option)?;
        }
        match err.path().map(|path| path.to_str().ok_or(path)) {
            Some(Ok(text)) => object.set("path", text),
            Some(Err(bytes)) => object.set("path", Buffer::from(bytes.as_os_str().as_encoded_bytes())),
            None => Ok(()),
        }
    });
    fields.map_or_else(|failure| failure, |()| napi::Error::from(error))
}
