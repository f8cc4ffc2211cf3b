"""fsnative's grep next to `rg --json` + `json.loads`, on the CPython standard library.

    .venv/bin/python bench/stdlib_vs_rg.py [DIR] [--repeat N]

DIR defaults to /tmp/corpus/stdlib, a copy of this interpreter's standard library without
site-packages and __pycache__ (made with rsync when missing). Both sides search the same
tree for every `def test_` (no cap), in the same run, alternately; the medians are printed.
`rg` is ripgrep from PATH (PyPI's `ripgrep` package provides one).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sysconfig
import time
from typing import Callable

from fsnative import Sandbox

PATTERN = "def test_"


def ensure_corpus(directory: str) -> None:
    if os.path.isdir(directory):
        return
    stdlib = sysconfig.get_paths()["stdlib"]
    print(f"copying {stdlib} to {directory}")
    os.makedirs(directory)
    excludes = ["--exclude", "site-packages", "--exclude", "__pycache__"]
    subprocess.run(["rsync", "-a", *excludes, f"{stdlib}/", f"{directory}/"], check=True)


def ripgrep_json(rg: str, directory: str) -> bytes:
    return subprocess.run([rg, "--json", PATTERN, directory], capture_output=True, check=True).stdout


def median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1000:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("directory", nargs="?", default="/tmp/corpus/stdlib")
    parser.add_argument("--repeat", type=int, default=9)
    options = parser.parse_args()
    ensure_corpus(options.directory)
    rg = shutil.which("rg")
    if rg is None:
        raise SystemExit("rg is not on PATH (pip install ripgrep)")
    sandbox = Sandbox([options.directory])

    def fsnative_grep() -> int:
        return sandbox.grep(PATTERN, limit=None).total_matches

    def fsnative_grep_and_read() -> int:
        found = sandbox.grep(PATTERN, limit=None)
        rows = [(f.path, m.line_number, m.text) for f in found.files for m in f.matches]
        return len(rows)

    def fsnative_grep_to_dict() -> int:
        found = sandbox.grep(PATTERN, limit=None).to_dict()
        return sum(len(file["matches"]) for file in found["files"])

    def rg_json() -> int:
        messages = [json.loads(line) for line in ripgrep_json(rg, options.directory).splitlines()]
        return sum(1 for message in messages if message["type"] == "match")

    def rg_json_unparsed() -> int:
        return ripgrep_json(rg, options.directory).count(b'{"type":"match"')

    contenders: dict[str, Callable[[], int]] = {
        "fsnative sb.grep(limit=None)": fsnative_grep,
        "  + (path, line, text) of every match": fsnative_grep_and_read,
        "  + .to_dict() of the result": fsnative_grep_to_dict,
        "rg --json + json.loads per line": rg_json,
        "  (rg --json alone, output unparsed)": rg_json_unparsed,
    }
    counts = {name: run() for name, run in contenders.items()}  # warm-up, and the answers
    samples: dict[str, list[float]] = {name: [] for name in contenders}
    for _ in range(options.repeat):
        for name, run in contenders.items():
            started = time.perf_counter()
            run()
            samples[name].append(time.perf_counter() - started)
    files = sum(len(names) for _, _, names in os.walk(options.directory))
    print(f"{options.directory}: {files} files; pattern {PATTERN!r}", end="; ")
    print(f"median of {options.repeat} runs; {os.cpu_count()} CPUs")
    for name in contenders:
        print(f"  {name:<40} {median_ms(samples[name])}   ({counts[name]} matches)")


if __name__ == "__main__":
    main()
