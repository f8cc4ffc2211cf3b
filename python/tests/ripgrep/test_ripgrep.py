"""fsnative.ripgrep where it differs from running `rg` as RA.Aid does, each next to what `rg`
does, plus its output tail and configuration."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import parity
import pytest

from fsnative import ripgrep


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = parity.write_project(tmp_path / "project")
    ripgrep.configure([str(root)])
    return root


def rg(root: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    assert parity.RG is not None, "the PyPI ripgrep package is not installed in the venv"
    command = [parity.RG, "--heading", "-n", "--color", "never", *arguments]
    return subprocess.run(command, cwd=root, capture_output=True, text=True)


def test_long_output_keeps_its_last_lines_after_a_note(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ripgrep, "MAX_OUTPUT_LINES", 10)
    full = rg(project, "match", "logs").stdout.splitlines(keepends=True)
    assert len(full) == parity.MANY_MATCHES + 1
    answer = ripgrep.ripgrep_search("match", include_paths=["logs"])
    assert answer == {
        "output": f"[{len(full) - 10} lines of output truncated]\n" + "".join(full[-10:]),
        "return_code": 0,
        "success": True,
    }


def test_the_type_names_ra_aid_passed_do_not_exist_in_rg(project: Path) -> None:
    for ra_aid_name in ("javascript", "c-header", "cpp-header", "postgres"):
        refused = rg(project, "-t", ra_aid_name, "foo")
        assert (refused.returncode, refused.stderr) == (2, f"rg: unrecognized file type: {ra_aid_name}\n")
    for short_name, path in (("js", "web/script.js"), ("h", "pkg/native.h"), ("hpp", "pkg/native.h")):
        output = str(ripgrep.ripgrep_search("foo", file_type=short_name)["output"])
        assert output.startswith(f"{path}\n"), output


def test_a_path_outside_the_roots_is_refused(project: Path) -> None:
    for outside in ("..", str(project.parent), "/etc"):
        answer = ripgrep.ripgrep_search("foo", include_paths=[outside])
        assert (answer["return_code"], answer["success"]) == (2, False)
        assert "outside the allowed directories" in str(answer["output"])


def test_links_out_of_the_roots_are_not_followed(project: Path) -> None:
    outside = project.parent / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("foo secret outside\n", encoding="utf-8")
    (project / "escape").symlink_to(outside)
    assert "escape/secret.txt" in rg(project, "--follow", "outside").stdout
    assert ripgrep.ripgrep_search("outside", follow_links=True) == {"output": "", "return_code": 1, "success": False}


def test_gitignore_applies_without_a_git_directory(project: Path) -> None:
    (project / ".git").rmdir()
    assert "app.log" in rg(project, "ignored log").stdout
    assert ripgrep.ripgrep_search("ignored log")["return_code"] == 1


def test_a_binary_file_is_skipped_also_when_named(project: Path) -> None:
    assert "binary file matches" in rg(project, "binary", "data.bin").stdout
    assert ripgrep.ripgrep_search("binary", include_paths=["data.bin"])["return_code"] == 1


def test_every_root_is_searched_relative_to_itself(project: Path, tmp_path: Path) -> None:
    other = tmp_path / "other"
    (other / "docs").mkdir(parents=True)
    (other / "docs" / "guide.md").write_text("foo guide\n", encoding="utf-8")
    ripgrep.configure([str(project), str(other)])
    output = str(ripgrep.ripgrep_search("foo guide|foo and", file_type="md")["output"])
    assert output == "README.md\n2:foo and Foo and FOO\n\ndocs/guide.md\n1:foo guide\n"


def test_a_search_before_configure_says_what_to_call(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ripgrep, "_sandbox", None)
    with pytest.raises(RuntimeError, match=re.escape("fsnative.ripgrep.configure(roots)")):
        ripgrep.ripgrep_search("foo")
