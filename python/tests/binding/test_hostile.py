"""Hostile files and hostile arguments.

Every call returns within its bounds (a guard fails a hung call instead of blocking CI), says
what it skipped in its stats, and answers a bad argument with a ``TypeError`` or an
``FsnativeError`` (or a correct answer where the input is legitimate), never a crash.
These run at full size in CI; ``FSNATIVE_FULL_LOAD`` (see test_load, test_race) does not
change them.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import textwrap
import threading
from pathlib import Path
from typing import Any, Callable, TypeVar, cast

import pytest

import fsnative
from fsnative import FsnativeError, Sandbox, _fsnative

T = TypeVar("T")

#: Generous: each guarded call takes milliseconds to a second; only a hang reaches this.
GUARD_SECONDS = 30.0
CODES = set(_fsnative.ERROR_CODES) - {"INTERNAL"}


def bounded(call: Callable[[], T], what: str = "the call", seconds: float = GUARD_SECONDS) -> T:
    """``call()``, run on a daemon thread so that a hang fails the test instead of blocking."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as error:  # noqa: BLE001 - handed back to the caller
            outcome["error"] = error

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        pytest.fail(f"{what} did not return within {seconds:.0f} s")
    if "error" in outcome:
        raise outcome["error"]
    return cast(T, outcome["value"])


# Hostile files ------------------------------------------------------------------------------


def test_a_50_mb_single_line_is_searched_and_the_cut_line_keeps_the_result_small(tmp_path: Path) -> None:
    size = 50 * 1024 * 1024
    (tmp_path / "minified.js").write_bytes(b"x" * size + b"needle\n")
    sandbox = Sandbox([tmp_path])
    result = bounded(lambda: sandbox.grep("needle", max_columns=200), "grep of a 50 MB line")
    found = result.files[0].matches[0]
    assert (len(found.text), found.truncated, found.submatches) == (200, True, [(size, size + 6)])
    assert len(result.to_json()) < 4096
    assert bounded(lambda: sandbox.grep("x", mode="count")).files[0].count == 1
    assert bounded(lambda: sandbox.grep("needle", max_filesize=1024)).total_matches == 0


def test_a_1_gb_sparse_file_is_skipped_as_binary_without_reading_it_all(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("needle\n")
    with open(tmp_path / "sparse.bin", "wb") as sparse:
        sparse.truncate(1024**3)
    sandbox = Sandbox([tmp_path])
    result = bounded(lambda: sandbox.grep("needle"), "grep of a 1 GB sparse file")
    assert result.total_matches == 1
    assert result.stats.skipped_binary == 1
    assert result.stats.bytes_searched < 64 * 1024 * 1024
    named = bounded(lambda: sandbox.grep("needle", path="sparse.bin", mode="count"))
    assert named.stats.skipped_binary == 1
    assert [e.relative_path for e in bounded(lambda: sandbox.glob("*.bin")).entries] == ["sparse.bin"]


def test_files_that_grow_or_vanish_during_the_walk_do_not_break_it(tmp_path: Path) -> None:
    for index in range(300):
        (tmp_path / f"f{index:03}.txt").write_text("needle\n" * 50)
    sandbox = Sandbox([tmp_path])
    stop = threading.Event()

    def churn() -> None:
        round_ = 0
        while not stop.is_set():
            with open(tmp_path / "f000.txt", "a") as growing:
                growing.write("needle grows\n")
            victim = tmp_path / f"f{1 + round_ % 299:03}.txt"
            victim.unlink(missing_ok=True)
            victim.write_text("needle\n")
            round_ += 1

    churner = threading.Thread(target=churn, daemon=True)
    churner.start()
    try:
        for index in range(30):
            found = bounded(lambda: sandbox.grep("needle", limit=None, mode=("content", "count")[index % 2]))
            assert found.total_matches > 0
            assert len(found.files) <= 300
            assert bounded(lambda: sandbox.glob("*.txt", limit=None)).total <= 300
    finally:
        stop.set()
        churner.join(10)
    assert not churner.is_alive()


UNREADABLE_CASE = textwrap.dedent(
    """
    import json, os, sys
    from fsnative import FsnativeError, Sandbox

    root = os.path.join(sys.argv[1], "root")
    os.makedirs(os.path.join(root, "locked"))
    for name in ("a.txt", "locked/secret.txt", "unreadable.txt"):
        with open(os.path.join(root, name), "w") as file:
            file.write("needle\\n")
    os.chmod(os.path.join(root, "unreadable.txt"), 0)
    os.chmod(os.path.join(root, "locked"), 0)
    try:
        sandbox = Sandbox([root])
        grep = sandbox.grep("needle").to_dict()
        glob = sandbox.glob("**").to_dict()
        try:
            validate = sandbox.validate("locked/secret.txt")
        except FsnativeError as error:
            validate = error.code
    finally:
        os.chmod(os.path.join(root, "locked"), 0o755)
    print(json.dumps({"grep": grep, "glob": glob, "validate": validate}))
    """
)


def assert_unreadable_skipped(outcome: dict[str, Any]) -> None:
    grep, glob = outcome["grep"], outcome["glob"]
    assert [f["relative_path"] for f in grep["files"]] == ["a.txt"]
    assert grep["stats"]["skipped_errors"] == 2, "the locked directory and the unreadable file"
    assert outcome["validate"] == "PERMISSION_DENIED"
    assert [e["relative_path"] for e in glob["entries"]] == ["a.txt", "unreadable.txt"]
    assert glob["stats"]["skipped_errors"] == 1, "the locked directory"


def run_unreadable_case(base: str, site: str, python: str = sys.executable, **as_user: Any) -> dict[str, Any]:
    """Runs the case under `base` in a child interpreter that imports fsnative from `site`."""
    run = subprocess.run(
        [python, "-c", UNREADABLE_CASE, base],
        capture_output=True,
        text=True,
        timeout=GUARD_SECONDS,
        cwd=base,
        env={**os.environ, "PYTHONPATH": site},
        **as_user,
    )
    assert run.returncode == 0, run.stderr
    outcome: dict[str, Any] = json.loads(run.stdout.strip().splitlines()[-1])
    return outcome


def copy_installed_package(base: str) -> str:
    """A copy of the installed package in `base`/site, that directory's path: the venv may sit
    where the child's user cannot read."""
    site = os.path.join(base, "site")
    shutil.copytree(os.path.dirname(fsnative.__file__), os.path.join(site, "fsnative"))
    return site


@pytest.mark.skipif(
    os.geteuid() == 0, reason="running as root: permission bits do not apply (the next test runs it as nobody)"
)
def test_an_unreadable_directory_is_skipped_and_counted(tmp_path: Path) -> None:
    site = copy_installed_package(str(tmp_path))
    assert_unreadable_skipped(run_unreadable_case(str(tmp_path), site))


@pytest.mark.skipif(os.geteuid() != 0, reason="needs root to switch to nobody (the previous test covers this user)")
def test_an_unreadable_directory_is_skipped_and_counted_as_nobody() -> None:
    base = tempfile.mkdtemp(prefix="fsnative-unreadable-")
    try:
        site = copy_installed_package(base)
        subprocess.run(["chmod", "-R", "a+rX", base], check=True)
        fixture = tempfile.mkdtemp(prefix="case-", dir=base)
        os.chown(fixture, 65534, 65534)
        # This venv's interpreter may live where nobody cannot reach it (under /root); the
        # package is abi3, so any CPython 3.9+ that nobody may run imports the copy.
        failure: Exception | None = None
        for python in [
            sys.executable,
            *(p for p in ("/usr/bin/python3", "/usr/local/bin/python3") if os.path.exists(p)),
        ]:
            try:
                outcome = run_unreadable_case(fixture, site, python, user=65534, group=65534, extra_groups=[])
                break
            except PermissionError as error:
                failure = error
        else:
            pytest.skip(f"no Python interpreter that nobody may run, or no switching to nobody here: {failure}")
        assert_unreadable_skipped(outcome)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def test_fifos_sockets_and_a_link_to_dev_zero_are_skipped_and_counted(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("needle\n")
    os.mkfifo(tmp_path / "pipe")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        server.bind(str(tmp_path / "server.sock"))
        server.listen()
        (tmp_path / "zeros").symlink_to("/dev/zero")
        sandbox = Sandbox([tmp_path])

        plain = bounded(lambda: sandbox.grep("needle"))
        assert (plain.total_matches, plain.stats.skipped_special) == (1, 2)
        followed = bounded(lambda: sandbox.grep("needle", follow_links=True, search_binary=True))
        assert followed.total_matches == 1
        assert (followed.stats.skipped_special, followed.stats.skipped_outside) == (2, 1)

        fifo = bounded(lambda: sandbox.grep("needle", path="pipe"), "grep naming the FIFO")
        assert (fifo.total_matches, fifo.stats.skipped_special) == (0, 1)
        named_socket = bounded(lambda: sandbox.grep("needle", path="server.sock"), "grep naming the socket")
        assert named_socket.total_matches == 0
        # Skipped and counted; the core counts a named socket under skipped_errors (its open
        # fails with ENXIO) where a walked one counts under skipped_special.
        assert named_socket.stats.skipped_special + named_socket.stats.skipped_errors == 1
        with pytest.raises(fsnative.OutsideSandboxError):
            bounded(lambda: sandbox.grep("needle", path="zeros"))
        with pytest.raises(fsnative.OutsideSandboxError):
            sandbox.validate("zeros")

        for follow_links in (False, True):
            listed = bounded(lambda: sandbox.glob("*", kind="all", follow_links=follow_links))
            assert [e.relative_path for e in listed.entries] == ["a.txt"]
            assert (listed.stats.skipped_special, listed.stats.skipped_outside) == (2, 1)
        rendered = bounded(lambda: sandbox.grep("needle", follow_links=True).render(path_style="relative"))
        assert rendered == "a.txt:1:needle\n"
    finally:
        server.close()


def test_a_1000_level_deep_tree_and_symlink_loops_terminate(tmp_path: Path) -> None:
    deep = Path(*["d"] * 1000)
    level = str(tmp_path)
    for _ in range(1000):  # os.makedirs and Path.mkdir(parents=True) recurse once per level
        level += "/d"
        os.mkdir(level)
    (tmp_path / deep / "bottom.txt").write_text("needle\n")
    try:
        search_the_deep_tree(tmp_path, deep)
    finally:
        os.unlink(tmp_path / deep / "bottom.txt")
        while level != str(tmp_path):  # and so does shutil.rmtree, which cleans tmp_path up
            os.rmdir(level)
            level = os.path.dirname(level)


def search_the_deep_tree(tmp_path: Path, deep: Path) -> None:
    (tmp_path / "loop").symlink_to(".")
    (tmp_path / "loop-a").symlink_to("loop-b")
    (tmp_path / "loop-b").symlink_to("loop-a")
    sandbox = Sandbox([tmp_path])
    for follow_links in (False, True):
        found = bounded(lambda: sandbox.grep("needle", follow_links=follow_links), "grep of a deep tree")
        assert found.total_matches == 1
        assert found.files[0].relative_path == f"{deep}/bottom.txt"
        if follow_links:
            assert found.stats.skipped_errors >= 1, "the loop is reported"
        assert bounded(lambda: sandbox.glob("**/bottom.txt", follow_links=follow_links)).total == 1
    assert bounded(lambda: sandbox.grep("needle", max_depth=10)).total_matches == 0
    with pytest.raises(fsnative.SymlinkLoopError):
        sandbox.validate("loop-a")
    assert sandbox.validate("loop/" * 30 + "loop") == str(tmp_path)
    assert sandbox.validate(f"{deep}/bottom.txt") == str(tmp_path / deep / "bottom.txt")


def test_names_that_are_not_utf8_are_found_and_round_trip(tmp_path: Path) -> None:
    names = [b"\xff.txt", b"\x80\x80", b"\xed\xa0\x80!", b"\xc3(/inner.txt"]
    os.mkdir(os.path.join(os.fsencode(tmp_path), b"\xc3("))
    for name in names:
        with open(os.path.join(os.fsencode(tmp_path), name), "w") as created:
            created.write("needle\n")
    sandbox = Sandbox([tmp_path])
    found = bounded(lambda: sandbox.grep("needle", mode="files", limit=None))
    assert sorted(os.fsencode(f.relative_path) for f in found.files) == sorted(names)
    for file in found.files:
        assert os.path.exists(file.path)  # a str decoded like os.fsdecode opens the very file
    listed = bounded(lambda: sandbox.glob("**", limit=None))
    assert sorted(os.fsencode(e.relative_path) for e in listed.entries) == sorted(names)
    for name in names:
        full = os.path.join(os.fsencode(tmp_path), name)
        assert sandbox.validate(full) == os.fsdecode(full)
        assert sandbox.validate(os.fsdecode(full)) == os.fsdecode(full)
    assert len(found.render(path_style="relative").splitlines()) == 4
    assert Sandbox([os.fsdecode(os.path.join(os.fsencode(tmp_path), b"\xc3("))]).grep("needle").total_matches == 1


# Hostile arguments --------------------------------------------------------------------------


class _Explodes:
    def __fspath__(self) -> str:
        raise RuntimeError("no path here")


def _nested(depth: int) -> Any:
    value: Any = "needle"
    for _ in range(depth):
        value = [value]
    return value


def _circular() -> list[Any]:
    loop: list[Any] = ["needle"]
    loop.append(loop)
    return loop


ODD: list[Any] = [
    None,
    True,
    False,
    0,
    -1,
    1.5,
    math.nan,
    math.inf,
    -math.inf,
    2**63,
    2**64,
    -(2**64),
    2**1000,
    1e308,
    -1e308,
    "",
    "\0",
    "\ud800",
    "x\udc00y",
    os.fsdecode(b"\xff"),
    "\U0001f600",
    "x" * 100_000,
    b"needle",
    b"\xff",
    bytearray(b"x"),
    [],
    [None],
    ["\ud800"],
    [os.fsdecode(b"\xff")],
    [[["deep"]]],
    (),
    ("a", "b"),
    {},
    {"a": 1},
    {"needle"},
    frozenset(),
    object(),
    Path("."),
    Path(os.fsdecode(b"\xff")),
    _Explodes(),
    _nested(10_000),
    _circular(),
    len,
    type,
    Ellipsis,
    1j,
    memoryview(b"x"),
]
GREP_OPTIONS = [
    "pattern",
    "fixed_strings",
    "case_mode",
    "word",
    "multiline",
    "invert",
    "paths",
    "path",
    "globs",
    "glob",
    "types",
    "type",
    "types_not",
    "hidden",
    "follow_links",
    "no_ignore",
    "max_depth",
    "max_filesize",
    "search_binary",
    "mode",
    "context",
    "before_context",
    "after_context",
    "max_count_per_file",
    "section_end_patterns",
    "limit",
    "max_columns",
    "sort",
    "cursor",
    "timeout_ms",
    "threads",
    "cancel",
]
GLOB_OPTIONS = [
    "pattern",
    "paths",
    "path",
    "case_insensitive",
    "hidden",
    "follow_links",
    "no_ignore",
    "max_depth",
    "kind",
    "sort",
    "limit",
    "timeout_ms",
    "cancel",
]
RENDER_OPTIONS = ["path_style", "with_filename", "heading", "line_number"]


@pytest.fixture
def small(tmp_path: Path) -> Any:
    """A small tree's sandbox, untyped: these tests pass what the stubs forbid."""
    (tmp_path / "a.txt").write_text("needle\nhit\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.txt").write_text("needle\n")
    return Sandbox([tmp_path])


def assert_clean(call: Callable[[], object], what: str) -> None:
    """``call()`` returns, or raises a TypeError, a ValueError about a string's encoding, or an
    FsnativeError with a documented code; anything else (an INTERNAL error, a PanicException,
    a RecursionError, a crash) fails."""
    try:
        call()
    except FsnativeError as error:
        assert error.code in CODES, f"{what}: {error.code} {error}"
    except UnicodeEncodeError:
        pass  # a str that no path can be: os.fsencode refuses it, as open() does
    except TypeError as error:
        assert "no path here" not in str(error), what
    except RuntimeError as error:
        assert str(error) == "no path here", f"{what}: {error!r}"  # the caller's own __fspath__


def test_every_odd_value_in_every_argument_gives_a_result_or_a_clean_error(small: Any) -> None:
    result = small.grep("needle")
    for value in ODD:
        label = type(value).__name__
        assert_clean(lambda: small.grep(value), f"grep({label})")
        assert_clean(lambda: small.glob(value), f"glob({label})")
        for name in GREP_OPTIONS:
            grep_options = {name: value} if name == "pattern" else {"pattern": "needle", name: value}
            assert_clean(lambda: small.grep(**grep_options), f"grep {name}={label}")
        for name in GLOB_OPTIONS:
            glob_options = {name: value} if name == "pattern" else {"pattern": "**", name: value}
            assert_clean(lambda: small.glob(**glob_options), f"glob {name}={label}")
        for name in RENDER_OPTIONS:
            assert_clean(lambda: result.render(**{name: value}), f"render {name}={label}")
        assert_clean(lambda: result.render(value), f"render({label})")
        assert_clean(lambda: small.validate(value), f"validate({label})")
        assert_clean(lambda: small.validate("a.txt", intent=value), f"intent={label}")
        assert_clean(lambda: Sandbox([value]), f"Sandbox([{label}])")
        assert_clean(lambda: Sandbox(value), f"Sandbox({label})")


def test_self_containing_and_deeply_nested_lists_are_type_errors(small: Any) -> None:
    for value in (_circular(), _nested(100_000), _nested(17)):
        with pytest.raises(TypeError, match="nested more than 16"):
            small.grep(value)
        with pytest.raises(TypeError, match="`globs`"):
            small.grep("needle", globs=value)
        with pytest.raises(TypeError, match="`paths`"):
            small.glob("**", paths=value)
        with pytest.raises(TypeError, match="`format`"):
            small.grep("needle").render(value)
    assert small.grep(_nested(1)).total_matches == 2  # a list of one pattern is fine


@pytest.mark.parametrize(
    "name",
    ["limit", "max_depth", "max_filesize", "context", "max_columns", "timeout_ms", "threads", "max_count_per_file"],
)
def test_numbers_out_of_range_not_finite_or_negative_name_the_argument(small: Any, name: str) -> None:
    value: Any
    for value in (2**64, -(2**64), 2**1000, -1):
        with pytest.raises(fsnative.InvalidOptionError, match=f"^grep option `{name}` must be a non-negative integer"):
            small.grep("needle", **{name: value})
    for value in (math.nan, math.inf, -math.inf):
        with pytest.raises(fsnative.InvalidOptionError, match=f"^grep option `{name}` .*, not finite$"):
            small.grep("needle", **{name: value})
    for value in (1e308, 1.5, "1", True):
        with pytest.raises(fsnative.InvalidOptionError, match=f"^grep option `{name}` must be a non-negative integer"):
            small.grep("needle", **{name: value})


def test_legitimate_extreme_numbers_give_correct_answers(small: Any) -> None:
    for name in ("limit", "max_depth", "max_filesize", "context", "max_columns", "timeout_ms", "max_count_per_file"):
        for value in (2**53 + 1, 2**63, 2**64 - 1):
            result = bounded(lambda: small.grep("needle", **{name: value}), f"{name}={value}")
            assert (result.total_matches, result.truncated) == (2, None), name
    assert small.grep("needle", limit=0).truncated == "limit"
    assert small.glob("**", limit=2**64 - 1, max_depth=2**64 - 1).total == 2
    assert small.grep("needle", max_columns=0).files[0].matches[0].text == ""


def test_a_huge_thread_count_is_cut_to_a_sane_one(small: Any) -> None:
    """The core sizes a channel by ``threads``: unbounded, 10**9 aborted the interpreter."""
    for threads in (10**9, 2**62, 2**64 - 1, 4096):
        assert bounded(lambda: small.grep("needle", threads=threads), f"threads={threads}").total_matches == 2
        assert bounded(lambda: small.grep("hit", threads=threads).render(path_style="relative")) == "a.txt:2:hit\n"


def test_surrogate_escaped_strings(small: Any, tmp_path: Path) -> None:
    escaped = os.fsdecode(b"caf\xe9.txt")
    (tmp_path / escaped).write_text("needle\n")
    # Paths: the bytes a str stands for, as os.fsencode gives them.
    assert small.validate(escaped) == str(tmp_path / escaped)
    assert small.validate(tmp_path / escaped) == str(tmp_path / escaped)
    assert Sandbox([os.fsdecode(os.fsencode(tmp_path))]).roots == [str(tmp_path)]
    with pytest.raises(fsnative.NotFoundError):
        small.validate(os.fsdecode(b"missing\xff"))
    # Patterns, globs, cursors, search paths: text, which a surrogate escape is not.
    for bad in (os.fsdecode(b"\xff"), "\ud800", "x\udcffy"):
        calls: list[Callable[[], object]] = [
            lambda: small.grep(bad),
            lambda: small.grep(["needle", bad]),
            lambda: small.grep("needle", globs=[bad]),
            lambda: small.grep("needle", glob=bad),
            lambda: small.grep("needle", paths=[bad]),
            lambda: small.grep("needle", path=bad),
            lambda: small.grep("needle", cursor=bad),
            lambda: small.grep("needle", section_end_patterns=[bad]),
            lambda: small.grep("needle", mode=bad),
            lambda: small.glob(bad),
            lambda: small.glob("**", paths=bad),
            lambda: small.grep("needle").render(path_style=bad),
        ]
        for call in calls:
            with pytest.raises(fsnative.InvalidOptionError, match="not valid UTF-8"):
                call()
    # A lone surrogate that is no escape cannot be a path at all: os.fsencode refuses it.
    with pytest.raises(UnicodeEncodeError):
        small.validate("\ud800")
    assert small.grep("\U0001f600").total_matches == 0


def test_nul_bytes_huge_names_and_hostile_cursors_are_coded_errors(small: Any, tmp_path: Path) -> None:
    for path in ("a\0b", b"a\0b", "", b""):
        with pytest.raises(fsnative.InvalidPathError):
            small.validate(path)
    with pytest.raises(FsnativeError):
        small.validate("x" * 100_000)
    with pytest.raises(FsnativeError):
        small.validate("a/" * 50_000)
    with pytest.raises(fsnative.InvalidPathError):
        small.grep("x", path="a\0b")
    with pytest.raises(FsnativeError):
        Sandbox([b"\xff\x00"])
    assert small.grep([f"w{i}" for i in range(5000)], fixed_strings=True, mode="count").total_matches == 0
    with pytest.raises(fsnative.PatternTooLargeError):
        small.grep("x" * (1 << 20))
    with pytest.raises((fsnative.InvalidPatternError, fsnative.PatternTooLargeError)):
        small.grep("(" * 1000)
    with pytest.raises((fsnative.InvalidPatternError, fsnative.PatternTooLargeError)):
        small.grep("a{1000}{1000}{1000}")
    for cursor in ("", "A" * (1 << 20), "!!!", "\0", '{"a":1}', "eyJ9"):
        with pytest.raises(fsnative.InvalidCursorError):
            small.grep("needle", cursor=cursor)
    first = small.grep("needle", limit=1)
    with pytest.raises(fsnative.InvalidCursorError):
        small.grep("other", limit=1, cursor=first.next_cursor)


def test_the_compiled_class_misused_raises_type_errors(small: Any) -> None:
    calls: list[Callable[[], object]] = [
        lambda: _fsnative.Sandbox.grep(object(), "x"),  # type: ignore[arg-type]
        lambda: _fsnative.Sandbox.validate(None, "a"),  # type: ignore[arg-type]
        lambda: _fsnative.Sandbox(),  # type: ignore[call-arg]
        lambda: _fsnative.GrepResult(),
        lambda: _fsnative.CancelToken(1),  # type: ignore[call-arg]
        lambda: small.grep("x", cancel=_fsnative.CancelToken),
    ]
    for call in calls:
        with pytest.raises((TypeError, RuntimeError)):
            call()
