"""Types of the views of the core's records that ``fsnative._fsnative`` returns (search
results and status snapshots); import them from ``fsnative``.

Each view's fields are the core's, under the same snake_case names. What a field means is
written once, on the Rust type (``crates/fsnative/src/result.rs`` and the status types;
``cargo doc -p fsnative --open``); this stub gives its Python type, and words only where
Python's view differs from the core's (``str`` paths, lists of views, dicts)."""

from collections.abc import Sequence
from typing import Any, Final, Generic, Literal, TypeVar, final, overload

from typing_extensions import TypeAlias, TypedDict, Unpack

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

class _WalkCounters(_Timed):
    """The counters every walk keeps."""

    skipped_special: Final[int]
    skipped_outside: Final[int]

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
    byte_offset: Final[int]
    text: Final[str]
    truncated: Final[bool]

_Entry = TypeVar("_Entry")
_Stats = TypeVar("_Stats")

class _Page(_Record, Generic[_Entry, _Stats]):
    """A glob's or a find's answer: the entries, how many there were, and the counters."""

    @property
    def entries(self) -> list[_Entry]:
        """The entries, at most ``limit``, in the requested order (a find's best first; ties
        go to the shorter path, then path order): a new list of views each time."""

    total: Final[int]
    truncated: Final[_Truncation | None]

    @property
    def stats(self) -> _Stats:
        """What the search did."""

@final
class GrepResult(_Record):
    """The answer to :meth:`Sandbox.grep`: files with matches, in the requested order.

    Fields are read from the core's result when accessed; ``files`` and ``matches`` build
    lightweight views.

    Fields: the core's ``fsnative::GrepResult``, which documents each one (``cargo doc -p fsnative``).
    """

    files: Final[list[FileMatches]]
    """Files with matches (a new list of views each time)."""

    total_matches: Final[int]
    truncated: Final[_Truncation | None]
    next_cursor: Final[str | None]
    mode: Final[_OutputMode]
    context_enabled: Final[bool]
    single_file: Final[bool]
    stats: Final[GrepStats]

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
    """All that one file contributed to a grep.

    Fields: the core's ``fsnative::FileMatches``, which documents each one (``cargo doc -p fsnative``).
    """

    count: Final[int]
    bytes_searched: Final[int]
    binary_offset: Final[int | None]
    matches: Final[list[Match]]
    """The matches in content mode, else empty (a new list of views each time)."""

@final
class Match(_Line):
    """One matching line (or, in multiline mode, the lines matched together).

    Fields: the core's ``fsnative::Match``, which documents each one (``cargo doc -p fsnative``).
    """

    column: Final[int]
    submatches: Final[list[tuple[int, int]]]
    """``(start, end)`` byte ranges of each match within ``text`` encoded as UTF-8."""

    section_end: Final[int | None]
    before: Final[list[ContextLine]]
    after: Final[list[ContextLine]]

@final
class ContextLine(_Line):
    """One line of context around a match.

    Fields: the core's ``fsnative::ContextLine``, which documents each one (``cargo doc -p fsnative``).
    """

@final
class GrepStats(_WalkCounters):
    """Counters of what a grep did.

    Fields: the core's ``fsnative::GrepStats``, which documents each one (``cargo doc -p fsnative``).
    """

    files_walked: Final[int]
    files_searched: Final[int]
    files_matched: Final[int]
    skipped_binary: Final[int]
    skipped_errors: Final[int]
    bytes_searched: Final[int]

@final
class GlobResult(_Page[GlobEntry, GlobStats]):
    """The answer to :meth:`Sandbox.glob`: matching entries, in the requested order.

    Fields: the core's ``fsnative::GlobResult``, which documents each one (``cargo doc -p fsnative``).
    """

@final
class GlobEntry(_Found):
    """One entry yielded by a glob.

    Fields: the core's ``fsnative::GlobEntry``, which documents each one (``cargo doc -p fsnative``).
    """

    is_dir: Final[bool]

@final
class GlobStats(_WalkCounters):
    """Counters of what a glob did.

    Fields: the core's ``fsnative::GlobStats``, which documents each one (``cargo doc -p fsnative``).
    """

    entries_walked: Final[int]
    skipped_errors: Final[int]

@final
class FindResult(_Page[FindEntry, FindStats]):
    """The answer to :meth:`Sandbox.find`: the best matches, best first.

    Fields: the core's ``fsnative::FindResult``, which documents each one (``cargo doc -p fsnative``).
    """

    def render(self, format: Literal["fff"] = "fff", *, query: str = "", path: str = ".") -> str:
        """The result as Terraphim's FFF ``find_files`` tool prints it (what
        :mod:`fsnative.fff` answers), each line ending in a newline: ``query`` and
        ``path`` (the tool's arguments as given) are quoted in its header."""

@final
class FindEntry(_Found):
    """One file a find ranked. ``score`` is the sum of the additive parts (``fuzzy``,
    ``filename_bonus``, ``exact_bonus``, ``path_boost``, ``frecency``).

    Fields: the core's ``fsnative::FindEntry``, which documents each one (``cargo doc -p fsnative``).
    """

    score: Final[int]
    fuzzy: Final[int]
    filename_bonus: Final[int]
    exact_bonus: Final[int]
    path_boost: Final[int]
    frecency: Final[int]
    typos: Final[int]

@final
class FindStats(_Timed):
    """Counters of what a find did.

    Fields: the core's ``fsnative::FindStats``, which documents each one (``cargo doc -p fsnative``).
    """

    candidates: Final[int]
    indexed: Final[bool]

@final
class IndexStatus(_Record):
    """A snapshot of a sandbox's warm index (:meth:`Sandbox.index_status`).

    Fields: the core's ``fsnative::IndexStatus``, which documents each one (``cargo doc -p fsnative``).
    """

    state: Final[_IndexState]
    files: Final[int]
    dirs: Final[int]
    bytes: Final[int]
    memory_bytes: Final[int]
    watching: Final[_Watching]
    watched_dirs: Final[int]
    unwatched_dirs: Final[int]
    rescans: Final[int]
    content_files: Final[int]
    content_pending: Final[int]
    list_ms: Final[float | None]
    content_ms: Final[float | None]
    searches: Final[int]
    error: Final[str | None]
    store: Final[_StoreLoaded | _StoreRebuilt | None]
    """With ``persist``: how the index started: ``{"outcome": "loaded"}`` (the store was
    loaded and checked against the tree) or ``{"outcome": "rebuilt", "reason": ...}`` (why the
    store was not used: none yet, truncated, corrupt, another version, other roots or
    options); None without ``persist``."""

    store_error: Final[str | None]
    store_bytes: Final[int]
    store_changes: Final[int]
    cache_bytes: Final[int]
    cache_files: Final[int]
    cache_hits: Final[int]

@final
class ThesaurusStatus(_Record):
    """A snapshot of a sandbox's thesaurus (:meth:`Sandbox.thesaurus_status`).

    Fields: the core's ``fsnative::BoostStatus``, which documents each one (``cargo doc -p fsnative``).
    """

    path: Final[str | None]
    terms: Final[int]
    concepts: Final[int]
    reloads: Final[int]
    last_error: Final[str | None]
    weight_per_term: Final[int]
    max_boost: Final[int]
