"""Fixtures shared by the binding tests."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from fsnative import Sandbox

# Unicode word boundaries on non-ASCII text keep the regex engine off its fast paths, so a
# search of `slow_tree` is CPU-bound for seconds; the many small files let a cancel or a
# deadline stop it between files.
SLOW_PATTERN = r"\b(\w+\s+){10}\d{5}\b"
SLOW_LINE = "café crème brûlée naïve façade déjà vu über straße 12 ça\n"
SLOW_FILES = 400


@pytest.fixture(scope="session")
def slow_tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """400 files of 60 kB that `SLOW_PATTERN` takes several seconds to search."""
    root = tmp_path_factory.mktemp("slow")
    for index in range(SLOW_FILES):
        (root / f"file{index:03}.txt").write_text(SLOW_LINE * 1000, encoding="utf-8")
    return root


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small project: text files in nested directories, a hidden file, an ignored file."""
    files = {
        "a.txt": "hello world\nfoo bar\nHello again\nfoo foo\n",
        "b.md": "# Title\nfoo\n",
        "sub/c.py": "import os\n\ndef test_one():\n    return 'foo'\n",
        "sub/deeper/d.py": "# TODO: more\nx = 1\n",
        ".hidden/e.txt": "foo hidden\n",
        "ignored.log": "foo in a log\n",
        ".gitignore": "*.log\n",
    }
    for name, text in files.items():
        path = tmp_path / "root" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    (tmp_path / "outside.txt").write_text("secret\n", encoding="utf-8")
    return tmp_path / "root"


@pytest.fixture
def sandbox(tree: Path) -> Sandbox:
    return Sandbox([tree])


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The shared vectors' own count, to set beside `cargo test --test vectors`."""
    counts: Counter[str] = Counter()
    for outcome in ("passed", "failed", "skipped", "error"):
        for report in terminalreporter.stats.get(outcome, []):
            if "test_vectors.py::" in getattr(report, "nodeid", "") and (report.when == "call" or outcome != "passed"):
                counts[outcome] += 1
    if counts:
        shown = [f"{counts[outcome]} {outcome}" for outcome in ("passed", "failed", "skipped") if counts[outcome]]
        summary = ", ".join(shown)
        terminalreporter.write_line(f"shared conformance vectors: {summary}")
