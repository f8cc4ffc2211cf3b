//! File-name search: glob patterns over a sandboxed walk in path order, on the walking and
//! roots layers.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use crate::control::{CancelToken, Control};
use crate::error::{Error, ErrorCode, Result};
use crate::index::{Index, Kind as IndexedKind, View};
use crate::rank::Frecency;
use crate::request::{EntryKind, GlobRequest, GlobSyntax, SortOrder};
use crate::result::{GlobEntry, GlobResult, GlobStats, Truncation};
use crate::roots::{decide, look_through, Decision, EntryType, RootDirs, Roots};
use crate::sys::os_str;
use crate::walk::{
    self, Constraints, PathPatterns, SkipCounters, Target, WalkOptions, Walked, WalkedKind, Walker,
};

/// Compiled include patterns, and (glob syntax) the `!` patterns that exclude.
struct Patterns {
    include: PathPatterns,
    exclude: Option<PathPatterns>,
}

impl Patterns {
    fn compile(request: &GlobRequest) -> Result<Patterns> {
        if request.patterns.0.is_empty() {
            return Err(Error::new(ErrorCode::InvalidArgument, "at least one glob pattern is required"));
        }
        let all: Vec<&str> = request.patterns.0.iter().map(String::as_str).collect();
        let case_insensitive = request.case_insensitive;
        if request.syntax == GlobSyntax::Minimatch {
            // minimatch reads a leading `!` itself (it negates).
            let include = PathPatterns::compile(&all, GlobSyntax::Minimatch, case_insensitive)?;
            return Ok(Patterns { include, exclude: None });
        }
        let (negated, mut include): (Vec<&str>, Vec<&str>) = all.iter().partition(|p| p.starts_with('!'));
        if include.is_empty() {
            include.push("**");
        }
        let negated: Vec<&str> = negated.iter().map(|p| &p[1..]).collect();
        Ok(Patterns {
            include: PathPatterns::compile(&include, GlobSyntax::Glob, case_insensitive)?,
            exclude: Some(PathPatterns::compile(&negated, GlobSyntax::Glob, case_insensitive)?)
                .filter(|set| !set.is_empty()),
        })
    }

    fn matches(&self, relative: &Path) -> bool {
        let relative = crate::sys::slashed(relative.as_os_str().as_encoded_bytes());
        self.include.matches(&relative) && !self.exclude.as_ref().is_some_and(|set| set.matches(&relative))
    }
}

/// An entry that matched, before sorting.
struct Found {
    target: usize,
    path: PathBuf,
    relative: PathBuf,
    /// Where it really lies, when a followed link put it elsewhere than `path`.
    real: Option<PathBuf>,
    is_dir: bool,
}

/// What a walk's entries are matched against, and where what they hide is counted.
struct WalkMatcher<'a> {
    roots: &'a Roots,
    request: &'a GlobRequest,
    patterns: &'a Patterns,
    skipped: &'a SkipCounters,
    /// The search target's number.
    target: usize,
    /// Relative paths are the walked paths from this byte on (after the target and a
    /// separator).
    base_len: usize,
}

impl WalkMatcher<'_> {
    /// The walked `entry` as found, when its kind is wanted and its path matches. A cloud
    /// placeholder is listed all the same (its name matched) and counted in `skipped.special`,
    /// as grep counts the placeholders it does not read.
    fn found(&self, entry: Walked) -> Option<Found> {
        let is_dir = entry_is_dir(self.roots, &entry, self.skipped)?;
        let wanted = match self.request.kind {
            EntryKind::Files => !is_dir,
            EntryKind::Dirs => is_dir,
            EntryKind::All => true,
        };
        let relative = Path::new(os_str(&entry.path.as_os_str().as_encoded_bytes()[self.base_len..]));
        if !(wanted && self.patterns.matches(relative)) {
            return None;
        }
        if entry.dataless {
            SkipCounters::add(&self.skipped.special);
        }
        let relative = relative.to_path_buf();
        let real = entry.at.map(|at| self.roots.paths()[at.root].join(at.relative));
        Some(Found { target: self.target, relative, path: entry.path, real, is_dir })
    }
}

/// Runs `request` inside `roots`, from `index` when it can answer; in frecency order by
/// `frecency`.
pub(crate) fn run(
    roots: &Roots,
    index: Option<&Index>,
    frecency: Option<&Frecency>,
    request: &GlobRequest,
    cancel: &CancelToken,
) -> Result<GlobResult> {
    let started = Instant::now();
    let frecency = match (request.sort, frecency) {
        (SortOrder::Frecency, None) => {
            let message = "glob option `sort` is \"frecency\", but the sandbox has no frecency database (Sandbox option `frecency`)";
            return Err(Error::new(ErrorCode::InvalidOption, message).with_option("sort"));
        }
        (SortOrder::Frecency, Some(frecency)) => Some(frecency),
        _ => None,
    };
    let control = Control::new(cancel, request.timeout_ms);
    let patterns = Patterns::compile(request)?;
    let targets = walk::targets(roots, &request.paths.0)?;
    if let Some(file) = targets.iter().find(|t| !t.is_dir) {
        return Err(Error::new(
            ErrorCode::NotADirectory,
            format!("glob base {} is not a directory", file.path.display()),
        )
        .with_path(&file.path));
    }
    let constraints = Constraints::parse(request.constraints.as_deref())?;
    let constraints = constraints.map(Arc::new);
    let exclude: Vec<&str> = request.exclude.0.iter().map(String::as_str).collect();
    let exclude = match exclude.is_empty() {
        true => None,
        false => Some(Arc::new(PathPatterns::compile(&exclude, request.syntax, request.case_insensitive)?)),
    };
    let options = WalkOptions {
        constraints: constraints.clone(),
        hidden: request.hidden,
        follow_links: request.follow_links,
        no_ignore: request.no_ignore,
        max_depth: request.max_depth,
        git_dir: request.git_dir,
        exclude,
        ..WalkOptions::default()
    };
    // The index answers a glob with the walk's default options (hidden entries and links
    // left out, ignore files honoured, nothing pruned); any other walks.
    let answers = !request.hidden
        && !request.follow_links
        && !request.no_ignore
        && options.exclude.is_none()
        && !request.git_dir;
    let view = index.filter(|_| answers).and_then(Index::view);
    let view = view.filter(|view| targets.iter().all(|t| view.lists(t.root, &t.below_root(roots))));
    let dirs = RootDirs::open(roots)?;
    let skipped = SkipCounters::default();
    let walked = AtomicU64::new(0);
    let mut found = Vec::new();
    // Matches past the limit that were counted but not kept (path order only).
    let mut uncounted = 0u64;
    let mut truncated = control.interruption();
    for (index, target) in targets.iter().enumerate() {
        if truncated.is_some() {
            break;
        }
        if let Some(view) = &view {
            let keep = match request.sort {
                SortOrder::Mtime | SortOrder::Frecency => usize::MAX,
                _ => request
                    .limit
                    .map_or(usize::MAX, |l| usize::try_from(l).unwrap_or(usize::MAX).saturating_add(1)),
            };
            let search = Indexed {
                roots,
                request,
                patterns: &patterns,
                constraints: constraints.as_deref(),
                skipped: &skipped,
                keep,
            };
            uncounted += search.collect(view, target, index, &mut found, &walked);
            truncated = control.interruption();
            continue;
        }
        // Relative paths are the walked paths after the target and a separator.
        let base = target.path.as_os_str().as_encoded_bytes();
        let base_len = base.len() + usize::from(!crate::sys::ends_with_separator(base));
        let matcher =
            WalkMatcher { roots, request, patterns: &patterns, skipped: &skipped, target: index, base_len };
        let matching = |entry: Walked| {
            walked.fetch_add(1, Ordering::Relaxed);
            matcher.found(entry)
        };
        let walker = Walker::new(&dirs, &options, &skipped, &control);
        walker.run_all(target, crate::control::default_threads(), matching, |entry| {
            found.push(entry);
            true
        });
        truncated = control.interruption();
    }
    match frecency {
        Some(frecency) => by_frecency(&mut found, frecency)?,
        None => sort(&mut found, request.sort),
    }
    let total = found.len() as u64 + uncounted;
    if let Some(limit) = request.limit {
        if total > limit {
            found.truncate(limit as usize);
            truncated = truncated.or(Some(Truncation::Limit));
        }
    }
    let entries = found
        .into_iter()
        .map(|f| GlobEntry {
            path: f.path,
            relative_path: crate::result::slashed_relative(f.relative),
            is_dir: f.is_dir,
        })
        .collect();
    Ok(GlobResult {
        entries,
        total,
        truncated,
        stats: GlobStats {
            entries_walked: walked.into_inner(),
            skipped_special: SkipCounters::get(&skipped.special),
            skipped_outside: SkipCounters::get(&skipped.outside),
            skipped_errors: SkipCounters::get(&skipped.errors),
            elapsed_ms: started.elapsed().as_secs_f64() * 1000.0,
        },
    })
}

/// A glob answered from the index.
struct Indexed<'a> {
    roots: &'a Roots,
    request: &'a GlobRequest,
    patterns: &'a Patterns,
    /// Files must pass these (paths relative to the base), as in a walk.
    constraints: Option<&'a Constraints>,
    skipped: &'a SkipCounters,
    /// How many matches to keep; the rest are only counted.
    keep: usize,
}

impl Indexed<'_> {
    /// Adds the entries below `target` (search target number `number`) that match to
    /// `found`, as the walk would have; returns how many more matched than were kept.
    fn collect(
        &self,
        view: &View<'_>,
        target: &Target,
        number: usize,
        found: &mut Vec<Found>,
        walked: &AtomicU64,
    ) -> u64 {
        let request = self.request;
        let root_path = &self.roots.paths()[target.root];
        let dir = &*target.below_root(self.roots);
        let name_start = if dir.is_empty() { 0 } else { dir.len() + 1 };
        let mut uncounted = 0;
        let mut count = 0u64;
        for (_, entry, _, _) in view.walk(target.root, dir, request.max_depth, None, self.skipped) {
            let relative = &entry.path[name_start..];
            // The walk tests constraints on what it lists, before it counts it or follows a link.
            if entry.kind != IndexedKind::Dir
                && self.constraints.is_some_and(|constraints| !constraints.matches(relative))
            {
                continue;
            }
            count += 1;
            let is_dir = match entry.kind {
                IndexedKind::Dir => true,
                IndexedKind::Symlink => {
                    let path = root_path.join(crate::sys::native_path(&entry.path));
                    let link = Walked { path, kind: WalkedKind::Symlink, at: None, dataless: false };
                    let Some(is_dir) = entry_is_dir(self.roots, &link, self.skipped) else {
                        continue;
                    };
                    is_dir
                }
                _ => false,
            };
            let wanted = match request.kind {
                EntryKind::Files => !is_dir,
                EntryKind::Dirs => is_dir,
                EntryKind::All => true,
            };
            let relative = Path::new(os_str(relative));
            if !(wanted && self.patterns.matches(relative)) {
                continue;
            }
            if found.len() >= self.keep {
                uncounted += 1;
                continue;
            }
            let path = root_path.join(crate::sys::native_path(&entry.path));
            found.push(Found { target: number, relative: relative.to_path_buf(), path, real: None, is_dir });
        }
        walked.fetch_add(count, Ordering::Relaxed);
        uncounted
    }
}

/// Whether a walked entry is a directory; `None` when it must not be yielded. A symlink that
/// was not followed is yielded as what it points to, only when that lies inside (a dangling
/// link counts as outside).
pub(crate) fn entry_is_dir(roots: &Roots, entry: &Walked, skipped: &SkipCounters) -> Option<bool> {
    match entry.kind {
        WalkedKind::File => return Some(false),
        WalkedKind::Dir => return Some(true),
        WalkedKind::Symlink => {}
    }
    let followed = look_through(roots, &entry.path);
    let decision =
        followed.as_ref().map_or(Decision::Outside, |followed| decide(EntryType::Symlink, Some(followed)));
    match decision {
        Decision::Keep(kind) => Some(kind == EntryType::Dir),
        Decision::Outside => {
            SkipCounters::add(&skipped.outside);
            None
        }
        Decision::Special => {
            SkipCounters::add(&skipped.special);
            None
        }
    }
}

fn sort(found: &mut [Found], order: SortOrder) {
    match order {
        // Targets are walked in order, each in path order already.
        SortOrder::Path => {}
        SortOrder::Mtime => found.sort_by_cached_key(|f| {
            (std::cmp::Reverse(walk::modified_ns(&f.path)), f.target, f.relative.clone())
        }),
        SortOrder::Frecency | SortOrder::None => {}
    }
}

/// Sorts `found` by frecency (of where each entry really lies), highest first; ties by path.
fn by_frecency(found: &mut Vec<Found>, frecency: &Frecency) -> Result<()> {
    let scores = frecency.scores(found.iter().map(|f| f.real.as_deref().unwrap_or(&f.path)))?;
    let mut ranked: Vec<(f64, Found)> = scores.into_iter().zip(found.drain(..)).collect();
    ranked.sort_by(|(a, fa), (b, fb)| b.total_cmp(a).then_with(|| fa.path.cmp(&fb.path)));
    found.extend(ranked.into_iter().map(|(_, f)| f));
    Ok(())
}

#[cfg(test)]
mod tests;
