"""Writes the benchmark report from the raw rows: results/latest.md (smoke.md for a smoke run),
one table per suite and tree, the targets met or not, and one SVG chart per suite."""

import json
import os
import platform
import subprocess
import sys
from importlib import metadata
from math import log10
from pathlib import Path

from measure import BENCH, RAW, REPS, RG, SMOKE, WARMUP

RESULTS = BENCH / "results"
SUITES = {
    "grep-python": "Grep from Python",
    "grep-node": "Grep from Node",
    "transfer-node": "Grep from Node: a whole result crossing into JavaScript",
    "transfer-python": "Grep from Python: the same result read the same way (Node's counterpart)",
    "engine": "Engine: fsgrep (the core, -c/-l) vs the rg CLI",
    "glob-python": "Glob from Python",
    "glob-node": "Glob from Node",
    "memory": "Memory",
}
PEER_COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#b07aa1"]


def load_rows():
    rows = []
    for suite in SUITES:
        path = RAW / f"{suite}.json"
        if path.exists():
            rows += json.loads(path.read_text())
    return rows


def index(rows):
    return {(r["suite"], r["tree"], r["case"], r["impl"]): r for r in rows}


def speedup(row, by_key):
    """How many times faster the best of a peer's fsnative baselines is than the peer."""
    baselines = [by_key[(row["suite"], row["tree"], row["case"], b)] for b in row["baselines"]]
    return row["median"] / min(b["median"] for b in baselines) if baselines else None


def mismatch(row, by_key, limited):
    """A note when a peer did different work than its fsnative baseline (different counts)."""
    notes = []
    for name in row.get("same_work", row["baselines"]):
        base = by_key[(row["suite"], row["tree"], row["case"], name)]
        if base["matches"] != row["matches"] or (not limited and base["files"] != row["files"]):
            notes.append(f"**count mismatch** vs {name}: {base['matches']}/{base['files']}")
    return "; ".join(notes)


def fmt(value, unit):
    return f"{value:.2f} {unit}" if value < 100 else f"{value:.0f} {unit}"


def tables(rows, by_key, scenarios):
    out = []
    for suite, heading in SUITES.items():
        suite_rows = [r for r in rows if r["suite"] == suite]
        if not suite_rows:
            continue
        out.append(f"## {heading}\n\n![{heading}]({suite}.svg)\n" if suite != "memory" else f"## {heading}\n")
        for tree in dict.fromkeys(r["tree"] for r in suite_rows):
            out.append(f"### {tree} tree\n")
            out.append(
                "| case | implementation | median | spread (min–max) | matches / files | fsnative ÷ peer | note |"
            )
            out.append("|---|---|---:|---:|---:|---:|---|")
            for row in (r for r in suite_rows if r["tree"] == tree):
                unit = row["unit"]
                ratio = speedup(row, by_key)
                limited = scenarios.get(row["case"], {}).get("limit") is not None or row["case"] == "fs_mcp"
                ratio_text = (
                    f"{1 / ratio:.3f} ({ratio:.1f}× faster)"
                    if ratio and ratio >= 1
                    else (f"{1 / ratio:.2f} ({1 / ratio:.2f}× slower)" if ratio else "")
                )
                notes = "; ".join(n for n in (row["note"], mismatch(row, by_key, limited)) if n)
                samples = row["samples"]
                out.append(
                    f"| {row['title']} | {row['impl']} | {fmt(row['median'], unit)} | "
                    f"{fmt(min(samples), unit)} – {fmt(max(samples), unit)} | {row['matches']} / {row['files']} | "
                    f"{ratio_text} | {notes} |"
                )
            out.append("")
    return out


def target_checks(rows, by_key):
    """(target, evidence, met) for each target of the issue, from the rows of this run."""

    def speedups(suite, tree, impl, cases=None):
        return [
            (r["case"], speedup(r, by_key))
            for r in rows
            if r["suite"] == suite and r["tree"] == tree and r["impl"] == impl and (cases is None or r["case"] in cases)
        ]

    def same_output_speedups(impl):
        """A peer's ratio against the fsnative run that did the same work (its `same_work`)."""
        return [
            (
                r["case"],
                r["median"] / min(by_key[(r["suite"], r["tree"], r["case"], b)]["median"] for b in r["same_work"]),
            )
            for r in rows
            if r["suite"] == "grep-python" and r["tree"] == "medium" and r["impl"] == impl
        ]

    def at_least(label, pairs, factor):
        if not pairs:
            return None
        worst_case, worst = min(pairs, key=lambda p: p[1])
        evidence = ", ".join(f"{case} {value:.1f}×" for case, value in pairs)
        return label, f"worst {worst:.2f}× ({worst_case}); {evidence}", worst >= factor

    checks = [
        at_least(
            "small tree, any grep: ≥ 10× faster than subprocess rg (Python)",
            speedups("grep-python", "small", "rg --json subprocess"),
            10,
        ),
        at_least(
            "small tree, any grep: ≥ 10× faster than subprocess rg (Node)",
            speedups("grep-node", "small", "rg --json subprocess"),
            10,
        ),
        at_least(
            "medium tree, limit 100: ≥ 2× faster than subprocess rg (Python)",
            speedups("grep-python", "medium", "rg --json subprocess", {"common_limit"}),
            2,
        ),
        at_least(
            "medium tree, limit 100: ≥ 1.5× faster than subprocess rg (Node)",
            speedups("grep-node", "medium", "rg --json subprocess", {"common_limit"}),
            1.5,
        ),
        at_least(
            "medium tree: ≥ 10× faster than fs-mcp's grep_content on `def test_` (fsnative with limit 100)",
            speedups("grep-python", "medium", "fs-mcp grep_content"),
            10,
        ),
        at_least(
            "… and with fsnative producing fs-mcp's full output (same matches, context, section ends)",
            same_output_speedups("fs-mcp grep_content"),
            10,
        ),
        at_least("engine, medium tree: no slower than 1.1× the rg CLI", speedups("engine", "medium", "rg"), 1 / 1.1),
        at_least("engine, large tree: no slower than 1.1× the rg CLI", speedups("engine", "large", "rg"), 1 / 1.1),
    ]
    checks += transfer_checks(rows)
    for tree in ("small", "medium"):
        checks.append(
            at_least(
                f"{tree} tree, every grep: faster than python-ripgrep",
                speedups("grep-python", tree, "python-ripgrep"),
                1.0,
            )
        )
    js_peers = [
        speedup(r, by_key) for r in rows if r["suite"] == "glob-node" and r["tree"] == "large" and r["baselines"]
    ]
    if js_peers:
        checks.append(
            (
                "glob, large tree: ≥ 2× faster than the fastest JS peer",
                f"{min(js_peers):.2f}× the fastest",
                min(js_peers) >= 2,
            )
        )
    checks.append(
        at_least("glob, large tree: ≥ 5× faster than Path.rglob", speedups("glob-python", "large", "Path.rglob"), 5)
    )
    memory = [r for r in rows if r["suite"] == "memory" and r["tree"] == "large"]
    if memory:
        worst = max(max(r["samples"]) for r in memory)
        checks.append(
            (
                "memory: the match-everything grep with limit 100 adds < 64 MB",
                ", ".join(f"{r['impl']} max {max(r['samples']):.1f} MiB" for r in memory),
                worst < 64,
            )
        )
    return [c for c in checks if c]


def transfer_checks(rows):
    """The email package's result crossing into Node, in both arrangements of
    bench/node/transfer.mjs (each call right after rg; runs of 10 calls per tool): async ≥ 10×
    faster than spawning rg (plain and indexed sandbox), async within 0.2 ms of sync, and, with
    bench/transfer_python.py's rows, Node's sync call within 0.1 ms of Python's."""
    rg = "spawn rg -n -C2, split lines"
    checks = []
    for case, arrangement in (
        ("email_context", "each call right after rg"),
        ("email_context_runs", "runs of 10 calls per tool"),
    ):
        run = {r["impl"]: r for r in rows if r["suite"] == "transfer-node" and r["case"] == case}
        python = {r["impl"]: r for r in rows if r["suite"] == "transfer-python" and r["case"] == case}
        for kind in ("", "indexed "):
            names = (f"fsnative {kind}(async)", f"fsnative {kind}(sync)", rg)
            if not all(name in run for name in names):
                continue
            async_ms, sync_ms, rg_ms = (run[name]["median"] for name in names)
            matches = run[names[0]]["matches"]
            checks += [
                (
                    f"email package ({matches} matches, 2 lines of context), Node, {arrangement}: "
                    f"fsnative {kind}async ≥ 10× faster than spawning rg",
                    f"rg {rg_ms:.2f} ms ÷ async {async_ms:.2f} ms = {rg_ms / async_ms:.1f}× (sync: {rg_ms / sync_ms:.1f}×)",
                    rg_ms / async_ms >= 10,
                ),
                (
                    f"… and fsnative {kind}async within 0.2 ms of sync ({arrangement})",
                    f"async {async_ms:.3f} ms − sync {sync_ms:.3f} ms = {async_ms - sync_ms:+.3f} ms",
                    async_ms - sync_ms <= 0.2,
                ),
            ]
            if names[1] in python:
                python_ms = python[names[1]]["median"]
                checks.append(
                    (
                        f"… and Node's {kind}sync call within 0.1 ms of Python's, same search read the same way "
                        f"({arrangement})",
                        f"Node {sync_ms:.3f} ms − Python {python_ms:.3f} ms = {sync_ms - python_ms:+.3f} ms",
                        sync_ms - python_ms <= 0.1,
                    )
                )
    return checks


def chart(suite, rows, by_key, title=None):
    """Horizontal bars on a log scale: how many times faster fsnative is than each peer."""
    bars = [
        (f"{r['tree']} · {r['title']} · {r['impl']}", speedup(r, by_key), r["impl"])
        for r in rows
        if r["suite"] == suite and r["baselines"]
    ]
    if not bars:
        return None
    colours = {impl: PEER_COLOURS[i % len(PEER_COLOURS)] for i, impl in enumerate(dict.fromkeys(b[2] for b in bars))}
    label_width, plot_width, bar_height, top = 430, 420, 18, 54
    low, high = 0.1, max(100.0, max(b[1] for b in bars) * 1.2)

    def x(value):
        return label_width + plot_width * (log10(max(value, low)) - log10(low)) / (log10(high) - log10(low))

    height = top + len(bars) * (bar_height + 4) + 30
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{label_width + plot_width + 80}" height="{height}" '
        'font-family="sans-serif" font-size="11">',
        '<rect width="100%" height="100%" fill="white"/>',
        f'<text x="10" y="18" font-size="14" font-weight="bold">{escape(title or SUITES[suite])}</text>',
        '<text x="10" y="34">How many times faster fsnative is than each peer (median ÷ median, log scale); '
        "right of the black 1× line, fsnative wins.</text>",
    ]
    for tick in (0.1, 0.5, 1, 2, 5, 10, 20, 50, 100, 1000, 10000):
        if tick <= high:
            svg.append(
                f'<line x1="{x(tick):.1f}" y1="{top - 6}" x2="{x(tick):.1f}" y2="{height - 24}" '
                f'stroke="{"#000" if tick == 1 else "#ddd"}"/>'
            )
            svg.append(f'<text x="{x(tick):.1f}" y="{height - 10}" text-anchor="middle">{tick:g}×</text>')
    for i, (label, value, impl) in enumerate(bars):
        y = top + i * (bar_height + 4)
        start, end = sorted((x(1), x(value)))
        svg.append(f'<text x="{label_width - 6}" y="{y + 13}" text-anchor="end">{escape(label)}</text>')
        svg.append(
            f'<rect x="{start:.1f}" y="{y}" width="{max(end - start, 1):.1f}" height="{bar_height}" '
            f'fill="{colours[impl]}"/>'
        )
        svg.append(f'<text x="{end + 4:.1f}" y="{y + 13}">{value:.2f}×</text>')
    svg.append("</svg>")
    return "\n".join(svg) + "\n"


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("`", "")


def command_output(command):
    try:
        return subprocess.run(command, stdout=subprocess.PIPE, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unavailable"


def machine():
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    memory_gib = int(Path("/proc/meminfo").read_text().split()[1]) / 1024 / 1024
    return f"machine: {cpu}, {os.cpu_count()} CPUs, {memory_gib:.0f} GiB, Linux {platform.release()}"


def machine_and_versions():
    node_modules = BENCH / "node" / "node_modules"
    js_versions = ", ".join(
        f"{name} {json.loads((node_modules / name / 'package.json').read_text())['version']}"
        for name in ("fast-glob", "tinyglobby", "glob")
    )
    py_versions = ", ".join(
        f"{name} {metadata.version(name)}"
        for name in ("fsnative", "ripgrep", "fs-mcp", "python-ripgrep", "wcmatch", "fff-search")
    )
    return [
        f"- {machine()}",
        f"- Python {platform.python_version()}; {py_versions}",
        f"- Node {command_output(['node', '--version'])}; {js_versions}",
        f"- rg: {command_output([RG, '--version']).splitlines()[0]} ({RG})",
        f"- fsnative commit {command_output(['git', '-C', str(BENCH.parent), 'rev-parse', '--short', 'HEAD'])} "
        "(working tree as built)",
        f"- {WARMUP} warm-up rounds, then {REPS} measured rounds; in each round every implementation runs once, "
        "the starting one rotating. Medians; spread is min–max.",
    ]


# The warm index against fff (index_bench.py, issue #15 item 7): case -> (target, the largest
# fsnative ÷ fff ratio of medians that meets it). Memory and freshness are checked apart.
INDEX_TARGETS = {
    "no_match_random": ("≥ 5× faster", 0.2),
    "no_match_words": ("≥ 5× faster", 0.2),
    "rare_literal": ("≥ 5× faster", 0.2),
    "or3": ("at least as fast", 1.0),
    "common": ("at least as fast", 1.0),
    "glob": ("≥ 2× faster", 0.5),
    "build_ready": ("no slower than fff's scan", 1.0),
    "build_content": ("no slower than fff's content warm-up", 1.0),
}
# Issue #25's budget (#15's was 60 MiB).
INDEX_MEMORY_MIB = 50


def index_verdict(case, tree, fsnative, fff):
    """(target, PASS/MISS/…) for one scenario of the index suite."""
    if case in INDEX_TARGETS:
        target, most = INDEX_TARGETS[case]
        if not (fsnative and fff):
            return target, "not run"
        return target, "PASS" if fsnative["median"] <= most * fff["median"] else "MISS"
    if case == "memory":
        if tree != "large":
            return f"(≤ {INDEX_MEMORY_MIB} MiB on the large tree)", ""
        if not fsnative:
            return f"≤ {INDEX_MEMORY_MIB} MiB, 100k files", "not run"
        worst = max(fsnative["samples"])
        return (
            f"≤ {INDEX_MEMORY_MIB} MiB, 100k files, every run (worst: {worst:.1f})",
            "PASS" if worst <= INDEX_MEMORY_MIB else "MISS",
        )
    if case.startswith("fresh_"):
        if not fsnative:
            return "first grep sees it, every round", "not run"
        rounds = len(fsnative["samples"])
        return f"first grep sees it, every round ({fsnative['matches']}/{rounds})", "PASS" if fsnative[
            "matches"
        ] == rounds else "MISS"
    return "", ""


def write_index_report():
    """results/index.md (smoke/index.md) and index.svg from raw*/index.json."""
    raw = RAW / "index.json"
    if not raw.exists():
        return
    data = json.loads(raw.read_text())
    rows, by_key = data["rows"], index(data["rows"])
    fmt_or_dash = lambda row: fmt(row["median"], row["unit"]) if row else "–"
    versions = ", ".join(f"{name} {metadata.version(name)}" for name in ("fsnative", "fff-search"))
    lines = [
        "# The warm index: fsnative vs fff" + (" (smoke run: small tree, few rounds)" if SMOKE else ""),
        "",
        "Written by `bench/index_bench.py` (issue #15, item 7; see bench/README.md). Both tools in one Python "
        "process on the same tree, calls interleaved round by round; build and memory in a fresh process per "
        "tool and round. Medians; ratios are fsnative ÷ fff (below 1: fsnative faster or smaller).",
        "",
        f"- {machine()}",
        f"- Python {platform.python_version()}; {versions}; fsnative built from "
        + os.environ.get(
            "BENCH_FSNATIVE_SOURCE",
            f"commit {command_output(['git', '-C', str(BENCH.parent), 'rev-parse', '--short', 'HEAD'])}",
        ),
    ]
    lines.append(f"- {data['settings']}")
    if data.get("fsnative_pending"):
        lines.append(f"- **fsnative's side not run**: {data['fsnative_pending']}")
    for tree, statuses in data.get("status", {}).items():
        lines.append(
            f"- after the run, {tree}: "
            + "; ".join(
                f"{name} " + ", ".join(f"{k}={v}" for k, v in status.items()) for name, status in statuses.items()
            )
        )
    lines += [
        "",
        "| tree | scenario | fsnative | fff | fsnative ÷ fff | target | result |",
        "|---|---|---:|---:|---:|---|---|",
    ]
    for tree in dict.fromkeys(r["tree"] for r in rows):
        for case in dict.fromkeys(r["case"] for r in rows if r["tree"] == tree):
            fsn = by_key.get((SUITE_INDEX, tree, case, "fsnative"))
            fff = by_key.get((SUITE_INDEX, tree, case, "fff"))
            title = (fsn or fff)["title"]
            ratio = f"{fsn['median'] / fff['median']:.3f}" if fsn and fff and fff["median"] else "–"
            target, verdict = index_verdict(case, tree, fsn, fff)
            verdict = f"**{verdict}**" if verdict == "MISS" else verdict
            lines.append(
                f"| {tree} | {title} | {fmt_or_dash(fsn)} | {fmt_or_dash(fff)} | {ratio} | {target} | {verdict} |"
            )
    lines += [
        "",
        "![fsnative vs fff](index.svg)",
        "",
        "## Every measurement",
        "",
        "| tree | scenario | tool | median | spread (min–max) | matches / files | note |",
        "|---|---|---|---:|---:|---:|---|",
    ]
    for row in rows:
        unit, samples = row["unit"], row["samples"]
        lines.append(
            f"| {row['tree']} | {row['title']} | {row['impl']} | {fmt(row['median'], unit)} | "
            f"{fmt(min(samples), unit)} – {fmt(max(samples), unit)} | {row['matches']} / {row['files']} | "
            f"{row['note']} |"
        )
    output_dir = RESULTS / "smoke" if SMOKE else RESULTS
    output_dir.mkdir(parents=True, exist_ok=True)
    (output_dir / "index.md").write_text("\n".join(lines) + "\n")
    timed = [r for r in rows if r["case"] in INDEX_TARGETS or r["case"].startswith("build_")]
    svg = chart(SUITE_INDEX, timed, by_key, title="Warm index: fsnative vs fff (Python)")
    if svg:
        (output_dir / "index.svg").write_text(svg)
    print(f"wrote {output_dir / 'index.md'}", file=sys.stderr)


SUITE_INDEX = "index"


def main():
    scenarios = json.loads((BENCH / "scenarios.json").read_text())
    rows = load_rows()
    by_key = index(rows)
    checks = target_checks(rows, by_key)
    lines = [
        "# fsnative benchmarks" + (" (smoke run: small tree, 2 rounds)" if SMOKE else ""),
        "",
        "Written by `make bench` (`bench/run.sh`); see bench/README.md for what each scenario does. "
        "Ratios come from one run, peers interleaved; absolute times drift on shared machines.",
        "",
        *machine_and_versions(),
        "",
        "## Targets",
        "",
        "| target | evidence (peer median ÷ fsnative median) | met |",
        "|---|---|---|",
        *(f"| {label} | {evidence} | {'met' if met else '**not met**'} |" for label, evidence, met in checks),
        "",
        *tables(rows, by_key, scenarios),
    ]
    output_dir = RESULTS / "smoke" if SMOKE else RESULTS
    output_dir.mkdir(parents=True, exist_ok=True)
    report = output_dir / ("smoke.md" if SMOKE else "latest.md")
    report.write_text("\n".join(lines))
    for suite in SUITES:
        svg = chart(suite, rows, by_key)
        if svg:
            (output_dir / f"{suite}.svg").write_text(svg)
    print(f"wrote {report}", file=sys.stderr)
    write_index_report()


if __name__ == "__main__":
    main()
