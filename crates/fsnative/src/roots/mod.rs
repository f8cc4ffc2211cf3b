//! The roots layer, right above the OS layer (`sys`): the canonical roots and everything that decides what lies
//! inside them. Paths are validated and resolved symlink by symlink ([`Roots`]); files and
//! directories are opened beneath a root's handle ([`RootDirs`]); and each symlink a walk
//! lists is looked through once and followed, refused or skipped ([`look_through`],
//! [`decide`]); and the MCP filesystem server's textual check ([`is_path_within`]). It imports
//! nothing above it, and opens and reads through `sys` alone.

mod beneath;
mod file_uri;
mod links;
mod resolve;
mod validate;
mod windows_text;
mod within;

pub(crate) use beneath::{open_regular_at, RootDirs};
pub(crate) use links::{decide, look_through, Decision, EntryType, Followed, LinkTarget};
pub use resolve::MAX_SYMLINK_HOPS;
pub(crate) use resolve::{below, canonical, canonicalize, strip_base};
pub use validate::Intent;
pub(crate) use validate::{Location, Roots};
pub use within::is_path_within;
