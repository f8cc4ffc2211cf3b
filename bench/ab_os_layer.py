"""A/B of fsnative wheels built from different commits, on one machine in one sitting (issue #33:
"no Linux bench row is more than 5% slower" after the OS layer).

Each wheel is unpacked into a directory of its own and imported from there (PYTHONPATH first on
the path) by fresh child processes of this script, which call only API that every wheel since
53b9262 has. Every round runs every wheel once, the first wheel rotating from round to round, so
that the machine's noise (other builds on a shared machine) falls on all alike; each child
records the load average it started at. Per wheel, round and tree:

- index (medium, large): index_bench.py's child and warm calls, fsnative only: constructor to
  ready (wait_for_index), the list and content phases (index_status), VmRSS added by the ready
  index + 3 greps, then its warm greps and glob (3 warm-up, 15 measured calls, interleaved).
- restart (medium, large): restart_bench.py's unchanged case: a fresh process's constructor to
  its first grep answer, the index starting from the store the previous run of the wheel wrote.
- walk (small, medium, large): grep_python.py's fsnative cases on small and medium and
  glob_python.py's fsnative globs on all three, without an index.

Every call is timed in wall time and in process CPU time (all threads), which a loaded machine
moves much less. A round's value is the median of the child's calls; a row's value is the
median of its rounds, its spread the range of the rounds. `report` writes the table: each
wheel's median, its ratio to the first wheel's over the rounds both ran in, the per-round
ratios, and whether a ratio above 1.05 lies beyond the spread (a sign test of the per-round
ratios, p < 0.05).

    python ab_os_layer.py run --wheel A=a.whl --wheel B=b.whl --corpora DIR --work DIR --rounds 5
    python ab_os_layer.py report --raw DIR/raw.jsonl [MORE.jsonl ...] --out results/os-layer-ab.md

Run it with the bench venv's interpreter (run.sh makes bench/.venv): the walk child imports
grep_python.py and glob_python.py, which import the peers.
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from index_bench import (
    CALL_REPS,
    CALL_WARMUP,
    CASES,
    COMMON,
    GLOB,
    GLOB_LIMIT,
    LIMIT,
    NO_MATCH_RANDOM,
    NO_MATCH_WORDS,
    OR_WORDS,
    PHRASE,
    rare_literal,
)
from measure import SCENARIOS, interleaved
from memory import kib

INDEX_TREES = ("medium", "large")
GREP_TREES = ("small", "medium")
GLOB_TREES = ("small", "medium", "large")
GREP_CASES = (
    "rare_literal",
    "common_limit",
    "regex_context",
    "case_insensitive",
    "files_mode",
    "multi_pattern",
    "def_test_limit",
)
# Calls per walk child: (warm-up, measured), fewer on the bigger trees.
WALK_CALLS = {"small": (2, 15), "medium": (1, 7), "large": (1, 5)}
THRESHOLD = 1.05


def cpu_timed(impls, warmup):
    """`impls` with each call's process CPU time (every thread's) kept beside interleaved()'s wall
    time: on a machine shared with other work, CPU time hardly moves with the load. Returns the
    wrapped impls and a function giving name -> median CPU ms of the measured calls."""
    samples = {name: [] for name in impls}

    def wrap(name, call):
        def run():
            start = time.process_time()
            result = call()
            samples[name].append((time.process_time() - start) * 1000)
            return result

        return run

    def medians():
        return {f"{name} cpu": statistics.median(values[warmup:]) for name, values in samples.items()}

    return {name: wrap(name, call) for name, call in impls.items()}, medians


def load_average():
    return round(os.getloadavg()[0], 2)


def ready_or_exit(sandbox, what):
    """wait_for_index() without a timeout: the one spelling every wheel accepts."""
    if not sandbox.wait_for_index():
        raise SystemExit(f"{what}: the index did not become ready")


def index_child(tree, root):
    """index_bench.py's build-and-memory child, then its warm calls, fsnative alone."""
    import fsnative
    from index_bench import Fsnative

    before = kib("VmRSS")
    start, cpu_start = time.perf_counter(), time.process_time()
    tool = Fsnative(root)
    ready_or_exit(tool.sandbox, f"index on {tree}")
    ready_ms = (time.perf_counter() - start) * 1000
    ready_cpu_ms = (time.process_time() - cpu_start) * 1000
    for literal in (rare_literal(tree), COMMON, NO_MATCH_RANDOM):
        tool.grep(literal, LIMIT)
    rss_mib = (kib("VmRSS") - before) / 1024
    status = tool.sandbox.index_status()
    literals = {
        "no_match_random": NO_MATCH_RANDOM,
        "no_match_words": NO_MATCH_WORDS,
        "rare_literal": rare_literal(tree),
        "common": COMMON,
        "phrase": PHRASE,
    }
    impls = {case: (lambda q=literal: tool.grep(q, LIMIT)) for case, literal in literals.items()}
    impls["or3"] = lambda: tool.grep_any(OR_WORDS, LIMIT)
    impls["glob"] = lambda: tool.glob(GLOB, GLOB_LIMIT)
    impls, cpu_medians = cpu_timed(impls, CALL_WARMUP)
    runs = interleaved(impls, warmup=CALL_WARMUP, reps=CALL_REPS)
    tool.close()
    values = {"build_ready": ready_ms, "build_ready cpu": ready_cpu_ms}
    values.update(build_list=status.list_ms, build_content=status.content_ms, memory=rss_mib)
    values.update({case: statistics.median(run["samples"]) for case, run in runs.items()})
    values.update(cpu_medians())
    counts = {case: [run["matches"], run["files"]] for case, run in runs.items()}
    counts["build_ready"] = [status.files, status.files]
    return {"version": fsnative.__file__, "values": values, "counts": counts}


def restart_child(tree, root, store):
    """restart_bench.py's unchanged restart: constructor to the first grep's answer."""
    import fsnative

    start, cpu_start = time.perf_counter(), time.process_time()
    sandbox = fsnative.Sandbox([root], index=fsnative.IndexOptions(persist=store))
    ready_or_exit(sandbox, f"restart on {tree}")
    first = sandbox.grep(rare_literal(tree), fixed_strings=True, limit=LIMIT)
    first_ms = (time.perf_counter() - start) * 1000
    first_cpu_ms = (time.process_time() - cpu_start) * 1000
    store_state = getattr(sandbox.index_status(), "store", None)
    sandbox.close()
    return {
        "version": fsnative.__file__,
        "values": {"restart": first_ms, "restart cpu": first_cpu_ms},
        "counts": {"restart": [len(first.files), len(first.files)]},
        "store": str(store_state),
    }


def walk_child(tree, root):
    """grep_python.py's and glob_python.py's fsnative calls, without an index."""
    import fsnative
    from glob_python import fsnative_glob
    from grep_python import FS_MCP_SECTION_PATTERNS, fsnative_grep

    sandbox = fsnative.Sandbox([root])
    impls = {}
    if tree in GREP_TREES:
        impls = {f"grep {case}": fsnative_grep(sandbox, SCENARIOS[case], tree) for case in GREP_CASES}
        impls["grep fs_mcp_full"] = fsnative_grep(
            sandbox,
            SCENARIOS["def_test_limit"],
            tree,
            limit=None,
            max_count_per_file=100,
            section_end_patterns=FS_MCP_SECTION_PATTERNS,
        )
    impls["glob no_ignore"] = fsnative_glob(sandbox, no_ignore=True)
    impls["glob no_ignore_hidden"] = fsnative_glob(sandbox, no_ignore=True, hidden=True)
    impls["glob default"] = fsnative_glob(sandbox)
    warmup, reps = WALK_CALLS[tree]
    impls, cpu_medians = cpu_timed(impls, warmup)
    runs = interleaved(impls, warmup=warmup, reps=reps)
    return {
        "version": fsnative.__file__,
        "values": {**{name: statistics.median(run["samples"]) for name, run in runs.items()}, **cpu_medians()},
        "counts": {name: [run["matches"], run["files"]] for name, run in runs.items()},
    }


def unpack(wheel, site):
    """The wheel's files in `site` (an abi3 wheel imports from a plain directory)."""
    if not (site / ".unpacked").exists():
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(site)
        (site / ".unpacked").write_text(str(wheel))
    return site


def spawn(site, kind, tree, *args):
    environment = dict(os.environ, PYTHONPATH=str(site))
    load = load_average()
    started = time.time()
    out = subprocess.run(
        [sys.executable, __file__, "--child", kind, tree, *args],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
        env=environment,
        cwd=Path(__file__).parent,
    ).stdout
    report = json.loads(out)
    if not report["version"].startswith(str(site)):
        raise SystemExit(f"{kind} on {tree} imported {report['version']}, not the wheel in {site}")
    report.update(kind=kind, tree=tree, load=load, seconds=round(time.time() - started, 1))
    return report


def run(args):
    work = Path(args.work).resolve()
    corpora = Path(args.corpora).resolve()
    wheels = dict(item.split("=", 1) for item in args.wheel)
    sites = {label: unpack(Path(wheel).resolve(), work / f"site-{label}") for label, wheel in wheels.items()}
    stores = {(label, tree): work / "stores" / f"{label}-{tree}" for label in wheels for tree in INDEX_TREES}
    raw = Path(args.raw).resolve() if args.raw else work / "raw.jsonl"
    for (label, tree), store in stores.items():
        if not store.exists():  # the first store, written by a run that is not kept
            store.mkdir(parents=True)
            spawn(sites[label], "restart", tree, str(corpora / tree), str(store))
    labels = list(wheels)
    children = [("index", tree) for tree in INDEX_TREES if tree in args.trees]
    children += [("restart", tree) for tree in INDEX_TREES if tree in args.trees]
    children += [("walk", tree) for tree in GLOB_TREES if tree in args.trees]
    for round_index in range(args.rounds):
        shift = round_index % len(labels)
        order = labels[shift:] + labels[:shift]
        print(f"round {round_index + 1}/{args.rounds}: {' '.join(order)}, load {load_average()}", file=sys.stderr)
        for label in order:
            for kind, tree in children:
                extra = [str(stores[label, tree])] if kind == "restart" else []
                report = spawn(sites[label], kind, tree, str(corpora / tree), *extra)
                report.update(label=label, round=round_index + 1, wheel=wheels[label])
                with raw.open("a") as out:
                    out.write(json.dumps(report) + "\n")
                print(f"  {label} {kind:7} {tree:6} load {report['load']:5} {report['seconds']:6} s", file=sys.stderr)


INDEX_TITLES = {
    "build_ready": "index build: constructor to ready",
    "build_list": "index build: file list ready",
    "build_content": "index build: content prefilter complete",
    "memory": "memory: VmRSS added by the ready index + 3 greps",
    "restart": "restart from the store, nothing changed: constructor to first answer",
    **{case: title for case, title in CASES.items()},
}
WALK_TITLES = {
    **{f"grep {case}": f"grep {SCENARIOS[case]['title']}" for case in GREP_CASES},
    "grep fs_mcp_full": "grep `def test_` as fs-mcp's grep_content (full output)",
    "glob no_ignore": f"glob `{GLOB}` (no_ignore)",
    "glob no_ignore_hidden": f"glob `{GLOB}` (no_ignore, hidden)",
    "glob default": f"glob `{GLOB}` (default: .gitignore)",
}


def row_title(kind, name, tree):
    if name.endswith(" cpu"):
        return row_title(kind, name.removesuffix(" cpu"), tree) + ", CPU time"
    if kind == "walk":
        return WALK_TITLES[name]
    return INDEX_TITLES[name].format(rare=rare_literal(tree))


def figure(value, unit):
    if unit == "MiB":
        return f"{value:.2f} MiB"
    return f"{value:.3f} ms" if value < 1 else f"{value:.2f} ms" if value < 100 else f"{value:.0f} ms"


def collect(reports):
    """(kind, tree, name) -> label -> {round: value}, in the order rows first appear; and
    (kind, tree, name) -> the distinct (matches, files) counts the wheels reported."""
    rows, counts = {}, {}
    for report in reports:
        kind = "walk" if report["kind"] == "walk" else "index"
        for name, value in report["values"].items():
            by_round = rows.setdefault((kind, report["tree"], name), {}).setdefault(report["label"], {})
            by_round[report["round"]] = value
        for name, count in report["counts"].items():
            counts.setdefault((kind, report["tree"], name), set()).add(tuple(count))
    return rows, counts


def paired(base, other):
    """The per-round ratios other ÷ base (both ran in the same round, one after the other)."""
    return sorted(other[r] / base[r] for r in base.keys() & other.keys() if base[r])


def shared_ratio(base, other):
    """other's median ÷ base's, over the rounds both ran in (a wheel missing from some rounds
    is not compared with the base's rounds at another load)."""
    shared = base.keys() & other.keys()
    return statistics.median(other[r] for r in shared) / statistics.median(base[r] for r in shared)


def sign_test(ratios):
    """Two-sided sign test of the per-round ratios against 1 (ties dropped): the chance of so
    lopsided a count of rounds slower and rounds faster if neither wheel were faster."""
    slower, faster = sum(r > 1 for r in ratios), sum(r < 1 for r in ratios)
    n, k = slower + faster, max(slower, faster)
    tail = sum(math.comb(n, i) for i in range(k, n + 1)) / 2**n if n else 1.0
    return min(1.0, 2 * tail)


def verdict(ratio, ratios):
    """A median above the threshold, and whether it is beyond the run-to-run spread: the rounds
    agree (a sign test of the per-round ratios, p < 0.05) and their median ratio is above it too."""
    if ratio <= THRESHOLD:
        return ""
    slower, p = sum(r > 1 for r in ratios), sign_test(ratios)
    beyond = p < 0.05 and statistics.median(ratios) > THRESHOLD
    counted = f"{slower}/{len(ratios)} rounds slower, sign test p = {p:.2f}"
    return f"**> 5 %, beyond the spread** ({counted})" if beyond else f"> 5 %, within the spread ({counted})"


def load_reports(paths):
    """Each file's reports, their rounds numbered on from the previous file's."""
    reports, offset = [], 0
    for path in paths:
        batch = [json.loads(line) for line in Path(path).read_text().splitlines() if line.strip()]
        for report in batch:
            report["round"] += offset
        offset = max([offset, *(r["round"] for r in batch)])
        reports += batch
    return reports


def report(args):
    reports = load_reports(args.raw)
    labels = list(dict.fromkeys(r["label"] for r in reports))
    base = labels[0]
    rows, counts = collect(reports)
    header = ["tree", "row"]
    header += [f"{label} median (rounds' range)" for label in labels]
    for label in labels[1:]:
        header += [f"{label}/{base} (shared rounds)", f"{label}/{base} per round: median (min–max)"]
    header.append("flag")
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * 2 + "---:|" * (len(header) - 3) + "---|"]
    for (kind, tree, name), by_label in sorted(rows.items(), key=lambda item: item[0][0] != "index"):
        unit = "MiB" if name == "memory" else "ms"
        cells = [tree, row_title(kind, name, tree)]
        medians = {label: statistics.median(values.values()) for label, values in by_label.items()}
        for label in labels:
            values = list(by_label.get(label, {}).values())
            if values:
                spread = f"{figure(min(values), unit)} – {figure(max(values), unit)}"
                cells.append(f"{figure(medians[label], unit)} ({spread}, n={len(values)})")
            else:
                cells.append("–")
        flags = []
        for label in labels[1:]:
            if label in medians and base in medians:
                ratio = shared_ratio(by_label[base], by_label[label])
                ratios = paired(by_label[base], by_label[label])
                cells += [f"{ratio:.3f}", f"{statistics.median(ratios):.3f} ({ratios[0]:.2f}–{ratios[-1]:.2f})"]
                flag = verdict(ratio, ratios)
                if flag:
                    flags.append(f"{label}: {flag}")
            else:
                cells += ["–", "–"]
        if len(counts.get((kind, tree, name), ())) > 1:
            flags.append(f"counts differ: {sorted(counts[kind, tree, name])}")
        cells.append("; ".join(flags))
        lines.append("| " + " | ".join(cells) + " |")
    loads = {}
    for r in reports:
        loads.setdefault(r["round"], []).append(r["load"])
    load_lines = [
        f"| {n} | {min(v):.2f} | {statistics.median(v):.2f} | {max(v):.2f} | {len(v)} |"
        for n, v in sorted(loads.items())
    ]
    out = ["| round | load min | load median | load max | children |", "|---:|---:|---:|---:|---:|", *load_lines]
    stores = sorted({f"{r['label']} {r['tree']}: {r['store']}" for r in reports if r["kind"] == "restart"})
    text = "\n".join(lines) + "\n\nLoad average (1 min) at each child's start:\n\n" + "\n".join(out) + "\n"
    text += "\nThe restarts' store outcomes: " + "; ".join(stores) + "\n"
    if args.out:
        Path(args.out).write_text(text)
    print(text)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        kind, tree, root, *rest = sys.argv[2:]
        child = {"index": index_child, "restart": restart_child, "walk": walk_child}[kind]
        print(json.dumps(child(tree, root, *rest)))
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run", help="measure, appending each child's report to the raw file")
    run_parser.add_argument("--wheel", action="append", required=True, help="LABEL=PATH, the first is the base")
    run_parser.add_argument("--corpora", required=True, help="a directory holding small, medium and large")
    run_parser.add_argument("--work", required=True, help="unpacked wheels, index stores, the raw file")
    run_parser.add_argument("--raw", help="the raw JSON lines (default: WORK/raw.jsonl)")
    run_parser.add_argument("--rounds", type=int, default=5)
    run_parser.add_argument("--trees", nargs="+", default=list(GLOB_TREES))
    report_parser = commands.add_parser("report", help="the table of medians and ratios")
    report_parser.add_argument("--raw", nargs="+", required=True, help="raw files, their rounds in sequence")
    report_parser.add_argument("--out")
    args = parser.parse_args()
    run(args) if args.command == "run" else report(args)


if __name__ == "__main__":
    main()
