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
//! Requests are built from a caller's loosely typed options by [`options`], which holds every
//! default, every rule about option values and every complaint about them (each an
//! [`ErrorCode::InvalidOption`] naming the option); the bindings and the shared conformance
//! vectors all go through it. Requests also deserialize with serde (snake_case names), and
//! results serialize. [`render`] turns a grep result into ripgrep's own text or JSON output.
//!
//! # Layering
//!
//! The core stacks in six layers; each imports only the layers below it:
//! 1. `roots`: validating and resolving paths, opening beneath a root's handle, and every
//!    symlink decision (follow inside, refuse outside, skip special), made once per entry.
//! 2. `walk`: listing directories beneath the roots, with ignore files and filters (among
//!    them FFF-style constraints, which the searches also apply to what the index lists).
//! 3. `index`: the warm index (opt-in): the walk's file list and a content prefilter kept in
//!    memory and current by a filesystem watcher.
//! 4. `rank`: signals that rank paths whatever the query: frecency ([`Frecency`], in LMDB)
//!    and path boost ([`PathBoost`], from a thesaurus). It knows only paths.
//! 5. `grep`, `glob` and `find`: searches over walks, or over the index when it can answer;
//!    grep and glob ordered by frecency on request.
//! 6. [`Sandbox`]: a thin facade that owns the roots, the pattern cache, the index and the
//!    ranking signals.
//!
//! Below them all, `error`, `control`, `request` and `result` hold the shared types, `pool`
//! the helper threads that walks and searches borrow, and `memory` gives freed memory back to
//! the system after a burst of work; beside the facade, [`options`] builds
//! requests from what a binding's caller passed. `host` (hidden from the docs) holds the
//! plumbing only the Node and Python bindings use.
#![deny(missing_docs)]

/// With the `mimalloc` feature (the Node and Python modules enable it), mimalloc serves every
/// Rust allocation of the built library; see the feature's note in Cargo.toml.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

// The layers, lowest first; a module imports only those below it (and the shared modules:
// `error`, `control`, `memory`, `pool`, `request`, `result`).
mod find;
mod glob;
mod grep;
mod index;
mod rank;
mod roots;
mod sandbox;
mod sys;
mod walk;

mod control;
mod error;
mod memory;
mod pool;
mod request;
mod result;

#[doc(hidden)]
pub mod host;
pub mod options;
pub mod render;

pub use control::CancelToken;
pub use error::{Error, ErrorCode, Result};
pub use find::FRECENCY_POINTS;
pub use grep::MAX_THREADS;
pub use index::{IndexOptions, IndexState, IndexStatus, StoreStart, Watching};
pub use rank::{
    BoostStatus, Clock, Frecency, FrecencyOptions, FrecencyProfile, FrecencyStatus, PathBoost, Thesaurus,
    ThesaurusSource, FRECENCY_DB_ENV, MAX_ACCESSES_PER_FILE,
};
pub use request::{
    CaseMode, EntryKind, FindRequest, GlobRequest, GlobSyntax, GrepRequest, OneOrMany, OutputMode, SortOrder,
};
pub use result::{
    ContextLine, FileMatches, FindEntry, FindResult, FindStats, GlobEntry, GlobResult, GlobStats, GrepResult,
    GrepStats, Match, Truncation,
};
pub use roots::{Intent, MAX_SYMLINK_HOPS};
pub use sandbox::{Sandbox, SandboxOptions};

/// The README's Rust example, run as a doc test (in this crate's directory) so it cannot rot.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExample;

/// The Rust examples of the guides in docs/, compiled as doc tests.
#[cfg(doctest)]
mod guide_examples {
    #[doc = include_str!("../../../docs/find.md")]
    struct Find;
    #[doc = include_str!("../../../docs/warm-index.md")]
    struct WarmIndex;
    #[doc = include_str!("../../../docs/ranking.md")]
    struct Ranking;
}
