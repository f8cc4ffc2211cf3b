"""fsnative.fs_mcp where it differs from fs-mcp 1.15.0 on purpose, each shown next to what
fs-mcp does, plus its path rules and error texts."""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from parity import fs_mcp_project, fs_mcp_server_fixture  # noqa: F401 (fixtures)

from fsnative import fs_mcp


@pytest.fixture
def review_dir() -> Iterator[Path]:
    """A review session directory like the ones fs-mcp's propose_and_review makes."""
    path = Path(tempfile.mkdtemp(prefix="mcp_review_")).resolve()
    yield path
    shutil.rmtree(path)


def access_denied(path: str) -> str:
    return re.escape(f"Access denied: {path} is outside allowed directories: [PosixPath(")


def test_relative_empty_and_new_paths_resolve_inside_the_first_directory(project: Path) -> None:
    assert fs_mcp.validate_path("") == project
    assert fs_mcp.validate_path(".") == project
    assert fs_mcp.validate_path("pkg/../pkg/mod.py") == project / "pkg" / "mod.py"
    assert fs_mcp.validate_path("new/dir/file.txt") == project / "new" / "dir" / "file.txt"


def test_a_sibling_sharing_the_prefix_is_outside(project: Path, fs_mcp_server: ModuleType) -> None:
    sibling = project.parent / f"{project.name}_evil"
    sibling.mkdir()
    assert fs_mcp_server.validate_path(str(sibling)) == sibling  # fs-mcp's prefix check
    with pytest.raises(ValueError, match=access_denied(str(sibling))):
        fs_mcp.validate_path(str(sibling))
    with pytest.raises(ValueError, match=access_denied(str(sibling))):
        fs_mcp.grep_content("foo", search_path=str(sibling))


def test_a_symlink_out_of_the_directory_is_outside(project: Path) -> None:
    outside = project.parent / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("foo\n", encoding="utf-8")
    (project / "escape").symlink_to(outside)
    with pytest.raises(ValueError, match=access_denied("escape/secret.txt")):
        fs_mcp.validate_path("escape/secret.txt")
    with pytest.raises(ValueError, match=access_denied("escape")):
        fs_mcp.search_files("escape", "*")


def test_the_temp_dir_admits_review_files_only(project: Path, fs_mcp_server: ModuleType, review_dir: Path) -> None:
    other_pytest_path = project.parent.parent / "someone-elses-file.txt"
    assert "pytest-" in str(other_pytest_path)
    assert fs_mcp_server.validate_path(str(other_pytest_path)) == other_pytest_path
    with pytest.raises(ValueError, match=access_denied(str(other_pytest_path))):
        fs_mcp.validate_path(str(other_pytest_path))
    assert fs_mcp.validate_path(str(review_dir / "current_mod.py")) == review_dir / "current_mod.py"
    assert fs_mcp.validate_path(str(review_dir / "future_mod.py")) == review_dir / "future_mod.py"
    for refused in (review_dir / "notes.txt", review_dir, Path(tempfile.gettempdir())):
        with pytest.raises(ValueError, match=access_denied(str(refused))):
            fs_mcp.validate_path(str(refused))


def test_default_section_hints_find_the_next_def_or_class(project: Path, fs_mcp_server: ModuleType) -> None:
    head = f"File: {project / 'pkg' / 'mod.py'}, Line: 7"
    assert f"{head} (section end hint: EOF)" in fs_mcp_server.grep_content.fn("return 'foo'")
    assert f"{head} (section end hint: L9)" in fs_mcp.grep_content("return 'foo'")


def test_hints_come_also_for_a_file_that_is_not_utf8(project: Path, fs_mcp_server: ModuleType) -> None:
    (project / "latin1.py").write_bytes(b"def caf\xe9():\n    return 'foo latin'\ndef next_one():\n")
    path = project / "latin1.py"
    block = "\n---\nreturn 'foo latin'\n---"
    assert fs_mcp_server.grep_content.fn("foo latin") == f"File: {path}, Line: 2{block}"
    assert fs_mcp.grep_content("foo latin") == f"File: {path}, Line: 2 (section end hint: L3){block}"


def test_a_line_that_is_not_utf8_is_shown_with_replacement_characters(project: Path, fs_mcp_server: ModuleType) -> None:
    (project / "latin1.txt").write_bytes(b"caf\xe9 special\n")
    assert fs_mcp_server.grep_content.fn("special") == ""  # the match was dropped
    assert fs_mcp.grep_content("special", section_patterns=[]) == (
        f"File: {project / 'latin1.txt'}, Line: 1\n---\ncaf\ufffd special\n---"
    )


def test_a_pattern_starting_with_a_dash_is_text(project: Path, fs_mcp_server: ModuleType) -> None:
    assert fs_mcp_server.grep_content.fn("-x dash").startswith("Error executing ripgrep: ")
    assert fs_mcp.grep_content("-x dash", section_patterns=[]) == (
        f"File: {project / 'a.b.txt'}, Line: 4\n---\n-x dash line\n---"
    )


def test_each_file_gives_at_most_100_matches_whatever_the_context(project: Path, fs_mcp_server: ModuleType) -> None:
    def lines_reported(output: str) -> int:
        return output.count(", Line: ")

    assert lines_reported(fs_mcp_server.grep_content.fn("match", search_path="logs", context_lines=2)) == 102
    assert lines_reported(fs_mcp.grep_content("match", search_path="logs", context_lines=2)) == 100


def test_matches_past_the_cap_are_cut_with_a_note(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fs_mcp, "MAX_MATCHES", 3)
    blocks = fs_mcp.grep_content("foo", section_patterns=[]).split("\n\n")
    assert len(blocks) == 4
    assert blocks[-1] == (
        "[Output truncated after 3 matches, in path order. Use a more specific pattern or search_path to see the rest.]"
    )


def test_files_past_the_cap_are_cut_with_a_note(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fs_mcp, "MAX_FILES", 2)
    assert fs_mcp.search_files("pkg", "*.py").split("\n") == [
        "__init__.py",
        "mod.py",
        "[Showing the first 2 of 3 files. Use a more specific pattern or path to see the rest.]",
    ]


def test_a_search_past_the_deadline_says_so_as_fs_mcp_does(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fs_mcp, "SEARCH_TIMEOUT_SECONDS", 0)
    assert fs_mcp.grep_content("foo") == "Error: Search timed out after 0 seconds. Please try a more specific pattern."


def test_search_files_lists_no_symlink_that_leads_outside(project: Path, fs_mcp_server: ModuleType) -> None:
    outside = project.parent / "outside.py"
    outside.write_text("x = 1\n", encoding="utf-8")
    (project / "pkg" / "link.py").symlink_to(outside)
    assert "link.py" in fs_mcp_server.search_files.fn("pkg", "*.py").split("\n")
    assert fs_mcp.search_files("pkg", "*.py").split("\n") == ["__init__.py", "mod.py", "sub/deep.py"]


def test_gitignore_applies_without_a_git_directory(project: Path, fs_mcp_server: ModuleType) -> None:
    (project / ".git").rmdir()
    assert "app.log" in fs_mcp_server.grep_content.fn("ignored log")
    assert fs_mcp.grep_content("ignored log") == "No matches found."


def test_bad_patterns_are_reported_as_errors(project: Path) -> None:
    assert fs_mcp.grep_content("(unclosed").startswith("Error: invalid pattern: regex parse error:")
    assert fs_mcp.search_files(".", "[unclosed").startswith("Error during search: invalid glob")
    assert fs_mcp.grep_content("foo", search_path="missing").startswith("Error: ")


def test_a_search_before_initialize_says_what_to_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fs_mcp, "_sandbox", None)
    with pytest.raises(RuntimeError, match=re.escape("fsnative.fs_mcp.initialize(directories)")):
        fs_mcp.grep_content("foo")


def test_invalid_directories_are_skipped_and_none_valid_means_cwd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert fs_mcp.initialize([str(tmp_path / "missing")]) == [tmp_path.resolve()]
    assert fs_mcp.initialize([]) == [Path(os.getcwd()).resolve()]
