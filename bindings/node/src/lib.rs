//! Node.js binding of fsnative (napi-rs): converts types and errors, nothing more.
