"""What turning a big grep result into Python objects costs, next to the search itself.

    .venv/bin/python bench/conversion_python.py [--lines 100000] [--repeat 7]

Builds a temporary tree whose every line matches (100 files), greps it with limit=None and
times, as medians: the search call (which returns lazy views), building the `files` and
`matches` view lists, reading every match's fields, and the `to_dict()` export.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path
from typing import Callable

from fsnative import GrepResult, Sandbox

FILES = 100


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=7)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory:
        per_file = options.lines // FILES
        for index in range(FILES):
            lines = (f"line {number} of file {index}: a match here\n" for number in range(per_file))
            Path(directory, f"f{index:03}.txt").write_text("".join(lines))
        sandbox = Sandbox([directory])
        result = sandbox.grep("match", limit=None)
        assert result.total_matches == per_file * FILES

        def search() -> object:
            return sandbox.grep("match", limit=None)

        def views(found: GrepResult = result) -> object:
            return [file.matches for file in found.files]

        def fields(found: GrepResult = result) -> object:
            return [(f.relative_path, m.line_number, m.column, m.text) for f in found.files for m in f.matches]

        def to_dict(found: GrepResult = result) -> object:
            return found.to_dict()

        steps: dict[str, Callable[[], object]] = {
            "sb.grep('match', limit=None)": search,
            "files + matches view lists": views,
            "  + path, line, column, text of each": fields,
            "result.to_dict()": to_dict,
        }
        print(f"{result.total_matches} matching lines in {FILES} files; median of {options.repeat} runs")
        for name, step in steps.items():
            samples = []
            for _ in range(options.repeat):
                started = time.perf_counter()
                step()
                samples.append(time.perf_counter() - started)
            print(f"  {name:<40} {statistics.median(samples) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
