"""The hand-written stubs: `mypy --strict` accepts real use (typing_usage.py, the demo, the
benchmarks, these tests) and the package's own code, and rejects misuse, and stubtest finds
them in line with the compiled module."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]
# The benchmarks that use the Python API alone (the others in bench/ are untyped harnesses).
TYPED_BENCHMARKS = ("conversion_python.py", "stdlib_vs_rg.py")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One empty folder for every check, so only the installed package is found and mypy's
    cache (the standard library's types) is built once."""
    return tmp_path_factory.mktemp("typing")


def run(workdir: Path, *command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=workdir, capture_output=True, text=True)


def test_mypy_strict_accepts_the_examples_benchmarks_and_tests(workdir: Path) -> None:
    python = TESTS.parent
    bench = python.parent / "bench"
    scripts = [
        *python.glob("examples/*.py"),
        *(bench / name for name in TYPED_BENCHMARKS),
        *TESTS.glob("*.py"),
        *TESTS.glob("*/*.py"),
    ]
    checked = run(workdir, "mypy", "--strict", *sorted(map(str, scripts)))
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_mypy_strict_accepts_the_package_itself(workdir: Path) -> None:
    checked = run(workdir, "mypy", "--strict", "-p", "fsnative")
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_stubtest_finds_the_stubs_match_the_runtime(workdir: Path) -> None:
    checked = run(workdir, "mypy.stubtest", "fsnative")
    assert checked.returncode == 0, checked.stdout + checked.stderr
