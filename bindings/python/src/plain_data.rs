//! Helpers shared by the result classes: paths as `str`, enums as their serde names, and the
//! plain-data export (`to_json`, `to_dict`) in the core's serde shape.

use std::path::Path;

use fsnative::{Error, ErrorCode};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyString;
use serde::Serialize;

use crate::errors::to_py_err;

/// A path as `str`, decoded like `os.fsdecode`: non-UTF-8 bytes become surrogate escapes, so
/// `os.fsencode` gives back the exact name.
pub fn path_str<'py>(py: Python<'py>, path: &Path) -> Bound<'py, PyString> {
    match path.as_os_str().into_pyobject(py) {
        Ok(text) => text,
        Err(never) => match never {},
    }
}

/// The serde name of a unit enum value (`"content"`, `"limit"`, …).
pub fn serde_name<T: Serialize>(value: &T) -> String {
    serde_json::to_value(value).ok().and_then(|name| name.as_str().map(str::to_owned)).unwrap_or_default()
}

/// The core's serde JSON text of `value` (snake_case keys; a non-UTF-8 path is
/// `{"bytes": "<base64>"}`).
pub fn to_json(py: Python<'_>, value: &impl Serialize) -> PyResult<String> {
    serde_json::to_string(value)
        .map_err(|e| to_py_err(py, &Error::new(ErrorCode::Internal, format!("cannot serialize: {e}"))))
}

/// `json.loads(to_json(value))`: dicts, lists, str, int, float, bool and None.
///
/// The cycle collector is paused meanwhile: a big result is 100k new dicts and lists, whose
/// allocation would otherwise set off collection after collection over all of them (3x the
/// time). `json.loads` runs no Python code and holds the GIL throughout, so no other code
/// sees the pause.
pub fn to_dict<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyAny>> {
    static JSON_LOADS: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let text = to_json(py, value)?;
    let loads = JSON_LOADS.import(py, "json", "loads")?;
    let gc = py.import("gc")?;
    let collecting = gc.call_method0("isenabled")?.is_truthy()?;
    if collecting {
        gc.call_method0("disable")?;
    }
    let data = loads.call1((text,));
    if collecting {
        gc.call_method0("enable")?;
    }
    data
}

/// Python's `repr` of a text (quoted and escaped as Python prints it).
pub fn repr_of(text: &Bound<'_, PyString>) -> String {
    text.repr().map(|r| r.to_string()).unwrap_or_default()
}
