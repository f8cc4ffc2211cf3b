"""What the artifact checks (macho.py, pe.py) share: printing each file's verdict."""

from __future__ import annotations

import sys
from collections.abc import Iterable


def report(verdicts: Iterable[tuple[str, list[str], str]]) -> int:
    """Prints `NAME: ok: TEXT` or `NAME: FAILED: …` per (name, faults, text); 1 if any failed."""
    failed = 0
    for name, faults, text in verdicts:
        if faults:
            failed += 1
            print(f"{name}: FAILED: " + "; ".join(faults), file=sys.stderr)
        else:
            print(f"{name}: ok: {text}")
    return 1 if failed else 0
