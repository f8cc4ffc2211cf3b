"""Types of the views of the core's records that ``fsnative._fsnative`` returns (search
results and status snapshots); import them from ``fsnative``."""

from collections.abc import Sequence
from typing import Any, Final, Generic, Literal, TypeVar, final, overload

from typing_extensions import TypeAlias, TypedDict, Unpack

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

class _StoreLoaded(TypedDict):
    """``IndexStatus.store`` when the index started from its store."""

    outcome: Literal["loaded"]

class _StoreRebuilt(TypedDict):
    """``IndexStatus.store`` when the store was not used: ``reason`` says why."""

    outcome: Literal["rebuilt"]
    reason: str

class _RgOptions(TypedDict, total=False):
    """The options of ripgrep's output formats (``GrepResult.render``)."""

    path_style: _PathStyle
    """``"absolute"`` (the default, as ``rg PATTERN /abs/dir`` prints) or ``"relative"`` (as
    ``rg PATTERN`` run inside the root prints)."""
    with_filename: bool | None
    """Print the path on each line (``-H``/``-I``); None (the default) decides as rg does: a
    path unless the scope was one file. Standard format only."""
    heading: bool
    """Group matches under a path heading (``--heading``); default False. Standard format only."""
    line_number: bool
    """Print line numbers (``-n``); default True. Standard format only."""

class _Record:
    """What every result view has: the core record as plain data."""

    def to_json(self) -> str:
        """The core's serde JSON of this record (snake_case; a non-UTF-8 path is
        ``{"bytes": base64}``)."""

    def to_dict(self) -> _PlainData:
        """``json.loads(self.to_json())``."""

class _Timed(_Record):
    """Counters of a search, which all time it."""

    elapsed_ms: Final[float]
    """Wall-clock time of the call in milliseconds."""

class _WalkCounters(_Timed):
    """The counters every walk keeps."""

    skipped_special: Final[int]
    """Entries skipped because they are FIFOs, sockets or devices."""

    skipped_outside: Final[int]
    """Symlinks not followed because their target resolves outside the sandbox."""

class _Found(_Record):
    """What every file or entry a search found has: its path, absolute and relative."""

    path: Final[str]
    """Absolute path, decoded like ``os.fsdecode``."""

    relative_path: Final[str]
    """Path relative to where it was found from (``/``-separated): the sandbox root it
    lies in (grep), the base directory it was matched from (glob), or the directory
    searched, what the query was matched against (find)."""

class _Line(_Record):
    """What a matching line and a context line have alike."""

    line_number: Final[int]
    """1-based number of the (first) line."""

    byte_offset: Final[int]
    """Byte offset of the line's start in the file."""

    text: Final[str]
    """The line(s) without the final terminator; invalid UTF-8 becomes U+FFFD."""

    truncated: Final[bool]
    """The line was longer than ``max_columns`` and ``text`` holds only its beginning."""

_Entry = TypeVar("_Entry")
_Stats = TypeVar("_Stats")

class _Page(_Record, Generic[_Entry, _Stats]):
    """A glob's or a find's answer: the entries, how many there were, and the counters."""

    @property
    def entries(self) -> list[_Entry]:
        """The entries, at most ``limit``, in the requested order (a find's best first; ties
        go to the shorter path, then path order): a new list of views each time."""

    total: Final[int]
    """How many entries matched in all, also past the limit."""

    truncated: Final[_Truncation | None]
    """Why ``entries`` is incomplete, or None."""

    @property
    def stats(self) -> _Stats:
        """What the search did."""

@final
class GrepResult(_Record):
    """The answer to :meth:`Sandbox.grep`: files with matches, in the requested order.

    Fields are read from the core's result when accessed; ``files`` and ``matches`` build
    lightweight views.
    """

    files: Final[list[FileMatches]]
    """Files with matches (a new list of views each time)."""

    total_matches: Final[int]
    """Sum of ``count`` over ``files``."""

    truncated: Final[_Truncation | None]
    """Why the page stopped early, or None when it is complete."""

    next_cursor: Final[str | None]
    """Pass back as ``cursor=`` with the same arguments to get the next page."""

    mode: Final[_OutputMode]
    """The mode the search ran in."""

    context_enabled: Final[bool]
    """Context lines were requested (ripgrep then separates groups with ``--``)."""

    single_file: Final[bool]
    """The scope was exactly one regular file (ripgrep then prints no path prefix)."""

    stats: Final[GrepStats]
    """What the search did."""

    @overload
    def render(self, format: Literal["standard", "json"] = "standard", **options: Unpack[_RgOptions]) -> str:
        """The result as ripgrep prints it, byte for byte: ``format="standard"`` (rg's non-TTY
        output for the search's mode: ``-n``, ``-l``, ``-c``, ``-C``) or ``"json"`` (``rg
        --json`` lines; takes only ``path_style``). Options: see ``_RgOptions``."""

    @overload
    def render(
        self,
        format: Literal["fff"],
        *,
        path: str = ".",
        base: str | None = None,
        patterns: str | Sequence[str] | None = None,
    ) -> str:
        """The result as Terraphim's FFF ``grep`` and ``multi_grep`` tools print it (what
        :mod:`fsnative.fff` answers), each line ending in a newline.

        Args:
            path: The tool's ``path`` argument as given, quoted in the header.
            base: What ``path`` resolved to; files print relative to it (by name when it is the
                file). None: absolute paths.
            patterns: ``multi_grep``'s patterns, listed in its header; None for ``grep``.
        """

    def render_bytes(self, format: Literal["standard", "json"] = "standard", **options: Unpack[_RgOptions]) -> bytes:
        """``render`` as bytes: file names and lines that are not UTF-8 as they are on disk,
        as rg prints them (``render`` replaces those bytes with U+FFFD). Same options."""

@final
class FileMatches(_Found):
    """All that one file contributed to a grep."""

    count: Final[int]
    """Matching lines in this page (content and count modes); 1 in files mode."""

    bytes_searched: Final[int]
    """Bytes the searcher read from this file (ripgrep's per-file ``bytes_searched``)."""

    binary_offset: Final[int | None]
    """Offset of the NUL byte at which this file's search stopped after matches, or None."""

    matches: Final[list[Match]]
    """The matches in content mode, else empty (a new list of views each time)."""

@final
class Match(_Line):
    """One matching line (or, in multiline mode, the lines matched together)."""

    column: Final[int]
    """1-based byte column of the first submatch (1 when inverted)."""

    submatches: Final[list[tuple[int, int]]]
    """``(start, end)`` byte ranges of each match within ``text`` encoded as UTF-8."""

    section_end: Final[int | None]
    """With ``section_end_patterns``: the first later line matching one of them, or
    ``None`` when no later line does (the section runs to the end of the file)."""

    before: Final[list[ContextLine]]
    """Context lines just before this match."""

    after: Final[list[ContextLine]]
    """Context lines just after this match."""

@final
class ContextLine(_Line):
    """One line of context around a match."""

@final
class GrepStats(_WalkCounters):
    """Counters of what a grep did."""

    files_walked: Final[int]
    """Files the walk yielded as candidates (after ignore, glob and type filters)."""

    files_searched: Final[int]
    """Files opened and searched."""

    files_matched: Final[int]
    """Files with at least one match."""

    skipped_binary: Final[int]
    """Files skipped because they contain a NUL byte."""

    skipped_errors: Final[int]
    """Files or directories that could not be read."""

    bytes_searched: Final[int]
    """Bytes read by the searcher."""

@final
class GlobResult(_Page[GlobEntry, GlobStats]):
    """The answer to :meth:`Sandbox.glob`: matching entries, in the requested order."""

@final
class GlobEntry(_Found):
    """One entry yielded by a glob."""

    is_dir: Final[bool]
    """The entry is a directory."""

@final
class GlobStats(_WalkCounters):
    """Counters of what a glob did."""

    entries_walked: Final[int]
    """Entries the walk visited."""

    skipped_errors: Final[int]
    """Directories that could not be read."""

@final
class FindResult(_Page[FindEntry, FindStats]):
    """The answer to :meth:`Sandbox.find`: the best matches, best first."""

    def render(self, format: Literal["fff"] = "fff", *, query: str = "", path: str = ".") -> str:
        """The result as Terraphim's FFF ``find_files`` tool prints it (what
        :mod:`fsnative.fff` answers), each line ending in a newline: ``query`` and
        ``path`` (the tool's arguments as given) are quoted in its header."""

@final
class FindEntry(_Found):
    """One file a find ranked. ``score`` is the sum of the additive parts (``fuzzy``,
    ``filename_bonus``, ``exact_bonus``, ``path_boost``, ``frecency``)."""

    score: Final[int]
    """The rank: the sum of the parts. Higher is better."""

    fuzzy: Final[int]
    """The fuzzy match of the query on the relative path (typos allowed)."""

    filename_bonus: Final[int]
    """The query (after its last ``/``) matched inside the file name."""

    exact_bonus: Final[int]
    """The query (after its last ``/``) is the file name, or the name without its
    extension."""

    path_boost: Final[int]
    """The thesaurus concepts the path (relative to its root) mentions, times the
    weight, capped; 0 without a thesaurus."""

    frecency: Final[int]
    """The file's frecency in points (4 per unit, rounded); 0 without a database."""

    typos: Final[int]
    """Query characters the best alignment left unmatched or matched to another one."""

@final
class FindStats(_Timed):
    """Counters of what a find did."""

    candidates: Final[int]
    """Files the query was matched against (after ``path`` and constraints)."""

    indexed: Final[bool]
    """The files came from the warm index (else from a walk)."""

@final
class IndexStatus(_Record):
    """A snapshot of a sandbox's warm index (:meth:`Sandbox.index_status`)."""

    state: Final[_IndexState]
    """``"building"`` (searches walk meanwhile), ``"ready"``, ``"failed"`` (see
    ``error``; searches walk) or ``"closed"``."""

    files: Final[int]
    """Files listed."""

    dirs: Final[int]
    """Directories listed."""

    bytes: Final[int]
    """Bytes of the files read into the content prefilter."""

    memory_bytes: Final[int]
    """Memory the index holds, in bytes (its lists and signatures, and the content cache)."""

    watching: Final[_Watching]
    """How changes are heard of: ``"live"`` (every directory watched), ``"partial"``
    (some could not be: those are listed again before every search) or ``"off"``."""

    watched_dirs: Final[int]
    """Directories watched."""

    unwatched_dirs: Final[int]
    """Directories that could not be watched (listed again before every search)."""

    rescans: Final[int]
    """Times the whole tree was listed again because the kernel dropped events."""

    content_files: Final[int]
    """Files whose content the prefilter knows."""

    content_pending: Final[int]
    """Files waiting to be read (new or changed); they are searched meanwhile."""

    list_ms: Final[float | None]
    """Milliseconds it took to list the roots, once done."""

    content_ms: Final[float | None]
    """Milliseconds from the start until every file was first read, once done."""

    searches: Final[int]
    """Searches (grep and glob) answered from the index so far."""

    error: Final[str | None]
    """Why the index failed, or None."""

    store: Final[_StoreLoaded | _StoreRebuilt | None]
    """With ``persist``: how the index started: ``{"outcome": "loaded"}`` (the store was
    loaded and checked against the tree) or ``{"outcome": "rebuilt", "reason": ...}`` (why the
    store was not used: none yet, truncated, corrupt, another version, other roots or
    options); None without ``persist``."""

    store_error: Final[str | None]
    """Why the last write of the store failed (the store on disk is the one before), or None."""

    store_bytes: Final[int]
    """Size in bytes of the store last loaded or written."""

    store_changes: Final[int]
    """Files and directories the check at load found changed while no index watched them."""

    cache_bytes: Final[int]
    """Bytes of file contents the content cache holds."""

    cache_files: Final[int]
    """Files the content cache holds."""

    cache_hits: Final[int]
    """Files searched from the content cache instead of read from disk, so far."""

@final
class ThesaurusStatus(_Record):
    """A snapshot of a sandbox's thesaurus (:meth:`Sandbox.thesaurus_status`)."""

    path: Final[str | None]
    """The thesaurus file (absolute), or None for a mapping."""

    terms: Final[int]
    """Terms in the thesaurus in use."""

    concepts: Final[int]
    """Distinct concepts in the thesaurus in use."""

    reloads: Final[int]
    """Reloads of the file that succeeded."""

    last_error: Final[str | None]
    """Why the last reload failed (the last good thesaurus stays in use), or None."""

    weight_per_term: Final[int]
    """The boost per distinct concept."""

    max_boost: Final[int]
    """The cap on a path's boost."""
