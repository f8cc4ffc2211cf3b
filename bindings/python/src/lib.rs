//! Python binding of fsnative (PyO3): converts types and errors, nothing more.
