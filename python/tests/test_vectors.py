"""Runs every shared conformance vector in ``tests/vectors/`` through the Python API, twice:
once on a plain sandbox, once (``name [index]``) on a sandbox with a warm index, ready before
the operation runs; the expected results are the same.

One pytest case per vector and mode, so the summary counts what the Rust runner
(``crates/fsnative/tests/vectors.rs``) counts. The format is in ``tests/README.md``; fixture
building, ``$T`` substitution, ``pages``/``cursor_from``/``render`` and the subset comparison
follow the Rust runner.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path
from typing import Any, Iterator, Literal

import pytest

import fsnative
from fsnative import FsnativeError, Sandbox

VECTORS_DIR = Path(__file__).resolve().parents[2] / "tests" / "vectors"
RUNNING_AS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0  # no uid on Windows
HEX_ESCAPE = re.compile(rb"\\x([0-9a-fA-F]{2})")
# How long index mode waits for a vector's index, in milliseconds (a tiny tree's takes a few).
INDEX_READY_TIMEOUT_MS = 60_000


# An FFF tool's `next_cursor: TOKEN` line as the vectors read it (the token names the fixture).
FFF_CURSOR = "next_cursor: CURSOR"

# This system's name in a vector's `only_on`: linux, macos or windows.
THIS_OS = {"darwin": "macos", "win32": "windows"}.get(sys.platform, sys.platform)


def load_cases() -> list[Any]:
    files = sorted(VECTORS_DIR.glob("*.json"))
    assert files, f"no vectors in {VECTORS_DIR}"
    cases = []
    for file in files:
        doc = json.loads(file.read_text(encoding="utf-8"))
        trees = doc.get("trees", {})
        for vector in doc["vectors"]:
            elsewhere = "only_on" in vector and THIS_OS not in vector["only_on"]
            as_root = RUNNING_AS_ROOT and "root" in vector.get("skip_if", [])
            unmakeable = unmakeable_here(vector, trees)
            reason: str | None = unmakeable
            if elsewhere:
                reason = "runs only on " + ", ".join(vector.get("only_on", []))
            elif as_root:
                reason = "permission bits do not apply to root"
            marks = [pytest.mark.skip(reason=reason)] if reason else []
            cases.append(pytest.param(vector, trees, False, id=vector["name"], marks=marks))
            cases.append(pytest.param(vector, trees, True, id=f"{vector['name']} [index]", marks=marks))
    return cases


def unmakeable_here(vector: dict[str, Any], trees: dict[str, Any]) -> str | None:
    """Why this OS cannot make the vector's tree (a FIFO on Windows), or None."""
    tree = trees.get(vector["tree"]) if isinstance(vector.get("tree"), str) else vector.get("tree")
    entries = tree.values() if isinstance(tree, dict) else []
    if os.environ.get("FSNATIVE_UNDER_WINE") and isinstance(vector.get("not_under_wine"), str):
        return f"not run under Wine: {vector['not_under_wine']}"
    if THIS_OS != "windows":
        return None
    if any(isinstance(entry, dict) and "fifo" in entry for entry in entries):
        return "its tree holds a FIFO, which Windows cannot make"
    if any(isinstance(entry, dict) and "mode" in entry for entry in entries):
        return "its tree sets permission bits (mode), which Windows does not have"
    for key in tree or {}:
        try:
            decode_key(key).decode("utf-8")
        except UnicodeDecodeError:
            return f"its tree holds {key!r}, a name that is not UTF-8, which Windows cannot make"
    lower: dict[str, str] = {}
    for key in tree or {}:
        other = lower.setdefault(key.lower(), key)
        if other != key:
            return f"its tree holds {other!r} and {key!r}, names equal but for case, which Windows keeps as one"
    refused = next((key for key in tree or {} if any(map(windows_refuses, key.split("/")))), None)
    return None if refused is None else f"its tree holds {refused!r}, a name Windows cannot make"


def windows_refuses(name: str) -> bool:
    """Windows makes no file of this name: one with ``<>:"|?*`` or a control character, one that
    ends with a dot or a space, or a device's (``CON``, ``nul.txt``, ``COM1``)."""
    stem = name.split(".")[0].rstrip(" ").upper()
    return (
        any(c in '<>:"|?*' or c < " " for c in name)
        or (name.endswith((".", " ")) and name not in (".", ".."))
        or stem in ("CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$")
        or re.fullmatch(r"(COM|LPT)[0-9]", stem) is not None
    )


def fixture_relative(value: Any, base: str) -> Any:
    """``value`` with the fixture directory written ``$T`` in every string (see ``as_fixture_text``)."""
    if isinstance(value, str):
        return as_fixture_text(value, base)
    if isinstance(value, list):
        return [fixture_relative(item, base) for item in value]
    if isinstance(value, dict):
        return {as_fixture_text(k, base): fixture_relative(v, base) for k, v in value.items()}
    return value


def as_fixture_text(text: str, base: str) -> str:
    """``text`` with the fixture directory written ``$T``; on Windows a path that held it then
    has ``/`` between its names, as the vectors spell them."""
    if base not in text:
        return text
    replaced = text.replace(base, "$T")
    return replaced.replace("\\", "/") if THIS_OS == "windows" else replaced


CASES = load_cases()
# This run's counts, written to $FSNATIVE_VECTOR_COUNTS/python.json when that is set (make test
# compares the three runners' counts: tests/compare-vector-counts.py).
COUNTS = {"passed": 0, "skipped": sum(1 for case in CASES if case.marks), "failed": 0}


@pytest.fixture(scope="module", autouse=True)
def record_counts() -> Iterator[None]:
    yield
    directory = os.environ.get("FSNATIVE_VECTOR_COUNTS")
    if directory:
        COUNTS["failed"] = len(CASES) - COUNTS["passed"] - COUNTS["skipped"]
        Path(directory).mkdir(parents=True, exist_ok=True)
        (Path(directory) / "python.json").write_text(json.dumps(COUNTS))


@pytest.mark.parametrize(("vector", "trees", "indexed"), CASES)
def test_vector(vector: dict[str, Any], trees: dict[str, Any], indexed: bool) -> None:
    run_vector(vector, trees, indexed)
    COUNTS["passed"] += 1


def run_vector(vector: dict[str, Any], trees: dict[str, Any], indexed: bool) -> None:
    base = os.path.realpath(tempfile.mkdtemp(prefix="fsnative-vector-"))
    try:
        tree = vector.get("tree")
        if isinstance(tree, str):
            tree = trees[tree]
        build_tree(base, tree or {})
        args = substitute(vector.get("args", {}), base)
        failure_path = None
        try:
            outcome: Any = execute(vector, base, args, indexed)
            failure = None
        except FsnativeError as error:
            failure, failure_path = error.code, error.path
        except TypeError as error:
            failure = f"BAD_VECTOR: {error}"
        compare_outcome(vector, outcome if failure is None else None, failure, base, failure_path)
    finally:
        remove_fixture(base)


def execute(vector: dict[str, Any], base: str, args: dict[str, Any], indexed: bool) -> Any:
    """Runs the vector's operation; returns the actual value or raises FsnativeError.
    ``indexed``: on a sandbox with a warm index, ready first, and closed after."""
    roots = [fixture_path(base, root) for root in vector.get("roots", ["root"])]
    options = substitute(vector.get("sandbox_options", {}), base)
    # A vector's own index options stand in both modes.
    options.setdefault("index", indexed)
    with Sandbox(roots, **options) as sandbox:
        if indexed:
            ready = sandbox.wait_for_index(timeout_ms=INDEX_READY_TIMEOUT_MS)
            assert ready, f"the index is not ready: {sandbox.index_status()!r}"
        for path in vector.get("record", []):
            sandbox.record_access(path)
        return operation(vector, sandbox, args)


def operation(vector: dict[str, Any], sandbox: Sandbox, args: dict[str, Any]) -> Any:
    """The vector's operation on ``sandbox``."""
    op = vector["op"]
    if op == "sandbox":
        return {"roots": sandbox.roots}
    if op == "path_within":
        return {"within": fsnative.is_path_within(args["path"], args["dirs"])}
    if op == "validate":
        intent: Literal["read", "write"] = "write" if args.get("intent") == "write" else "read"
        return {"path": sandbox.validate(args.get("path", ""), intent=intent)}
    if op == "fff_tool":
        # The binding's entry, which fsnative.fff's methods call with their arguments.
        lines = sandbox.fff_tool(args["tool"], args["arguments"]).split("\n")[:-1]
        return {"lines": [FFF_CURSOR if line.startswith("next_cursor: ") else line for line in lines]}
    if op == "glob":
        return json.loads(sandbox.glob(**args).to_json())
    if op == "record_access":
        sandbox.record_access(args["path"])
        return {}
    if op == "frecency_score":
        return {"score": sandbox.frecency_score(args["path"])}
    if op == "path_boost":
        return {"boost": sandbox.path_boost(args["path"])}
    if op == "find":
        render_find = args.pop("render", None)
        found = sandbox.find(**args)
        if render_find is None:
            return json.loads(found.to_json())
        return {"text": found.render(**render_find)}
    if op == "grep":
        render = args.pop("render", None)
        pages = args.pop("pages", None) is True
        cursor_from = args.pop("cursor_from", None)
        if cursor_from is not None:
            args["cursor"] = sandbox.grep(**cursor_from).next_cursor
        if pages:
            results = []
            while True:
                result = sandbox.grep(**args)
                results.append(json.loads(result.to_json()))
                if result.next_cursor is None or len(results) >= 100:
                    return {"pages": results}
                args["cursor"] = result.next_cursor
        result = sandbox.grep(**args)
        if render is None:
            return json.loads(result.to_json())
        text = result.render(**render)
        if render.get("format") == "json":
            return {"messages": [parse_json_or_none(line) for line in rust_lines(text)]}
        return {"text": text}
    raise AssertionError(f"unknown op {op}")


def rust_lines(text: str) -> list[str]:
    """Rust's ``str::lines``: split at ``\\n``, drop a final ``\\r``, no empty last line."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def parse_json_or_none(line: str) -> Any:
    try:
        return json.loads(line)
    except ValueError:
        return None


def compare_outcome(
    vector: dict[str, Any], actual: Any, failure: str | None, base: str, failure_path: str | None = None
) -> None:
    expected_error = vector.get("expect_error")
    if expected_error is not None:
        assert failure == expected_error, f"expected error {expected_error}, got {failure or actual}"
        if "expect_error_path" in vector:
            path = None if failure_path is None else as_fixture_text(failure_path, base)
            assert path == vector["expect_error_path"], f"expected error path {vector['expect_error_path']}, got {path}"
        return
    assert failure is None, f"unexpected error {failure}"
    actual = fixture_relative(actual, base)
    assert "expect" in vector, "vector has neither expect nor expect_error"
    problem = subset(vector["expect"], actual, "")
    assert problem is None, f"{problem}\nactual: {json.dumps(actual, ensure_ascii=False)}"


def subset(expected: Any, actual: Any, at: str) -> str | None:
    """Why ``expected`` is not contained in ``actual`` (None if it is): objects compare their
    listed keys, arrays have the same length and match element-wise, other values are equal
    (numbers by value, booleans only to booleans)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            if key not in actual:
                return f"{at}/{key}: missing"
            problem = subset(value, actual[key], f"{at}/{key}")
            if problem is not None:
                return problem
        return None
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            return f"{at}: expected {len(expected)} items, got {len(actual)}"
        for index, (want, have) in enumerate(zip(expected, actual)):
            problem = subset(want, have, f"{at}/{index}")
            if problem is not None:
                return problem
        return None
    if is_number(expected) and is_number(actual):
        return None if float(expected) == float(actual) else f"{at}: expected {expected}, got {actual}"
    if type(expected) is type(actual) and expected == actual:
        return None
    return f"{at}: expected {json.dumps(expected)}, got {json.dumps(actual)}"


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def fixture_path(base: str, text: str) -> str:
    if text.startswith("file:"):  # a `file:` URI root: as written, `$T` replaced wherever it is
        return text.replace("$T", base)
    return base + text[2:] if text.startswith("$T") else os.path.join(base, text)


def substitute(value: Any, base: str) -> Any:
    """Replaces ``$T`` and ``$HOME`` in every string of ``value``."""
    if isinstance(value, str):
        return substitute_str(value, base)
    if isinstance(value, list):
        return [substitute(item, base) for item in value]
    if isinstance(value, dict):
        return {key: substitute(item, base) for key, item in value.items()}
    return value


def substitute_str(text: str, base: str) -> str:
    if text == "$T" or text.startswith("$T/"):
        text = base + text[2:]
    if text == "$HOME" or text.startswith("$HOME/"):
        text = os.environ.get("HOME", "") + text[5:]
    return text


def decode_key(key: str) -> bytes:
    """A tree key as a file name: ``\\xNN`` escapes become raw bytes."""
    return HEX_ESCAPE.sub(lambda found: bytes([int(found.group(1), 16)]), key.encode())


def make_dirs(path: bytes) -> None:
    """``os.makedirs`` without recursion (trees can be 1000 levels deep)."""
    missing = []
    while not os.path.isdir(path):
        missing.append(path)
        path = os.path.dirname(path)
    for directory in reversed(missing):
        os.mkdir(directory)


def build_tree(base: str, tree: dict[str, Any]) -> None:
    """Creates the entries in key order, then symlinks, then mtimes, then modes."""
    root = os.fsencode(base)
    links, mtimes, modes = [], [], []
    for key, entry in sorted(tree.items()):
        path = os.path.join(root, decode_key(key))
        make_dirs(os.path.dirname(path))
        if isinstance(entry, str):
            write_file(path, entry.encode())
            continue
        assert isinstance(entry, dict), f"{key}: unknown tree entry {entry}"
        if isinstance(entry.get("text"), str):
            write_file(path, entry["text"].encode())
        elif isinstance(entry.get("hex"), str):
            write_file(path, bytes.fromhex("".join(entry["hex"].split())))
        elif "dir" in entry:
            make_dirs(path)
        elif isinstance(entry.get("symlink"), str):
            links.append((path, os.fsencode(substitute_str(entry["symlink"], base))))
        elif "fifo" in entry:
            os.mkfifo(path, 0o644)
        else:
            raise AssertionError(f"{key}: unknown tree entry {entry}")
        mtime = entry.get("mtime")
        if isinstance(mtime, int) and not isinstance(mtime, bool):
            mtimes.append((path, mtime))
        if isinstance(entry.get("mode"), str):
            modes.append((path, int(entry["mode"], 8)))
    for path, target in links:
        os.symlink(target, path)
    for path, mtime in mtimes:
        os.utime(path, (mtime, mtime), follow_symlinks=False)
    for path, mode in modes:
        os.chmod(path, mode)


def write_file(path: bytes, content: bytes) -> None:
    with open(path, "wb") as file:
        file.write(content)


def remove_fixture(base: str) -> None:
    """Removes the fixture without recursion, making chmod-ed directories usable again. Only
    the fixture's own directories are chmod-ed: symlinks (which may point at /etc/passwd)
    are never followed."""
    directories = [os.fsencode(base)]
    visited = []
    while directories:
        directory = directories.pop()
        os.chmod(directory, 0o755)
        visited.append(directory)
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    directories.append(entry.path)
                else:
                    os.unlink(entry.path)
    for directory in reversed(visited):
        os.rmdir(directory)
