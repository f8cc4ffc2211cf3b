"""Types of the compiled module ``fsnative._fsnative``; import them from ``fsnative``.

Every keyword argument of :meth:`Sandbox.grep`, :meth:`Sandbox.glob` and
:meth:`GrepResult.render` is an option of the core's request types. The defaults shown are
the core's, for reading: ``fsnative::options`` applies them, and test_api checks that each
one shown here gives what leaving it out gives.
"""

import os
from collections.abc import Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Literal, final

from typing_extensions import Self, TypeAlias, disjoint_base

from fsnative._index import IndexOptions

__all__ = [
    "CancelToken",
    "ContextLine",
    "ERROR_CODES",
    "FileMatches",
    "FindEntry",
    "FindResult",
    "FindStats",
    "GlobEntry",
    "GlobResult",
    "GlobStats",
    "GrepResult",
    "GrepStats",
    "INDEX_DEFAULTS",
    "IndexStatus",
    "Match",
    "Sandbox",
    "ThesaurusStatus",
    "__version__",
]

__version__: str
ERROR_CODES: tuple[str, ...]
INDEX_DEFAULTS: dict[str, Any]
"""The core's defaults of the index options (``max_files``, ``max_memory``, ``content``,
``allow_home``), which :class:`fsnative.IndexOptions` shows."""

_FsPath: TypeAlias = str | bytes | os.PathLike[str] | os.PathLike[bytes]
_SearchPath: TypeAlias = str | os.PathLike[str]
_OneOrMany: TypeAlias = str | Sequence[str]
_CaseMode: TypeAlias = Literal["sensitive", "insensitive", "smart"]
_OutputMode: TypeAlias = Literal["content", "files", "count"]
_SortOrder: TypeAlias = Literal["path", "mtime", "frecency", "none"]
_EntryKind: TypeAlias = Literal["files", "dirs", "all"]
_Truncation: TypeAlias = Literal["limit", "timeout", "cancelled"]
_PathStyle: TypeAlias = Literal["absolute", "relative"]
_PlainData: TypeAlias = dict[str, Any]
_Index: TypeAlias = bool | IndexOptions | Mapping[str, int | bool | None] | None
_Frecency: TypeAlias = str | os.PathLike[str] | bool | Mapping[str, str | os.PathLike[str] | None] | None
_Thesaurus: TypeAlias = str | os.PathLike[str] | Mapping[str, Any] | None
_IndexState: TypeAlias = Literal["building", "ready", "failed", "closed"]
_Watching: TypeAlias = Literal["live", "partial", "off"]

@final
class CancelToken:
    """A handle that stops a running ``grep`` or ``glob`` from another thread or task.

    The call then returns what it found so far, with ``truncated == "cancelled"`` and (grep) a
    ``next_cursor`` to continue. A token stays cancelled; use a new one per search.
    """

    def __new__(cls) -> CancelToken: ...
    def cancel(self) -> None:
        """Asks every search holding this token to stop as soon as it can."""

    @property
    def cancelled(self) -> bool:
        """True once :meth:`cancel` was called."""

@disjoint_base
class Sandbox:
    """A set of allowed root directories; every path and search stays inside them.

    An error about a file or path (``NOT_FOUND``, ``NOT_A_DIRECTORY``, ``PERMISSION_DENIED``,
    ``SYMLINK_LOOP``, ``IO``, ``INVALID_PATH``) carries it as ``error.path``, a ``str`` decoded
    like ``os.fsdecode``; an ``OUTSIDE_SANDBOX`` error carries the path as given, never what it
    resolved to (see :class:`FsnativeError` in ``fsnative._errors``).
    """

    def __new__(cls, roots: Iterable[_FsPath], **options: Any) -> Self:
        """Builds a sandbox from root directories; each must exist and is canonicalised.
        ``fsnative.Sandbox`` types the options (``index``, ``frecency``, ``record_hits``,
        ``thesaurus``, ``boost_weight``, ``max_boost``); the core checks them.

        Args:
            roots: The directories every path and search stays inside.
            index: Keep a warm index of the roots: ``True`` (the defaults), an
                :class:`IndexOptions` or a dict of its fields; ``False`` or ``None``: none.
                It is built on a thread of its own and kept current by inotify; searches it
                can answer (the walk's default options, path order) read it instead of
                walking, with the same answers. Until it is ready, searches walk.
            frecency: A frecency database to record accesses in and rank by: its directory
                (LMDB, shared by processes), ``True`` (``FSNATIVE_FRECENCY_DB``'s), or
                ``{"path": ..., "profile": "normal" | "ai"}`` (README: Frecency and path boost).
            record_hits: Record an access to each file a grep returns (needs ``frecency``).
            thesaurus: Terms to concepts for :meth:`path_boost`: a JSON file (watched and
                reloaded) or the mapping itself (``{"term": "concept"}`` or Terraphim's shape).
            boost_weight: The boost per distinct concept (default 5; needs ``thesaurus``).
            max_boost: The cap on a path's boost (default 30; needs ``thesaurus``).

        Raises :class:`NotFoundError`, :class:`NotADirError`, … for a bad root, and
        ``TypeError`` unless ``roots`` is a list (or other iterable) of paths.
        :class:`InvalidOptionError` for an index option it does not take (``option`` names
        it, e.g. ``"index.max_files"``), and with ``option == "index"`` for a root that is
        ``/`` or holds the home directory, unless ``allow_home=True``.
        """

    def index_status(self) -> IndexStatus | None:
        """A snapshot of the warm index's state, or None without an index."""

    def record_access(self, path: _FsPath) -> None:
        """Records an access to ``path`` (validated: inside, existing; a link as its target) in
        the frecency database; :class:`InvalidArgumentError` without one."""

    def frecency_score(self, path: _FsPath) -> float:
        """The frecency score of ``path`` (validated); 0.0 when never recorded."""

    def path_boost(self, path: _FsPath) -> int:
        """``min(concepts × boost_weight, max_boost)`` for the thesaurus concepts ``path``
        (validated) mentions below its root; :class:`InvalidArgumentError` without one."""

    def thesaurus_status(self) -> ThesaurusStatus | None:
        """A snapshot of the thesaurus (its file, size, reloads, last failure), or None."""

    def wait_for_index(self, timeout: float | None = None) -> bool:
        """Waits until the index is ready and has read every file, at most ``timeout``
        seconds (None: no limit), with the GIL released; True when it is. False at once
        without an index, or when it failed or was closed. Ctrl-C stops the wait (on the main
        thread). A negative timeout raises :class:`InvalidArgumentError`."""

    def close(self) -> None:
        """Stops the index (its thread and watcher) and frees its memory; searches still
        answer, walking. Closing twice, or without an index, does nothing."""

    def __enter__(self) -> Self:
        """The sandbox itself: ``with Sandbox(roots, index=True) as sb:``."""

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Closes the sandbox (:meth:`close`); exceptions are not suppressed."""

    @property
    def roots(self) -> list[str]:
        """The canonical root directories."""

    def validate_path(self, path: _FsPath, intent: Literal["read", "write"] = "read") -> str:
        """The canonical absolute path of ``path``, or an :class:`FsnativeError` saying why not.

        Relative paths resolve against the first root; ``~`` and ``~/x`` expand to the current
        home only; symlinks are resolved component by component. With ``intent="write"`` the
        path may not exist yet, as long as its nearest existing ancestor is inside.
        A non-UTF-8 name round-trips: ``str`` results are decoded like ``os.fsdecode``.
        """

    def grep(
        self,
        patterns: _OneOrMany | None = None,
        /,
        *,
        pattern: _OneOrMany = ...,
        fixed_strings: bool = False,
        case_mode: _CaseMode = "sensitive",
        word: bool = False,
        multiline: bool = False,
        invert: bool = False,
        paths: _SearchPath | Sequence[_SearchPath] = (),
        path: _SearchPath | Sequence[_SearchPath] = ...,
        globs: _OneOrMany = (),
        glob: _OneOrMany = ...,
        types: _OneOrMany = (),
        type: _OneOrMany = ...,
        types_not: _OneOrMany = (),
        constraints: str | None = None,
        hidden: bool = False,
        follow_links: bool = False,
        no_ignore: bool = False,
        max_depth: int | None = None,
        max_filesize: int | None = None,
        search_binary: bool = False,
        mode: _OutputMode = "content",
        context: int | None = None,
        before_context: int | None = None,
        after_context: int | None = None,
        max_count_per_file: int | None = None,
        section_end_patterns: _OneOrMany = (),
        limit: int | None = 1000,
        max_columns: int | None = None,
        sort: _SortOrder = "path",
        cursor: str | None = None,
        timeout_ms: int | None = None,
        threads: int | None = None,
        cancel: CancelToken | None = None,
    ) -> GrepResult:
        """Searches file contents with ripgrep's engine, like ``rg``.

        Args:
            patterns: One or more regular expressions (or literal strings with
                ``fixed_strings``); a line matches if any of them does. Alias: ``pattern``.
            fixed_strings: Treat patterns as literal strings (``rg -F``).
            case_mode: ``"sensitive"``, ``"insensitive"`` (``-i``) or ``"smart"`` (``-S``).
            word: Only match at word boundaries (``-w``).
            multiline: Let patterns match across lines (``-U``); ``.`` still stops at a newline.
            invert: Report the lines that do not match (``-v``).
            paths: Files or directories to search, validated by the sandbox; relative ones
                resolve against the first root. Empty: every root. Alias: ``path``.
            globs: ripgrep ``--glob`` filters relative to the root; a leading ``!`` excludes.
                Alias: ``glob``.
            types: ripgrep file type names to include (``py``, ``rust``, ``ts``, …). Alias:
                ``type``.
            types_not: ripgrep file type names to exclude.
            constraints: FFF-style file constraints (``"*.rs !test/ src/ type:rust"``), tested
                on each file's path relative to the search path it was found under.
            hidden: Visit hidden files and directories (``.git`` never).
            follow_links: Follow symlinks whose target resolves inside the sandbox.
            no_ignore: Do not read ``.gitignore``, ``.ignore``, ``.rgignore``,
                ``.git/info/exclude``.
            max_depth: Descend at most this many levels below each search path.
            max_filesize: Skip files larger than this many bytes.
            search_binary: Search files with a NUL byte as text instead of skipping them.
            mode: ``"content"`` (matching lines), ``"files"`` (``-l``) or ``"count"`` (``-c``).
            context: Lines of context before and after each match (``-C``).
            before_context: Lines of context before each match (``-B``).
            after_context: Lines of context after each match (``-A``).
            max_count_per_file: Stop searching a file after this many matching lines (``-m``).
            section_end_patterns: Regexes that mark where a section ends (such as a line
                that starts a ``def``): each match then carries ``section_end``.
            limit: Cap on match records (content mode) or files (files and count modes) in
                one page; ``None`` for no cap. A capped page has ``truncated == "limit"``.
            max_columns: Cut lines longer than this many bytes (and mark them ``truncated``).
            sort: ``"path"`` or ``"mtime"`` (newest first); ``"none"`` is ``"path"``.
            cursor: The ``next_cursor`` of a previous page of the same search.
            timeout_ms: Return what was found after this many milliseconds
                (``truncated == "timeout"``).
            threads: Threads that search at once, at most 256 (default: the number of CPUs).
            cancel: A token that stops the search from elsewhere (``truncated == "cancelled"``).

        Raises:
            InvalidPatternError, InvalidGlobError, InvalidArgumentError, OutsideSandboxError,
            NotFoundError, …: see :class:`FsnativeError`. InvalidOptionError (also a
            ``TypeError`` and a ``ValueError``) for an unknown keyword or a value an option
            does not take; its message names the option and what it accepts.
        """

    def glob(
        self,
        patterns: _OneOrMany | None = None,
        /,
        *,
        pattern: _OneOrMany = ...,
        paths: _SearchPath | Sequence[_SearchPath] = (),
        path: _SearchPath | Sequence[_SearchPath] = ...,
        case_insensitive: bool = False,
        constraints: str | None = None,
        hidden: bool = False,
        follow_links: bool = False,
        no_ignore: bool = False,
        max_depth: int | None = None,
        kind: _EntryKind = "files",
        sort: _SortOrder = "path",
        limit: int | None = 1000,
        timeout_ms: int | None = None,
        cancel: CancelToken | None = None,
    ) -> GlobResult:
        """Lists the entries whose path matches glob patterns.

        Args:
            patterns: Glob patterns relative to each base (``**``, ``{a,b}``, ``[...]``); a
                leading ``!`` excludes. Alias: ``pattern``.
            paths: Base directories, validated; relative ones resolve against the first
                root. Empty: every root. Alias: ``path``.
            case_insensitive: Match names case-insensitively.
            constraints: FFF-style file constraints (``"*.rs !test/ src/ type:rust"``), tested
                on each file's path relative to its base; directories pass them.
            hidden: Visit hidden files and directories (``.git`` never).
            follow_links: Follow symlinks whose target resolves inside the sandbox.
            no_ignore: Do not read ignore files.
            max_depth: Descend at most this many levels below each base.
            kind: ``"files"``, ``"dirs"`` or ``"all"``.
            sort: ``"path"``, ``"mtime"`` (newest first) or ``"none"`` (no order promised).
            limit: Cap on entries returned (``total`` still counts all); ``None`` for no cap.
            timeout_ms: Return what was found after this many milliseconds.
            cancel: A token that stops the walk from elsewhere.
        """

    def find(
        self,
        query: str | None = None,
        /,
        *,
        path: _SearchPath | None = None,
        limit: int | None = 20,
        constraints: str | None = None,
        timeout_ms: int | None = None,
        cancel: CancelToken | None = None,
    ) -> FindResult:
        """Fuzzy-finds files by path, typo-tolerant, best first.

        Args:
            query: Whitespace-separated parts, each matched fuzzily against the path relative
                to ``path`` (all must match); a quarter of each part's characters may be typos
                (at least 2, at most 6, at most half). Case is ignored unless the query holds
                an upper-case letter.
            path: The directory to search, validated; a relative one resolves against the
                first root. None: every root.
            limit: Cap on entries returned (``total`` still counts all); ``None`` for no cap.
            constraints: FFF-style file constraints (``"*.rs !test/ src/ type:rust"``), on
                paths relative to ``path``.
            timeout_ms: Return what was ranked after this many milliseconds.
            cancel: A token that stops the search from elsewhere.
        """

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
