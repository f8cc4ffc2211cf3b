"""The exceptions fsnative raises: one class per core error code.

Each class also derives from the builtin exception a Python caller would expect, so
``except FileNotFoundError`` or ``except ValueError`` catch fsnative's errors too. The binding
builds them through :func:`error_for`.
"""

from __future__ import annotations


class FsnativeError(Exception):
    """Base class of every error from fsnative's core; ``code`` is its stable error code.

    ``option`` names the option an :class:`InvalidOptionError` is about (else None). ``path`` is
    the path an error about a file or path names (``NOT_FOUND``, ``NOT_A_DIRECTORY``,
    ``PERMISSION_DENIED``, ``SYMLINK_LOOP``, ``IO``, ``INVALID_PATH``; for
    ``OUTSIDE_SANDBOX`` the path as the caller gave it, never what it resolved to), a ``str``
    decoded like :func:`os.fsdecode`; else None.
    """

    code: str
    option: str | None = None
    path: str | None = None


class OutsideSandboxError(FsnativeError, PermissionError):
    """The path (or a symlink in it) resolves outside every root."""

    code = "OUTSIDE_SANDBOX"


class NotFoundError(FsnativeError, FileNotFoundError):
    """The path or a root does not exist (only said for paths inside the sandbox)."""

    code = "NOT_FOUND"


class NotADirError(FsnativeError, NotADirectoryError):
    """A root or a glob base is not a directory, or a file is used as one."""

    code = "NOT_A_DIRECTORY"


class InvalidPathError(FsnativeError, ValueError):
    """An empty path, a NUL byte, or a name too long for the system."""

    code = "INVALID_PATH"


class SymlinkLoopError(FsnativeError, OSError):
    """More than 40 symlinks while resolving a path, or a loop."""

    code = "SYMLINK_LOOP"


class PermissionDeniedError(FsnativeError, PermissionError):
    """The system refused access while resolving a path."""

    code = "PERMISSION_DENIED"


class InvalidPatternError(FsnativeError, ValueError):
    """A regular expression does not parse."""

    code = "INVALID_PATTERN"


class PatternTooLargeError(FsnativeError, ValueError):
    """Patterns over 64 KiB, nesting over 128, or a compiled program over 16 MiB."""

    code = "PATTERN_TOO_LARGE"


class InvalidGlobError(FsnativeError, ValueError):
    """A glob filter or glob pattern does not parse."""

    code = "INVALID_GLOB"


class InvalidCursorError(FsnativeError, ValueError):
    """A cursor is malformed or belongs to another request."""

    code = "INVALID_CURSOR"


class InvalidArgumentError(FsnativeError, ValueError):
    """An argument has an unusable value: no pattern, an unknown file type or mode, …"""

    code = "INVALID_ARGUMENT"


class InvalidOptionError(InvalidArgumentError, TypeError):
    """An unknown option, or an option value of the wrong type or out of range.

    The message names the option and says what it accepts; ``option`` is its name. Also a
    ``TypeError`` and (as an :class:`InvalidArgumentError`) a ``ValueError``: Python raises
    either for such mistakes, and both catch it.
    """

    code = "INVALID_OPTION"


class IOFailureError(FsnativeError, OSError):
    """Any other I/O failure."""

    code = "IO"


class InternalError(FsnativeError, RuntimeError):
    """A bug in fsnative (a panic caught at the boundary); please report it."""

    code = "INTERNAL"


_CLASSES_BY_CODE: dict[str, type[FsnativeError]] = {
    cls.code: cls
    for cls in (
        OutsideSandboxError,
        NotFoundError,
        NotADirError,
        InvalidPathError,
        SymlinkLoopError,
        PermissionDeniedError,
        InvalidPatternError,
        PatternTooLargeError,
        InvalidGlobError,
        InvalidCursorError,
        InvalidArgumentError,
        InvalidOptionError,
        IOFailureError,
        InternalError,
    )
}


def error_for(code: str, message: str, option: str | None = None, path: str | None = None) -> FsnativeError:
    """The exception for a core error: an instance of its code's class."""
    cls = _CLASSES_BY_CODE.get(code)
    error = FsnativeError(message) if cls is None else cls(message)
    if cls is None:
        error.code = code
    if option is not None:
        error.option = option
    if path is not None:
        error.path = path
    return error
