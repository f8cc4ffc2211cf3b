//! Sandboxed, native filesystem search for agent tools: path validation, grep and glob.
//!
//! Everything goes through a [`Sandbox`], built once from the directories a tool may touch.
//! Nothing outside them is ever read or listed: paths are resolved symlink by symlink before
//! they are admitted, and walks never follow a link that leads out.
//!
//! # Example: validate, grep, glob
//!
//! ```
//! use fsnative::{GlobRequest, GrepRequest, Intent, Sandbox};
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("notes.txt"), "alpha\nTODO: beta\n")?;
//! let sandbox = Sandbox::new([dir.path()])?;
//!
//! // Paths from an agent are validated before use.
//! let path = sandbox.validate("notes.txt", Intent::Read)?;
//! assert!(path.ends_with("notes.txt"));
//! assert_eq!(sandbox.validate("../elsewhere", Intent::Read).unwrap_err().code().as_str(), "OUTSIDE_SANDBOX");
//!
//! // Content search, like `rg TODO`.
//! let found = sandbox.grep(&GrepRequest::new("TODO"))?;
//! assert_eq!(found.files[0].matches[0].line_number, 2);
//!
//! // File-name search.
//! let listed = sandbox.glob(&GlobRequest::new("**/*.txt"))?;
//! assert_eq!(listed.total, 1);
//! # Ok(()) }
//! ```
//!
//! Requests deserialize from JSON-like data with serde (snake_case names), which is how the
//! Node and Python bindings and the shared conformance vectors drive them; results
//! serialize back. [`render`] turns a grep result into ripgrep's own text or JSON output.
#![deny(missing_docs)]

/// With the `mimalloc` feature (the Node and Python modules enable it), mimalloc serves every
/// Rust allocation of the built library; see the feature's note in Cargo.toml.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod beneath;
mod control;
mod error;
mod glob;
mod grep;
mod request;
mod result;
mod sandbox;
mod walk;

pub mod render;

pub use control::CancelToken;
pub use error::{catch_panic, Error, ErrorCode, Result};
pub use grep::{MAX_BUFFER_BYTES, MAX_COMPILED_BYTES, MAX_PATTERN_BYTES, MAX_PATTERN_NESTING, MAX_THREADS};
pub use request::{
    CaseMode, EntryKind, GlobRequest, GrepRequest, OneOrMany, OutputMode, SortOrder, DEFAULT_GLOB_LIMIT,
    DEFAULT_GREP_LIMIT,
};
pub use result::{
    ContextLine, FileMatches, GlobEntry, GlobResult, GlobStats, GrepResult, GrepStats, Match, Truncation,
};
pub use sandbox::{Intent, Sandbox, MAX_SYMLINK_HOPS};

impl Sandbox {
    /// Searches file contents. See [`GrepRequest`] for every option.
    pub fn grep(&self, request: &GrepRequest) -> Result<GrepResult> {
        grep::run(self, request, &CancelToken::new())
    }

    /// Like [`grep`](Sandbox::grep), stoppable from another thread through `cancel`.
    pub fn grep_cancellable(&self, request: &GrepRequest, cancel: &CancelToken) -> Result<GrepResult> {
        grep::run(self, request, cancel)
    }

    /// Lists entries whose path matches glob patterns. See [`GlobRequest`].
    pub fn glob(&self, request: &GlobRequest) -> Result<GlobResult> {
        glob::run(self, request, &CancelToken::new())
    }

    /// Like [`glob`](Sandbox::glob), stoppable from another thread through `cancel`.
    pub fn glob_cancellable(&self, request: &GlobRequest, cancel: &CancelToken) -> Result<GlobResult> {
        glob::run(self, request, cancel)
    }
}

/// The README's Rust example, compiled as a doc test so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExample;
