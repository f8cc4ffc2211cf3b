"""The warm index through the Python API: its options (checked by the core), its status, that
a change is in the very next search, close() and the context manager, and the refusal of
$HOME."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import fsnative
from fsnative import IndexOptions, IndexStatus, InvalidOptionError, Sandbox

# Generous: an index of a handful of files is ready in milliseconds.
READY_TIMEOUT_MS = 60_000


def indexed(root: Path, index: Any = True) -> Sandbox:
    sandbox = Sandbox([root], index=index)
    assert sandbox.wait_for_index(timeout_ms=READY_TIMEOUT_MS), sandbox.index_status()
    return sandbox


@pytest.fixture
def small(tmp_path: Path) -> Path:
    for name, text in {"a.txt": "alpha common\n", "sub/b.txt": "beta common\n", "sub/deep/c.md": "gamma\n"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("index", "option", "message"),
    [
        ({"max_files": 0}, "index.max_files", "Sandbox option `index.max_files` must be a positive integer, not 0"),
        (
            IndexOptions(max_files=-2),
            "index.max_files",
            "Sandbox option `index.max_files` must be a positive integer, not -2",
        ),
        ({"max_files": 2.5}, "index.max_files", "Sandbox option `index.max_files` must be a positive integer, not 2.5"),
        (
            {"max_memory": -1},
            "index.max_memory",
            "Sandbox option `index.max_memory` must be a non-negative integer, not -1",
        ),
        ({"content": "yes"}, "index.content", 'Sandbox option `index.content` must be a boolean, not "yes"'),
        (IndexOptions(allow_home=1), "index.allow_home", "Sandbox option `index.allow_home` must be a boolean, not 1"),  # type: ignore[arg-type]
        ({"persist": ""}, "index.persist", 'Sandbox option `index.persist` must be a non-empty path string, not ""'),
        (
            IndexOptions(persist=3),  # type: ignore[arg-type]
            "index.persist",
            "Sandbox option `index.persist` must be a non-empty path string, not 3",
        ),
        (
            {"maxFiles": 5},
            "index.maxFiles",
            "unknown Sandbox option `index.maxFiles` (did you mean `index.max_files`?)",
        ),
        ({"max_files": {5}}, "index.max_files", "Sandbox option `index.max_files` must be a positive integer, not set"),
        ("yes", "index", 'Sandbox option `index` must be a boolean or an object of index options, not "yes"'),
        ({1: 2}, "index", "Sandbox option `index` must be a boolean or an object of index options, not a dict whose"),
    ],
)
def test_index_options_are_checked_by_the_core(small: Path, index: Any, option: str, message: str) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        Sandbox([small], index=index)
    assert (caught.value.code, caught.value.option) == ("INVALID_OPTION", option)
    assert str(caught.value).startswith(message), caught.value
    assert isinstance(caught.value, TypeError) and isinstance(caught.value, ValueError)


def test_an_unknown_keyword_is_a_python_calling_mistake(small: Path) -> None:
    with pytest.raises(TypeError, match="unexpected keyword argument 'indx'") as caught:
        Sandbox([small], indx=True)  # type: ignore[call-arg]
    assert not isinstance(caught.value, fsnative.FsnativeError)


def test_index_options_are_frozen_keyword_only_and_show_the_core_defaults() -> None:
    options = IndexOptions()
    assert (options.max_files, options.max_memory) == (1_000_000, 512 << 20)
    assert (options.content, options.allow_home, options.persist) == (True, False, None)
    assert options.cache_memory == 4 << 20
    assert repr(IndexOptions(max_files=5)).startswith("IndexOptions(max_files=5, max_memory=536870912")
    assert options.to_dict() == fsnative._fsnative.INDEX_DEFAULTS
    with pytest.raises(TypeError):
        IndexOptions(5)  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.max_files = 3  # type: ignore[misc]
    assert IndexOptions(max_files=3) == IndexOptions(max_files=3)


@pytest.mark.parametrize("index", [None, False])
def test_without_an_index(small: Path, index: Any) -> None:
    sandbox = Sandbox([small], index=index)
    assert sandbox.index_status() is None
    assert sandbox.wait_for_index(timeout_ms=0) is False
    sandbox.close()
    assert len(sandbox.grep("common").files) == 2


def test_wait_for_index_takes_a_non_negative_number_of_milliseconds(small: Path) -> None:
    with pytest.raises(fsnative.InvalidArgumentError, match=r"^`timeout_ms` must be a non-negative number, not -1$"):
        Sandbox([small]).wait_for_index(timeout_ms=-1)
    with pytest.raises(TypeError):
        Sandbox([small]).wait_for_index(timeout_ms="1")  # type: ignore[arg-type]


def test_wait_for_index_in_seconds_is_deprecated(small: Path) -> None:
    """``timeout`` (seconds), the former argument, still works, with a DeprecationWarning."""
    sandbox = Sandbox([small], index=True)
    with pytest.warns(DeprecationWarning, match=r"timeout_ms"):
        assert sandbox.wait_for_index(60) is True
    with pytest.warns(DeprecationWarning), pytest.raises(fsnative.InvalidArgumentError, match=r"^`timeout` must"):
        sandbox.wait_for_index(timeout=-1)
    with pytest.raises(TypeError, match="not both"):
        sandbox.wait_for_index(1, timeout_ms=1000)
    sandbox.close()


def test_status_once_ready(small: Path) -> None:
    with indexed(small, IndexOptions(max_files=1000)) as sandbox:
        status = sandbox.index_status()
        assert isinstance(status, IndexStatus)
        assert (status.state, status.files, status.dirs) == ("ready", 3, 2)
        assert (status.content_files, status.content_pending, status.error) == (3, 0, None)
        assert status.bytes == sum(len(text) for text in ("alpha common\n", "beta common\n", "gamma\n"))
        assert (status.watching, status.watched_dirs, status.unwatched_dirs, status.rescans) == ("live", 3, 0, 0)
        assert isinstance(status.list_ms, float) and isinstance(status.content_ms, float)
        assert status.memory_bytes > 0
        assert status.searches == 0
        assert repr(status).startswith("IndexStatus(state='ready', files=3, dirs=2, content_pending=0")
        data = status.to_dict()
        assert data == json.loads(status.to_json())
        assert {name: getattr(status, name) for name in data} == data
        assert [file.relative_path for file in sandbox.grep("common").files] == ["a.txt", "sub/b.txt"]
        assert [entry.relative_path for entry in sandbox.glob("**/*.md").entries] == ["sub/deep/c.md"]
        status = sandbox.index_status()
        assert status is not None and status.searches == 2, "both searches were answered from the index"


def test_the_content_cache_serves_small_files_until_they_change(tmp_path: Path) -> None:
    for n in range(5):
        (tmp_path / f"f{n}.txt").write_text(f"common line\nvalue {n}\n", encoding="utf-8")
    time.sleep(0.25)  # past the clock's tick: the index's stamps vouch for these versions
    plain = Sandbox([tmp_path])
    with indexed(tmp_path, IndexOptions()) as cached, indexed(tmp_path, IndexOptions(cache_memory=0)) as uncached:
        for _ in range(3):
            expected = [(f.relative_path, [m.text for m in f.matches]) for f in plain.grep("value").files]
            for sandbox in (cached, uncached):
                found = [(f.relative_path, [m.text for m in f.matches]) for f in sandbox.grep("value").files]
                assert found == expected
        status = cached.index_status()
        assert status is not None
        assert (status.cache_files, status.cache_bytes) == (5, 5 * 20), status.to_dict()
        assert status.cache_hits >= 5
        off = uncached.index_status()
        assert off is not None and (off.cache_files, off.cache_bytes, off.cache_hits) == (0, 0, 0)
        (tmp_path / "f2.txt").write_text("common line\nvalue changed\n", encoding="utf-8")
        texts = [m.text for f in cached.grep("value").files for m in f.matches]
        assert texts == ["value 0", "value 1", "value changed", "value 3", "value 4"]
        status = cached.index_status()
        assert status is not None and status.cache_files == 4


def test_a_persisted_index_is_loaded_and_sees_what_changed_while_down(tmp_path: Path) -> None:
    root, store = tmp_path / "root", tmp_path / "store"
    (root / "sub").mkdir(parents=True)
    (root / "a.txt").write_text("alpha common\n", encoding="utf-8")
    (root / "sub" / "b.txt").write_text("beta common\n", encoding="utf-8")
    with indexed(root, IndexOptions(persist=store)) as first:
        status = first.index_status()
        assert status is not None and status.store == {"outcome": "rebuilt", "reason": "no store yet"}
    status = first.index_status()
    assert status is not None and status.store_error is None
    (root / "sub" / "b.txt").write_text("beta changed_while_down\n", encoding="utf-8")
    (root / "new.txt").write_text("changed_while_down\n", encoding="utf-8")
    (root / "a.txt").unlink()
    with indexed(root, {"persist": str(store)}) as second:
        status = second.index_status()
        assert status is not None
        assert status.store == {"outcome": "loaded"}, status.to_dict()
        assert status.store_bytes > 0 and status.store_changes > 0
        found = second.grep("changed_while_down")
        assert [file.relative_path for file in found.files] == ["new.txt", "sub/b.txt"]
        assert [entry.relative_path for entry in second.glob("**/*.txt").entries] == ["new.txt", "sub/b.txt"]
        status = second.index_status()
        assert status is not None and status.searches == 2, "answered from the loaded index"


def test_without_content_the_files_are_listed_not_read(small: Path) -> None:
    with indexed(small, {"content": False}) as sandbox:
        status = sandbox.index_status()
        assert status is not None
        assert (status.files, status.content_files, status.bytes) == (3, 0, 0)


def test_every_change_is_in_the_next_search(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("nothing to see\n", encoding="utf-8")
    with indexed(tmp_path) as sandbox:

        def files(pattern: str) -> list[str]:
            return [file.relative_path for file in sandbox.grep(pattern, mode="files").files]

        for step in range(200):
            relative = f"d{step % 7}/f{step}.txt"
            token = f"tok{step}x"
            path = tmp_path / relative
            path.parent.mkdir(exist_ok=True)
            path.write_text(f"{token}\n", encoding="utf-8")
            assert files(token) == [relative], f"round {step}: created"
            path.write_text(f"changed{token}\n", encoding="utf-8")
            assert files(f"changed{token}") == [relative], f"round {step}: modified"
            assert files(f"^{token}") == [], f"round {step}: the old content is gone"
            path.unlink()
            assert files(token) == [], f"round {step}: deleted"
        status = sandbox.index_status()
        assert status is not None
        assert (status.state, status.searches) == ("ready", 800), "every search was answered from the index"


def test_close_and_the_with_block_stop_the_index_and_searches_still_answer(small: Path) -> None:
    sandbox = indexed(small)
    before = sandbox.grep("common").to_dict()["files"]
    sandbox.close()
    sandbox.close()
    status = sandbox.index_status()
    assert status is not None and status.state == "closed"
    assert sandbox.wait_for_index(timeout_ms=10) is False
    assert sandbox.grep("common").to_dict()["files"] == before
    status = sandbox.index_status()
    assert status is not None and status.searches == 1, "only the search before close() read the index"

    with pytest.raises(RuntimeError, match="inside"), indexed(small) as inside:
        raise RuntimeError("inside")
    status = inside.index_status()
    assert status is not None and status.state == "closed"
    assert inside.glob("*.txt").total == 1


def test_the_home_directory_and_the_root_are_refused_unless_allowed(tmp_path: Path) -> None:
    with pytest.raises(InvalidOptionError) as caught:
        Sandbox(["/"], index=True)
    assert caught.value.option == "index"
    # `/` is the root of the current drive on Windows (`C:\\`).
    assert re.search(r"refusing to index (/|[A-Z]:\\):", str(caught.value))
    home = tmp_path / "home"
    home.mkdir()
    (home / "h.txt").write_text("home\n", encoding="utf-8")
    script = """
import json, os
from fsnative import IndexOptions, InvalidOptionError, Sandbox
home = os.environ["HOME"]
try:
    Sandbox([home], index=True)
    refused = None
except InvalidOptionError as error:
    refused = [error.code, error.option]
with Sandbox([home], index=IndexOptions(allow_home=True)) as allowed:
    ready = allowed.wait_for_index(timeout_ms=60_000)
    print(json.dumps({"refused": refused, "ready": ready, "files": allowed.index_status().files}))
"""
    run = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "HOME": str(home), "USERPROFILE": str(home)},  # USERPROFILE on Windows
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(run.stdout) == {"refused": ["INVALID_OPTION", "index"], "ready": True, "files": 1}
