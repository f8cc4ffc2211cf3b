//! The walking layer: directory walks confined to the sandbox, shared by grep and glob. It
//! stands on the roots layer and knows nothing of searching.
//!
//! A walk starts at one validated target and yields entries in path order. It honours ignore
//! files with ripgrep's precedence (also those in the directories between the sandbox root and
//! the target, but never above the root), never enters `.git`, never follows a symlink whose
//! target resolves outside the sandbox, and drops FIFOs, sockets and devices. What it skips is
//! counted. The walk is fsnative's own: each directory is opened beneath its root's handle and
//! read with `getdents`, its ignore files are found in its listing rather than probed for, and
//! a caller that wants the whole tree can have it listed by several threads. The `ignore`
//! crate supplies the gitignore, glob-override and file-type matchers.
//!
//! Its modules stack without a loop: `constraints` (FFF-style file constraints, a matcher
//! like the `ignore` crate's), `entry` (what a walk yields) and `scope` (targets and options)
//! at the bottom; `queue` (directories listed by several threads) and `ignore_files`
//! on them; `minimatch` (the MCP filesystem server's pattern semantics) and `patterns` (a
//! pattern list in either syntax) beside them; `walker` on top.

mod constraints;
mod entry;
pub(crate) mod forms;
mod ignore_files;
mod minimatch;
mod patterns;
mod queue;
mod scope;
mod walker;

pub(crate) use constraints::{types, Constraints};
pub(crate) use entry::{modified_ns, SkipCounters, Walked, WalkedKind};
pub(crate) use patterns::PathPatterns;
pub(crate) use scope::{overrides, targets, Target, WalkOptions};
pub(crate) use walker::{DirNode, Walker};
