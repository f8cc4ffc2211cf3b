"""`IndexOptions`, how a sandbox's warm index is built and bounded."""

from __future__ import annotations

import dataclasses
import os
from typing import Any

from fsnative import _fsnative

_DEFAULTS: dict[str, Any] = dict(_fsnative.INDEX_DEFAULTS)


@dataclasses.dataclass(frozen=True, init=False)
class IndexOptions:
    """How a sandbox's warm index is built and bounded: ``Sandbox(roots, index=IndexOptions(...))``.

    The defaults shown are the core's, which also checks every value when the sandbox is built
    (an :class:`InvalidOptionError` naming ``index.<field>``).

    Attributes:
        max_files: The most entries (files, directories, links) the index holds; past it the
            index gives up (state ``"failed"``) and searches walk, as without an index.
        max_memory: The most memory, in bytes, the index may hold; past it, files are listed
            but not read into the content prefilter (they are searched, never ruled out).
        content: Build the content prefilter (else the index holds the file list only).
        allow_home: Index ``/`` or a directory holding the home directory (refused otherwise).
        persist: A directory to keep the index in between runs: loaded at start and checked
            against the tree (what changed meanwhile is read again before the first answer)
            instead of reading every file; written after the first build, after large changes
            and on ``close()``. ``index_status().store`` says whether it was loaded.
        cache_memory: The most memory, in bytes, the content cache may hold: the contents of
            small files that searches read again and again, kept so that they are not read
            from disk each time (0: no cache). Counted apart from ``max_memory``.
    """

    max_files: int = _DEFAULTS["max_files"]
    max_memory: int = _DEFAULTS["max_memory"]
    content: bool = _DEFAULTS["content"]
    allow_home: bool = _DEFAULTS["allow_home"]
    persist: str | os.PathLike[str] | None = _DEFAULTS["persist"]
    cache_memory: int = _DEFAULTS["cache_memory"]

    def __init__(
        self,
        *,
        max_files: int = _DEFAULTS["max_files"],
        max_memory: int = _DEFAULTS["max_memory"],
        content: bool = _DEFAULTS["content"],
        allow_home: bool = _DEFAULTS["allow_home"],
        persist: str | os.PathLike[str] | None = _DEFAULTS["persist"],
        cache_memory: int = _DEFAULTS["cache_memory"],
    ) -> None:
        object.__setattr__(self, "max_files", max_files)
        object.__setattr__(self, "max_memory", max_memory)
        object.__setattr__(self, "content", content)
        object.__setattr__(self, "allow_home", allow_home)
        object.__setattr__(self, "persist", persist)
        object.__setattr__(self, "cache_memory", cache_memory)

    def to_dict(self) -> dict[str, Any]:
        """The options as the dict ``Sandbox(roots, index=...)`` also takes."""
        return dataclasses.asdict(self)
