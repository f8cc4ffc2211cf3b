"""Exceptions: one class per core code, derived from the matching builtin; argument errors."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest

import fsnative
from fsnative import FsnativeError, Sandbox, _errors, _fsnative

BUILTIN_BASE = {
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
    "IO": OSError,
    "INTERNAL": RuntimeError,
}


def test_one_class_per_core_code() -> None:
    assert set(_fsnative.ERROR_CODES) == set(BUILTIN_BASE)
    for code in _fsnative.ERROR_CODES:
        error = _errors.error_for(code, "what went wrong")
        assert isinstance(error, FsnativeError)
        assert isinstance(error, BUILTIN_BASE[code])
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
    raises("OUTSIDE_SANDBOX", lambda: sandbox.validate_path("/etc/passwd"))
    raises("OUTSIDE_SANDBOX", lambda: sandbox.grep("x", path="../outside.txt"))
    raises("NOT_FOUND", lambda: Sandbox([tmp_path / "missing"]))
    raises("NOT_FOUND", lambda: sandbox.grep("x", path="missing"))
    raises("NOT_A_DIRECTORY", lambda: Sandbox([tree / "a.txt"]))
    raises("NOT_A_DIRECTORY", lambda: sandbox.validate_path("a.txt/x"))
    raises("INVALID_PATH", lambda: sandbox.validate_path("a\0b"))
    raises("INVALID_PATH", lambda: sandbox.validate_path(""))
    raises("SYMLINK_LOOP", lambda: sandbox.validate_path("loop"))
    raises("INVALID_PATTERN", lambda: sandbox.grep("("))
    raises("PATTERN_TOO_LARGE", lambda: sandbox.grep("a" * 70_000))
    raises("INVALID_GLOB", lambda: sandbox.grep("x", globs=["a[b"]))
    raises("INVALID_GLOB", lambda: sandbox.glob("a[b"))
    raises("INVALID_CURSOR", lambda: sandbox.grep("x", cursor="not a cursor"))
    raises("INVALID_ARGUMENT", lambda: sandbox.grep())
    raises("INVALID_ARGUMENT", lambda: sandbox.grep("x", types=["no-such-type"]))
    error = raises("NOT_FOUND", lambda: sandbox.validate_path("missing.txt"))
    assert isinstance(error, fsnative.NotFoundError) and "missing.txt" in str(error)


@pytest.mark.skipif(os.geteuid() == 0, reason="permission bits do not apply to root")
def test_permission_denied(sandbox: Sandbox, tree: Path) -> None:
    (tree / "locked").mkdir(mode=0o000)
    try:
        raises("PERMISSION_DENIED", lambda: sandbox.validate_path("locked/x"))
    finally:
        (tree / "locked").chmod(0o755)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda sb: sb.grep("x", bogus=1), "grep() got an unexpected keyword argument 'bogus'"),
        (lambda sb: sb.glob("x", context=1), "glob() got an unexpected keyword argument 'context'"),
        (lambda sb: sb.grep(5), "grep() argument 'patterns': expected a str or a list of str"),
        (lambda sb: sb.grep("x", context="2"), "grep() argument 'context': invalid type: string \"2\""),
        (lambda sb: sb.grep("x", context=1.5), "grep() argument 'context': invalid type: floating point"),
        (lambda sb: sb.grep("x", hidden="yes"), "grep() argument 'hidden': invalid type: string"),
        (lambda sb: sb.grep("x", hidden=1), "grep() argument 'hidden': invalid type: integer `1`"),
        (lambda sb: sb.grep("x", limit=True), "grep() argument 'limit': invalid type: boolean `true`"),
        (lambda sb: sb.grep("x", globs=[b"*.py"]), "grep() argument 'globs': bytes is not accepted here"),
        (lambda sb: sb.grep("x", globs={"*.py"}), "grep() argument 'globs': set is not accepted here"),
        (lambda sb: sb.grep("x", path=["a", 1]), "grep() argument 'path': expected a str or a list of str"),
        (lambda sb: sb.grep("x", cancel="no"), "grep() argument 'cancel' must be a CancelToken or None, not str"),
        (lambda sb: sb.grep("x", patterns="y"), "grep() got multiple values for argument 'patterns'"),
        (lambda sb: sb.grep(pattern="x", patterns="y"), "grep() got 'patterns' twice"),
        (lambda sb: sb.glob(path="a", paths="b"), "glob() got 'paths' twice"),
        (lambda sb: sb.validate_path(5), "validate_path() argument 'path': expected str, bytes or os.PathLike"),
        (lambda sb: sb.validate_path("a", intent=3), "validate_path() argument 'intent': invalid type: integer"),
        (lambda sb: sb.grep("x").render(5), "render() argument 'format': invalid type: integer `5`, expected a str"),
        (lambda sb: sb.grep("x").render("json", heading=True), "render() got an unexpected keyword argument 'heading'"),
        (lambda sb: Sandbox("/tmp"), "Sandbox() argument 'roots' must be a list of paths, not one path"),
        (lambda sb: Sandbox(5), "Sandbox() argument 'roots' must be a list of paths"),  # type: ignore[arg-type]
        (lambda sb: Sandbox([5]), "Sandbox() argument 'roots': expected str, bytes or"),  # type: ignore[list-item]
    ],
)
def test_wrong_types_raise_type_error_naming_the_argument(
    sandbox: Sandbox, call: Callable[[Sandbox], object], message: str
) -> None:
    with pytest.raises(TypeError) as caught:
        call(sandbox)
    assert str(caught.value).startswith(message), caught.value
    assert not isinstance(caught.value, FsnativeError)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda sb: sb.grep("x", context=-1), "grep() argument 'context': invalid value: integer `-1`, expected an"),
        (lambda sb: sb.grep("x", mode="lines"), "grep() argument 'mode': unknown variant `lines`, expected one of"),
        (lambda sb: sb.glob("x", kind="links"), "glob() argument 'kind': unknown variant `links`"),
        (lambda sb: sb.grep("x", limit=2**64), "grep() argument 'limit': 18446744073709551616 is out of range"),
        (lambda sb: sb.grep("x", path="bad\udcff"), "grep() argument 'path': the string is not valid UTF-8"),
        (lambda sb: sb.validate_path("a", intent="rw"), "validate_path() argument 'intent': unknown variant `rw`"),
        (lambda sb: sb.grep("x").render("xml"), "render() argument 'format': unknown variant `xml`"),
        (lambda sb: sb.grep("x").render(path_style="up"), "render() argument 'path_style': unknown variant `up`"),
    ],
)
def test_bad_values_raise_invalid_argument(sandbox: Sandbox, call: Callable[[Sandbox], object], message: str) -> None:
    error = raises("INVALID_ARGUMENT", lambda: call(sandbox))
    assert isinstance(error, fsnative.InvalidArgumentError)
    assert str(error).startswith(message), error


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
        for call in (sandbox.validate_path, lambda v: Sandbox([v]), lambda v: sandbox.grep("foo").render(v)):
            try:
                call(value)
            except (TypeError, FsnativeError):
                pass
