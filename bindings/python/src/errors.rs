//! Core errors as Python exceptions.
//!
//! The exception classes are declared in Python (`fsnative/_errors.py`), where one class per
//! code can also derive from the matching builtin (`PermissionError`, `FileNotFoundError`,
//! `ValueError`, …); this module only looks the class up by the core's code.

use fsnative::Error;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;

/// `fsnative._errors.error_for(code, message, option, path)`, which builds the exception for a
/// code.
static ERROR_FOR: PyOnceLock<Py<PyAny>> = PyOnceLock::new();

/// The Python exception for a core error: an instance of the `FsnativeError` subclass of its
/// code, whose `code` attribute is the core's code (`option` the option it is about, `path` the
/// path, as `str` decoded like `os.fsdecode`).
pub fn to_py_err(py: Python<'_>, error: &Error) -> PyErr {
    exception(py, error).unwrap_or_else(|failure| failure)
}

fn exception(py: Python<'_>, error: &Error) -> PyResult<PyErr> {
    let error_for = ERROR_FOR.import(py, "fsnative._errors", "error_for")?;
    let path = error.path().map(|path| path.as_os_str());
    let arguments = (error.code().as_str(), error.message(), error.option(), path);
    Ok(PyErr::from_value(error_for.call1(arguments)?))
}
