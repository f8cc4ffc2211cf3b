"""The README's Python example works when pasted: it is extracted from README.md and run with
the installed package, with the repository as its working directory."""

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
