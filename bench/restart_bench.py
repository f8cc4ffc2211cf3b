"""Restart with a persisted index (issue #25, item 1): the time from a fresh process's
`Sandbox(...)` to its first grep answer, when the index starts from its store
(`IndexOptions(persist=DIR)`), against a cold build of the index and against fff's scan, each in
a fresh process per tool and round, tools alternating, on the trees index_bench.py uses (its
mirrors outside git).

Cases, per tree:
- restart: the store was written by the previous process; nothing changed since.
- restart, changed: before the process starts, CHANGED files are replaced by new content
  (unlinked and written again: new inodes, as an editor's save makes) and
  CHANGED new files created, each holding a token (the files are ones a plain walk lists); the
  process's first grep for the token must find every file a plain walk (no index) finds it in
  (else the row says how many were stale). Undone afterwards, and the store
  brought up to date again by a process that is not timed.
- cold: `Sandbox(index=True)`, ready (list and content prefilter complete), first grep.
- fff: `FileFinder` to `wait_for_scan_blocking`, first grep (its content warm-up goes on after).

Medians of ROUNDS; memory is VmRSS added once the first answer is in, the worst of ROUNDS. The
clock stops at the first answer: the grep for the token and the index's status come after it
(until 2026-11-28 they were timed too, about 47 ms on the large tree, where the token's
trigrams leave many candidates).

    python restart_bench.py [--trees large medium]      writes results/index-restart.md
"""

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from index_bench import LIMIT, READY_TIMEOUT_S, Fff, child_report, index_tree, rare_literal
from measure import BENCH, SMOKE, trees
from memory import kib

ROUNDS = 1 if SMOKE else 7
CHANGED = 20
TOKEN = "RESTARTTOKEN"
CASES = ("restart", "restart_changed", "cold", "fff")
TITLES = {
    "restart": "restart from the store, nothing changed: constructor to first answer",
    "restart_changed": f"restart from the store, {CHANGED} files replaced and {CHANGED} created while down",
    "cold": "cold build (list + content prefilter) to first answer",
    "fff": "fff: constructor to scan done + first answer",
}


def child(case, tree, root, store):
    """One fresh process: start, wait, first grep; times, memory and what the index said."""
    if case == "fff":
        import fff  # noqa: F401  (the module's own memory is part of the baseline)
    else:
        import fsnative
    before = kib("VmRSS")
    start = time.perf_counter()
    if case == "fff":
        tool = Fff(root)
        ready = tool.wait_list()
        first = tool.grep(rare_literal(tree), LIMIT)
    else:
        index = True if case == "cold" else fsnative.IndexOptions(persist=store)
        sandbox = fsnative.Sandbox([root], index=index)
        ready = sandbox.wait_for_index(timeout_ms=int(READY_TIMEOUT_S * 1000))
        first = len(sandbox.grep(rare_literal(tree), fixed_strings=True, limit=LIMIT).files)
    first_ms = (time.perf_counter() - start) * 1000
    rss = (kib("VmRSS") - before) / 1024
    # Not timed: whether the changed files are found, and what the index said.
    if case == "fff":
        found = tool.grep(TOKEN, LIMIT)[1]
        status = {}
    else:
        found = len(sandbox.grep(TOKEN, fixed_strings=True).files)
        status = sandbox.index_status().to_dict()
    print(
        json.dumps(
            {"ready": ready, "first_ms": first_ms, "rss_mib": rss, "first": first, "found": found, "status": status}
        )
    )
    if case == "fff":
        tool.close()
    else:
        sandbox.close()


def run(case, tree, root, store):
    return child_report(__file__, case, tree, str(root), str(store))


def known_files(root, count):
    """`count` Python files that a plain walk lists (none ignored or hidden), spread over the tree."""
    import fsnative

    listed = fsnative.Sandbox([str(root)]).glob("**/*.py").entries
    files = sorted(root / entry.relative_path for entry in listed)
    step = max(1, len(files) // count)
    return files[::step][:count]


def walk_found(root):
    """How many files a plain walk (no index) finds the token in: what a restart must find."""
    import fsnative

    return len(fsnative.Sandbox([str(root)]).grep(TOKEN, fixed_strings=True).files)


def change_while_down(root, known):
    """Replaces the known files (new inodes, as an editor's save makes)
    and creates as many new ones, each with the token; returns how to undo it."""
    originals = {path: path.read_bytes() for path in known}
    created = []
    for index, path in enumerate(known):
        path.unlink()
        path.write_bytes(originals[path] + f"# {TOKEN} {index}\n".encode())
        new = path.with_name(f"restart_new_{index}.py")
        new.write_text(f"# {TOKEN} new {index}\n")
        created.append(new)

    def undo():
        for path in created:
            path.unlink(missing_ok=True)
        for path, text in originals.items():
            path.unlink()
            path.write_bytes(text)

    return undo


def measure(tree):
    root = index_tree(tree)
    store = Path(tempfile.mkdtemp(prefix="fsnative-store-"))
    known = known_files(root, CHANGED)
    reports = {case: [] for case in CASES}
    try:
        run("restart", tree, root, store)  # writes the first store
        for round_index in range(ROUNDS):
            order = CASES[round_index % len(CASES) :] + CASES[: round_index % len(CASES)]
            for case in order:
                if case == "restart_changed":
                    undo = change_while_down(root, known)
                    try:
                        expected = walk_found(root)
                        report = run("restart", tree, root, store)
                        reports[case].append({**report, "expected": expected})
                    finally:
                        undo()
                    run("restart", tree, root, store)  # the store up to date again, not timed
                else:
                    reports[case].append(run(case, tree, root, store))
        store_bytes = (store / "fsnative-index").stat().st_size
    finally:
        shutil.rmtree(store, ignore_errors=True)
    return root, reports, store_bytes


def store_said(store):
    """How the index started (`IndexStatus.store`: `{"outcome": …, "reason": …}`), in a few words."""
    if store is None:
        return "none"
    return store["outcome"] if "reason" not in store else f"{store['outcome']}: {store['reason']}"


def table(results):
    lines = [
        "# Restart with a persisted index: fsnative vs its cold build vs fff",
        "",
        "Written by `bench/restart_bench.py` (issue #25, item 1). A fresh process per case and round, cases "
        f"alternating; {ROUNDS} rounds; medians, memory the worst of the rounds. Time from the constructor to the "
        "first grep's answer (the rare literal, limit 100). fsnative from Python, fff-search from Python, same "
        "tree (index_bench.py's mirror).",
        "",
        "| tree | case | median | min–max | ÷ cold | ÷ fff | RSS added (worst) | what the index said |",
        "|---|---|---:|---:|---:|---:|---:|---|",
    ]
    for tree, (reports, store_bytes) in results.items():
        medians = {case: statistics.median(r["first_ms"] for r in runs) for case, runs in reports.items()}
        for case, runs in reports.items():
            samples = [r["first_ms"] for r in runs]
            said = ""
            if case.startswith("restart"):
                stores = sorted({store_said(r["status"].get("store")) for r in runs})
                changes = statistics.median(r["status"].get("store_changes", 0) for r in runs)
                said = f"store {', '.join(map(str, stores))}; {changes:.0f} changes found"
                if case == "restart_changed":
                    stale = [r["expected"] - r["found"] for r in runs if r["found"] != r["expected"]]
                    expected = sorted({r["expected"] for r in runs})
                    said += (
                        f"; token found in all {', '.join(map(str, expected))} files a walk finds, every round"
                        if not stale
                        else f"; **stale: {stale}**"
                    )
            if case == "cold":
                said = "content complete (content_ms) median {:.0f} ms".format(
                    statistics.median(r["status"]["content_ms"] for r in runs)
                )
            lines.append(
                f"| {tree} | {TITLES[case]} | {medians[case]:,.1f} ms | {min(samples):,.1f}–{max(samples):,.1f} | "
                f"{medians[case] / medians['cold']:.3f} | {medians[case] / medians['fff']:.3f} | "
                f"{max(r['rss_mib'] for r in runs):.1f} MiB | {said} |"
            )
        lines.append(f"| {tree} | store size | {store_bytes / 2**20:.1f} MiB | | | | | |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trees", nargs="+", default=trees("large", "medium"))
    args = parser.parse_args()
    results = {}
    for tree in args.trees:
        _root, reports, store_bytes = measure(tree)
        results[tree] = (reports, store_bytes)
    out_dir = BENCH / "results"
    output = (out_dir / "smoke" if SMOKE else out_dir) / "index-restart.md"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(table(results))
    raw = {tree: {"store_bytes": b, "reports": r} for tree, (r, b) in results.items()}
    (output.with_suffix(".json")).write_text(json.dumps(raw, indent=1))
    print(f"wrote {output}", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(*sys.argv[2:6])
    else:
        main()
