#!/usr/bin/env python3
"""Checks that the three vector runners (Rust, Node, Python) passed the same number of cases,
skipped the same number and failed none, from the counts each wrote to DIR when run with
FSNATIVE_VECTOR_COUNTS=DIR (make test does):

    python3 tests/compare-vector-counts.py DIR

Prints one line a runner and a closing line; exits 1 when a count is missing or differs."""

from __future__ import annotations

import json
import sys
from pathlib import Path

RUNNERS = ("rust", "node", "python")


def problems(counts: dict[str, dict[str, int] | None]) -> list[str]:
    """What keeps the runners' counts from agreeing (an empty list when they agree)."""
    found = [
        f"{runner}: wrote no counts (did its vector runner run, unfiltered?)"
        for runner, c in counts.items()
        if c is None
    ]
    found += [f"{runner}: {c['failed']} failed" for runner, c in counts.items() if c and c["failed"]]
    for key in ("passed", "skipped"):
        values = {runner: c[key] for runner, c in counts.items() if c}
        if len(set(values.values())) > 1:
            found.append(f"{key} differ: " + ", ".join(f"{runner} {value}" for runner, value in values.items()))
    return found


def main() -> int:
    directory = Path(sys.argv[1])
    counts = {}
    for runner in RUNNERS:
        path = directory / f"{runner}.json"
        counts[runner] = json.loads(path.read_text()) if path.exists() else None
        if counts[runner]:
            print(
                f"{runner}: {counts[runner]['passed']} passed, {counts[runner]['skipped']} skipped, {counts[runner]['failed']} failed"
            )
    found = problems(counts)
    for problem in found:
        print(f"vector counts: {problem}", file=sys.stderr)
    print("the three vector runners agree" if not found else "the vector runners disagree")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
