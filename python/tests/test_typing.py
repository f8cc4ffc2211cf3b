"""The hand-written stubs: `mypy --strict` accepts real use (typing_usage.py, the demo, the
benchmarks, these tests) and the package's own code, and rejects misuse, and stubtest finds
them in line with the compiled module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def run(tmp_path: Path, *command: str) -> subprocess.CompletedProcess[str]:
    # From an empty folder, so only the installed package is found (and caches land there).
    return subprocess.run([sys.executable, "-m", *command], cwd=tmp_path, capture_output=True, text=True)


def test_mypy_strict_accepts_the_examples_benchmarks_and_tests(tmp_path: Path) -> None:
    python = HERE.parent
    scripts = [*python.glob("examples/*.py"), *python.glob("bench/*.py"), *HERE.glob("*.py")]
    checked = run(tmp_path, "mypy", "--strict", *sorted(map(str, scripts)))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_mypy_strict_accepts_the_package_itself(tmp_path: Path) -> None:
    checked = run(tmp_path, "mypy", "--strict", "-p", "fsnative")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_stubtest_finds_the_stubs_match_the_runtime(tmp_path: Path) -> None:
    checked = run(tmp_path, "mypy.stubtest", "fsnative")
    assert checked.returncode == 0, checked.stdout + checked.stderr
