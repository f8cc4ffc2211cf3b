"""Load through the binding: many threads calling at once all get correct answers, and resident
memory stops growing (no leak per call).

CI runs a size that keeps it fast: 4 threads x 100 calls, memory compared between 500 and
2,000 calls. ``FSNATIVE_FULL_LOAD=1`` runs the issue's full size: 32 threads x 1,000 calls,
memory compared between 1,000 and 10,000 calls::

    FSNATIVE_FULL_LOAD=1 ./python/dev.sh test binding/test_load.py binding/test_race.py -s

Resident memory is VmRSS from /proc/self/status, after ``gc.collect()``. It is compared after a
warm-up: the first few thousand calls grow it by several MB as glibc fills its per-thread
arenas and its cache of thread stacks (each search runs on threads of its own), and then it
stays flat; a leak keeps growing.
"""

from __future__ import annotations

import gc
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from fsnative import InvalidPatternError, Sandbox

FULL = os.environ.get("FSNATIVE_FULL_LOAD") == "1"
THREADS, CALLS_PER_THREAD = (32, 1000) if FULL else (4, 100)
EARLY, LATE = (1000, 10_000) if FULL else (500, 2000)
WARM_UP = 10_000 if FULL else 3000
#: Growth of resident memory allowed between EARLY and LATE calls.
LEAK_MB = 8
FILES = 20


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS in /proc/self/status")


def name(n: int) -> str:
    return f"d{n % 4}/f{n:02}.txt"


@pytest.fixture(scope="module")
def sandbox(tmp_path_factory: pytest.TempPathFactory) -> Sandbox:
    root = tmp_path_factory.mktemp("load")
    for n in range(FILES):
        (root / name(n)).parent.mkdir(exist_ok=True)
        (root / name(n)).write_text(f"word{n}\n" * (n + 1) + "common line\n")
    return Sandbox([root])


def call(sandbox: Sandbox, i: int) -> None:
    """Call ``i`` of a mix of operations, checking its answer."""
    n = i % FILES
    kind = i % 6
    if kind == 0:
        found = sandbox.grep(rf"word{n}\b")
        assert (found.total_matches, found.files[0].relative_path) == (n + 1, name(n))
    elif kind == 1:
        assert len(sandbox.grep("common", mode="files", limit=None).files) == FILES
    elif kind == 2:
        assert [e.relative_path for e in sandbox.glob(f"**/f{n:02}.txt").entries] == [name(n)]
    elif kind == 3:
        rendered = sandbox.grep(rf"word{n}\b", mode="count").render(path_style="relative")
        assert rendered == f"{name(n)}:{n + 1}\n"
    elif kind == 4:
        with pytest.raises(InvalidPatternError):
            sandbox.grep(f"word{n}(")
    else:
        listed = sandbox.glob("**/*.txt", limit=5)
        assert (listed.total, len(listed.entries), listed.truncated) == (FILES, 5, "limit")


def test_threads_calling_at_once_all_get_their_own_answer(sandbox: Sandbox) -> None:
    start = threading.Barrier(THREADS)

    def worker(t: int) -> int:
        start.wait()
        for c in range(CALLS_PER_THREAD):
            call(sandbox, t * CALLS_PER_THREAD + c)
        return CALLS_PER_THREAD

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=THREADS) as pool:
        done = sum(pool.map(worker, range(THREADS)))
    elapsed = time.perf_counter() - started
    print(f"\n{THREADS} threads x {CALLS_PER_THREAD} calls: {done} calls in {elapsed * 1000:.0f} ms")
    assert done == THREADS * CALLS_PER_THREAD


@pytest.mark.skipif(
    not Path("/proc/self/status").exists(), reason="resident memory is read from /proc/self/status (Linux)"
)
def test_resident_memory_stops_growing(sandbox: Sandbox) -> None:
    done = 0

    def run(until: int) -> float:
        nonlocal done
        with ThreadPoolExecutor(max_workers=4) as pool:
            list(pool.map(lambda i: call(sandbox, i), range(done, until)))
        done = until
        gc.collect()
        return rss_mb()

    before = rss_mb()
    warm = run(WARM_UP)
    started = time.perf_counter()
    early = run(WARM_UP + EARLY)
    late = run(WARM_UP + LATE)
    elapsed = time.perf_counter() - started
    print(f"\nRSS before {before:.1f} MB, after a warm-up of {WARM_UP} calls {warm:.1f} MB")
    print(
        f"RSS after {EARLY} calls {early:.1f} MB, after {LATE} calls {late:.1f} MB ({late - early:+.1f} MB);"
        f" {LATE} calls in {elapsed * 1000:.0f} ms"
    )
    assert late - early < LEAK_MB, f"resident memory grew {late - early:.1f} MB from {EARLY} to {LATE} calls"
