//! Keyword arguments to the core's serde types (`GrepRequest`, `GlobRequest`,
//! `render::Format`, `Intent`), with Python's argument errors.
//!
//! Arguments become a JSON-like value and serde does the rest, so the core's field names,
//! aliases and defaults apply unchanged and no per-field table exists here. Errors name the
//! argument: a wrong type or an unknown keyword is a `TypeError`, a bad value (an unknown
//! mode, a negative count) an `InvalidArgumentError` (a `ValueError`).

use std::path::PathBuf;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyBytes, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use serde::de::DeserializeOwned;
use serde_json::{Map, Number, Value};

use crate::errors::invalid_argument;

/// Why a Python value cannot be an argument.
enum Problem {
    /// Not a type the argument can take (`TypeError`).
    Type(String),
    /// The right type but an unusable value (`InvalidArgumentError`).
    Value(String),
}

/// Decodes the arguments of `call` into `T`. `fixed` holds the arguments given by position
/// or always present (the patterns, a render format); `options` the keyword arguments.
pub fn decode_kwargs<T: DeserializeOwned>(
    py: Python<'_>,
    call: &str,
    fixed: &[(&str, &Bound<'_, PyAny>)],
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<T> {
    let mut positional = Map::new();
    for &(name, value) in fixed {
        positional.insert(name.to_owned(), to_json(value, 0).map_err(|p| argument_error(py, call, name, p))?);
    }
    let mut keywords = Vec::new();
    for (key, value) in options.into_iter().flat_map(|options| options.iter()) {
        let name: String = key.extract()?;
        if positional.contains_key(&name) {
            return Err(PyTypeError::new_err(format!("{call}() got multiple values for argument '{name}'")));
        }
        let value = to_json(&value, 0).map_err(|p| argument_error(py, call, &name, p))?;
        keywords.push((name, value));
    }
    let mut all = positional.clone();
    all.extend(keywords.iter().cloned());
    serde_json::from_value(Value::Object(all))
        .map_err(|error| explain::<T>(py, call, error, &positional, &keywords))
}

/// Turns serde's complaint about a whole call into Python's error for one argument.
fn explain<T: DeserializeOwned>(
    py: Python<'_>,
    call: &str,
    error: serde_json::Error,
    positional: &Map<String, Value>,
    keywords: &[(String, Value)],
) -> PyErr {
    let message = error.to_string();
    if let Some(name) = quoted_name(&message, "unknown field `") {
        return PyTypeError::new_err(format!("{call}() got an unexpected keyword argument '{name}'"));
    }
    if let Some(name) = quoted_name(&message, "duplicate field `") {
        return PyTypeError::new_err(format!("{call}() got '{name}' twice (under its name and its alias)"));
    }
    // Name the first argument that fails on its own: the positional ones, then each keyword.
    let fails = |given: Map<String, Value>| serde_json::from_value::<T>(Value::Object(given)).err();
    let culprit = match fails(positional.clone()) {
        Some(failure) => positional.keys().next().map(|name| (name.clone(), failure)),
        None => keywords.iter().find_map(|(name, value)| {
            let mut alone = positional.clone();
            alone.insert(name.clone(), value.clone());
            fails(alone).map(|failure| (name.clone(), failure))
        }),
    };
    match culprit {
        Some((name, failure)) => argument_error(py, call, &name, classify(failure.to_string())),
        None => invalid_argument(py, format!("{call}(): {message}")),
    }
}

/// Decodes one argument (`intent="read"`) into `T`.
pub fn decode_argument<T: DeserializeOwned>(call: &str, name: &str, value: &Bound<'_, PyAny>) -> PyResult<T> {
    let py = value.py();
    let value = to_json(value, 0).map_err(|p| argument_error(py, call, name, p))?;
    serde_json::from_value(value).map_err(|e| argument_error(py, call, name, classify(e.to_string())))
}

/// A filesystem path argument: `str` (with `os.fsdecode`'s surrogate escapes for non-UTF-8
/// bytes), `bytes` or `os.PathLike`, encoded with `os.fsencode` so no byte is lost.
pub fn fs_path(call: &str, name: &str, value: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    use std::os::unix::ffi::OsStrExt;
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
    Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes.as_bytes())))
}

/// Serde's wording says which kind of mistake it is: a value of the wrong shape is a
/// `TypeError`, a well-typed but unusable one a `ValueError`.
fn classify(message: String) -> Problem {
    let wrong_type = ["invalid type:", "data did not match any variant", "invalid length"];
    if wrong_type.iter().any(|start| message.starts_with(start)) {
        Problem::Type(message)
    } else {
        Problem::Value(message)
    }
}

fn argument_error(py: Python<'_>, call: &str, name: &str, problem: Problem) -> PyErr {
    match problem {
        Problem::Type(why) => {
            PyTypeError::new_err(format!("{call}() argument '{name}': {}", in_python_terms(why)))
        }
        Problem::Value(why) => {
            invalid_argument(py, format!("{call}() argument '{name}': {}", in_python_terms(why)))
        }
    }
}

/// Serde's words for Rust types, said in Python's.
fn in_python_terms(message: String) -> String {
    const WORDS: [(&str, &str); 5] = [
        ("data did not match any variant of untagged enum OneOrManyRepr", "expected a str or a list of str"),
        ("expected usize", "expected an int >= 0"),
        ("expected u64", "expected an int >= 0"),
        ("expected variant identifier", "expected a str"),
        ("expected string or map", "expected a str"),
    ];
    WORDS.iter().fold(message, |text, (rust, python)| text.replace(rust, python))
}

/// The name in serde's "unknown field `name`, expected …" style messages.
fn quoted_name<'a>(message: &'a str, start: &str) -> Option<&'a str> {
    message.strip_prefix(start)?.split('`').next()
}

/// How deep lists may nest in an argument. Arguments are strings or lists of strings; the
/// bound keeps a list that contains itself (or one nested thousands deep) from recursing
/// until the stack overflows and the interpreter dies.
const MAX_NESTING: usize = 16;

/// A Python argument value as JSON-like data: `None`, `bool`, `int`, `float`, `str`,
/// `os.PathLike` (as its `str` path), and lists or tuples of those, `depth` lists deep.
fn to_json(value: &Bound<'_, PyAny>, depth: usize) -> Result<Value, Problem> {
    if depth > MAX_NESTING {
        return Err(Problem::Type(format!(
            "lists nested more than {MAX_NESTING} deep (or a list that contains itself) are not accepted here"
        )));
    }
    if value.is_none() {
        Ok(Value::Null)
    } else if let Ok(flag) = value.cast::<PyBool>() {
        Ok(Value::Bool(flag.is_true()))
    } else if let Ok(int) = value.cast::<PyInt>() {
        if let Ok(small) = int.extract::<i64>() {
            Ok(Value::from(small))
        } else {
            int.extract::<u64>()
                .map(Value::from)
                .map_err(|_| Problem::Value(format!("{int} is out of range")))
        }
    } else if let Ok(float) = value.cast::<PyFloat>() {
        let number = float.value();
        Number::from_f64(number)
            .map(Value::Number)
            .ok_or_else(|| Problem::Value(format!("{number} is not finite")))
    } else if let Ok(text) = value.cast::<PyString>() {
        text.to_cow().map(|text| Value::String(text.into_owned())).map_err(|_| {
            Problem::Value("the string is not valid UTF-8 (it has surrogate escapes)".to_owned())
        })
    } else if let Ok(list) = value.cast::<PyList>() {
        list.iter().map(|item| to_json(&item, depth + 1)).collect()
    } else if let Ok(tuple) = value.cast::<PyTuple>() {
        tuple.iter().map(|item| to_json(&item, depth + 1)).collect()
    } else if let Some(path) = str_fspath(value) {
        to_json(&path, depth + 1)
    } else {
        let kind = value.get_type().name().map(|n| n.to_string()).unwrap_or_default();
        Err(Problem::Type(format!("{kind} is not accepted here")))
    }
}

/// `os.fspath(value)` when `value` is an `os.PathLike` of `str`.
fn str_fspath<'py>(value: &Bound<'py, PyAny>) -> Option<Bound<'py, PyAny>> {
    static FSPATH: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
    let path = FSPATH.import(value.py(), "os", "fspath").ok()?.call1((value,)).ok()?;
    path.is_instance_of::<PyString>().then_some(path)
}
