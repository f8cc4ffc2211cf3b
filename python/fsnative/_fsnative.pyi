"""Types of the compiled module ``fsnative._fsnative``; import them from ``fsnative``.
Its result and status views are typed in ``_views.pyi``.

Every keyword argument of :meth:`Sandbox.grep`, :meth:`Sandbox.glob` and
:meth:`GrepResult.render` is an option of the core's request types. The defaults shown are
the core's, for reading: ``fsnative::options`` applies them, and test_api checks that each
one shown here gives what leaving it out gives.
"""

import os
from collections.abc import Iterable, Mapping, Sequence
from types import TracebackType
from typing import Any, Literal, TypedDict, final

from typing_extensions import Self, TypeAlias, disjoint_base

from fsnative._index import IndexOptions
from fsnative._views import *  # the result and status views, re-exported
from fsnative._views import _OutputMode

# The module's own names, then the result and status views that _views.pyi types.
__all__ = ["ERROR_CODES", "FFF_CATALOG", "INDEX_DEFAULTS", "CancelToken", "Sandbox", "__version__", "is_path_within"]
__all__ += [
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

__version__: str
ERROR_CODES: tuple[str, ...]
FFF_CATALOG: dict[str, Any]
"""The FFF drop-in's tools (``name``, ``description``, ``arguments`` with their ``kind``,
``required``, ``default`` and ``description``) and ``limits``, from the core; read by
:mod:`fsnative.fff`."""
INDEX_DEFAULTS: dict[str, Any]
"""The core's defaults of the index options (``max_files``, ``max_memory``, ``content``,
``allow_home``, ``persist``, ``cache_memory``), which :class:`fsnative.IndexOptions` shows."""

_FsPath: TypeAlias = str | bytes | os.PathLike[str] | os.PathLike[bytes]
_SearchPath: TypeAlias = str | os.PathLike[str]
_OneOrMany: TypeAlias = str | Sequence[str]
_CaseMode: TypeAlias = Literal["sensitive", "insensitive", "smart"]
_SortOrder: TypeAlias = Literal["path", "mtime", "frecency", "none"]
_EntryKind: TypeAlias = Literal["files", "dirs", "all"]
_Index: TypeAlias = bool | IndexOptions | Mapping[str, int | bool | str | os.PathLike[str] | None] | None
_Frecency: TypeAlias = str | os.PathLike[str] | bool | Mapping[str, str | os.PathLike[str] | None] | None
_Thesaurus: TypeAlias = str | os.PathLike[str] | Mapping[str, Any] | None

class _FrecencyStatus(TypedDict):
    """Which frecency database a sandbox keeps (:meth:`Sandbox.frecency_status`)."""

    path: str
    """The database's directory (canonical)."""
    profile: Literal["normal", "ai"]
    """The profile it was created with."""

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
                ``{"path": ..., "profile": "normal" | "ai"}`` (docs/ranking.md).
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

    def frecency_status(self) -> _FrecencyStatus | None:
        """The frecency database's ``{"path", "profile"}``, or None without one (the sandbox
        then refuses ``sort="frecency"``)."""

    def thesaurus_status(self) -> ThesaurusStatus | None:
        """A snapshot of the thesaurus (its file, size, reloads, last failure), or None."""

    def wait_for_index(self, timeout: float | None = None, *, timeout_ms: float | None = None) -> bool:
        """Waits until the index is ready and has read every file, at most ``timeout_ms``
        milliseconds (None: no limit), with the GIL released; True when it is. False at once
        without an index, or when it failed or was closed. Ctrl-C stops the wait (on the main
        thread). A negative timeout raises :class:`InvalidArgumentError`.

        ``timeout`` (seconds, by position or keyword) is deprecated: it warns
        (``DeprecationWarning``) and is refused beside ``timeout_ms``."""

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

    def validate(self, path: _FsPath, intent: Literal["read", "write"] = "read") -> str:
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
        syntax: Literal["glob", "minimatch"] = "glob",
        exclude: _OneOrMany = (),
        case_insensitive: bool = False,
        constraints: str | None = None,
        hidden: bool = False,
        git_dir: bool = False,
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
            syntax: ``"glob"`` (globset's) or ``"minimatch"`` (with ``dot: true``, as the MCP
                filesystem server's ``search_files``: a leading ``!`` negates).
            exclude: Patterns (in ``syntax``) on each entry's path relative to its base: a
                match is left out, and a matching directory is not entered.
            case_insensitive: Match names case-insensitively.
            constraints: FFF-style file constraints (``"*.rs !test/ src/ type:rust"``), tested
                on each file's path relative to its base; directories pass them.
            hidden: Visit hidden files and directories (``.git`` only with ``git_dir``).
            git_dir: Visit ``.git`` directories too (with ``hidden``).
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

    def fff_tool(self, tool: str, arguments: dict[str, Any], /, *, cancel: CancelToken | None = None) -> str:
        """One call of the FFF drop-in's ``tool`` (``"find_files"``, ``"grep"``,
        ``"multi_grep"``) with Terraphim's ``arguments``: its text, one line per MCP text block.
        :mod:`fsnative.fff` calls it; the core holds the tools' defaults and limits."""

def is_path_within(path: str, dirs: Sequence[str]) -> bool:
    """Whether ``path`` is one of ``dirs`` or lies below one, by their text alone (no
    filesystem access): the MCP filesystem server's ``isPathWithinAllowedDirectories`` on
    POSIX. ``.`` and ``..`` are resolved and repeated or trailing ``/`` dropped; a relative
    path is taken from the working directory; a separator must follow a directory's text
    (``/a`` does not hold ``/a_evil``). An empty path or directory, or a NUL byte, never
    matches."""
