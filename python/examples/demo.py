"""The main-job demo from Python: validates, greps, globs and fuzzy-finds a real tree through fsnative.

``./python/dev.sh demo DIR`` (or ``python python/examples/demo.py DIR`` once fsnative is
installed); the Rust twin is ``crates/fsnative/examples/demo.rs``.
"""

from __future__ import annotations

import asyncio
import sys
import time
from typing import Literal

from fsnative import FsnativeError, Sandbox


def milliseconds_since(started: float) -> str:
    return f"{(time.perf_counter() - started) * 1000:.1f} ms"


def main() -> None:
    directory = sys.argv[1] if len(sys.argv) > 1 else "."
    sandbox = Sandbox([directory])
    print(f"sandbox root: {sandbox.roots[0]}")

    print("\n== validate: honest paths pass, escapes are refused")
    checks: list[tuple[str, Literal["read", "write"]]] = [
        (".", "read"),
        ("new/file.txt", "write"),
        ("../outside", "read"),
        ("/etc/passwd", "read"),
    ]
    for path, intent in checks:
        try:
            print(f"  {path:<14} {intent}: ok -> {sandbox.validate(path, intent=intent)}")
        except FsnativeError as error:
            print(f"  {path:<14} {intent}: {error.code} ({type(error).__name__})")

    print("\n== grep 'def test_' (first 5 matches, 1 line of context), rg's standard output:")
    started = time.perf_counter()
    found = sandbox.grep("def test_", limit=5, context=1)
    print(found.render(path_style="relative"), end="")
    print(
        f"  -> {found.total_matches} matches shown, truncated: {found.truncated}, "
        f"cursor for the next page: {found.next_cursor is not None}, {milliseconds_since(started)}"
    )

    print("\n== grep 'TODO|FIXME' over the whole tree, count mode:")
    started = time.perf_counter()
    counted = sandbox.grep("TODO|FIXME", mode="count", limit=None)
    print(
        f"  {counted.total_matches} matching lines in {len(counted.files)} files; "
        f"{counted.stats.files_searched} files searched, {counted.stats.skipped_binary} binary skipped, "
        f"{milliseconds_since(started)}"
    )

    print("\n== grep 'def test_', every match as Python objects:")
    started = time.perf_counter()
    everything = sandbox.grep("def test_", limit=None)
    searched = milliseconds_since(started)
    lines = [(file.relative_path, match.line_number, match.text) for file in everything.files for match in file.matches]
    print(f"  {len(lines)} matches: search {searched}, in Python tuples after {milliseconds_since(started)}")

    print("\n== glob '**/*.{rs,py,ts}', newest first (first 5):")
    started = time.perf_counter()
    listed = sandbox.glob("**/*.{rs,py,ts}", sort="mtime", limit=5)
    for entry in listed.entries:
        print(f"  {entry.relative_path}")
    print(f"  -> {len(listed.entries)} of {listed.total} matches shown, {milliseconds_since(started)}")

    print("\n== find 'jsn decodr' (letters left out), best 5:")
    started = time.perf_counter()
    best = sandbox.find("jsn decodr", limit=5)
    for ranked in best.entries:
        print(f"  {ranked.score:>4}  {ranked.relative_path} (typos {ranked.typos})")
    print(f"  -> {len(best.entries)} of {best.total} matches shown, {milliseconds_since(started)}")

    print("\n== asyncio: three searches at once")

    async def three_at_once() -> list[int]:
        searches = [sandbox.grep_async(pattern, mode="count", limit=None) for pattern in ("import", "class", "return")]
        return [result.total_matches for result in await asyncio.gather(*searches)]

    started = time.perf_counter()
    totals = asyncio.run(three_at_once())
    print(f"  import: {totals[0]}, class: {totals[1]}, return: {totals[2]} matching lines", end=", ")
    print(milliseconds_since(started))


if __name__ == "__main__":
    main()
