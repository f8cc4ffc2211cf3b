"""Fuzzy find side by side (issue #16, item 6): fsnative's `Sandbox(roots, index=True).find(query)`
vs fff's `FileFinder(root).search(query)`, both in this Python process, on the same trees.

Trees: the stdlib copy (medium) and the 100k tree (large) as index_bench.py mirrors them outside
git, and a tree of 1,000,000 empty files built here from the names of those two (`1m`: ten
vendored copies of the stdlib and the large tree's 716 packages renumbered ten times over, cut
at exactly 1,000,000 files; built once, under the same directory, and reused while its stamp
matches). fsnative's index there is given `max_files` 2,000,000 (its default stops at 1,000,000
entries, directories included).

Each tool's index is built and ready (fsnative `wait_for_index`, fff `wait_for_scan_blocking`
and its content warm-up), one tool after the other, then:
- speed: every query of SPEED_QUERIES, top 20, once per tool per round, the first tool rotating;
  p50 and p90 of CALL_REPS rounds after CALL_WARMUP.
- ranking: every query of find_queries.json for the tree, top 20: where the intended file
  comes (top 1, top 3, top 20) for each tool.
- frecency: fsnative with a frecency database attached (accesses recorded for 1 % of the files,
  at most 2,000, and for the top 5 of each speed query) vs without, the same queries
  interleaved; what the lookup adds to a find. Runs when the installed fsnative has the
  frecency API (`Sandbox(..., frecency={"path", "profile"})`, `record_access`).

    python find_bench.py                         medium, large and 1m (smoke: small), then the report
    python find_bench.py --tools fff --trees 1m  one part; the other trees' figures are kept
    python find_bench.py --report                rewrite results/find.md from results/raw*/find.json

Without `Sandbox.find` in the installed wheel, a full run measures fff alone and the report
says so; a smoke run fails, so CI notices.
"""

import argparse
import json
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path

import report
from corpora import STAMP_NAME
from index_bench import INDEX_TREES, READY_TIMEOUT_S, SKIP_DIRS, Fff, Fsnative, fsnative_api, index_tree
from measure import BENCH, RAW, SMOKE, corpus, interleaved, record

SUITE = "find"
LIMIT = 20
CALL_WARMUP = 1 if SMOKE else 5
CALL_REPS = 3 if SMOKE else 31
RANK_REPEATS = 1 if SMOKE else 5
QUERIES = json.loads((BENCH / "find_queries.json").read_text())["queries"]
MILLION = 1_000_000
MILLION_TREE = "1m"
MILLION_COPIES = 10
MILLION_GENERATOR = "1"  # bump when the 1m tree's layout changes
MILLION_MAX_FILES = 2_000_000
FRECENCY_SHARE, FRECENCY_MAX_FILES, FRECENCY_TOP = 0.01, 2_000, 5
FRECENCY_MOST = 1.10  # the target: a find with frecency takes at most 10 % more
FRECENCY_CASE, FRECENCY_TITLE = "frecency-", "frecency attached vs not: "

# (kind, query) per tree: a typo, a partial name, a path fragment, several terms, a case mix, a
# typo inside a path, and a short query most paths match.
SPEED_QUERIES = {
    "small": [("typo in a path", "handlres/grep"), ("several terms", "web api")],
    "medium": [
        ("typo", "subprocses"),
        ("partial name", "headerreg"),
        ("path fragment", "email/parser"),
        ("several terms", "json dec"),
        ("case mix", "HeaderValueParser"),
        ("typo in a path", "multiprocesing/managers"),
        ("short, many matches", "test"),
    ],
    "large": [
        ("typo", "hanlder_21"),
        ("partial name", "pkg0451 hand"),
        ("path fragment", "pkg0214/api/v1/list_9"),
        ("several terms", "pkg0020 api v1 table_1.rs"),
        ("case mix", "pkg0223 api/v1/Search19"),
        ("typo in a path", "pgk0451/src/handler_21"),
        ("short, many matches", "test"),
    ],
    MILLION_TREE: [
        ("typo", "hanlder_21"),
        ("partial name", "pkg5339 tab"),
        ("path fragment", "cpython3/Lib/email/parser"),
        ("several terms", "pkg4020 api v1 table_1.rs"),
        ("case mix", "HeaderValueParser"),
        ("typo in a path", "pgk6451/src/handler_21"),
        ("short, many matches", "test"),
    ],
}
# tree -> (target, is it met by (fsnative row, fff row)) for the speed rows.
SPEED_TARGETS = {
    "large": ("p50 ≤ fff's (100k paths)", lambda fsn, fff: fff is not None and fsn["median"] <= fff["median"]),
    MILLION_TREE: ("p50 ≤ 20 ms (1M paths, issue #25)", lambda fsn, fff: fsn["median"] <= 20),
}


def visible_files(root):
    """The files both tools list below `root`, sorted, relative: no hidden files or directories,
    none of the large tree's ignored directories or `*.log` files."""
    found = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS]
        base = Path(directory).relative_to(root)
        found += [(base / name).as_posix() for name in files if not name.startswith(".") and not name.endswith(".log")]
    return sorted(found)


def million_paths():
    """The 1m tree's 1,000,000 relative paths: MILLION_COPIES vendored copies of the stdlib
    (`vendor/cpython<k>/Lib/...`), then the large tree's packages renumbered copy by copy
    (`packages/pkg0000`, `pkg0001`, …), cut at MILLION."""
    medium, large = visible_files(corpus("medium")), visible_files(corpus("large"))
    packages = sorted({path.split("/")[1] for path in large})
    number = {name: index for index, name in enumerate(packages)}
    paths = [f"vendor/cpython{copy}/Lib/{path}" for copy in range(MILLION_COPIES) for path in medium]
    for copy in range(MILLION_COPIES):
        for path in large:
            _, package, rest = path.split("/", 2)
            paths.append(f"packages/pkg{copy * len(packages) + number[package]:04d}/{rest}")
    if len(paths) < MILLION:
        raise SystemExit(f"find_bench: only {len(paths)} paths for the 1m tree")
    return paths[:MILLION]


def million_tree():
    """The 1m tree of empty files, built once (a stamp written last names its sources)."""
    root = INDEX_TREES / MILLION_TREE
    sources = " + ".join((corpus(tree) / STAMP_NAME).read_text().strip() for tree in ("medium", "large"))
    stamp = f"{MILLION_TREE} v{MILLION_GENERATOR} from {sources}: {MILLION} empty files\n"
    if (root / STAMP_NAME).exists() and (root / STAMP_NAME).read_text() == stamp:
        return root
    shutil.rmtree(root, ignore_errors=True)
    print(f"find_bench: building {MILLION:,} empty files in {root}", file=sys.stderr, flush=True)
    start = time.perf_counter()
    made = set()
    for path in million_paths():
        parent = os.path.dirname(path)
        if parent not in made:
            os.makedirs(root / parent, exist_ok=True)
            made.add(parent)
        os.close(os.open(root / path, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o644))
    (root / STAMP_NAME).write_text(stamp)
    print(f"find_bench: built in {time.perf_counter() - start:.0f} s ({len(made):,} directories)", file=sys.stderr)
    return root


def tree_root(tree):
    return million_tree() if tree == MILLION_TREE else index_tree(tree)


def fsnative_index(tree):
    return {"max_files": MILLION_MAX_FILES} if tree == MILLION_TREE else True


def open_ready(make, name, tree):
    """A tool built and waited for; (tool, milliseconds from its constructor to ready)."""
    start = time.perf_counter()
    tool = make()
    if not (tool.wait_list() and tool.wait_content()):
        tool.close()
        raise SystemExit(f"{name} on {tree}: not ready within {READY_TIMEOUT_S:.0f} s")
    return tool, (time.perf_counter() - start) * 1000


def percentile(samples, share):
    """The nearest-rank percentile."""
    ordered = sorted(samples)
    return ordered[max(math.ceil(share * len(ordered)) - 1, 0)]


def timed_finds(tools, query):
    """The query through every tool, interleaved; runs with p90 added."""
    impls = {
        name: (lambda tool=tool: tuple(len(x) if isinstance(x, list) else x for x in tool.find(query, LIMIT)))
        for name, tool in tools.items()
    }
    runs = interleaved(impls, warmup=CALL_WARMUP, reps=CALL_REPS)
    for run in runs.values():
        run["p90"] = percentile(run["samples"], 0.9)
    return runs


def speed_rows(tools, tree, baseline="fsnative", case_prefix="", title_prefix=""):
    """One row per tool and speed query, and one over all the queries' samples pooled."""
    rows, pooled = [], {name: {"samples": [], "matches": 0, "files": 0} for name in tools}

    def baselines(name):
        return [baseline] if name != baseline and baseline in tools else []

    for number, (kind, query) in enumerate(SPEED_QUERIES[tree]):
        runs = timed_finds(tools, query)
        rows += record(
            SUITE,
            tree,
            f"{case_prefix}q{number}",
            f"{title_prefix}find `{query}` ({kind}), top {LIMIT}",
            runs,
            baselines,
            {name: f"p90 {run['p90']:.2f} ms; {run['files']} matched" for name, run in runs.items()},
        )
        for name, run in runs.items():
            pooled[name]["samples"] += run["samples"]
            pooled[name]["matches"] += run["matches"]
            pooled[name]["files"] += run["files"]
    for run in pooled.values():
        run["p90"] = percentile(run["samples"], 0.9)
    title = f"{title_prefix}all {len(SPEED_QUERIES[tree])} queries pooled, top {LIMIT}"
    rows += record(
        SUITE,
        tree,
        f"{case_prefix}all",
        title,
        pooled,
        baselines,
        {name: f"p90 {run['p90']:.2f} ms" for name, run in pooled.items()},
    )
    return rows


def ranking(tools, tree):
    """Where each tool puts the intended file of every labelled query of the tree, RANK_REPEATS
    times (fff orders equal scores differently from call to call); the first call's first path."""
    results = []
    for entry in (q for q in QUERIES if q["tree"] == tree):
        ranks, firsts = {name: [] for name in tools}, {}
        for _ in range(RANK_REPEATS):
            for name, tool in tools.items():
                paths, _ = tool.find(entry["query"], LIMIT)
                ranks[name].append(paths.index(entry["expect"]) + 1 if entry["expect"] in paths else None)
                firsts.setdefault(name, paths[0] if paths else None)
        results.append({**entry, "ranks": ranks, "firsts": firsts})
    return results


def frecency_rows(plain, tree, root):
    """fsnative with a frecency database vs `plain` (without), the speed queries interleaved."""
    db = tempfile.mkdtemp(prefix="fsnative-frecency-")
    try:
        try:
            with_db, _ = open_ready(
                lambda: Fsnative(
                    root, index=fsnative_index(tree), frecency={"path": os.path.join(db, "frecency"), "profile": "ai"}
                ),
                "fsnative + frecency",
                tree,
            )
        except (TypeError, ValueError) as error:
            return [], f"fsnative would not attach a frecency database: {error}"
        try:
            files = visible_files(root)
            rng = random.Random(16)
            accessed = rng.sample(files, min(int(len(files) * FRECENCY_SHARE) or 1, FRECENCY_MAX_FILES))
            for _, query in SPEED_QUERIES[tree]:
                accessed += plain.find(query, FRECENCY_TOP)[0]
            for path in accessed:
                for _ in range(rng.randint(1, 5)):
                    with_db.sandbox.record_access(str(with_db.root / path))
            rows = speed_rows(
                {"fsnative": plain, "fsnative + frecency": with_db},
                tree,
                case_prefix=FRECENCY_CASE,
                title_prefix=FRECENCY_TITLE,
            )
            note = f"{len(accessed)} files with recorded accesses (profile ai)"
            return [
                {**row, "note": f"{row['note']}; {note}" if row["impl"] != "fsnative" else row["note"]} for row in rows
            ], None
        finally:
            with_db.close()
    finally:
        shutil.rmtree(db, ignore_errors=True)


def run_tree(tree, tool_names):
    """Everything for one tree: its part of the raw data."""
    root = tree_root(tree)
    part = {
        "rows": [],
        "ranking": [],
        "status": {},
        "ready_ms": {},
        "frecency_pending": None,
        "load": [round(os.getloadavg()[0], 1)],
    }
    tools = {}
    try:
        for name in tool_names:
            make = (lambda: Fsnative(root, index=fsnative_index(tree))) if name == "fsnative" else (lambda: Fff(root))
            tools[name], part["ready_ms"][name] = open_ready(make, name, tree)
        part["rows"] = speed_rows(tools, tree)
        part["ranking"] = ranking(tools, tree)
        if "fsnative" in tools:
            part["frecency_pending"] = fsnative_api(["record_access"])
            if not part["frecency_pending"]:
                rows, part["frecency_pending"] = frecency_rows(tools["fsnative"], tree, root)
                part["rows"] += rows
        part["status"] = {name: tool.status() for name, tool in tools.items()}
        part["load"].append(round(os.getloadavg()[0], 1))
    finally:
        for tool in tools.values():
            tool.close()
    return part


def installed_version(name):
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def raw_path():
    return RAW / f"{SUITE}.json"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tools", nargs="+", choices=["fsnative", "fff"], default=["fsnative", "fff"])
    parser.add_argument(
        "--trees",
        nargs="+",
        choices=list(SPEED_QUERIES),
        default=["small"] if SMOKE else ["medium", "large", MILLION_TREE],
    )
    parser.add_argument("--report", action="store_true", help="only rewrite the report from the raw data")
    args = parser.parse_args()
    if args.report:
        write_report()
        return
    pending = fsnative_api(["find", "wait_for_index"]) if "fsnative" in args.tools else "not asked for (--tools)"
    if pending and SMOKE and "fsnative" in args.tools:
        raise SystemExit(f"find_bench: {pending}")
    if pending:
        print(f"find_bench: fsnative's side skipped: {pending}", file=sys.stderr)
        args.tools = [name for name in args.tools if name != "fsnative"]
    data = json.loads(raw_path().read_text()) if raw_path().exists() else {"trees": {}}
    commit = report.command_output(["git", "-C", str(BENCH.parent), "rev-parse", "--short", "HEAD"])
    source = os.environ.get("BENCH_FSNATIVE_SOURCE", f"commit {commit}")
    for tree in args.trees:
        part = run_tree(tree, args.tools)
        part.update(
            fsnative_pending=pending,
            fsnative_source=None if pending else source,
            versions={name: installed_version(name) for name in ("fsnative", "fff-search")},
            when=datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        )
        data["trees"][tree] = part
        RAW.mkdir(parents=True, exist_ok=True)
        raw_path().write_text(json.dumps(data, indent=1))
    write_report()


def fmt_ms(value):
    return report.fmt(value, "ms") if value is not None else "–"


def hit_rates(entries, name):
    """(top-1, top-3, top-20) counts of a tool over labelled results, each query's hits
    averaged over its repeats."""
    return tuple(
        sum(statistics.mean(r is not None and r <= k for r in e["ranks"][name]) for e in entries) for k in (1, 3, LIMIT)
    )


def verdict(met):
    return "PASS" if met else "**MISS**"


def speed_table(trees):
    lines = [
        "| tree | query | fsnative p50 | fsnative p90 | fff p50 | fff p90 | fsnative ÷ fff (p50) | target | result |",
        "|---|---|---:|---:|---:|---:|---:|---|---|",
    ]
    for tree, part in trees.items():
        by_case = {}
        for row in part["rows"]:
            if not row["case"].startswith(FRECENCY_CASE):
                by_case.setdefault(row["case"], {})[row["impl"]] = row
        for impls in by_case.values():
            fsn, fff = impls.get("fsnative"), impls.get("fff")
            title = (fsn or fff)["title"]
            ratio = f"{fsn['median'] / fff['median']:.3f}" if fsn and fff else "–"
            target, met = SPEED_TARGETS.get(tree, ("", None))
            result = ("pending: fsnative not run" if not fsn else verdict(met(fsn, fff))) if target else ""
            times = " | ".join(fmt_ms(row and row[key]) for row in (fsn, fff) for key in ("median", "p90"))
            lines.append(f"| {tree} | {title} | {times} | {ratio} | {target} | {result} |")
    return lines


def ranking_tables(trees):
    labelled = {tree: part["ranking"] for tree, part in trees.items() if part["ranking"]}
    if not labelled:
        return []
    names = ["fsnative", "fff"]
    ran = {name: any(name in e["ranks"] for entries in labelled.values() for e in entries) for name in names}

    def cells(entries):
        out = []
        for name in names:
            if not ran[name]:
                out += ["pending", "pending", "pending"]
                continue
            top1, top3, top20 = hit_rates(entries, name)
            out += [f"{hits:.3g}/{len(entries)} ({100 * hits / len(entries):.0f} %)" for hits in (top1, top3, top20)]
        return out

    def result(entries):
        if not all(ran.values()):
            return "pending: fsnative not run"
        return verdict(hit_rates(entries, "fsnative")[1] >= hit_rates(entries, "fff")[1])

    columns = " | ".join(f"{name} top {k}" for name in names for k in (1, 3, LIMIT))
    lines = [
        f"Each query runs {RANK_REPEATS} time{'s' * (RANK_REPEATS != 1)} per tool and its hits are averaged "
        "(fff orders paths of equal score differently from call to call), so a count can be fractional.",
        "",
    ]
    lines += [f"| tree | queries | {columns} | target | result |", "|---|---:|---:|---:|---:|---:|---:|---:|---|---|"]
    everything = [e for entries in labelled.values() for e in entries]
    groups = list(labelled.items()) + ([("all", everything)] if len(labelled) > 1 else [])
    for tree, entries in groups:
        lines.append(
            f"| {tree} | {len(entries)} | "
            + " | ".join(cells(entries))
            + f" | top 3 at least as often as fff | {result(entries)} |"
        )
    lines += [
        "",
        "By kind (every tree above):",
        "",
        f"| kind | queries | {columns} |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for kind in sorted({e["kind"] for e in everything}):
        entries = [e for e in everything if e["kind"] == kind]
        lines.append(f"| {kind} | {len(entries)} | " + " | ".join(cells(entries)) + " |")
    calls = f"{RANK_REPEATS} call{'s' * (RANK_REPEATS != 1)}"
    lines += [
        "",
        f"Every labelled query: the rank of the intended file in the top {LIMIT} (the lowest–highest "
        f"over {calls} when they differ), and the first path of the first call when the intended file is "
        "not always first:",
        "",
        "| tree | kind | query | intended file | fsnative | fff |",
        "|---|---|---|---|---|---|",
    ]

    def place(entry, name):
        if name not in entry["ranks"]:
            return "pending"
        ranks = sorted({rank or LIMIT + 1 for rank in entry["ranks"][name]})
        low, high = (str(rank) if rank <= LIMIT else "absent" for rank in (ranks[0], ranks[-1]))
        first = f" (first: `{entry['firsts'][name]}`)" if ranks != [1] and entry["firsts"][name] else ""
        return f"{low if low == high else f'{low}–{high}'}{first}"

    for tree, entries in labelled.items():
        for entry in entries:
            lines.append(
                f"| {tree} | {entry['kind']} | `{entry['query']}` | `{entry['expect']}` | "
                f"{place(entry, 'fsnative')} | {place(entry, 'fff')} |"
            )
    return lines


def frecency_table(trees):
    lines = []
    for tree, part in trees.items():
        by_case = {}
        for row in part["rows"]:
            if row["case"].startswith(FRECENCY_CASE):
                by_case.setdefault(row["case"], {})[row["impl"]] = row
        for impls in by_case.values():
            plain, with_db = impls["fsnative"], impls["fsnative + frecency"]
            ratio = with_db["median"] / plain["median"]
            lines.append(
                f"| {tree} | {plain['title'].removeprefix(FRECENCY_TITLE)} | {fmt_ms(plain['median'])} | "
                f"{fmt_ms(with_db['median'])} | {ratio:.3f} | ≤ {FRECENCY_MOST:.2f} | "
                f"{verdict(ratio <= FRECENCY_MOST)} |"
            )
        why = "fsnative's find not measured" if part.get("fsnative_pending") else part.get("frecency_pending")
        if why:
            lines.append(f"| {tree} | not run: {why} | | | | ≤ {FRECENCY_MOST:.2f} | pending |")
    return (
        [
            "| tree | query | fsnative | fsnative + frecency | with ÷ without (p50) | target | result |",
            "|---|---|---:|---:|---:|---|---|",
        ]
        + lines
        if lines
        else []
    )


def write_report():
    """results/find.md (smoke/find.md) and find.svg from raw*/find.json."""
    if not raw_path().exists():
        return
    trees = json.loads(raw_path().read_text())["trees"]
    order = ["small", "medium", "large", MILLION_TREE]
    trees = {tree: trees[tree] for tree in sorted(trees, key=order.index)}
    lines = [
        "# Fuzzy find: fsnative vs fff" + (" (smoke run: small tree, few rounds)" if SMOKE else ""),
        "",
        "Written by `bench/find_bench.py` (issue #16, item 6; see bench/README.md). Both tools in one Python "
        "process on the same tree, each index built and ready first; calls interleaved round by round, the "
        f"first tool rotating; top {LIMIT}. Times are p50 (median) and p90 of {CALL_REPS} rounds after "
        f"{CALL_WARMUP} warm-up rounds; ratios are fsnative ÷ fff (below 1: fsnative faster). fff is "
        "`FileFinder(root, watch=True, ...)` with empty frecency and history databases of its own, queried "
        f"with `search(query, page_size={LIMIT})`.",
        "",
        f"- {report.machine()}",
        f"- Python {sys.version.split()[0]}",
    ]
    for tree, part in trees.items():
        shown = ("files", "dirs", "state", "watching", "memory_bytes")
        status = "; ".join(
            f"{name} " + ", ".join(f"{k}={v}" for k, v in fields.items() if k in shown)
            for name, fields in part["status"].items()
        )
        ready = ", ".join(f"{name} {ms / 1000:.1f} s" for name, ms in part["ready_ms"].items())
        fsn = (
            f"fsnative {part['versions']['fsnative']} built from {part['fsnative_source']}"
            if part["fsnative_source"]
            else f"**fsnative's side not run**: {part['fsnative_pending']}"
        )
        lines.append(
            f"- {tree} (run {part['when']}): {fsn}; fff-search {part['versions']['fff-search']}; "
            f"constructor to ready: {ready}; {status}; load average (1 min) before and after: "
            f"{' and '.join(map(str, part['load']))}"
        )
    if MILLION_TREE in trees:
        lines.append(
            f"- the {MILLION_TREE} tree: {MILLION:,} empty files, {MILLION_COPIES} copies of the stdlib under "
            "`vendor/cpython<k>/Lib/` and of the large tree's packages renumbered copy by copy "
            f"(`packages/pkg0000`, `pkg0001`, …), cut at {MILLION:,} files; fsnative's index with "
            f"`max_files={MILLION_MAX_FILES:,}` "
            "(its default, 1,000,000 entries, counts directories too)"
        )
    rows = [row for part in trees.values() for row in part["rows"] if not row["case"].startswith(FRECENCY_CASE)]
    svg = report.chart(SUITE, rows, report.index(rows), title="Fuzzy find: fsnative vs fff (Python), top 20")
    lines += ["", "## Speed", "", *speed_table(trees), ""] + (["![fsnative vs fff](find.svg)", ""] if svg else [])
    ranking_lines = ranking_tables(trees)
    if ranking_lines:
        lines += [
            "## Ranking: the labelled set (`bench/find_queries.json`)",
            "",
            json.loads((BENCH / "find_queries.json").read_text())["about"],
            "",
            *ranking_lines,
            "",
        ]
    frecency_lines = frecency_table(trees)
    if frecency_lines:
        lines += [
            "## Frecency: what a find with a frecency database attached costs",
            "",
            "fsnative alone (fff's Python API records no accesses): the same tree indexed twice, one sandbox "
            "with a frecency database (profile `ai`) holding accesses to "
            f"{FRECENCY_SHARE * 100:g} % of the files (at most {FRECENCY_MAX_FILES:,}) and to the top "
            f"{FRECENCY_TOP} of each query, one without; the queries interleaved.",
            "",
            *frecency_lines,
            "",
        ]
    lines += [
        "## Every measurement",
        "",
        "| tree | query | tool | p50 | p90 | spread (min–max) | returned / matched |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for tree, part in trees.items():
        for row in part["rows"]:
            samples = row["samples"]
            lines.append(
                f"| {tree} | {row['title']} | {row['impl']} | {fmt_ms(row['median'])} | "
                f"{fmt_ms(row['p90'])} | {fmt_ms(min(samples))} – {fmt_ms(max(samples))} | "
                f"{row['matches']} / {row['files']} |"
            )
    output_dir = report.RESULTS / "smoke" if SMOKE else report.RESULTS
    output_dir.mkdir(parents=True, exist_ok=True)
    (output_dir / "find.md").write_text("\n".join(lines) + "\n")
    if svg:
        (output_dir / "find.svg").write_text(svg)
    print(f"wrote {output_dir / 'find.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
