"""Shared pieces of the Python benchmark scripts: settings, interleaved timing, raw records."""

import json
import os
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
SMOKE = os.environ.get("BENCH_SMOKE") == "1"
WARMUP = 1 if SMOKE else 2
REPS = 2 if SMOKE else 10
RAW = BENCH / "results" / ("raw-smoke" if SMOKE else "raw")
SCENARIOS = json.loads((BENCH / "scenarios.json").read_text())
RG = os.environ.get("BENCH_RG", str(BENCH / ".venv" / "bin" / "rg"))


def trees(*wanted):
    """The corpora to run on: only the small one in a smoke run, and only those named in
    BENCH_TREES (space- or comma-separated) when it is set."""
    only = os.environ.get("BENCH_TREES", "").replace(",", " ").split()
    return [t for t in wanted if (t == "small" or not SMOKE) and (not only or t in only)]


def corpus(tree):
    return BENCH / "corpora" / tree


def patterns_of(case, tree):
    """A case's patterns for a tree, always as a list."""
    patterns = case["patterns"]
    if isinstance(patterns, dict):
        patterns = patterns[tree]
    return [patterns] if isinstance(patterns, str) else list(patterns)


def interleaved(impls, warmup=WARMUP, reps=REPS, block=1, orders=None):
    """Times each implementation in turn within every round (`warmup` calls of each first, not
    kept, then `reps` measured ones).

    `impls` maps a name to a callable returning (matches, files). Round r runs them in
    `orders[r % len(orders)]` (by default the starting implementation rotates from round to
    round so none always runs right after another), each `block` times in a row before the next
    takes its turn (as node/measure.mjs's `interleaved`). Returns name ->
    {"samples": [...], "matches": n, "files": n}.
    """
    names = list(impls)
    orders = orders or [names[shift:] + names[:shift] for shift in range(len(names))]
    runs = {name: {"samples": []} for name in names}
    warm_rounds = -(-warmup // block)
    for round_index in range(warm_rounds + -(-reps // block)):
        for name in orders[round_index % len(orders)]:
            for _ in range(block):
                start = time.perf_counter()
                matches, files = impls[name]()
                elapsed_ms = (time.perf_counter() - start) * 1000
                if round_index >= warm_rounds:
                    runs[name]["samples"].append(round(elapsed_ms, 3))
                runs[name].update(matches=matches, files=files)
    return runs


def record(suite, tree, case_id, title, runs, baseline_of, notes=None, unit="ms", same_work_of=None):
    """Turns `interleaved` output into report rows; `baseline_of(name)` lists the fsnative runs
    a peer is compared with (empty for fsnative runs themselves); `same_work_of(name)` those of
    them whose match counts must equal the peer's (default: all)."""
    notes = notes or {}
    rows = []
    for name, run in runs.items():
        rows.append(
            {
                "suite": suite,
                "tree": tree,
                "case": case_id,
                "title": title,
                "impl": name,
                "baselines": baseline_of(name),
                "same_work": (same_work_of or baseline_of)(name),
                "median": statistics.median(run["samples"]),
                "unit": unit,
                **run,
                "note": notes.get(name, ""),
            }
        )
        print(
            f"{suite:12} {tree:6} {case_id:16} {name:28} {rows[-1]['median']:10.2f} {unit}  "
            f"{run['matches']} matches in {run['files']} files",
            file=sys.stderr,
            flush=True,
        )
    return rows


def save(suite, rows):
    RAW.mkdir(parents=True, exist_ok=True)
    (RAW / f"{suite}.json").write_text(json.dumps(rows, indent=1))
