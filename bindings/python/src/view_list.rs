//! Lists of result views, built without burdening Python's cycle collector.

use pyo3::prelude::*;
use pyo3::types::PyList;
use pyo3::PyClass;

/// A Python list of `views`, none of them tracked by the cyclic garbage collector.
///
/// Every `#[pyclass]` object is created GC-tracked, and building 100k tracked objects sets
/// off collection after collection that walks all of them again (for 100k matches that took
/// 5x the time of the allocations). A view holds an `Arc` of Rust data and indices, never a
/// Python reference, so it can be part of no reference cycle: untracking it is sound.
pub fn untracked_views<'py, T: PyClass>(
    py: Python<'py>,
    views: impl Iterator<Item = T>,
) -> PyResult<Bound<'py, PyList>>
where
    PyClassInitializer<T>: From<T>,
{
    let objects = views
        .map(|view| {
            let object = Bound::new(py, view)?;
            // SAFETY: `object` is a live instance of a #[pyclass] (a GC type) owned here, on a
            // thread attached to the interpreter; untracking a tracked object is allowed.
            unsafe { pyo3::ffi::PyObject_GC_UnTrack(object.as_ptr().cast()) };
            Ok(object)
        })
        .collect::<PyResult<Vec<_>>>()?;
    PyList::new(py, objects)
}
