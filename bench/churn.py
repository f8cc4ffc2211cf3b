"""Churn while searching (issue #26, item 1): a warm index under bursts of real changes.

A generated tree, made a git repository with two commits that differ in over 5,000 files, is
indexed by two processes: this one (4 Python searcher threads sharing one indexed sandbox) and
a Node child (bench/churn.mjs: 4 searchers sharing one indexed sandbox, their calls on the
core's helper threads). Every searcher greps and globs in a loop while these operations
happen, one at a time:

    git checkout of the other commit, a burst of 20,000 new files in 2,000 directories,
    rm -rf of a 10,000-file subtree, a directory renamed across the tree, .gitignore edited so
    that half the tree is ignored, then edited back, and a git checkout back to the first commit.

Once an operation has finished, this script computes a plain walk's answers (fsnative without
an index) and marks the phase settled; every answer begun after that, by every searcher, must
equal the walk's, and the next operation waits until each searcher has given at least one
grep and one glob answer. An answer that differs is stale. Reported: answers checked, stale
answers, the latency of the answers that overlapped an operation (p50, p99) and of the others,
and each process's peak resident memory and the index's own count of its memory.

    .venv/bin/python bench/churn.py --out bench/results/churn.md   # the full scenario
    .venv/bin/python bench/churn.py --scale 0.05                   # a short run
Needs the release artifacts installed (make dist, ./python/dev.sh install, ./npm/dev.sh install).
Exits 1 on a stale answer, an error or a searcher that never answered.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import fsnative

MIB = 1 << 20
HERE = Path(__file__).resolve().parent
# The queries every searcher asks in turn (the same keys in Python and Node): about a tenth
# of the files hold the needle, and about a tenth of the names end in 3.
QUERIES = [
    ("grep", {"pattern": "needle_", "limit": None}),
    ("glob", {"pattern": "**/*3.txt", "limit": None}),
]
SEARCHERS = 4
# How long an operation's answers may take to come in before the run fails.
SETTLE_TIMEOUT = 600


def text(name: str, version: int) -> str:
    """A file's contents: the needle in about a tenth of the files, moved by `version`."""
    serial = int(hashlib.blake2s(name.encode(), digest_size=4).hexdigest(), 16)
    lines = [f"alpha {name} {version}", "beta gamma delta"]
    if (serial + version) % 10 == 3:
        lines.append(f"needle_{serial % 9973} in {name}")
    return "\n".join(lines) + "\n"


def write(path: Path, body: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(body)


def git(repo: Path, *args: str) -> str:
    identity = ["-c", "user.name=churn", "-c", "user.email=churn@example.invalid", "-c", "commit.gpgsign=false"]
    done = subprocess.run(["git", *identity, *args], cwd=repo, check=True, capture_output=True, text=True)
    return done.stdout.strip()


class Scenario:
    """The tree and the operations, sized by `scale` (1: the issue's sizes)."""

    def __init__(self, root: Path, scale: float) -> None:
        self.root = root
        n = lambda count: max(2, round(count * scale))
        self.src_dirs, self.src_files = n(300), 40  # 12,000 files at scale 1
        self.vendor_dirs, self.vendor_files = n(200), 50  # the 10,000-file subtree
        self.burst_dirs, self.burst_files = n(2000), 10  # the 20,000-file burst
        self.modified, self.deleted, self.added = n(3000), n(1000), n(1500)
        self.commits: tuple[str, str] = ("", "")
        self.differ = 0

    def src(self, d: int, f: int) -> Path:
        return self.root / "src" / f"d{d:03d}" / f"f{f:02d}{d % 10}.txt"

    def build(self) -> None:
        """Commit A (src, vendor, .gitignore), then commit B (files changed, deleted, added);
        the work tree is left at A."""
        self.root.mkdir(parents=True)
        git(self.root, "init", "-q")
        write(self.root / ".gitignore", "*.log\n")
        files = [self.src(d, f) for d in range(self.src_dirs) for f in range(self.src_files)]
        for path in files:
            write(path, text(path.name + path.parent.name, 0))
        for d in range(self.vendor_dirs):
            for f in range(self.vendor_files):
                write(self.root / "vendor" / f"p{d:03d}" / f"v{f:02d}{d % 10}.txt", text(f"v{d}.{f}", 0))
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", "A")
        first = git(self.root, "rev-parse", "HEAD")
        step = max(1, len(files) // (self.modified + self.deleted))
        chosen = files[::step][: self.modified + self.deleted]
        for path in chosen[: self.modified]:
            write(path, text(path.name + path.parent.name, 1))
        for path in chosen[self.modified :]:
            path.unlink()
        for k in range(self.added):
            path = self.root / "src" / f"e{k // 50:03d}" / f"n{k:05d}{k % 10}.txt"
            write(path, text(f"added{k}", 1))
        git(self.root, "add", "-A")
        git(self.root, "commit", "-q", "-m", "B")
        second = git(self.root, "rev-parse", "HEAD")
        self.commits = (first, second)
        self.differ = len(git(self.root, "diff", "--name-only", first, second).splitlines())
        git(self.root, "checkout", "-q", first)

    def operations(self) -> list[tuple[str, object]]:
        first, second = self.commits
        burst_count = self.burst_dirs * self.burst_files
        vendor_count = self.vendor_dirs * self.vendor_files
        half = "/src/*[02468]/\n"
        return [
            (
                f"git checkout of the other commit ({self.differ:,} files differ)",
                lambda: git(self.root, "checkout", "-q", second),
            ),
            (f"a burst of {burst_count:,} new files in {self.burst_dirs:,} directories", self.burst),
            (f"rm -rf of a {vendor_count:,}-file subtree", lambda: shutil.rmtree(self.root / "vendor")),
            (f"the burst's directory ({burst_count:,} files) renamed into src/d001/deep", self.rename),
            ("`.gitignore` edited: half of src ignored", lambda: write(self.root / ".gitignore", "*.log\n" + half)),
            ("`.gitignore` edited back: nothing of src ignored", lambda: write(self.root / ".gitignore", "*.log\n")),
            ("git checkout back to the first commit", lambda: git(self.root, "checkout", "-q", first)),
        ]

    def burst(self) -> None:
        for d in range(self.burst_dirs):
            for f in range(self.burst_files):
                write(self.root / "new" / f"b{d:04d}" / f"w{f}{d % 10}.txt", text(f"b{d}.{f}", 2))

    def rename(self) -> None:
        deep = self.root / "src" / "d001" / "deep"
        deep.mkdir(parents=True, exist_ok=True)
        (self.root / "new").rename(deep / "new")


def lines(kind: str, result) -> list[str]:
    """The canonical lines of an answer (bench/churn.mjs writes the same)."""
    if kind == "grep":
        return [f"{file.relative_path}\0{m.line_number}\0{m.text}" for file in result.files for m in file.matches]
    return [entry.relative_path for entry in result.entries]


def digest(answer: list[str]) -> str:
    hash = hashlib.sha256()
    for line in answer:
        hash.update(f"{line}\n".encode())
    return hash.hexdigest()


def call(sandbox: fsnative.Sandbox, kind: str, options: dict):
    options = dict(options)
    pattern = options.pop("pattern")
    return (sandbox.grep if kind == "grep" else sandbox.glob)(pattern, **options)


class Run:
    """The phase (an epoch, settled or churning), the expected answers, and what came in."""

    def __init__(self) -> None:
        self.lock = threading.Condition()
        self.epoch = 0
        self.settled = False
        self.churning = False
        # The last operation the Node child knows has begun (its phase changes when it reads
        # the message, so an operation waits for its word).
        self.acknowledged = 0
        self.expected: dict[int, dict[str, str]] = {}
        self.walked: dict[int, dict[str, list[str]]] = {}
        self.seen: dict[int, set[tuple[str, str]]] = {}
        self.checked = 0
        self.stale: list[str] = []
        self.errors: list[str] = []
        self.latency: dict[tuple[str, bool], list[float]] = {}
        self.stop = threading.Event()

    def answer(
        self,
        searcher: str,
        kind: str,
        epoch: int,
        settled: bool,
        overlap: bool,
        ms: float,
        digest: str | None,
        answer: list[str] | None = None,
    ) -> None:
        """One answer: `settled` if begun and ended in the settled phase of `epoch` (then it is
        checked), `overlap` if an operation ran during some of it; `answer` its lines, if sent."""
        with self.lock:
            if settled or overlap:
                self.latency.setdefault((searcher.split("-")[0], overlap), []).append(ms)
            if not settled:
                return
            self.checked += 1
            if digest != self.expected.get(epoch, {}).get(kind):
                self.stale.append(f"{searcher} {kind} after operation {epoch}: {self.differences(epoch, kind, answer)}")
            self.seen.setdefault(epoch, set()).add((searcher, kind))
            self.lock.notify_all()

    def differences(self, epoch: int, kind: str, answer: list[str] | None) -> str:
        if answer is None:
            return "(not sent)"
        walked = self.walked.get(epoch, {}).get(kind, [])
        missing, extra = sorted(set(walked) - set(answer)), sorted(set(answer) - set(walked))
        show = lambda found: ", ".join(line.replace("\0", ":") for line in found[:3])
        same_set = "same lines, another order" if not missing and not extra else ""
        return f"{len(answer)} lines, walk {len(walked)}; missing {len(missing)} [{show(missing)}], extra {len(extra)} [{show(extra)}] {same_set}"


def python_searcher(run: Run, sandbox: fsnative.Sandbox, slot: int) -> None:
    n = slot
    while not run.stop.is_set():
        kind, options = QUERIES[n % len(QUERIES)]
        n += 1
        with run.lock:
            epoch, settled, churning = run.epoch, run.settled, run.churning
        began = time.perf_counter()
        try:
            result = call(sandbox, kind, options)
        except Exception as error:  # noqa: BLE001 - every failure is reported
            with run.lock:
                run.errors.append(f"python-{slot} {kind}: {error!r}")
                run.lock.notify_all()
            return
        ms = 1000 * (time.perf_counter() - began)
        with run.lock:
            checked = settled and run.settled and run.epoch == epoch
            overlap = churning or run.churning or run.epoch != epoch
        answer = lines(kind, result) if checked else None
        hash = digest(answer) if answer is not None else None
        run.answer(f"python-{slot}", kind, epoch, checked, overlap, ms, hash, answer)


class Memory:
    """Peaks of this process's resident memory, the Node child's, and each index's own count."""

    def __init__(self) -> None:
        self.python_rss = self.python_index = self.node_rss = self.node_index = 0
        self.python_before = rss()

    def sample(self, sandbox: fsnative.Sandbox) -> None:
        status = sandbox.index_status()
        self.python_rss = max(self.python_rss, rss())
        self.python_index = max(self.python_index, status.memory_bytes if status else 0)


def rss() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def start_node(run: Run, memory: Memory, root: Path) -> tuple[subprocess.Popen, threading.Event]:
    child = subprocess.Popen(
        ["node", str(HERE / "churn.mjs")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
    )
    ready = threading.Event()

    def read() -> None:
        try:
            take()
        except Exception as error:  # noqa: BLE001 - every failure is reported
            with run.lock:
                run.errors.append(f"reading the Node child: {error!r}")
                run.lock.notify_all()
        ready.set()

    def take() -> None:
        for line in child.stdout:
            message = json.loads(line)
            if message["type"] == "answer":
                fields = ("searcher", "kind", "epoch", "settled", "overlap", "ms", "digest", "lines")
                run.answer(*(message[f] for f in fields))
            elif message["type"] == "memory":
                memory.node_rss = max(memory.node_rss, message["rss"])
                memory.node_index = max(memory.node_index, message["index_bytes"])
            elif message["type"] == "churning":
                with run.lock:
                    run.acknowledged = message["epoch"]
                    run.lock.notify_all()
            elif message["type"] == "ready":
                ready.set()
        with run.lock:
            if not run.stop.is_set():
                run.errors.append(f"the Node child ended early (exit {child.wait()})")
            run.lock.notify_all()

    threading.Thread(target=read, daemon=True).start()
    tell(child, {"type": "start", "root": str(root), "queries": QUERIES, "searchers": SEARCHERS})
    return child, ready


def tell(child: subprocess.Popen | None, message: dict) -> None:
    if child is not None and child.poll() is None:
        child.stdin.write(json.dumps(message) + "\n")
        child.stdin.flush()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def settle(run: Run, walker: fsnative.Sandbox, node: subprocess.Popen | None, epoch: int, searchers: set) -> None:
    """The walk's answers for `epoch`, then waits for every searcher's grep and glob."""
    walked = {kind: lines(kind, call(walker, kind, options)) for kind, options in QUERIES}
    expected = {kind: digest(answer) for kind, answer in walked.items()}
    with run.lock:
        run.walked[epoch], run.expected[epoch] = walked, expected
        run.epoch, run.settled = epoch, True
    tell(node, {"type": "settled", "epoch": epoch, "expected": expected})
    wanted = {(s, kind) for s in searchers for kind, _ in QUERIES}
    with run.lock:
        done = lambda: wanted <= run.seen.get(epoch, set()) or run.errors
        if not run.lock.wait_for(done, timeout=SETTLE_TIMEOUT):
            run.errors.append(f"after operation {epoch}: no answer from {sorted(wanted - run.seen.get(epoch, set()))}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="sizes relative to the issue's (1)")
    parser.add_argument("--no-node", action="store_true", help="Python searchers only")
    parser.add_argument("--out", help="write the markdown report here too")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="fsnative-churn-"))
    try:
        return run_scenario(args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_scenario(args: argparse.Namespace, work: Path) -> int:
    began = time.monotonic()
    scenario = Scenario(work / "tree", args.scale)
    scenario.build()
    built = time.monotonic() - began
    run, memory = Run(), Memory()
    sandbox = fsnative.Sandbox([str(scenario.root)], index=True)
    walker = fsnative.Sandbox([str(scenario.root)])
    if not sandbox.wait_for_index(timeout_ms=300_000):
        print(f"the index did not get ready: {sandbox.index_status()}", file=sys.stderr)
        return 1
    node, node_ready = (None, None) if args.no_node else start_node(run, memory, scenario.root)
    if node_ready is not None and not node_ready.wait(300) or run.errors:
        print(f"the Node child did not get ready: {run.errors}", file=sys.stderr)
        return 1
    searchers = {f"python-{slot}" for slot in range(SEARCHERS)}
    if node is not None:
        searchers |= {f"node-{slot}" for slot in range(SEARCHERS)}
    threads = [threading.Thread(target=python_searcher, args=(run, sandbox, s), daemon=True) for s in range(SEARCHERS)]
    sampling = threading.Event()

    def sample() -> None:
        while not sampling.wait(0.2):
            memory.sample(sandbox)

    threading.Thread(target=sample, daemon=True).start()
    for thread in threads:
        thread.start()
    settle(run, walker, node, 0, searchers)
    done: list[tuple[str, float]] = []
    for epoch, (what, operation) in enumerate(scenario.operations(), start=1):
        if run.errors:
            break
        with run.lock:
            run.epoch, run.settled, run.churning = epoch, False, True
        tell(node, {"type": "churn", "epoch": epoch})
        if node is not None:
            with run.lock:
                heard = lambda: run.acknowledged == epoch or run.errors
                if not run.lock.wait_for(heard, timeout=SETTLE_TIMEOUT) or run.errors:
                    run.errors.append(f"operation {epoch}: the Node child did not acknowledge it")
                    break
        started = time.monotonic()
        operation()
        done.append((what, time.monotonic() - started))
        with run.lock:
            run.churning = False
        tell(node, {"type": "finished", "epoch": epoch})
        settle(run, walker, node, epoch, searchers)
    run.stop.set()
    tell(node, {"type": "stop"})
    for thread in threads:
        thread.join()
    if node is not None:
        try:
            code = node.wait(timeout=120)
        except subprocess.TimeoutExpired:
            node.kill()
            code = "nothing: killed after 120 s"
        if code != 0:
            run.errors.append(f"the Node child exited with {code}")
    sampling.set()
    memory.sample(sandbox)
    status = sandbox.index_status()
    sandbox.close()
    return report(args, scenario, run, memory, done, status, built, time.monotonic() - began)


def report(args, scenario, run, memory, done, status, built, total) -> int:
    def latency(language: str, overlap: bool) -> str:
        values = run.latency.get((language, overlap), [])
        return f"{len(values):,} | {percentile(values, 0.5):.1f} ms | {percentile(values, 0.99):.1f} ms"

    command = "python bench/churn.py" + (f" --scale {args.scale:g}" if args.scale != 1 else "")
    command += " --no-node" if args.no_node else ""
    lines = [
        "# Churn while searching: a warm index under bursts of changes",
        "",
        f"Command: `{command}`; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, fsnative "
        f"{fsnative.__version__}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f} at the end (other "
        f"work shares the machine); tree and repository built in {built:.0f} s, the whole run {total:.0f} s.",
        "",
        "After each operation, every answer begun once it had finished (and the walk's answer was known)",
        "is checked against a walk's: the lines of a grep for `needle_` and the paths of a glob",
        "`**/*3.txt`, both unlimited. Each searcher gives at least one of each before the next operation.",
        "",
        "| operation | took |",
        "|---|---:|",
        *(f"| {what} | {seconds:.2f} s |" for what, seconds in done),
        "",
        "| figure | value |",
        "|---|---:|",
        f"| searchers | {len({s for s, _ in run.seen.get(0, set())}) or 0} ({SEARCHERS} Python threads"
        + ("" if args.no_node else f", {SEARCHERS} in the Node child")
        + ") |",
        f"| operations finished | {len(done)} of {len(scenario.operations())} |",
        f"| answers checked against a walk | {run.checked:,} |",
        f"| stale answers | {len(run.stale)} |",
        f"| errors | {len(run.errors)} |",
        f"| Python process: resident memory before the index, peak | {memory.python_before / MIB:.0f} MiB, {memory.python_rss / MIB:.0f} MiB |",
        f"| Python index's own count of its memory, peak | {memory.python_index / MIB:.1f} MiB |",
    ]
    if not args.no_node:
        lines += [
            f"| Node process: resident memory, peak | {memory.node_rss / MIB:.0f} MiB |",
            f"| Node index's own count of its memory, peak | {memory.node_index / MIB:.1f} MiB |",
        ]
    lines += [
        f"| index at the end | {status.files:,} files, {status.dirs:,} dirs, {status.rescans} rescans, watching {status.watching} |",
        "",
        "| searchers | answers | p50 | p99 |",
        "|---|---:|---:|---:|",
    ]
    for language in ["python"] + ([] if args.no_node else ["node"]):
        lines.append(f"| {language}, overlapping an operation | {latency(language, True)} |")
        lines.append(f"| {language}, after it (checked) | {latency(language, False)} |")
    lines.append("")
    lines += [f"- stale: {line}" for line in run.stale[:20]]
    lines += [f"- error: {line}" for line in run.errors[:20]]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    return 1 if run.stale or run.errors or len(done) < len(scenario.operations()) else 0


if __name__ == "__main__":
    sys.exit(main())
