"""Types of the views of the core's records that ``fsnative._fsnative`` returns (search
results and status snapshots); import them from ``fsnative``."""

from typing import Any, Literal, final

from typing_extensions import TypeAlias

__all__ = [
    "ContextLine",
    "FileMatches",
    "FindEntry",
    "FindResult",
    "FindStats",
    "GlobEntry",
    "GlobResult",
    "GlobStats",
    "GrepResult",
    "GrepStats",
    "IndexStatus",
    "Match",
    "ThesaurusStatus",
]

_OutputMode: TypeAlias = Literal["content", "files", "count"]
_Truncation: TypeAlias = Literal["limit", "timeout", "cancelled"]
_PathStyle: TypeAlias = Literal["absolute", "relative"]
_PlainData: TypeAlias = dict[str, Any]
_IndexState: TypeAlias = Literal["building", "ready", "failed", "closed"]
_Watching: TypeAlias = Literal["live", "partial", "off"]

class _Record:
    """What every result view has: the core record as plain data."""

    def to_json(self) -> str:
        """The core's serde JSON of this record (snake_case; a non-UTF-8 path is
        ``{"bytes": base64}``)."""

    def to_dict(self) -> _PlainData:
        """``json.loads(self.to_json())``."""

class _WalkCounters(_Record):
    """The counters every walk keeps."""

    @property
    def skipped_special(self) -> int:
        """Entries skipped because they are FIFOs, sockets or devices."""

    @property
    def skipped_outside(self) -> int:
        """Symlinks not followed because their target resolves outside the sandbox."""

    @property
    def elapsed_ms(self) -> float:
        """Wall-clock time of the call in milliseconds."""

@final
class GrepResult(_Record):
    """The answer to :meth:`Sandbox.grep`: files with matches, in the requested order.

    Fields are read from the core's result when accessed; ``files`` and ``matches`` build
    lightweight views.
    """

    @property
    def files(self) -> list[FileMatches]:
        """Files with matches (a new list of views each time)."""

    @property
    def total_matches(self) -> int:
        """Sum of ``count`` over ``files``."""

    @property
    def truncated(self) -> _Truncation | None:
        """Why the page stopped early, or None when it is complete."""

    @property
    def next_cursor(self) -> str | None:
        """Pass back as ``cursor=`` with the same arguments to get the next page."""

    @property
    def mode(self) -> _OutputMode:
        """The mode the search ran in."""

    @property
    def context_enabled(self) -> bool:
        """Context lines were requested (ripgrep then separates groups with ``--``)."""

    @property
    def single_file(self) -> bool:
        """The scope was exactly one regular file (ripgrep then prints no path prefix)."""

    @property
    def stats(self) -> GrepStats:
        """What the search did."""

    def render(
        self,
        format: Literal["standard", "json"] = "standard",
        *,
        path_style: _PathStyle = "absolute",
        with_filename: bool | None = None,
        heading: bool = False,
        line_number: bool = True,
    ) -> str:
        """The result as ripgrep prints it, byte for byte.

        Args:
            format: ``"standard"`` (rg's non-TTY output for the search's mode: ``-n``,
                ``-l``, ``-c``, ``-C``) or ``"json"`` (``rg --json`` lines; takes only
                ``path_style``).
            path_style: ``"absolute"`` (as ``rg PATTERN /abs/dir`` prints) or
                ``"relative"`` (as ``rg PATTERN`` run inside the root prints).
            with_filename: Print the path on each line (``-H``/``-I``); None decides as rg
                does (a path unless the scope was one file).
            heading: Group matches under a path heading (``--heading``).
            line_number: Print line numbers (``-n``).
        """

    def render_bytes(
        self,
        format: Literal["standard", "json"] = "standard",
        *,
        path_style: _PathStyle = "absolute",
        with_filename: bool | None = None,
        heading: bool = False,
        line_number: bool = True,
    ) -> bytes:
        """``render`` as bytes: file names and lines that are not UTF-8 as they are on disk,
        as rg prints them (``render`` replaces those bytes with U+FFFD). Same options."""

@final
class FileMatches(_Record):
    """All that one file contributed to a grep."""

    @property
    def path(self) -> str:
        """Absolute path, decoded like ``os.fsdecode``."""

    @property
    def relative_path(self) -> str:
        """Path relative to the sandbox root it lies in (``/``-separated)."""

    @property
    def count(self) -> int:
        """Matching lines in this page (content and count modes); 1 in files mode."""

    @property
    def bytes_searched(self) -> int:
        """Bytes the searcher read from this file (ripgrep's per-file ``bytes_searched``)."""

    @property
    def binary_offset(self) -> int | None:
        """Offset of the NUL byte at which this file's search stopped after matches, or None."""

    @property
    def matches(self) -> list[Match]:
        """The matches in content mode, else empty (a new list of views each time)."""

@final
class Match(_Record):
    """One matching line (or, in multiline mode, the lines matched together)."""

    @property
    def line_number(self) -> int:
        """1-based number of the (first) line."""

    @property
    def column(self) -> int:
        """1-based byte column of the first submatch (1 when inverted)."""

    @property
    def byte_offset(self) -> int:
        """Byte offset of the line's start in the file."""

    @property
    def text(self) -> str:
        """The line(s) without the final terminator; invalid UTF-8 becomes U+FFFD."""

    @property
    def truncated(self) -> bool:
        """The line was longer than ``max_columns`` and ``text`` holds only its beginning."""

    @property
    def submatches(self) -> list[tuple[int, int]]:
        """``(start, end)`` byte ranges of each match within ``text`` encoded as UTF-8."""

    @property
    def section_end(self) -> int | None:
        """With ``section_end_patterns``: the first later line matching one of them, or
        ``None`` when no later line does (the section runs to the end of the file)."""

    @property
    def before(self) -> list[ContextLine]:
        """Context lines just before this match."""

    @property
    def after(self) -> list[ContextLine]:
        """Context lines just after this match."""

@final
class ContextLine(_Record):
    """One line of context around a match."""

    @property
    def line_number(self) -> int:
        """1-based line number."""

    @property
    def byte_offset(self) -> int:
        """Byte offset of the line's start in the file."""

    @property
    def text(self) -> str:
        """The line without its terminator; invalid UTF-8 becomes U+FFFD."""

    @property
    def truncated(self) -> bool:
        """The line was longer than ``max_columns`` and ``text`` holds only its beginning."""

@final
class GrepStats(_WalkCounters):
    """Counters of what a grep did."""

    @property
    def files_walked(self) -> int:
        """Files the walk yielded as candidates (after ignore, glob and type filters)."""

    @property
    def files_searched(self) -> int:
        """Files opened and searched."""

    @property
    def files_matched(self) -> int:
        """Files with at least one match."""

    @property
    def skipped_binary(self) -> int:
        """Files skipped because they contain a NUL byte."""

    @property
    def skipped_errors(self) -> int:
        """Files or directories that could not be read."""

    @property
    def bytes_searched(self) -> int:
        """Bytes read by the searcher."""

@final
class GlobResult(_Record):
    """The answer to :meth:`Sandbox.glob`: matching entries, in the requested order."""

    @property
    def entries(self) -> list[GlobEntry]:
        """Matching entries, at most ``limit`` (a new list of views each time)."""

    @property
    def total(self) -> int:
        """How many entries matched in all, also past the limit."""

    @property
    def truncated(self) -> _Truncation | None:
        """Why ``entries`` is incomplete, or None."""

    @property
    def stats(self) -> GlobStats:
        """What the walk did."""

@final
class GlobEntry(_Record):
    """One entry yielded by a glob."""

    @property
    def path(self) -> str:
        """Absolute path, decoded like ``os.fsdecode``."""

    @property
    def relative_path(self) -> str:
        """Path relative to the base directory it was matched from (``/``-separated)."""

    @property
    def is_dir(self) -> bool:
        """The entry is a directory."""

@final
class GlobStats(_WalkCounters):
    """Counters of what a glob did."""

    @property
    def entries_walked(self) -> int:
        """Entries the walk visited."""

    @property
    def skipped_errors(self) -> int:
        """Directories that could not be read."""

@final
class FindResult(_Record):
    """The answer to :meth:`Sandbox.find`: the best matches, best first."""

    @property
    def entries(self) -> list[FindEntry]:
        """The best matches, at most ``limit``; ties go to the shorter path, then path
        order (a new list of views each time)."""

    @property
    def total(self) -> int:
        """How many files matched in all, also past the limit."""

    @property
    def truncated(self) -> _Truncation | None:
        """Why ``entries`` is incomplete, or None."""

    @property
    def stats(self) -> FindStats:
        """What the search did."""

@final
class FindEntry(_Record):
    """One file a find ranked. ``score`` is the sum of the additive parts (``fuzzy``,
    ``filename_bonus``, ``exact_bonus``, ``path_boost``, ``frecency``)."""

    @property
    def path(self) -> str:
        """Absolute path, decoded like ``os.fsdecode``."""

    @property
    def relative_path(self) -> str:
        """Path relative to the directory searched (``/``-separated): what the query
        matched."""

    @property
    def score(self) -> int:
        """The rank: the sum of the parts. Higher is better."""

    @property
    def fuzzy(self) -> int:
        """The fuzzy match of the query on the relative path (typos allowed)."""

    @property
    def filename_bonus(self) -> int:
        """The query (after its last ``/``) matched inside the file name."""

    @property
    def exact_bonus(self) -> int:
        """The query (after its last ``/``) is the file name, or the name without its
        extension."""

    @property
    def path_boost(self) -> int:
        """The thesaurus concepts the path (relative to its root) mentions, times the
        weight, capped; 0 without a thesaurus."""

    @property
    def frecency(self) -> int:
        """The file's frecency in points (4 per unit, rounded); 0 without a database."""

    @property
    def typos(self) -> int:
        """Query characters the best alignment left unmatched or matched to another one."""

@final
class FindStats(_Record):
    """Counters of what a find did."""

    @property
    def candidates(self) -> int:
        """Files the query was matched against (after ``path`` and constraints)."""

    @property
    def indexed(self) -> bool:
        """The files came from the warm index (else from a walk)."""

    @property
    def elapsed_ms(self) -> float:
        """Wall-clock time of the call in milliseconds."""

@final
class IndexStatus(_Record):
    """A snapshot of a sandbox's warm index (:meth:`Sandbox.index_status`)."""

    @property
    def state(self) -> _IndexState:
        """``"building"`` (searches walk meanwhile), ``"ready"``, ``"failed"`` (see
        ``error``; searches walk) or ``"closed"``."""

    @property
    def files(self) -> int:
        """Files listed."""

    @property
    def dirs(self) -> int:
        """Directories listed."""

    @property
    def bytes(self) -> int:
        """Bytes of the files read into the content prefilter."""

    @property
    def memory_bytes(self) -> int:
        """Memory the index holds, in bytes (its lists and signatures)."""

    @property
    def watching(self) -> _Watching:
        """How changes are heard of: ``"live"`` (every directory watched), ``"partial"``
        (some could not be: those are listed again before every search) or ``"off"``."""

    @property
    def watched_dirs(self) -> int:
        """Directories watched."""

    @property
    def unwatched_dirs(self) -> int:
        """Directories that could not be watched (listed again before every search)."""

    @property
    def rescans(self) -> int:
        """Times the whole tree was listed again because the kernel dropped events."""

    @property
    def content_files(self) -> int:
        """Files whose content the prefilter knows."""

    @property
    def content_pending(self) -> int:
        """Files waiting to be read (new or changed); they are searched meanwhile."""

    @property
    def list_ms(self) -> float | None:
        """Milliseconds it took to list the roots, once done."""

    @property
    def content_ms(self) -> float | None:
        """Milliseconds from the start until every file was first read, once done."""

    @property
    def searches(self) -> int:
        """Searches (grep and glob) answered from the index so far."""

    @property
    def error(self) -> str | None:
        """Why the index failed, or None."""

@final
class ThesaurusStatus(_Record):
    """A snapshot of a sandbox's thesaurus (:meth:`Sandbox.thesaurus_status`)."""

    @property
    def path(self) -> str | None:
        """The thesaurus file (absolute), or None for a mapping."""

    @property
    def terms(self) -> int:
        """Terms in the thesaurus in use."""

    @property
    def concepts(self) -> int:
        """Distinct concepts in the thesaurus in use."""

    @property
    def reloads(self) -> int:
        """Reloads of the file that succeeded."""

    @property
    def last_error(self) -> str | None:
        """Why the last reload failed (the last good thesaurus stays in use), or None."""

    @property
    def weight_per_term(self) -> int:
        """The boost per distinct concept."""

    @property
    def max_boost(self) -> int:
        """The cap on a path's boost."""
