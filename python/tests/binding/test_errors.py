"""Exceptions: one class per core code, derived from the matching builtin; argument errors."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest

import fsnative
from fsnative import FsnativeError, Sandbox, _errors, _fsnative

BUILTIN_BASE: dict[str, type[Exception] | tuple[type[Exception], ...]] = {
    "OUTSIDE_SANDBOX": PermissionError,
    "NOT_FOUND": FileNotFoundError,
    "NOT_A_DIRECTORY": NotADirectoryError,
    "INVALID_PATH": ValueError,
    "SYMLINK_LOOP": OSError,
    "PERMISSION_DENIED": PermissionError,
    "INVALID_PATTERN": ValueError,
    "PATTERN_TOO_LARGE": ValueError,
    "INVALID_GLOB": ValueError,
    "INVALID_CURSOR": ValueError,
    "INVALID_ARGUMENT": ValueError,
    "INVALID_OPTION": (TypeError, ValueError),
    "IO": OSError,
    "INTERNAL": RuntimeError,
}


def test_one_class_per_core_code() -> None:
    assert set(_fsnative.ERROR_CODES) == set(BUILTIN_BASE)
    for code in _fsnative.ERROR_CODES:
        error = _errors.error_for(code, "what went wrong")
        assert isinstance(error, FsnativeError)
        bases = BUILTIN_BASE[code]
        assert all(isinstance(error, base) for base in (bases if isinstance(bases, tuple) else (bases,)))
        assert error.code == type(error).code == code
        assert str(error) == "what went wrong"
        assert type(error).__name__ in fsnative.__all__


def test_an_unknown_code_still_gives_an_fsnative_error() -> None:
    error = _errors.error_for("SOMETHING_NEW", "message")
    assert type(error) is FsnativeError and error.code == "SOMETHING_NEW"


def raises(code: str, call: Callable[[], object]) -> FsnativeError:
    with pytest.raises(FsnativeError) as caught:
        call()
    assert caught.value.code == code, caught.value
    assert isinstance(caught.value, BUILTIN_BASE[code])
    return caught.value


def test_core_errors_carry_their_code(sandbox: Sandbox, tree: Path, tmp_path: Path) -> None:
    (tree / "loop").symlink_to("loop")
    raises("OUTSIDE_SANDBOX", lambda: sandbox.validate("/etc/passwd"))
    raises("OUTSIDE_SANDBOX", lambda: sandbox.grep("x", path="../outside.txt"))
    raises("NOT_FOUND", lambda: Sandbox([tmp_path / "missing"]))
    raises("NOT_FOUND", lambda: sandbox.grep("x", path="missing"))
    raises("NOT_A_DIRECTORY", lambda: Sandbox([tree / "a.txt"]))
    raises("NOT_A_DIRECTORY", lambda: sandbox.validate("a.txt/x"))
    raises("INVALID_PATH", lambda: sandbox.validate("a\0b"))
    raises("INVALID_PATH", lambda: sandbox.validate(""))
    raises("SYMLINK_LOOP", lambda: sandbox.validate("loop"))
    raises("INVALID_PATTERN", lambda: sandbox.grep("("))
    raises("PATTERN_TOO_LARGE", lambda: sandbox.grep("a" * 70_000))
    raises("INVALID_GLOB", lambda: sandbox.grep("x", globs=["a[b"]))
    raises("INVALID_GLOB", lambda: sandbox.glob("a[b"))
    raises("INVALID_CURSOR", lambda: sandbox.grep("x", cursor="not a cursor"))
    raises("INVALID_ARGUMENT", lambda: sandbox.grep())
    raises("INVALID_ARGUMENT", lambda: sandbox.grep("x", types=["no-such-type"]))
    error = raises("NOT_FOUND", lambda: sandbox.validate("missing.txt"))
    assert isinstance(error, fsnative.NotFoundError) and "missing.txt" in str(error)


def test_errors_about_a_path_carry_it(sandbox: Sandbox, tree: Path, tmp_path: Path) -> None:
    root = os.path.realpath(tree)
    (tree / "loop").symlink_to("loop")
    (tree / "etc-link").symlink_to("/etc")
    assert raises("NOT_FOUND", lambda: sandbox.validate("missing.txt")).path == "missing.txt"
    assert raises("NOT_FOUND", lambda: sandbox.grep("x", path="gone")).path == "gone"
    assert raises("NOT_FOUND", lambda: Sandbox([tmp_path / "nope"])).path == str(tmp_path / "nope")
    assert raises("NOT_A_DIRECTORY", lambda: sandbox.validate("a.txt/x")).path == f"{root}/a.txt/x"
    assert raises("NOT_A_DIRECTORY", lambda: sandbox.glob("*", path="a.txt")).path == f"{root}/a.txt"
    assert raises("SYMLINK_LOOP", lambda: sandbox.validate("loop")).path == f"{root}/loop"
    assert raises("INVALID_PATH", lambda: sandbox.validate("")).path == ""
    # Outside: the path as given, never where the link led.
    assert raises("OUTSIDE_SANDBOX", lambda: sandbox.validate("etc-link/passwd")).path == "etc-link/passwd"
    # Not UTF-8: decoded like os.fsdecode, so os.fsencode gives the bytes back.
    error = raises("NOT_FOUND", lambda: sandbox.validate(b"missing\xff"))
    assert error.path is not None and os.fsencode(error.path) == b"missing\xff"
    assert raises("INVALID_PATTERN", lambda: sandbox.grep("(")).path is None
    assert raises("INVALID_OPTION", lambda: sandbox.grep("x", limit=-1)).path is None


@pytest.mark.skipif(os.geteuid() == 0, reason="permission bits do not apply to root")
def test_unreadable_directory_raises_permission_denied(sandbox: Sandbox, tree: Path) -> None:
    (tree / "locked").mkdir(mode=0o000)
    try:
        raises("PERMISSION_DENIED", lambda: sandbox.validate("locked/x"))
    finally:
        (tree / "locked").chmod(0o755)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda sb: sb.grep("x", cancel="no"), "grep() argument 'cancel' must be a CancelToken or None, not str"),
        (lambda sb: sb.grep("x", patterns="y"), "grep() got multiple values for argument 'patterns'"),
        (lambda sb: sb.validate(5), "validate() argument 'path': expected str, bytes or os.PathLike"),
        (lambda sb: Sandbox("/tmp"), "Sandbox() argument 'roots' must be a list of paths, not one path"),
        (lambda sb: Sandbox(5), "Sandbox() argument 'roots' must be a list of paths"),  # type: ignore[arg-type]
        (lambda sb: Sandbox([5]), "Sandbox() argument 'roots': expected str, bytes or"),  # type: ignore[list-item]
    ],
)
def test_python_calling_mistakes_raise_type_error(
    sandbox: Sandbox, call: Callable[[Sandbox], object], message: str
) -> None:
    """Python's own rules (how arguments are passed, what a path or a token is) are checked
    here; everything about options is the core's (below)."""
    with pytest.raises(TypeError) as caught:
        call(sandbox)
    assert str(caught.value).startswith(message), caught.value
    assert not isinstance(caught.value, FsnativeError)


@pytest.mark.parametrize(
    ("call", "option", "message"),
    [
        (lambda sb: sb.grep("x", bogus=1), "bogus", "unknown grep option `bogus`"),
        (lambda sb: sb.grep("x", maxDepth=1), "maxDepth", "unknown grep option `maxDepth` (did you mean `max_depth`?)"),
        (lambda sb: sb.grep("x", max_dept=1), "max_dept", "unknown grep option `max_dept` (did you mean `max_depth`?)"),
        (lambda sb: sb.glob("x", context=1), "context", "unknown glob option `context`"),
        (lambda sb: sb.grep(5), "patterns", "grep option `patterns` must be a string or a list of strings, not 5"),
        (
            lambda sb: sb.grep("x", context="2"),
            "context",
            'grep option `context` must be a non-negative integer, not "2"',
        ),
        (
            lambda sb: sb.grep("x", context=1.5),
            "context",
            "grep option `context` must be a non-negative integer, not 1.5",
        ),
        (
            lambda sb: sb.grep("x", context=-1),
            "context",
            "grep option `context` must be a non-negative integer, not -1",
        ),
        (lambda sb: sb.grep("x", limit=-1), "limit", "grep option `limit` must be a non-negative integer, not -1"),
        (
            lambda sb: sb.grep("x", limit=True),
            "limit",
            "grep option `limit` must be a non-negative integer, not a boolean",
        ),
        (
            lambda sb: sb.grep("x", limit=2**64),
            "limit",
            "grep option `limit` must be a non-negative integer, not 18446744073709551616, beyond 64 bits",
        ),
        (lambda sb: sb.grep("x", hidden="yes"), "hidden", 'grep option `hidden` must be a boolean, not "yes"'),
        (lambda sb: sb.grep("x", hidden=1), "hidden", "grep option `hidden` must be a boolean, not 1"),
        (
            lambda sb: sb.grep("x", globs=[b"*.py"]),
            "globs",
            "grep option `globs` must be a string or a list of strings, not bytes",
        ),
        (
            lambda sb: sb.grep("x", globs={"*.py"}),
            "globs",
            "grep option `globs` must be a string or a list of strings, not set",
        ),
        (
            lambda sb: sb.grep("x", path=["a", 1]),
            "path",
            "grep option `path` must be a string or a list of strings, not a list",
        ),
        (
            lambda sb: sb.grep("x", path="bad\udcff"),
            "path",
            "grep option `path` must be a string or a list of strings, not a str that is not valid UTF-8",
        ),
        (
            lambda sb: sb.grep("x", mode="lines"),
            "mode",
            'grep option `mode` must be "content", "files" or "count", not "lines"',
        ),
        (
            lambda sb: sb.glob("x", kind="links"),
            "kind",
            'glob option `kind` must be "files", "dirs" or "all", not "links"',
        ),
        (
            lambda sb: sb.grep(pattern="x", patterns="y"),
            "patterns",
            "grep options `pattern` and `patterns` are the same option; give one",
        ),
        (
            lambda sb: sb.glob(path="a", paths="b"),
            "paths",
            "glob options `path` and `paths` are the same option; give one",
        ),
        (
            lambda sb: sb.validate("a", intent=3),
            "intent",
            'validate option `intent` must be "read" or "write", not 3',
        ),
        (
            lambda sb: sb.validate("a", intent="rw"),
            "intent",
            'validate option `intent` must be "read" or "write", not "rw"',
        ),
        (
            lambda sb: sb.grep("x").render(5),
            "format",
            'render option `format` must be "standard", "json" or "fff", not 5',
        ),
        (
            lambda sb: sb.grep("x").render("xml"),
            "format",
            'render option `format` must be "standard", "json" or "fff", not "xml"',
        ),
        (
            lambda sb: sb.grep("x").render("json", heading=True),
            "heading",
            "render option `heading` applies to the standard format only",
        ),
        (
            lambda sb: sb.grep("x").render(path_style="up"),
            "path_style",
            'render option `path_style` must be "absolute" or "relative", not "up"',
        ),
    ],
)
def test_option_mistakes_name_the_option_and_what_it_accepts(
    sandbox: Sandbox, call: Callable[[Sandbox], object], option: str, message: str
) -> None:
    """Every option mistake is the core's INVALID_OPTION (the code Node gives too), worded
    by the core; in Python it is also a TypeError and a ValueError."""
    error = raises("INVALID_OPTION", lambda: call(sandbox))
    assert isinstance(error, fsnative.InvalidOptionError)
    assert isinstance(error, fsnative.InvalidArgumentError) and isinstance(error, TypeError)
    assert str(error).startswith(message), error
    assert error.option == option


def test_semantic_mistakes_stay_invalid_argument(sandbox: Sandbox) -> None:
    for call in (lambda: sandbox.grep(), lambda: sandbox.grep("x", types=["no-such-type"])):
        error = raises("INVALID_ARGUMENT", call)
        assert not isinstance(error, fsnative.InvalidOptionError) and error.option is None


ODD_VALUES: list[Any] = [
    None,
    True,
    0,
    -(2**80),
    2**80,
    float("inf"),
    "",
    "\0",
    "\udcff",
    "x" * 100_000,
    b"\xff",
    [[["deep"]]],
    {"a": 1},
    object(),
    Path("."),
    ["*"] * 1000,
]


def test_no_input_crashes_the_interpreter(sandbox: Sandbox) -> None:
    """Odd values for every option give a result or an ordinary exception, never a crash."""
    options = ["patterns", "paths", "globs", "types", "mode", "context", "limit", "max_columns", "threads"]
    for value in ODD_VALUES:
        for name in options:
            for search in (sandbox.grep, sandbox.glob):
                try:
                    search("foo", **{name: value}) if name != "patterns" else search(value)
                except (TypeError, FsnativeError):
                    pass
        for call in (sandbox.validate, lambda v: Sandbox([v]), lambda v: sandbox.grep("foo").render(v)):
            try:
                call(value)
            except (TypeError, FsnativeError):
                pass
