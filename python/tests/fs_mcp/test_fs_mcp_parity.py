"""fsnative.fs_mcp against fs-mcp 1.15.0 (with the PyPI `rg`) on the same project.

fs-mcp prints rg's matches in rg's parallel order, so blocks are compared as multisets;
fsnative's must come sorted by path. The documented differences have their own tests in
test_fs_mcp.py.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from parity import fs_mcp_project, fs_mcp_server_fixture  # noqa: F401 (fixtures)

from fsnative import fs_mcp

MEANT_DEFAULT_SECTIONS = [r"^\s*def ", r"^\s*class "]

GREP_QUERIES: list[dict[str, Any]] = [
    {"pattern": "foo"},
    {"pattern": "Foo"},
    {"pattern": "FOO", "case_insensitive": True},
    {"pattern": "foo", "case_insensitive": True, "section_patterns": []},
    {"pattern": "no such text anywhere"},
    {"pattern": "café"},
    {"pattern": "CAFÉ", "case_insensitive": True},
    {"pattern": "foo", "context_lines": 0},
    {"pattern": "foo", "context_lines": 5},
    {"pattern": "return", "section_patterns": [r"^\s*def "]},
    {"pattern": "return", "section_patterns": [r"^class ", r"^def "]},
    {"pattern": "TODO|FIXME"},
    {"pattern": r"\bfoo\b", "section_patterns": [r"^#"]},
    {"pattern": r"^\s+return"},
    {"pattern": r"[0-9]{3}", "search_path": "pkg"},
    {"pattern": "foo", "search_path": "pkg"},
    {"pattern": "foo", "search_path": "pkg/sub"},
    {"pattern": "fn", "search_path": "pkg/sub/a/b/c"},
    {"pattern": "foo", "search_path": "./pkg/sub/"},
    {"pattern": "def", "search_path": "pkg/mod.py"},
    {"pattern": "def", "search_path": "pkg/mod.py", "section_patterns": [r"^\s*def "]},
    {"pattern": "class", "search_path": "pkg", "section_patterns": ["return"]},
    {"pattern": "foo", "search_path": "web"},
    {"pattern": "match", "search_path": "logs", "context_lines": 0},
    {"pattern": "ignored log"},
    {"pattern": "foo secret"},
    {"pattern": "hidden"},
    {"pattern": "return 1"},
    {"pattern": "crlf|again"},
    {"pattern": "last foo"},
    {"pattern": "padded"},
    {"pattern": r"a\.b"},
    {"pattern": "binary"},
    {"pattern": "^$", "search_path": "pkg/sub"},
    {"pattern": "value", "case_insensitive": True, "context_lines": 1, "section_patterns": [r"^\s*def "]},
]
"""Queries where fsnative must print exactly fs-mcp's blocks. Where a query leaves
`section_patterns` out, fs-mcp is given the patterns its broken defaults meant."""


SEARCH_QUERIES: list[tuple[str, str]] = [
    (".", "*.py"),
    (".", "*.txt"),
    (".", "*.md"),
    (".", "*"),
    (".", "**/*.py"),
    (".", "sub/*.py"),
    (".", "mod.py"),
    (".", "*.PY"),
    (".", "?.b.txt"),
    (".", "[a-c]*.txt"),
    (".", "*.nothing"),
    (".", "*.{js,ts}"),
    ("pkg", "*.py"),
    ("pkg", "*"),
    ("pkg/sub", "*.rs"),
    ("web", "*.*"),
    (".hidden", "*"),
    ("node_modules", "*.js"),
]
"""`search_files` queries; fs-mcp does not sort, so names are compared as sets."""


def blocks(output: str) -> Counter[str]:
    return Counter(output.split("\n\n"))


def match_order(output: str) -> list[tuple[str, int]]:
    return [(path, int(line)) for path, line in re.findall(r"^File: (.*), Line: (\d+)", output, re.MULTILINE)]


@pytest.mark.parametrize("query", GREP_QUERIES, ids=[str(query) for query in GREP_QUERIES])
def test_grep_content_prints_the_blocks_fs_mcp_prints(
    project: Path, fs_mcp_server: ModuleType, query: dict[str, Any]
) -> None:
    expected = fs_mcp_server.grep_content.fn(**{"section_patterns": MEANT_DEFAULT_SECTIONS, **query})
    actual = fs_mcp.grep_content(**query)
    assert blocks(actual) == blocks(expected)
    if actual != "No matches found.":
        assert match_order(actual) == sorted(match_order(actual))


@pytest.mark.parametrize(("path", "pattern"), SEARCH_QUERIES)
def test_search_files_lists_the_files_fs_mcp_lists(
    project: Path, fs_mcp_server: ModuleType, path: str, pattern: str
) -> None:
    expected = fs_mcp_server.search_files.fn(path, pattern)
    actual = fs_mcp.search_files(path, pattern)
    assert set(actual.split("\n")) == set(expected.split("\n"))
    assert actual.split("\n") == sorted(actual.split("\n"))
