"""The warm index side by side (issue #15, item 7): fsnative's index (`Sandbox(roots, index=True)`)
vs fff (`fff-search`, `import fff`), both in this Python process, on the same trees.

The trees are copies of bench/corpora/ outside any git work tree (/var/tmp/fsnative-bench-trees,
or $BENCH_INDEX_TREES): fff's scan lists files an enclosing repository ignores, but its watcher
drops their events, and bench/corpora/ is git-ignored, so in place fff would never see a change.
Copies, not hard links: a file with a second name is never kept in fsnative's content cache (a
write through the other name, outside the watched tree, would go unheard), and the files of a
real repository have one name each, so linked mirrors measured a setup no user has.

Warm calls: both indexes are built and ready (fsnative `wait_for_index`, fff
`wait_for_scan_blocking` and then its content warm-up), then each case runs once per tool per
round, the first tool rotating; medians of CALL_REPS rounds after CALL_WARMUP.
Build and memory: a fresh process per tool and round (`--child`), tools alternating: the time
from the constructor to ready, and the resident memory (VmRSS) it adds over the process after
importing the module, read once the index is ready and 3 greps ran.
Freshness: a new file with a unique token, then a known file with a token appended, grepped for
at once and then every millisecond until seen; the time from the write's completion (file
closed) to the end of the grep that saw it. The tree is restored afterwards.

    python index_bench.py                      every tree (smoke: small), both tools, then the report
    python index_bench.py --tools fff --trees medium
    python index_bench.py --report             rewrite results/index.md from results/raw*/index.json

fsnative's half runs only when its wheel has the index API (`Sandbox(..., index=True)`,
`wait_for_index`, `index_status`); otherwise the run says so and measures fff alone.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from corpora import RARE_TOKEN, STAMP_NAME
from measure import RAW, SCENARIOS, SMOKE, corpus, interleaved, patterns_of, record, trees
from memory import kib

SUITE = "index"
CALL_WARMUP = 1 if SMOKE else 3
CALL_REPS = 3 if SMOKE else 15
BUILD_REPS = 1 if SMOKE else 7
FRESH_ROUNDS = 2 if SMOKE else 20
FRESH_TIMEOUT_S = 5.0
READY_TIMEOUT_S = 300.0
LIMIT = 100
GLOB_LIMIT = 1000
GLOB = "**/*.py"
# No-match literals, both checked to match nothing: one random-looking (as the issue asks), one
# made of common words. How many files a prefilter rules out depends on which character pairs or
# triples a literal has and the tree has (fff rules out every stdlib file for the first, few of
# the large tree's), so each tree gets both.
NO_MATCH_RANDOM = "zq8XkvW3pLm"
NO_MATCH_WORDS = "request_token_handler_absent"
OR_WORDS = ["TODO", "FIXME", "XXX"]
COMMON = "return"
# A phrase of two common words, searched again and again: the content cache once cycled through
# such a search's candidates, each run pushing out what the next needed (#36 item 0).
PHRASE = "def test_"
SKIP_DIRS = {"node_modules", "target", ".venv", ".git"}
INDEX_TREES = Path(os.environ.get("BENCH_INDEX_TREES", "/var/tmp/fsnative-bench-trees"))

CASES = {
    "no_match_random": f"grep no match, random-looking literal `{NO_MATCH_RANDOM}`",
    "no_match_words": f"grep no match, word-like literal `{NO_MATCH_WORDS}`",
    "rare_literal": "grep rare literal `{rare}`, limit 100",
    "or3": f"grep 3 literals OR ({'/'.join(OR_WORDS)}), limit 100",
    "common": f"grep common literal `{COMMON}`, limit 100",
    "phrase": f"grep phrase `{PHRASE}`, limit 100",
    "glob": f"glob `{GLOB}`, limit {GLOB_LIMIT}",
}


def rare_literal(tree):
    pattern = patterns_of(SCENARIOS["rare_literal"], tree)[0]
    assert tree == "medium" or pattern == RARE_TOKEN, (tree, pattern)
    return pattern


def index_tree(tree):
    """The corpus's copy outside git, rebuilt when the corpus's stamp changes; its stamp is
    written last, so a broken copy is never reused."""
    source, mirror = corpus(tree), INDEX_TREES / tree
    stamp = (source / STAMP_NAME).read_text()
    if not ((mirror / STAMP_NAME).exists() and (mirror / STAMP_NAME).read_text() == stamp):
        shutil.rmtree(mirror, ignore_errors=True)
        mirror.parent.mkdir(parents=True, exist_ok=True)
        print(f"index_bench: copying {source} to {mirror}", file=sys.stderr, flush=True)
        ignore_stamp = shutil.ignore_patterns(STAMP_NAME)
        shutil.copytree(source, mirror, symlinks=True, ignore=ignore_stamp)
        (mirror / STAMP_NAME).write_text(stamp)
    inside_git = (
        subprocess.run(
            ["git", "-C", str(mirror), "rev-parse", "--is-inside-work-tree"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        ).returncode
        == 0
    )
    if inside_git:
        raise SystemExit(f"{mirror} is inside a git work tree: set BENCH_INDEX_TREES to a directory outside one")
    return mirror


def prepare_known(tree, root):
    """The file the freshness case appends to, given the corpus's bytes again (an interrupted run
    may have left a token in it); leftovers of an interrupted run removed."""
    known = known_file(root)
    for stale in known.parent.glob("fresh_*.py"):
        stale.unlink()
    original = corpus(tree) / known.relative_to(root)
    known.unlink()
    shutil.copy2(original, known)
    return known


def fsnative_api(methods=("wait_for_index", "index_status")):
    """None when the installed fsnative's Sandbox has these methods (default: the index API),
    else why not."""
    try:
        import fsnative
    except ImportError as error:
        return f"fsnative not importable: {error}"
    missing = [name for name in methods if not hasattr(fsnative.Sandbox, name)]
    return f"the installed fsnative {fsnative.__version__} has no {', '.join(missing)}" if missing else None


class Fff:
    """fff's FileFinder with its watcher, databases in a temp dir of their own."""

    name = "fff"

    def __init__(self, root):
        import fff

        self.db = tempfile.mkdtemp(prefix="fff-db-")
        self.finder = fff.FileFinder(
            str(root),
            watch=True,
            frecency_db_path=os.path.join(self.db, "frecency"),
            history_db_path=os.path.join(self.db, "history"),
        )

    def wait_list(self):
        return self.finder.wait_for_scan_blocking(int(READY_TIMEOUT_S * 1000))

    def wait_content(self):
        """fff builds its bigram content filter after the scan ("warm-up")."""
        deadline = time.perf_counter() + READY_TIMEOUT_S
        while not self.finder.scan_progress.is_warmup_complete:
            if time.perf_counter() > deadline:
                return False
            time.sleep(0.002)
        return True

    @staticmethod
    def _records(result):
        # What a tool does with the answer: one (path, line, text) record per match.
        records = [(m.relative_path, m.line_number, m.line_content) for m in result.items]
        return len(records), len({r[0] for r in records})

    def grep(self, literal, limit):
        return self.grep_patterns([literal], limit)

    def grep_patterns(self, patterns, limit, regex=False, ignore_case=False):
        """Lines matching any of the patterns (`multi_grep` for several; fff has no regex OR).
        fff ignores case only through smart case, so with `ignore_case` the patterns must be in
        lower case. No limit (None) is a page limit no tree reaches (0 would mean fff's 50)."""
        if ignore_case and any(p != p.lower() for p in patterns):
            raise ValueError(f"fff ignores case only for lower-case patterns: {patterns}")
        options = {"mode": "regex" if regex else "plain", "smart_case": ignore_case, "page_limit": limit or 2**31}
        if len(patterns) == 1:
            return self._records(self.finder.grep(patterns[0], **options))
        if regex:
            raise ValueError("fff's multi_grep takes literals only")
        return self._records(self.finder.multi_grep(patterns, **options))

    def grep_any(self, literals, limit):
        return self._records(self.finder.multi_grep(literals, mode="plain", smart_case=False, page_limit=limit))

    def glob(self, pattern, limit):
        result = self.finder.glob(pattern, page_size=limit)
        return len([item.relative_path for item in result.items]), result.total_matched

    def find(self, query, limit):
        """Fuzzy path search (find_bench.py): the paths, best first, and how many matched."""
        result = self.finder.search(query, page_size=limit)
        return [item.relative_path for item in result.items], result.total_matched

    def status(self):
        return {"files": self.finder.health_check()["file_picker"]["indexed_files"]}

    def close(self):
        self.finder.close()
        shutil.rmtree(self.db, ignore_errors=True)


class Fsnative:
    """fsnative's Sandbox with its warm index (defaults: content prefilter on, watching)."""

    name = "fsnative"

    def __init__(self, root, index=True, **options):
        import fsnative

        self.root = Path(root).resolve()
        self.sandbox = fsnative.Sandbox([str(root)], index=index, **options)

    def wait_list(self):
        return self.sandbox.wait_for_index(timeout_ms=int(READY_TIMEOUT_S * 1000))

    def wait_content(self):
        return self.sandbox.wait_for_index(timeout_ms=int(READY_TIMEOUT_S * 1000))

    @staticmethod
    def _records(result):
        records = [(f.path, m.line_number, m.text) for f in result.files for m in f.matches]
        return len(records), len(result.files)

    def grep(self, literal, limit):
        return self.grep_patterns([literal], limit)

    def grep_patterns(self, patterns, limit, regex=False, ignore_case=False):
        """Lines matching any of the patterns (several patterns: `rg -e A -e B`); None: no limit."""
        result = self.sandbox.grep(
            patterns[0] if len(patterns) == 1 else patterns,
            fixed_strings=not regex,
            case_mode="insensitive" if ignore_case else "sensitive",
            limit=limit,
        )
        return self._records(result)

    def grep_any(self, literals, limit):
        return self._records(self.sandbox.grep("|".join(map(re.escape, literals)), limit=limit))

    def glob(self, pattern, limit):
        result = self.sandbox.glob(pattern, limit=limit)
        return len([entry.path for entry in result.entries]), result.total

    def find(self, query, limit):
        """Fuzzy path search (find_bench.py): the paths relative to the root, best first, and
        how many matched."""
        result = self.sandbox.find(query, limit=limit)
        paths = [
            entry.relative_path if hasattr(entry, "relative_path") else os.path.relpath(entry.path, self.root)
            for entry in result.entries
        ]
        return paths, getattr(result, "total", len(paths))

    def status(self):
        status = self.sandbox.index_status()
        fields = (
            "state",
            "files",
            "dirs",
            "bytes",
            "memory_bytes",
            "watching",
            "watched_dirs",
            "unwatched_dirs",
            "rescans",
            "content_files",
            "content_pending",
            "list_ms",
            "content_ms",
            "searches",
            "error",
        )
        return {field: getattr(status, field) for field in fields if hasattr(status, field)}

    def close(self):
        self.sandbox.close()


TOOLS = {"fsnative": Fsnative, "fff": Fff}


def child(tool_name, tree, root):
    """One fresh process: build the index, wait until ready, 3 greps, report times and memory."""
    if tool_name == "fff":
        import fff  # noqa: F401  (the module's own memory is part of the baseline)
    else:
        import fsnative  # noqa: F401
    before = {field: kib(field) for field in ("VmRSS", "RssAnon", "RssFile")}
    start = time.perf_counter()
    tool = TOOLS[tool_name](root)
    constructor_ms = (time.perf_counter() - start) * 1000
    listed = tool.wait_list()
    list_ms = (time.perf_counter() - start) * 1000
    content = tool.wait_content()
    content_ms = (time.perf_counter() - start) * 1000
    greps = [tool.grep(rare_literal(tree), LIMIT), tool.grep(COMMON, LIMIT), tool.grep(NO_MATCH_RANDOM, LIMIT)]
    after = {field: kib(field) for field in ("VmRSS", "RssAnon", "RssFile", "VmHWM")}
    status = tool.status()
    print(
        json.dumps(
            {
                "ready": listed and content,
                "constructor_ms": constructor_ms,
                "list_ms": list_ms,
                "content_ms": content_ms,
                "rss_mib": (after["VmRSS"] - before["VmRSS"]) / 1024,
                "anon_mib": (after["RssAnon"] - before["RssAnon"]) / 1024,
                "file_mib": (after["RssFile"] - before["RssFile"]) / 1024,
                "hwm_mib": (after["VmHWM"] - before["VmRSS"]) / 1024,
                "greps": greps,
                "status": status,
            }
        )
    )
    tool.close()


def child_report(script: str, name: str, tree: str, *args: str) -> dict:
    """Runs `script --child NAME TREE ARGS...` in a fresh process and returns its JSON report;
    stops the bench when the index was not ready in time."""
    out = subprocess.run(
        [sys.executable, script, "--child", name, tree, *args],
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    report = json.loads(out)
    if not report["ready"]:
        raise SystemExit(f"{name} on {tree}: not ready within {READY_TIMEOUT_S:.0f} s")
    return report


def run_children(tools, tree, root):
    """BUILD_REPS fresh processes per tool, the tools alternating; name -> list of child reports."""
    reports = {name: [] for name in tools}
    for round_index in range(BUILD_REPS):
        order = tools[round_index % len(tools) :] + tools[: round_index % len(tools)]
        for name in order:
            reports[name].append(child_report(__file__, name, tree, str(root)))
    return reports


def build_and_memory_rows(tree, reports):
    """Rows for the index build (ready, and its two phases) and for memory."""
    files = {name: runs[-1]["status"].get("files", 0) for name, runs in reports.items()}

    def runs_of(name, samples):
        return {"samples": [round(value, 3) for value in samples], "matches": files[name], "files": files[name]}

    def against_fsnative(name):
        return ["fsnative"] if name != "fsnative" and "fsnative" in reports else []

    def phase(case, title, fff_key, fsnative_status_key, notes):
        """fff timed from outside; fsnative as its index_status reports the phase, if it does."""
        runs = {}
        if "fsnative" in reports and all(r["status"].get(fsnative_status_key) is not None for r in reports["fsnative"]):
            runs["fsnative"] = runs_of("fsnative", [r["status"][fsnative_status_key] for r in reports["fsnative"]])
        if "fff" in reports:
            runs["fff"] = runs_of("fff", [r[fff_key] for r in reports["fff"]])
        return record(SUITE, tree, case, title, runs, against_fsnative, notes) if runs else []

    # The target's pair: fsnative's wait_for_index (list and content prefilter) against fff's
    # wait_for_scan_blocking (its scan; its content warm-up goes on after it).
    ready = {
        name: runs_of(name, [r["list_ms" if name == "fff" else "content_ms"] for r in runs])
        for name, runs in reports.items()
    }
    rows = record(
        SUITE,
        tree,
        "build_ready",
        "index build: constructor to ready",
        ready,
        against_fsnative,
        {"fff": "wait_for_scan_blocking", "fsnative": "wait_for_index"},
    )
    rows += phase(
        "build_list",
        "index build: file list ready",
        "list_ms",
        "list_ms",
        {"fff": "wait_for_scan_blocking", "fsnative": "index_status().list_ms"},
    )
    rows += phase(
        "build_content",
        "index build: content prefilter complete",
        "content_ms",
        "content_ms",
        {"fff": "scan_progress.is_warmup_complete, from the constructor", "fsnative": "index_status().content_ms"},
    )
    memory = {name: runs_of(name, [r["rss_mib"] for r in runs]) for name, runs in reports.items()}
    notes = {
        name: "RssAnon +{:.1f}, RssFile +{:.1f}, peak +{:.1f} MiB (medians)".format(
            *(statistics.median(r[key] for r in runs) for key in ("anon_mib", "file_mib", "hwm_mib"))
        )
        for name, runs in reports.items()
    }
    rows += record(
        SUITE,
        tree,
        "memory",
        "memory: VmRSS added by the ready index + 3 greps",
        memory,
        against_fsnative,
        notes,
        unit="MiB",
    )
    return rows


def warm_rows(tools, tree):
    """The warm calls, tools interleaved round by round."""
    literal_cases = {
        "no_match_random": NO_MATCH_RANDOM,
        "no_match_words": NO_MATCH_WORDS,
        "rare_literal": rare_literal(tree),
        "common": COMMON,
        "phrase": PHRASE,
    }
    rows = []
    for case, title in CASES.items():
        if case in literal_cases:
            impls = {t.name: (lambda t=t, q=literal_cases[case]: t.grep(q, LIMIT)) for t in tools}
        elif case == "or3":
            impls = {t.name: (lambda t=t: t.grep_any(OR_WORDS, LIMIT)) for t in tools}
        else:
            impls = {t.name: (lambda t=t: t.glob(GLOB, GLOB_LIMIT)) for t in tools}
        runs = interleaved(impls, warmup=CALL_WARMUP, reps=CALL_REPS)
        notes = {}
        if case.startswith("no_match"):
            notes = {
                name: f"**matched {run['matches']} lines: not a no-match case**"
                for name, run in runs.items()
                if run["matches"]
            }
        if (
            "fff" in runs
            and case not in ("no_match_random", "no_match_words", "glob")
            and runs["fff"]["matches"] > LIMIT
        ):
            notes["fff"] = f"page_limit is not a cap: {runs['fff']['matches']} records for page_limit={LIMIT}"
        if case == "glob":
            notes = {name: "matches = entries returned, files = total matching" for name in runs}
        rows += record(
            SUITE,
            tree,
            case,
            title.format(rare=literal_cases["rare_literal"]),
            runs,
            lambda name: ["fsnative"] if name != "fsnative" and "fsnative" in runs else [],
            notes,
        )
    return rows


def known_file(root):
    """A deterministic, searchable text file below the root: the first `.py` in sorted order."""
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS)
        if directory != str(root):
            for name in sorted(files):
                if name.endswith(".py") and not name.startswith("."):
                    return Path(directory) / name
    raise SystemExit(f"no .py file below {root}")


def freshness_rows(tools, tree, root, known):
    """New file and appended token: first grep sees it? time from the write to visibility."""
    original, original_stat = known.read_bytes(), known.stat()
    created = []
    results = {
        kind: {t.name: {"samples": [], "first": 0, "timeouts": 0} for t in tools} for kind in ("new", "modified")
    }
    try:
        for round_index in range(FRESH_ROUNDS):
            order = tools[round_index % len(tools) :] + tools[: round_index % len(tools)]
            for kind in ("new", "modified"):
                for tool in order:
                    token = f"FRESH{tool.name.upper()}{os.urandom(6).hex().upper()}"
                    if kind == "new":
                        path = known.parent / f"fresh_{token.lower()}.py"
                        created.append(path)
                        with open(path, "w") as out:
                            out.write(f"# {token}\n")
                    else:
                        with open(known, "a") as out:
                            out.write(f"# {token}\n")
                    written = time.perf_counter()
                    seen = tool.grep(token, LIMIT)[0] > 0
                    first = seen
                    while not seen and time.perf_counter() - written < FRESH_TIMEOUT_S:
                        time.sleep(0.001)
                        seen = tool.grep(token, LIMIT)[0] > 0
                    run = results[kind][tool.name]
                    run["samples"].append(round((time.perf_counter() - written) * 1000, 3))
                    run["first"] += first
                    run["timeouts"] += not seen
                    time.sleep(0.1)  # let both watchers settle before the next write
    finally:
        for path in created:
            path.unlink(missing_ok=True)
        known.write_bytes(original)
        os.utime(known, ns=(original_stat.st_atime_ns, original_stat.st_mtime_ns))
    rows = []
    for kind, title in (
        ("new", "freshness: a new file, write to visible"),
        ("modified", f"freshness: a token appended to {known.relative_to(root)}"),
    ):
        runs = {
            name: {"samples": r["samples"], "matches": r["first"], "files": len(r["samples"])}
            for name, r in results[kind].items()
        }
        notes = {
            name: f"first grep saw it in {r['first']} of {len(r['samples'])} rounds"
            + (f"; **not seen within {FRESH_TIMEOUT_S:.0f} s in {r['timeouts']}**" if r["timeouts"] else "")
            for name, r in results[kind].items()
        }
        rows += record(
            SUITE,
            tree,
            f"fresh_{kind}",
            title,
            runs,
            lambda name: ["fsnative"] if name != "fsnative" and "fsnative" in runs else [],
            notes,
        )
    return rows


def raw_path():
    return RAW / f"{SUITE}.json"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tools", nargs="+", choices=list(TOOLS), default=list(TOOLS))
    parser.add_argument("--trees", nargs="+", default=trees("small", "medium", "large"))
    parser.add_argument("--report", action="store_true", help="only rewrite the report from the raw rows")
    args = parser.parse_args()
    import report

    if args.report:
        report.write_index_report()
        return
    pending = None
    if "fsnative" in args.tools:
        pending = fsnative_api()
        if pending:
            print(f"index_bench: fsnative's side skipped: {pending}", file=sys.stderr)
            args.tools = [name for name in args.tools if name != "fsnative"]
    rows, statuses = [], {}
    for tree in args.trees:
        root = index_tree(tree)
        known = prepare_known(tree, root)
        reports = run_children(args.tools, tree, root)
        rows += build_and_memory_rows(tree, reports)
        tools = [TOOLS[name](root) for name in args.tools]
        try:
            for tool in tools:
                if not (tool.wait_list() and tool.wait_content()):
                    raise SystemExit(f"{tool.name} on {tree}: not ready within {READY_TIMEOUT_S:.0f} s")
            rows += warm_rows(tools, tree)
            rows += freshness_rows(tools, tree, root, known)
            statuses[tree] = {tool.name: tool.status() for tool in tools}
        finally:
            for tool in tools:
                tool.close()
    RAW.mkdir(parents=True, exist_ok=True)
    raw_path().write_text(
        json.dumps(
            {
                "rows": rows,
                "status": statuses,
                "fsnative_pending": pending,
                "settings": (
                    f"warm calls: {CALL_WARMUP} warm-up and {CALL_REPS} measured rounds; build and memory: {BUILD_REPS} fresh "
                    f"processes per tool; freshness: {FRESH_ROUNDS} rounds, polled every millisecond for at most "
                    f"{FRESH_TIMEOUT_S:.0f} s"
                ),
            },
            indent=1,
        )
    )
    report.write_index_report()


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(*sys.argv[2:5])
    else:
        main()
