"""fsnative.ripgrep.ripgrep_search against `rg --heading -n --color never --sort path` with the
same arguments, run with the project root as its working directory (as RA.Aid runs it)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import parity
import pytest

from fsnative import ripgrep

QUERIES: list[dict[str, Any]] = [
    {"pattern": "foo"},
    {"pattern": "Foo"},
    {"pattern": "FOO", "case_sensitive": False},
    {"pattern": "CAFÉ", "case_sensitive": False},
    {"pattern": "no such text anywhere"},
    {"pattern": "foo", "before_context_lines": 1},
    {"pattern": "foo", "after_context_lines": 2},
    {"pattern": "return", "before_context_lines": 2, "after_context_lines": 1},
    {"pattern": "return", "before_context_lines": 0, "after_context_lines": 0},
    {"pattern": "match 1[0-4]", "before_context_lines": 3},
    {"pattern": "foo", "file_type": "py"},
    {"pattern": "foo", "file_type": "python"},
    {"pattern": "foo", "file_type": "md"},
    {"pattern": "foo", "file_type": "js"},
    {"pattern": "foo", "file_type": "ts"},
    {"pattern": "foo", "file_type": "h"},
    {"pattern": "color", "file_type": "scss"},
    {"pattern": "fn", "file_type": "rs"},
    {"pattern": "foo|name", "file_type": "yml"},
    {"pattern": "foo", "file_type": "html"},
    {"pattern": "foo", "include_hidden": True},
    {"pattern": "foo", "include_hidden": True, "file_type": "yaml"},
    {"pattern": "foo", "exclude_dirs": ["pkg"]},
    {"pattern": "foo", "exclude_dirs": ["sub", "web"]},
    {"pattern": "foo", "include_paths": ["pkg"]},
    {"pattern": "foo", "include_paths": ["pkg", "web"]},
    {"pattern": "def", "include_paths": ["pkg/mod.py"]},
    {"pattern": "def", "include_paths": ["pkg/mod.py"], "after_context_lines": 1},
    {"pattern": "fn", "include_paths": ["pkg/sub"]},
    {"pattern": "a.b"},
    {"pattern": "a.b", "fixed_string": True},
    {"pattern": "(x)", "fixed_string": True},
    {"pattern": r"^def \w+"},
    {"pattern": "TODO|FIXME", "case_sensitive": False},
    {"pattern": "ignored log"},
    {"pattern": "function foo"},
    {"pattern": "const foo"},
    {"pattern": "crlf"},
    {"pattern": "last foo", "before_context_lines": 5},
    {"pattern": "binary"},
    {"pattern": "foo", "follow_links": True},
]
"""Queries where fsnative must print exactly rg's output and return code."""

REFUSED_QUERIES: list[dict[str, Any]] = [
    {"pattern": "(unclosed"},
    {"pattern": "foo", "file_type": "no-such-type"},
    {"pattern": "foo", "include_paths": ["missing"]},
    {"pattern": "foo", "file_type": "swift"},
    {"pattern": "foo", "file_type": "py", "exclude_dirs": ["pkg"]},
]
"""Queries both answer with return code 2: an error, or no file left to search. rg writes its
reason to stderr (which RA.Aid's terminal shows); fsnative puts its own in the output."""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = parity.write_project(tmp_path / "project")
    (root / "linked").symlink_to(root / "pkg" / "sub")
    ripgrep.configure([str(root)])
    return root


def run_rg(root: Path, query: dict[str, Any]) -> dict[str, Any]:
    """`rg` with the flags RA.Aid passes for these arguments, heading layout without colour."""
    assert parity.RG is not None, "the PyPI ripgrep package is not installed in the venv"
    command = [parity.RG, "--heading", "-n", "--color", "never", "--sort", "path"]
    if query.get("before_context_lines") is not None:
        command += ["-B", str(query["before_context_lines"])]
    if query.get("after_context_lines") is not None:
        command += ["-A", str(query["after_context_lines"])]
    if not query.get("case_sensitive", True):
        command.append("-i")
    if query.get("include_hidden"):
        command.append("--hidden")
    if query.get("follow_links"):
        command.append("--follow")
    if query.get("fixed_string"):
        command.append("-F")
    if query.get("file_type"):
        command += ["-t", ripgrep.FILE_TYPE_ALIASES.get(query["file_type"], query["file_type"])]
    for name in [*ripgrep.DEFAULT_EXCLUDE_DIRS, *query.get("exclude_dirs", [])]:
        command += ["--glob", f"!{name}"]
    command += [query["pattern"], *query.get("include_paths", [])]
    ran = subprocess.run(command, cwd=root, capture_output=True)
    return {"output": ran.stdout.decode(), "return_code": ran.returncode, "success": ran.returncode == 0}


@pytest.mark.parametrize("query", QUERIES, ids=[str(query) for query in QUERIES])
def test_ripgrep_search_answers_as_rg(project: Path, query: dict[str, Any]) -> None:
    assert ripgrep.ripgrep_search(**query) == run_rg(project, query)


@pytest.mark.parametrize("query", REFUSED_QUERIES, ids=[str(query) for query in REFUSED_QUERIES])
def test_ripgrep_search_refuses_what_rg_refuses(project: Path, query: dict[str, Any]) -> None:
    answer = ripgrep.ripgrep_search(**query)
    assert (answer["return_code"], answer["success"]) == (run_rg(project, query)["return_code"], False) == (2, False)
    assert answer["output"]
