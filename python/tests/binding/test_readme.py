"""The READMEs hold true: each Python example is extracted and run with the installed package as
written (the project's from a directory of its own, the Python package's in the directory its
README is in), and the project README's size table matches the artifacts `make dist` wrote."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_DIR = Path(__file__).resolve().parents[3]
DIST_DIR = Path(os.environ.get("FSNATIVE_DIST", REPO_DIR / "dist"))
# How far a size in the README's table may stray from the file's, as a fraction of the file's.
SIZE_TOLERANCE = 0.10
# The units of the table: decimal, as npm and pip print sizes.
UNITS = {"B": 1, "KB": 1_000, "MB": 1_000_000, "GB": 1_000_000_000}


def test_the_readme_python_example_runs_and_prints_real_results(tmp_path: Path) -> None:
    readme = (REPO_DIR / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert len(blocks) == 1, "README.md has one python example"
    # Run where a user might: a directory of its own, with no checkout around it.
    run = subprocess.run([sys.executable, "-c", blocks[0]], cwd=tmp_path, capture_output=True, text=True, check=True)
    lines = run.stdout.splitlines()
    assert lines[0].endswith(f"{os.sep}fsnative{os.sep}__init__.py") and Path(lines[0]).is_absolute()
    assert "OUTSIDE_SANDBOX" in lines
    assert any(re.fullmatch(r"\S+\.py:\d+: .*Sandbox.*", line) for line in lines)
    assert any(re.fullmatch(r"\S+\.py:\d+", line) for line in lines)
    assert any(re.fullmatch(r"\[.*'\S+\.pyi'.*\] of \d+", line) for line in lines)
    assert "_sandbox.py" in [line.split(" ", 1)[1] for line in lines if re.fullmatch(r"\d+ \S+", line)]
    assert re.fullmatch(r"\d+ files with TODO or FIXME", lines[-1])


def test_the_package_readme_example_runs_and_prints_real_results() -> None:
    package_dir = REPO_DIR / "python"
    readme = (package_dir / "README.md").read_text(encoding="utf-8")
    [block] = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    # -P: the source folder python/fsnative (no compiled module) must not shadow the installed one.
    run = subprocess.run(
        [sys.executable, "-P", "-c", block], cwd=package_dir, capture_output=True, text=True, check=True
    )
    assert run.stdout.startswith(f"{package_dir / 'README.md'}\n")
    assert re.search(r"^README\.md:\d+: ", run.stdout, flags=re.MULTILINE)
    assert re.search(r"^README\.md:\d+$", run.stdout, flags=re.MULTILINE)
    assert re.search(r"^\[.*'.*\.py'.*\]$", run.stdout, flags=re.MULTILINE)


def readme_sizes() -> dict[str, int]:
    """The README's size table: each artifact's file name and its size in bytes."""
    readme = (REPO_DIR / "README.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(fsnative[^`]*)` \| ([\d.]+) (B|KB|MB|GB) \|", readme, flags=re.MULTILINE)
    return {name: round(float(number) * UNITS[unit]) for name, number, unit in rows}


def size_mismatches(table: dict[str, int], files: dict[str, int]) -> list[str]:
    """What keeps the table and the files from agreeing: an artifact one lists and the other
    does not, or a size more than SIZE_TOLERANCE away from the file's."""
    problems = [f"{name} is in the table but not in dist/" for name in sorted(table.keys() - files.keys())]
    problems += [f"{name} is in dist/ but not in the table" for name in sorted(files.keys() - table.keys())]
    for name in sorted(table.keys() & files.keys()):
        if abs(table[name] - files[name]) > SIZE_TOLERANCE * files[name]:
            problems.append(f"{name}: the table says {table[name]:,} bytes, dist/ holds {files[name]:,}")
    return problems


def test_the_size_check_catches_a_stale_size_and_a_missing_artifact() -> None:
    files = {"a.whl": 4_100_000, "b.tgz": 101_000}
    assert size_mismatches({"a.whl": 4_300_000, "b.tgz": 95_000}, files) == []
    assert size_mismatches({"a.whl": 1_600_000, "b.tgz": 101_000}, files) == [
        "a.whl: the table says 1,600,000 bytes, dist/ holds 4,100,000"
    ]
    assert size_mismatches({"a.whl": 4_100_000}, files) == ["b.tgz is in dist/ but not in the table"]


@pytest.mark.skipif(sys.platform != "linux", reason="the README's size table lists the Linux x64 artifacts")
def test_the_readme_size_table_matches_dist() -> None:
    artifacts = [path for path in DIST_DIR.glob("fsnative*") if path.is_file()]
    if not artifacts:
        pytest.fail(f"no artifacts in {DIST_DIR}: run `make dist` first")
    table = readme_sizes()
    assert len(table) == 5, f"README.md's size table lists {sorted(table)}"
    assert size_mismatches(table, {path.name: path.stat().st_size for path in artifacts}) == []
