"""The queries agents send, on the repositories they work in (issue #36, item 3): fsnative's warm
index (`Sandbox(roots, index=True)`) vs fff (`fff-search`, `import fff`) in one Python process.

Trees: `agent` (about 20,000 real files: the projects of agent-requirements.txt, installed by
corpora.py as a venv's site-packages), `medium` (the standard library) and `large` (100,000
generated files); smoke: `small`. Each runs on index_bench.py's copy of the corpus outside git.

Queries: the classes of agent_queries.py, INSTANCES of each drawn from the tree's own words with a
fixed seed. Before anything is timed, every query runs once on each tool without a limit (the
common words: with theirs) and the answers are compared: the no-match classes must match nothing
(a candidate that matches is drawn again), the others something, and the two tools the same
lines; a difference is shown in the report, not hidden.

Timing: both indexes ready (fsnative `wait_for_index`; fff `wait_for_scan_blocking` and its
content warm-up), then per query CALL_WARMUP unrecorded and CALL_REPS recorded rounds, each tool
once per round, the first one rotating. Per class the report pools the instances' samples: median
and p95 for each tool, fsnative's speed-up (fff ÷ fsnative, of the medians), and the issue's
target: ≥ 3× fff (no-match classes, and instances matching in at most RARE_FILES files, ≥ 5×),
and no instance slower than fff.

    python agent_bench.py                    agent, medium and large (smoke: small), then the report
    python agent_bench.py --trees agent      one tree (the report keeps the other trees' figures)
    python agent_bench.py --reps 45          more measured rounds per query, for less noise
    python agent_bench.py --report           rewrite results/agent.md from results/agent.json
"""

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from importlib import metadata

import agent_queries
import corpora
from index_bench import TOOLS, fsnative_api, index_tree
from measure import BENCH, SMOKE, interleaved

SUITE = "agent"
INSTANCES = 2 if SMOKE else 5
CALL_WARMUP = 1 if SMOKE else 3
CALL_REPS = 3 if SMOKE else 15
CHECK_CAP = 20_000  # matches beyond which the no-limit comparison stops counting
RARE_FILES = 3
READY_TIMEOUT_S = 300.0


def run_query(tool, query, limit="query"):
    """(matches, files) of one query on one tool; `limit` None runs it without a limit."""
    limit = query["limit"] if limit == "query" else limit
    if query["kind"] == "glob":
        return tool.glob(query["patterns"][0], limit or CHECK_CAP)
    return tool.grep_patterns(query["patterns"], limit, regex=query["regex"], ignore_case=query["ignore_case"])


def check_limit(query):
    """The limit of the untimed comparison: none, except for the common words (whose answers
    run to millions of lines on the large tree) and a cap for anything that large."""
    return query["limit"] if query["cls"] == "common" else CHECK_CAP


def check(tools, query):
    """Each tool's untimed answer -> (answers by tool, a note when they disagree or break the
    query's expectation, or "")."""
    answers = {tool.name: run_query(tool, query, check_limit(query)) for tool in tools}
    problems = []
    if query["expect"] == "none":
        problems += [f"{name} matched {m} lines" for name, (m, _) in answers.items() if m]
    else:
        problems += [f"{name} matched nothing" for name, (m, _) in answers.items() if not m]
    if len(answers) == 2:
        # grep: the lines (up to the limit: fff's page limit lets a file finish); glob: the total.
        if query["kind"] == "grep":
            counts = {name: min(m, check_limit(query)) for name, (m, _) in answers.items()}
        else:
            counts = {name: total for name, (_, total) in answers.items()}
        if len(set(counts.values())) > 1:
            problems.append("different answers: " + ", ".join(f"{n} {m} / {f}" for n, (m, f) in answers.items()))
    return answers, "; ".join(problems)


def ready_tools(names, tree, root):
    tools = [TOOLS[name](root) for name in names]
    for tool in tools:
        if not (tool.wait_list() and tool.wait_content()):
            raise SystemExit(f"{tool.name} on {tree}: not ready within {READY_TIMEOUT_S:.0f} s")
    return tools


def measure_tree(names, tree, reps):
    """Draws, checks and times every query on one tree (`reps` measured rounds): its raw record."""
    corpora.ensure(tree)
    root = index_tree(tree)
    load_before = os.getloadavg()[0]
    tools = ready_tools(names, tree, root)
    try:
        queries = agent_queries.draw(tree, root, INSTANCES, lambda q: any(run_query(t, q, CHECK_CAP)[0] for t in tools))
        results = []
        for cls, instances in queries.items():
            for query in instances:
                answers, problem = check(tools, query)
                impls = {tool.name: (lambda t=tool, q=query: run_query(t, q)) for tool in tools}
                runs = interleaved(impls, warmup=CALL_WARMUP, reps=reps)
                results.append({**query, "answers": answers, "problem": problem, "runs": runs})
                print(
                    f"{SUITE:6} {tree:6} {cls:16} "
                    + "  ".join(f"{n} {statistics.median(r['samples']):8.3f} ms" for n, r in runs.items())
                    + f"  {query['text']}"
                    + (f"  ** {problem}" if problem else ""),
                    file=sys.stderr,
                    flush=True,
                )
        status = {tool.name: tool.status() for tool in tools}
    finally:
        for tool in tools:
            tool.close()
    return {
        "root": str(root),
        "files": len(agent_queries.searchable_files(root)),
        "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "versions": ", ".join(f"{n} {installed_version(n)}" for n in ("fsnative", "fff-search")),
        "fsnative_source": fsnative_source(),
        "load": [load_before, os.getloadavg()[0]],
        "rounds": f"{CALL_WARMUP} warm-up and {reps} measured",
        "status": status,
        "queries": results,
    }


def fsnative_source():
    """Where the measured wheel came from: $BENCH_FSNATIVE_SOURCE, or this checkout's commit."""
    if "BENCH_FSNATIVE_SOURCE" in os.environ:
        return os.environ["BENCH_FSNATIVE_SOURCE"]
    head = subprocess.run(
        ["git", "-C", str(BENCH.parent), "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE, text=True
    ).stdout.strip()
    return f"commit {head or 'unknown'}"


def p95(samples):
    return statistics.quantiles(samples, n=20, method="inclusive")[18] if len(samples) > 1 else samples[0]


def instance_target(result):
    """The speed-up one instance must reach, and whether it counts as rare."""
    files = min((f for _, f in result["answers"].values()), default=0)
    unlimited = result["kind"] == "grep" and result["cls"] != "common"
    rare = result["expect"] == "match" and unlimited and files <= RARE_FILES
    return (5 if rare else agent_queries.CLASSES[result["cls"]][1]), rare


def speedup(result):
    runs = result["runs"]
    if not {"fsnative", "fff"} <= runs.keys():
        return None
    return statistics.median(runs["fff"]["samples"]) / statistics.median(runs["fsnative"]["samples"])


def class_summary(results):
    """Pooled medians and p95 per tool; the class's speed-up, the geometric mean of its instances'
    (a ratio of pooled medians would jump from one instance to another between runs); the worst
    instance's; the verdict."""
    tools = list(results[0]["runs"])
    pooled = {name: [s for r in results for s in r["runs"][name]["samples"]] for name in tools}
    summary = {name: (statistics.median(s), p95(s)) for name, s in pooled.items()}
    target = agent_queries.CLASSES[results[0]["cls"]][1]
    ratios = [speedup(r) for r in results]
    if None in ratios:
        return summary, None, None, f"≥ {target}×", "not run"
    ratio = statistics.geometric_mean(ratios)
    misses = [r for r, x in zip(results, ratios) if x < 1 or x < instance_target(r)[0] and instance_target(r)[1]]
    verdict = "PASS" if ratio >= target and not misses else "**MISS**"
    if any(r["problem"] for r in results):
        verdict += " (answers differ: see below)"
    return summary, ratio, min(ratios), f"≥ {target}×, never slower", verdict


def installed_version(name):
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def cell_text(text):
    """Text for a table cell: a `|` (the literals OR-ed) would end the cell, even in a code span."""
    return text.replace("|", "\\|")


def fmt(ms):
    return f"{ms:.3f} ms" if ms < 1 else f"{ms:.2f} ms" if ms < 100 else f"{ms:.0f} ms"


def write_report(data):
    import report

    lines = [
        "# The queries agents send: fsnative vs fff" + (" (smoke run: small tree, few rounds)" if SMOKE else ""),
        "",
        "Written by `bench/agent_bench.py` (issue #36, item 3; see bench/README.md). Both tools in one Python process "
        "on the same tree, both indexes ready and warmed, calls interleaved round by round. Each class has "
        f"{INSTANCES} instances drawn from the tree's own words (seed {agent_queries.SEED}, agent_queries.py); "
        "medians and p95 pool their samples. Speed-up: fff ÷ fsnative of one query's medians (above 1: fsnative "
        "faster); a class's, the geometric mean of its instances'. "
        "A load average above the CPU count (given for each tree below) makes the figures noisy.",
        "",
        f"- {report.machine()}; Python {platform.python_version()}",
        f"- grep limit {agent_queries.LIMIT}, glob limit {agent_queries.GLOB_LIMIT}; rare: an instance matching in at most {RARE_FILES} files",
    ]
    if data.get("fsnative_pending"):
        lines.append(f"- **fsnative's side not run**: {data['fsnative_pending']}")
    for tree, record in data["trees"].items():
        lines.append(
            f"- {tree}: {record['files']} searchable files ({record['root']}); measured {record['measured']} with "
            f"{record['versions']}, fsnative built from {record['fsnative_source']}; {record['rounds']} rounds per "
            f"query; load average "
            f"{record['load'][0]:.2f} before, {record['load'][1]:.2f} after; indexed files: "
            + ", ".join(f"{n} {s.get('files')}" for n, s in record["status"].items())
        )
    lines += [
        "",
        "| tree | class | fsnative median | fsnative p95 | fff median | fff p95 | speed-up | worst instance | target "
        "| result |",
        "|---|---|---:|---:|---:|---:|---:|---:|---|---|",
    ]
    details = []
    for tree, record in data["trees"].items():
        by_class = {}
        for result in record["queries"]:
            by_class.setdefault(result["cls"], []).append(result)
        for cls, results in by_class.items():
            summary, ratio, worst, target, verdict = class_summary(results)
            cell = lambda name, i: fmt(summary[name][i]) if name in summary else "–"
            lines.append(
                f"| {tree} | {agent_queries.CLASSES[cls][0]} | {cell('fsnative', 0)} | {cell('fsnative', 1)} | "
                f"{cell('fff', 0)} | {cell('fff', 1)} | {f'{ratio:.2f}×' if ratio else '–'} | "
                f"{f'{worst:.2f}×' if worst else '–'} | {target} | {verdict} |"
            )
            for result in results:
                ratio, (target, rare) = speedup(result), instance_target(result)
                medians = {n: statistics.median(r["samples"]) for n, r in result["runs"].items()}
                answers = ", ".join(f"{n} {m} / {f}" for n, (m, f) in result["answers"].items())
                details.append(
                    f"| {tree} | {cls} | `{cell_text(result['text'])}` | "
                    + " | ".join(fmt(medians[n]) if n in medians else "–" for n in ("fsnative", "fff"))
                    + f" | {f'{ratio:.2f}×' if ratio else '–'} | {'rare (≥ 5×)' if rare else ''} | {answers} | "
                    + f"{result['problem']} |"
                )
    lines += [
        "",
        "## Every query",
        "",
        "Answers: matches / files of the untimed comparison without a limit (common words: limit "
        f"{agent_queries.LIMIT}; a cap of {CHECK_CAP:,} lines), glob: entries / total. The two tools list slightly "
        "different files (bench/README.md, index_bench.py): fff skips any `venv/` directory (the standard "
        "library's `venv` package) and, outside git, reads no `.gitignore` (the large tree's ignored `debug.log` "
        "files), so a query matching there differs by those lines.",
        "",
        "| tree | class | query | fsnative | fff | speed-up | | answers | problem |",
        "|---|---|---|---:|---:|---:|---|---|---|",
        *details,
    ]
    (results_dir() / f"{SUITE}.md").write_text("\n".join(lines) + "\n")
    print(f"wrote {results_dir() / SUITE}.md", file=sys.stderr)


def results_dir():
    return BENCH / "results" / "smoke" if SMOKE else BENCH / "results"


def raw_path():
    """The raw results, beside the report (kept in git, unlike results/raw/)."""
    return results_dir() / f"{SUITE}.json"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tools", nargs="+", choices=list(TOOLS), default=list(TOOLS))
    parser.add_argument("--trees", nargs="+", default=["small"] if SMOKE else ["agent", "medium", "large"])
    parser.add_argument("--reps", type=int, default=CALL_REPS, help="measured rounds per query (more: less noise)")
    parser.add_argument("--report", action="store_true", help="only rewrite the report from the raw results")
    args = parser.parse_args()
    data = json.loads(raw_path().read_text()) if raw_path().exists() else {"trees": {}}
    if not args.report:
        data["fsnative_pending"] = fsnative_api() if "fsnative" in args.tools else None
        if data["fsnative_pending"]:
            print(f"agent_bench: fsnative's side skipped: {data['fsnative_pending']}", file=sys.stderr)
            args.tools = [name for name in args.tools if name != "fsnative"]
        for tree in args.trees:
            data["trees"][tree] = measure_tree(args.tools, tree, args.reps)
            results_dir().mkdir(parents=True, exist_ok=True)
            raw_path().write_text(json.dumps(data, indent=1))
    write_report(data)


if __name__ == "__main__":
    main()
