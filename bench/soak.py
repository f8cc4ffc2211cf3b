"""A long run of a warm index under mixed churn and queries (issue #26, item 4).

One process holds a sandbox with the warm index over a generated tree. Four threads search it
in a loop (a rare literal, a common word, a glob, a regex), while a churn thread changes the
tree one operation at a time (create, modify, delete, rename a file, rename a directory, make
a directory of files, remove one) and, after each, asks the index about what it changed: a
token just written must be found where it was written, a token just removed must be found
nowhere. Every `--check-every` operations the churn pauses and the index's answers to a grep
and a glob are compared with a plain walk's. Any difference is a stale answer.

Reported: answers checked and stale ones, the searchers' p50 and p99 latency for each tenth of
the run, resident memory (its drift after warm-up), open file descriptors and threads.

    python bench/soak.py --seconds 1800 --out bench/results/soak.md   # the README's figures
    python bench/soak.py --seconds 60                                 # CI's minute
Exits 1 on a stale answer, an error, or (in runs of 5 minutes or more) a drift of 5 MiB or more.
The drift judged is the trend: the last tenth's median resident memory minus the second
tenth's. The highest single sample minus the first after warm-up is reported beside it; it
also counts the buffers of the searches in flight when a sample is taken, 3-5 MiB from one
sample to the next.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

import fsnative

MIB = 1 << 20
DRIFT_LIMIT = 5 * MIB
# Shorter runs (CI's minute) are judged on stale answers and errors only: their warm-up is too
# short for memory to settle.
DRIFT_JUDGED_FROM = 300
QUERIES = [
    ("grep", {"pattern": "rare_marker_7"}),
    ("grep", {"pattern": "return", "limit": 50}),
    ("glob", {"pattern": "**/*.py", "limit": 200}),
    ("grep", {"pattern": r"def \w+_\d+\(", "limit": 50}),
]


def build_tree(root: Path, dirs: int, files_per_dir: int, rng: random.Random) -> None:
    """`dirs` directories of `files_per_dir` small Python files, one holding the rare marker."""
    for d in range(dirs):
        package = root / f"pkg{d:04d}"
        package.mkdir(parents=True)
        for f in range(files_per_dir):
            body = "".join(f"def fn_{f}_{k}(x):\n    return x + {rng.randrange(1000)}\n" for k in range(8))
            (package / f"mod{f:03d}.py").write_text(body)
    (root / "pkg0000" / "mod000.py").write_text("rare_marker_7 = 1\n")


def index_figures(sandbox) -> tuple[int, int]:
    """What the index says it holds: its memory (bytes, the content cache included) and files."""
    status = sandbox.index_status()
    return status.memory_bytes, status.files


def resources() -> tuple[int, int, int]:
    """Resident memory (bytes), open file descriptors and threads of this process."""
    with open("/proc/self/statm") as statm:
        rss = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    fds = len(os.listdir("/proc/self/fd"))
    with open("/proc/self/status") as status:
        threads = next(int(line.split()[1]) for line in status if line.startswith("Threads:"))
    return rss, fds, threads


class Churn:
    """Changes the tree one operation at a time and checks the index on what each changed."""

    def __init__(self, root: Path, sandbox: fsnative.Sandbox, rng: random.Random) -> None:
        self.root, self.sandbox, self.rng = root, sandbox, rng
        self.serial = 0
        self.ops = 0
        self.checked = 0
        self.stale: list[str] = []

    def token(self) -> str:
        self.serial += 1
        return f"churn_token_{self.serial:08d}_x"

    def files_with(self, token: str) -> set[str]:
        found = self.sandbox.grep(token, fixed_strings=True, limit=None)
        return {file.path for file in found.files}

    def expect(self, what: str, token: str, paths: set[Path]) -> None:
        self.checked += 1
        found = self.files_with(token)
        if found != {str(p) for p in paths}:
            self.stale.append(f"{what}: {token} in {sorted(found)}, expected {sorted(map(str, paths))}")

    def churn_dirs(self) -> list[Path]:
        return sorted(p for p in self.root.iterdir() if p.is_dir() and p.name.startswith("churn"))

    def step(self) -> None:
        self.ops += 1
        dirs = self.churn_dirs()
        kind = self.rng.choice(["create", "modify", "delete", "rename", "rename_dir", "mkdir", "rmtree"])
        if len(dirs) < 4:
            kind = "mkdir"
        if kind == "mkdir" and len(dirs) > 40:
            kind = "rmtree"
        if kind == "mkdir":
            new = self.root / f"churn{self.serial:08d}"
            new.mkdir()
            token = self.token()
            made = [new / f"f{i}.py" for i in range(self.rng.randrange(1, 30))]
            for path in made:
                path.write_text(f"{token}\n")
            self.expect("mkdir", token, set(made))
            return
        target_dir = self.rng.choice(dirs)
        files = sorted(target_dir.glob("*.py"))
        if kind == "rmtree":
            token = self.token()
            (target_dir / "last.py").write_text(f"{token}\n")
            shutil.rmtree(target_dir)
            self.expect("rmtree", token, set())
        elif kind == "rename_dir":
            token = self.token()
            (target_dir / "moved.py").write_text(f"{token}\n")
            to = self.root / f"churn{self.serial:08d}r"
            target_dir.rename(to)
            self.expect("rename_dir", token, {to / "moved.py"})
        elif kind == "create" or not files:
            token = self.token()
            path = target_dir / f"new{self.serial}.py"
            path.write_text(f"{token}\n")
            self.expect("create", token, {path})
        elif kind == "modify":
            path = self.rng.choice(files)
            old = self.token()
            path.write_text(f"{old}\n")
            new = self.token()
            path.write_text(f"{new}\n")
            self.expect("modify (old text)", old, set())
            self.expect("modify (new text)", new, {path})
        elif kind == "delete":
            path = self.rng.choice(files)
            token = self.token()
            path.write_text(f"{token}\n")
            path.unlink()
            self.expect("delete", token, set())
        else:
            path = self.rng.choice(files)
            token = self.token()
            path.write_text(f"{token}\n")
            to = path.with_name(f"renamed{self.serial}.py")
            path.rename(to)
            self.expect("rename", token, {to})


def whole_answers(sandbox: fsnative.Sandbox) -> tuple[list[tuple[str, int]], list[str]]:
    grep = sandbox.grep(r"churn_token_\d+|rare_marker", limit=None)
    glob = sandbox.glob("**", kind="all", limit=None)
    return (
        sorted((file.path, m.line_number) for file in grep.files for m in file.matches),
        sorted(entry.path for entry in glob.entries),
    )


class Histogram:
    """Latencies in buckets 2 % wide from 1 µs, allocated once, so that counting a search
    allocates nothing and the process's memory stays flat however long the run."""

    STEP = math.log(1.02)
    BUCKETS = 1200  # up to about 20 s

    def __init__(self) -> None:
        self.counts = [0] * self.BUCKETS

    def add(self, seconds: float) -> None:
        index = int(math.log(max(seconds, 1e-6) / 1e-6) / self.STEP)
        self.counts[min(index, self.BUCKETS - 1)] += 1

    def total(self) -> int:
        return sum(self.counts)

    def percentile(self, q: float) -> float:
        """The `q` quantile in milliseconds (the upper edge of its bucket)."""
        wanted, seen = q * self.total(), 0
        for index, count in enumerate(self.counts):
            seen += count
            if count and seen >= wanted:
                return 1e-3 * math.exp((index + 1) * self.STEP)
        return float("nan")


def run(args: argparse.Namespace) -> int:
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="fsnative-soak-"))
    root = work / "tree"
    build_tree(root, args.dirs, args.files_per_dir, rng)
    sandbox = fsnative.Sandbox([str(root)], index=True)
    walker = fsnative.Sandbox([str(root)])
    if not sandbox.wait_for_index(timeout_ms=120_000):
        print("the index did not get ready", file=sys.stderr)
        return 1
    stop = threading.Event()
    # One histogram per tenth of the run, shared by the searchers (a lost count under a race
    # changes a percentile by nothing that shows).
    tenths = [Histogram() for _ in range(10)]
    errors: list[str] = []
    began = time.monotonic()

    def search(slot: int) -> None:
        kind, options = QUERIES[slot]
        options = dict(options)
        pattern = options.pop("pattern")
        call = sandbox.grep if kind == "grep" else sandbox.glob
        while not stop.is_set():
            started = time.perf_counter()
            try:
                call(pattern, **options)
            except Exception as error:  # noqa: BLE001 - every failure is reported
                errors.append(f"{kind} {pattern}: {error!r}")
                return
            elapsed = time.perf_counter() - started
            tenths[min(9, int(10 * (time.monotonic() - began) / args.seconds))].add(elapsed)

    churn = Churn(root, sandbox, rng)
    whole_checks = 0
    whole_stale: list[str] = []
    # (seconds, resident memory, descriptors, threads, the index's memory_bytes, its files)
    samples: list[tuple[float, int, int, int, int, int]] = []
    searchers = [threading.Thread(target=search, args=(slot,), daemon=True) for slot in range(len(QUERIES))]
    for thread in searchers:
        thread.start()
    next_sample = began
    while time.monotonic() - began < args.seconds and not errors:
        churn.step()
        if churn.ops % args.check_every == 0:
            whole_checks += 1
            if whole_answers(sandbox) != whole_answers(walker):
                whole_stale.append(f"after operation {churn.ops}")
        now = time.monotonic()
        if now >= next_sample:
            samples.append((now - began, *resources(), *index_figures(sandbox)))
            next_sample = now + args.sample_seconds
        if args.pause:
            time.sleep(args.pause)
    samples.append((time.monotonic() - began, *resources(), *index_figures(sandbox)))
    stop.set()
    for thread in searchers:
        thread.join()
    status = sandbox.index_status()
    sandbox.close()
    shutil.rmtree(work)
    return report(args, churn, whole_checks, whole_stale, tenths, samples, errors, status)


def report(args, churn, whole_checks, whole_stale, tenths, samples, errors, status) -> int:
    warm = [s for s in samples if s[0] >= args.seconds * 0.1] or samples
    rss_after_warmup = warm[0][1]
    drift = max(s[1] for s in warm) - rss_after_warmup
    searches = sum(histogram.total() for histogram in tenths)

    def within(lo, hi):
        return [s for s in samples if lo <= s[0] < hi]

    def peaks(lo, hi):
        """The median and highest resident memory, and the most descriptors and threads, sampled in [lo, hi)."""
        tenth = within(lo, hi)
        if not tenth:
            return "–", "–", "–", "–", "–", "–"  # no sample fell in this tenth (a short run)
        return (
            f"{statistics.median(s[1] for s in tenth) / MIB:.1f} MiB",
            f"{max(s[1] for s in tenth) / MIB:.1f} MiB",
            max(s[2] for s in tenth),
            max(s[3] for s in tenth),
            f"{max(s[4] for s in tenth) / MIB:.2f} MiB",
            f"{max(s[5] for s in tenth):,}",
        )

    # The trend without single samples' peaks (a search in flight holds its buffers): the last
    # tenth's median resident memory minus the second's (the first after warm-up).
    second, last = within(args.seconds * 0.1, args.seconds * 0.2), within(args.seconds * 0.9, args.seconds * 1.1)
    median_drift = (
        statistics.median(s[1] for s in last) - statistics.median(s[1] for s in second) if second and last else 0
    )

    rows = [
        (lo, hi, h.total(), h.percentile(0.5), h.percentile(0.99), *peaks(lo, hi))
        for n, h in enumerate(tenths)
        if h.total()
        for lo, hi in [(args.seconds * n / 10, args.seconds * (n + 1) / 10)]
    ]
    stale = len(churn.stale) + len(whole_stale)
    lines = [
        "# Soak: a warm index under churn and queries",
        "",
        f"Command: `python bench/soak.py --seconds {args.seconds:g}` (seed {args.seed}, "
        f"{args.dirs} x {args.files_per_dir} files to start); {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"fsnative {fsnative.__version__}, {os.cpu_count()} CPUs.",
        "",
        "| figure | value |",
        "|---|---:|",
        f"| churn operations | {churn.ops:,} |",
        f"| answers checked after an operation | {churn.checked:,} |",
        f"| whole answers compared with a walk | {whole_checks:,} |",
        f"| stale answers | {stale} |",
        f"| searches by 4 threads | {searches:,} |",
        f"| errors | {len(errors)} |",
        f"| resident memory after warm-up (first tenth) | {rss_after_warmup / MIB:.1f} MiB |",
        f"| drift: the last tenth's median minus the second tenth's (judged) | {median_drift / MIB:+.2f} MiB |",
        f"| the highest sample after warm-up minus the first | {drift / MIB:.2f} MiB |",
        f"| open file descriptors, first and last sample | {samples[0][2]} / {samples[-1][2]} |",
        f"| threads, first and last sample | {samples[0][3]} / {samples[-1][3]} |",
        f"| index at the end | {status.files:,} files, {status.rescans} rescans, watching {status.watching} |",
        "",
        "| time | searches | p50 | p99 | resident memory: median | peak | descriptors: peak | threads: peak "
        "| index memory_bytes: peak | index files: peak |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
        *(
            f"| {lo:.0f}-{hi:.0f} s | {n:,} | {p50:.2f} ms | {p99:.2f} ms | {median} | {rss} | {fds} | {threads} "
            f"| {index_memory} | {files} |"
            for lo, hi, n, p50, p99, median, rss, fds, threads, index_memory, files in rows
        ),
        "",
    ]
    lines += [f"- stale: {line}" for line in (churn.stale + whole_stale)[:20]]
    lines += [f"- error: {line}" for line in errors[:20]]
    judged = args.seconds >= DRIFT_JUDGED_FROM
    if not judged:
        lines.append(f"Drift not judged: the run is shorter than {DRIFT_JUDGED_FROM} s.")
    elif median_drift >= DRIFT_LIMIT:
        lines.append(f"**Drift over the limit**: {median_drift / MIB:.2f} MiB, the limit is {DRIFT_LIMIT / MIB:g} MiB.")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        Path(args.out).write_text(text)
    failed = stale > 0 or errors or (judged and median_drift >= DRIFT_LIMIT)
    return 1 if failed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--dirs", type=int, default=200)
    parser.add_argument("--files-per-dir", type=int, default=25)
    parser.add_argument("--check-every", type=int, default=50, help="operations between whole comparisons")
    parser.add_argument("--sample-seconds", type=float, default=5)
    parser.add_argument("--pause", type=float, default=0.0, help="seconds between churn operations")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--out", help="write the markdown report here too")
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
