"""fsnative: sandboxed, native filesystem search for agent tools.

Path validation, grep (ripgrep's engine), glob and fuzzy find in one Rust core, with the GIL
released::

    from fsnative import Sandbox, FsnativeError

    sb = Sandbox(["/repo"])
    sb.validate("src/a.py", intent="read")          # canonical path, or raises
    found = sb.grep("TODO", path="src", context=2, globs=["*.py"], limit=100)
    for file in found.files:
        for match in file.matches:
            print(file.relative_path, match.line_number, match.text)
    print(found.render(format="standard", path_style="relative"), end="")  # as rg prints it
    listed = sb.glob("**/*.py", sort="mtime")
    best = sb.find("confg pars", limit=5, constraints="*.py !test/")  # typo-tolerant
    found = await sb.grep_async("TODO")                  # in asyncio code

    with Sandbox(["/repo"], index=True) as sb:           # a warm index, closed on exit
        sb.wait_for_index(timeout_ms=30_000)
        sb.grep("TODO")                                  # answered from the index

    sb = Sandbox(["/repo"], frecency="/var/tmp/frecency", record_hits=True,
                 thesaurus={"auth": "security"})         # frecency and path boost
    sb.record_access("src/a.py")
    sb.grep("TODO", sort="frecency")                     # recently used files first
    sb.frecency_score("src/a.py"), sb.path_boost("src/auth/login.py")

Every error is an :class:`FsnativeError` with a stable ``code``, and also the matching
builtin (``OutsideSandboxError`` is a ``PermissionError``, ``NotFoundError`` a
``FileNotFoundError``, bad patterns and arguments ``ValueError``s; an unknown or unusable
option is an ``InvalidOptionError``, both a ``TypeError`` and a ``ValueError``).
"""

from fsnative._errors import (
    FsnativeError,
    InternalError,
    InvalidArgumentError,
    InvalidCursorError,
    InvalidGlobError,
    InvalidOptionError,
    InvalidPathError,
    InvalidPatternError,
    IOFailureError,
    NotADirError,
    NotFoundError,
    OutsideSandboxError,
    PatternTooLargeError,
    PermissionDeniedError,
    SymlinkLoopError,
)
from fsnative._fsnative import CancelToken, __version__, is_path_within
from fsnative._index import IndexOptions
from fsnative._sandbox import Sandbox
from fsnative._views import *  # the result and status views, typed in _views.pyi

__all__ = [
    "CancelToken",
    "ContextLine",
    "FileMatches",
    "FindEntry",
    "FindResult",
    "FindStats",
    "FsnativeError",
    "GlobEntry",
    "GlobResult",
    "GlobStats",
    "GrepResult",
    "GrepStats",
    "IOFailureError",
    "IndexOptions",
    "IndexStatus",
    "InternalError",
    "InvalidArgumentError",
    "InvalidCursorError",
    "InvalidGlobError",
    "InvalidOptionError",
    "InvalidPathError",
    "InvalidPatternError",
    "Match",
    "NotADirError",
    "NotFoundError",
    "OutsideSandboxError",
    "PatternTooLargeError",
    "PermissionDeniedError",
    "Sandbox",
    "SymlinkLoopError",
    "ThesaurusStatus",
    "__version__",
    "is_path_within",
]
