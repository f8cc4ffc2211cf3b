//! The symlink policy: what a listed entry is, and whether a link is followed (its target
//! lies inside), refused (it lies outside) or skipped (it is a FIFO, socket or device). A
//! link is looked through once per entry; its target's place inside the sandbox then serves
//! every later step, so nothing resolves it again.

use std::path::Path;

use super::resolve::Resolution;
use super::validate::{Location, Roots};
use crate::sys;
pub(crate) use crate::sys::EntryType;

/// Where a followed symlink leads, found by looking through it once.
#[derive(Clone, Debug)]
pub(crate) enum Followed {
    /// To an entry inside the sandbox.
    Inside(LinkTarget),
    /// Out of every root (or nowhere, out there): refused.
    Outside,
}

/// The entry inside the sandbox that a symlink leads to.
#[derive(Clone, Debug)]
pub(crate) struct LinkTarget {
    /// The target's type: never [`EntryType::Symlink`].
    pub kind: EntryType,
    /// The target's device and inode, which tell a directory that contains the link.
    pub identity: (u64, u64),
    /// The target's size in bytes.
    pub len: u64,
    /// Where the target lies beneath a root.
    pub at: Location,
}

/// Looks through the symlink at `path` (absolute); `None` when its target inside cannot be
/// reached (a dangling link, a loop of links). A link that leads out is [`Followed::Outside`]
/// whether or not its target exists, and nothing outside is ever stat'ed.
pub(crate) fn look_through(roots: &Roots, path: &Path) -> Option<Followed> {
    let canonical = match roots.resolve(path) {
        Ok(Resolution::Exists(canonical)) => canonical,
        Ok(Resolution::Fenced) => return Some(Followed::Outside),
        Ok(Resolution::Missing { .. }) | Err(_) => return None,
    };
    let Some(at) = roots.locate(&canonical) else {
        return Some(Followed::Outside);
    };
    let meta = sys::stat_path(&canonical).ok()?;
    Some(Followed::Inside(LinkTarget { kind: meta.kind, identity: meta.identity, len: meta.size, at }))
}

/// What becomes of an entry that the walk's own filters kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Yield it as this type: a file, a directory, or a symlink that is not followed.
    Keep(EntryType),
    /// A followed link whose target resolves outside every root: refused.
    Outside,
    /// A FIFO, socket or device, or a followed link to one: skipped.
    Special,
}

/// Decides on an entry listed as `listed`, given where it leads when it is a followed link.
/// Outside is checked first, so a link to a device outside counts as outside.
pub(crate) fn decide(listed: EntryType, followed: Option<&Followed>) -> Decision {
    let kind = match followed {
        Some(Followed::Outside) => return Decision::Outside,
        Some(Followed::Inside(target)) => target.kind,
        None => listed,
    };
    match kind {
        EntryType::Special => Decision::Special,
        kind => Decision::Keep(kind),
    }
}
