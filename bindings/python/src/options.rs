//! Python arguments to the core's options (`fsnative::options`), which hold every default,
//! rule and complaint: this module only turns Python values into JSON-like ones.
//!
//! A value with no JSON form (a `set`, `bytes`, an int beyond 64 bits, a non-finite float, a
//! `str` with surrogate escapes) is worded by the core too (`host::unconvertible`), so it
//! is the same `INVALID_OPTION` error as any other unusable value. Only Python's own calling
//! rules (an argument given by position and by keyword) raise a plain `TypeError` here.

use std::path::PathBuf;

use fsnative::host::{self, OptionsOf, MAX_VALUE_DEPTH};
use fsnative::options::{KeyStyle, Options};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde_json::{Number, Value};

use crate::errors::to_py_err;

/// The options of call `of`: `fixed` holds the arguments given by position (None when left
/// out), `kwargs` the keyword arguments.
pub fn collect(
    of: OptionsOf,
    fixed: &[(&str, Option<&Bound<'_, PyAny>>)],
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Options> {
    let mut options = Options::new();
    for &(name, value) in fixed {
        if let Some(value) = value.filter(|value| !value.is_none()) {
            options.insert(name.to_owned(), to_json(of, name, value, 0)?);
        }
    }
    for (key, value) in kwargs.into_iter().flat_map(|kwargs| kwargs.iter()) {
        let name: String = key.extract()?;
        if options.contains_key(&name) {
            let message = format!("{}() got multiple values for argument '{name}'", of.name());
            return Err(PyTypeError::new_err(message));
        }
        let value = to_json(of, &name, &value, 0)?;
        options.insert(name, value);
    }
    Ok(options)
}

/// A positional argument as PyO3 passes it (`Option<Arg>` when it may be left out).
pub type Arg<'a, 'py> = &'a Bound<'py, PyAny>;

/// The `**options` of a call as PyO3 passes them (in an `Option`).
pub type Kwargs<'a, 'py> = &'a Bound<'py, PyDict>;

/// A render format from `format` (positional or keyword) and the format's `**options`, built
/// by the core's `from` (`of` names the call in messages).
pub fn render_format<T>(
    py: Python<'_>,
    of: OptionsOf,
    format: Option<Arg<'_, '_>>,
    options: Option<Kwargs<'_, '_>>,
    from: fn(&Options, KeyStyle) -> fsnative::Result<T>,
) -> PyResult<T> {
    build(py, &collect(of, &[("format", format)], options)?, from)
}

/// Builds a core type from options with Python's (snake_case) names.
pub fn build<T>(
    py: Python<'_>,
    options: &Options,
    from: fn(&Options, KeyStyle) -> fsnative::Result<T>,
) -> PyResult<T> {
    from(options, KeyStyle::SnakeCase).map_err(|error| to_py_err(py, &error))
}

/// A filesystem path argument: `str` (with `os.fsdecode`'s surrogate escapes for non-UTF-8
/// bytes), `bytes` or `os.PathLike`, encoded with `os.fsencode` so no byte is lost.
pub fn fs_path(call: &str, name: &str, value: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    static FSENCODE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let fsencode = FSENCODE.import(value.py(), "os", "fsencode")?;
    let encoded = fsencode.call1((value,)).map_err(|e| {
        if e.is_instance_of::<PyTypeError>(value.py()) {
            PyTypeError::new_err(format!("{call}() argument '{name}': {}", e.value(value.py())))
        } else {
            e
        }
    })?;
    let bytes = encoded.cast::<PyBytes>()?;
    Ok(fsnative::host::path_from_bytes(bytes.as_bytes().to_vec()))
}

/// A Python value of option `name` as JSON-like data: `None`, `bool`, `int`, `float`, `str`,
/// `os.PathLike` (as its `str` path), and lists, tuples and dicts (with `str` keys) of those,
/// `depth` deep.
fn to_json(of: OptionsOf, name: &str, value: &Bound<'_, PyAny>, depth: usize) -> PyResult<Value> {
    let unconvertible =
        |got: &str| to_py_err(value.py(), &host::unconvertible(of, name, KeyStyle::SnakeCase, got));
    if depth > MAX_VALUE_DEPTH {
        return Err(unconvertible(&format!("lists nested more than {MAX_VALUE_DEPTH} deep")));
    }
    if value.is_none() {
        Ok(Value::Null)
    } else if let Ok(flag) = value.cast::<PyBool>() {
        Ok(Value::Bool(flag.is_true()))
    } else if let Ok(int) = value.cast::<PyInt>() {
        match int.extract::<i64>() {
            Ok(small) => Ok(Value::from(small)),
            Err(_) => int
                .extract::<u64>()
                .map(Value::from)
                .map_err(|_| unconvertible(&format!("{int}, beyond 64 bits"))),
        }
    } else if let Ok(float) = value.cast::<PyFloat>() {
        let number = float.value();
        Number::from_f64(number)
            .map(Value::Number)
            .ok_or_else(|| unconvertible(&format!("{number}, not finite")))
    } else if let Ok(text) = value.cast::<PyString>() {
        match text.to_cow() {
            Ok(text) => Ok(Value::String(text.into_owned())),
            Err(_) => Err(unconvertible("a str that is not valid UTF-8 (it has surrogate escapes)")),
        }
    } else if let Ok(list) = value.cast::<PyList>() {
        list.iter().map(|item| to_json(of, name, &item, depth + 1)).collect()
    } else if let Ok(tuple) = value.cast::<PyTuple>() {
        tuple.iter().map(|item| to_json(of, name, &item, depth + 1)).collect()
    } else if let Ok(dict) = value.cast::<PyDict>() {
        // An option that takes options (`index`): each of them is named `<name>.<key>`.
        let mut object = Options::new();
        for (key, item) in dict.iter() {
            let Ok(key) = key.cast::<PyString>().map(|key| key.to_string()) else {
                return Err(unconvertible("a dict whose keys are not all str"));
            };
            let item = to_json(of, &format!("{name}.{key}"), &item, depth + 1)?;
            object.insert(key, item);
        }
        Ok(Value::Object(object))
    } else if let Some(path) = str_fspath(value) {
        to_json(of, name, &path, depth + 1)
    } else {
        let kind = value.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        Err(unconvertible(&kind))
    }
}

/// `os.fspath(value)` when `value` is an `os.PathLike` of `str`.
fn str_fspath<'py>(value: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    static FSPATH: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let path = FSPATH.import(value.py(), "os", "fspath").ok()?.call1((value,)).ok()?;
    path.is_instance_of::<PyString>().then_some(path)
}
