"""The READMEs' Python examples work when pasted: each is extracted and run with the installed
package, in the directory its README is in (the project's, and the Python package's own)."""

import re
import subprocess
import sys
from pathlib import Path

REPO_DIR = Path(__file__).resolve().parents[2]


def test_the_readme_python_example_runs_and_prints_real_results() -> None:
    readme = (REPO_DIR / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert len(blocks) == 1, "README.md has one python example"
    run = subprocess.run(
        [sys.executable, "-c", blocks[0]], cwd=REPO_DIR, capture_output=True, text=True, check=True
    )
    assert re.search(r"^OUTSIDE_SANDBOX$", run.stdout, flags=re.M)
    assert re.search(r"^README\.md:\d+: ", run.stdout, flags=re.M)
    assert re.search(r"^README\.md:\d+$", run.stdout, flags=re.M)
    assert re.search(r"^\d+ files with TODO or FIXME$", run.stdout, flags=re.M)


def test_the_package_readme_example_runs_and_prints_real_results() -> None:
    package_dir = REPO_DIR / "python"
    readme = (package_dir / "README.md").read_text(encoding="utf-8")
    [block] = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    # -P: the source folder python/fsnative (no compiled module) must not shadow the installed one.
    run = subprocess.run(
        [sys.executable, "-P", "-c", block], cwd=package_dir, capture_output=True, text=True, check=True
    )
    assert run.stdout.startswith(f"{package_dir / 'README.md'}\n")
    assert re.search(r"^README\.md:\d+: ", run.stdout, flags=re.M)
    assert re.search(r"^README\.md:\d+$", run.stdout, flags=re.M)
    assert re.search(r"^\[.*'.*\.py'.*\]$", run.stdout, flags=re.M)
