"""A home for the stubs (``_views.pyi``) of the native result and status views, re-exported here."""

from fsnative._fsnative import (
    ContextLine,
    FileMatches,
    FindEntry,
    FindResult,
    FindStats,
    GlobEntry,
    GlobResult,
    GlobStats,
    GrepResult,
    GrepStats,
    IndexStatus,
    Match,
    ThesaurusStatus,
)

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
