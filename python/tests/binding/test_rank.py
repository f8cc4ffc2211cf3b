"""Frecency and path boost through the Python API: the options (checked by the core),
recording and scoring only inside the sandbox, grep in frecency order with recorded hits, a
thesaurus file reloaded (and a bad one reported), and one database shared by processes."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import pytest

from fsnative import (
    InvalidArgumentError,
    InvalidOptionError,
    NotFoundError,
    OutsideSandboxError,
    Sandbox,
    ThesaurusStatus,
)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """``root/`` with three files containing "needle" and one without; a file outside it."""
    (tmp_path / "root" / "src" / "auth").mkdir(parents=True)
    (tmp_path / "root" / "lib").mkdir()
    for name in ("root/src/auth/login.py", "root/src/db.py", "root/lib/cache.py", "outside.py"):
        (tmp_path / name).write_text("needle\n", encoding="utf-8")
    (tmp_path / "root" / "notes.txt").write_text("hay\n", encoding="utf-8")
    return tmp_path


def eventually(done: Callable[[], bool]) -> bool:
    """Polls ``done`` every 20 ms for at most 10 s."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if done():
            return True
        time.sleep(0.02)
    return False


@pytest.mark.parametrize(
    ("options", "option", "message"),
    [
        ({"record_hits": True}, "record_hits", "Sandbox option `record_hits` needs option `frecency`"),
        ({"frecency": {"path": "db", "profile": "fast"}}, "frecency.profile", 'must be "normal" or "ai", not "fast"'),
        ({"frecency": 3}, "frecency", "must be a boolean, a path string or an object with `path` and `profile`, not 3"),
        ({"thesaurus": {}, "boost_weight": -1}, "boost_weight", "must be an integer from 0 to 4294967295, not -1"),
        ({"max_boost": 3}, "max_boost", "Sandbox option `max_boost` needs option `thesaurus`"),
        ({"thesaurus": {"auth": 1}}, "thesaurus", 'thesaurus term "auth" must map to a concept string, not 1'),
    ],
)
def test_rank_options_are_checked_by_the_core(tree: Path, options: dict[str, Any], option: str, message: str) -> None:
    with pytest.raises(InvalidOptionError) as raised:
        Sandbox([tree / "root"], **options)
    assert raised.value.option == option
    assert message in str(raised.value)


def test_a_missing_or_bad_thesaurus_file_fails_the_constructor(tree: Path) -> None:
    (tree / "bad.json").write_text('{"auth": ', encoding="utf-8")
    with pytest.raises(NotFoundError):
        Sandbox([tree / "root"], thesaurus=tree / "missing.json")
    with pytest.raises(InvalidArgumentError):
        Sandbox([tree / "root"], thesaurus=str(tree / "bad.json"))


def test_frecency_records_and_scores_only_inside(tree: Path) -> None:
    sandbox = Sandbox([tree / "root"], frecency=tree / "db")
    for outside in (tree / "outside.py", "../outside.py"):
        with pytest.raises(OutsideSandboxError):
            sandbox.record_access(outside)
        with pytest.raises(OutsideSandboxError):
            sandbox.frecency_score(outside)
    with pytest.raises(NotFoundError):
        sandbox.record_access("src/nope.py")
    sandbox.record_access("src/db.py")
    sandbox.record_access(os.fsencode(tree / "root" / "src" / "db.py"))
    assert 1.99 < sandbox.frecency_score("src/db.py") <= 2
    assert sandbox.frecency_score("lib/cache.py") == 0.0
    plain = Sandbox([tree / "root"])
    with pytest.raises(InvalidArgumentError):
        plain.record_access("src/db.py")
    with pytest.raises(InvalidOptionError) as raised:
        plain.grep("needle", sort="frecency")
    assert raised.value.option == "sort"


def test_frecency_status_names_the_database_and_its_profile(tree: Path) -> None:
    status = Sandbox([tree / "root"], frecency={"path": tree / "db", "profile": "ai"}).frecency_status()
    assert status == {"path": str((tree / "db").resolve()), "profile": "ai"}
    assert Sandbox([tree / "root"]).frecency_status() is None


def test_grep_in_frecency_order_records_its_hits(tree: Path) -> None:
    sandbox = Sandbox([tree / "root"], frecency={"path": tree / "db", "profile": "ai"}, record_hits=True)
    sandbox.record_access("src/db.py")
    pages: list[str] = []
    cursor = None
    while True:
        page = sandbox.grep("needle", mode="files", sort="frecency", limit=1, cursor=cursor)
        pages += [file.relative_path for file in page.files]
        cursor = page.next_cursor
        if cursor is None:
            break
    assert pages == ["src/db.py", "lib/cache.py", "src/auth/login.py"]
    assert sandbox.frecency_score("src/db.py") > 1.99
    assert 0.99 < sandbox.frecency_score("lib/cache.py") <= 1
    assert sandbox.frecency_score("notes.txt") == 0.0
    for _ in range(3):
        sandbox.record_access("notes.txt")
    listed = [entry.relative_path for entry in sandbox.glob("**/*", sort="frecency").entries]
    assert listed[:2] == ["notes.txt", "src/db.py"]
    assert sorted(listed[2:]) == ["lib/cache.py", "src/auth/login.py"]


def test_processes_share_one_database(tree: Path) -> None:
    script = (
        "import sys; from fsnative import Sandbox\n"
        "sb = Sandbox([sys.argv[1]], frecency=True)\n"
        "for _ in range(30): sb.record_access('lib/cache.py')\n"
    )
    env = {**os.environ, "FSNATIVE_FRECENCY_DB": str(tree / "db")}
    children = [subprocess.Popen([sys.executable, "-c", script, str(tree / "root")], env=env) for _ in range(3)]
    assert [child.wait(timeout=60) for child in children] == [0, 0, 0]
    sandbox = Sandbox([tree / "root"], frecency={"path": str(tree / "db")})
    assert math.isclose(sandbox.frecency_score("lib/cache.py"), 10 + math.sqrt(80), abs_tol=1e-3)
    with pytest.raises(InvalidArgumentError, match='uses the "normal" profile'):
        Sandbox([tree / "root"], frecency={"path": str(tree / "db"), "profile": "ai"})


def test_path_boost_counts_concepts_below_the_root(tree: Path) -> None:
    thesaurus = {"auth": "security", "login": "security", "db": "storage", "root": "x"}
    sandbox = Sandbox([tree / "root"], thesaurus=thesaurus, boost_weight=7, max_boost=10)
    assert sandbox.path_boost("src/auth/login.py") == 7
    assert sandbox.path_boost("src/db.py") == 7
    assert sandbox.path_boost("notes.txt") == 0
    with pytest.raises(OutsideSandboxError):
        sandbox.path_boost("../outside.py")
    status = sandbox.thesaurus_status()
    assert isinstance(status, ThesaurusStatus)
    assert status.to_dict() == {
        "path": None,
        "terms": 4,
        "concepts": 3,
        "reloads": 0,
        "last_error": None,
        "weight_per_term": 7,
        "max_boost": 10,
    }
    assert Sandbox([tree / "root"]).thesaurus_status() is None


def test_a_thesaurus_file_is_reloaded_and_a_bad_one_keeps_the_last_good(tree: Path) -> None:
    file = tree / "kg.json"
    file.write_text(
        json.dumps({"name": "kg", "data": {"auth": {"id": 1, "nterm": "auth", "url": None}}}), encoding="utf-8"
    )
    sandbox = Sandbox([tree / "root"], thesaurus=file)
    assert sandbox.path_boost("src/auth/login.py") == 5
    file.write_text(json.dumps({"auth": "security", "db": "storage"}), encoding="utf-8")
    assert eventually(lambda: _status(sandbox).reloads == 1)
    assert sandbox.path_boost("src/db.py") == 5
    file.write_text("{not json", encoding="utf-8")
    assert eventually(lambda: _status(sandbox).last_error is not None)
    assert "is not JSON" in (_status(sandbox).last_error or "")
    assert sandbox.path_boost("src/db.py") == 5
    assert _status(sandbox).path == str(file.resolve())


def _status(sandbox: Sandbox) -> ThesaurusStatus:
    status = sandbox.thesaurus_status()
    assert status is not None
    return status
