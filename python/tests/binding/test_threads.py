"""The GIL is released during searches; searches stop on Ctrl-C, a deadline or a cancel.

No assertion here compares durations: each test observes an order of events that only a
working release of the GIL (or a working stop) can produce, so it fails when the behaviour
breaks and never because the machine is busy. How fast searches run side by side is the
benchmark's business (bench/).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
from conftest import SLOW_FILES, SLOW_PATTERN

from fsnative import CancelToken, GrepResult, Sandbox

# Iterations another thread makes before it stops a search (each sleeps 1 ms). A whole search
# of the slow tree takes seconds, so with the GIL released they fit in it many times over;
# with the GIL held none of them can run until the search is over.
PROGRESS_STEPS = 20


def make_progress(token: CancelToken, start: threading.Event, steps: list[int]) -> None:
    """Waits for ``start``, takes ``PROGRESS_STEPS`` steps of Python work, then cancels."""
    start.wait()
    while len(steps) < PROGRESS_STEPS:
        steps.append(len(steps))
        time.sleep(0.001)
    token.cancel()


def test_python_threads_run_while_a_search_runs(slow_tree: Path) -> None:
    """Another Python thread makes progress during a search: it is the one that ends it."""
    sandbox = Sandbox([slow_tree])
    token = CancelToken()
    searching = threading.Event()
    steps: list[int] = []
    helper = threading.Thread(target=make_progress, args=(token, searching, steps))
    helper.start()
    searching.set()
    result = sandbox.grep(SLOW_PATTERN, threads=1, mode="count", cancel=token)
    helper.join()
    # Had the search held the GIL, it would have run to the end before the helper's first
    # step, and come back complete.
    assert steps == list(range(PROGRESS_STEPS))
    assert result.truncated == "cancelled"
    assert result.stats.files_searched < SLOW_FILES


def test_searches_on_several_threads_overlap(slow_tree: Path) -> None:
    """Four searches are all in progress at one moment: one cancel stops each of them."""
    sandbox = Sandbox([slow_tree])
    token = CancelToken()
    entering = [threading.Event() for _ in range(4)]
    results: list[GrepResult | None] = [None] * 4

    def search(index: int) -> None:
        entering[index].set()
        results[index] = sandbox.grep(SLOW_PATTERN, threads=1, mode="count", cancel=token)

    workers = [threading.Thread(target=search, args=(index,)) for index in range(4)]
    for worker in workers:
        worker.start()
    for event in entering:
        event.wait()
    steps: list[int] = []
    all_started = threading.Event()
    all_started.set()
    make_progress(token, all_started, steps)  # this thread runs too, then cancels
    for worker in workers:
        worker.join()
    # A search that held the GIL would have finished before any other could start (and
    # before this thread could cancel), so at least one would be complete.
    assert [result.truncated if result else None for result in results] == ["cancelled"] * 4
    assert all(result is not None and result.stats.files_searched < SLOW_FILES for result in results)


def test_ctrl_c_interrupts_a_long_search(slow_tree: Path) -> None:
    sandbox = Sandbox([slow_tree])
    token = CancelToken()
    # Python turns SIGINT into KeyboardInterrupt only if SIGINT was not ignored when it started
    # (it is, under a shell's `&` or `nohup`): give the test Python's usual handler.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            sandbox.grep(SLOW_PATTERN, threads=1, cancel=token)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    # The search itself was told to stop, not left to finish before Python saw the signal.
    assert token.cancelled


def test_timeout_returns_what_was_found(slow_tree: Path) -> None:
    sandbox = Sandbox([slow_tree])
    result = sandbox.grep(SLOW_PATTERN, threads=1, mode="count", timeout_ms=200)
    assert result.truncated == "timeout"
    assert result.next_cursor is not None
    assert result.stats.files_searched < SLOW_FILES
    listed = sandbox.glob("**/*", timeout_ms=0)
    assert listed.truncated == "timeout"


def test_cancel_token_stops_a_search_from_another_thread(slow_tree: Path) -> None:
    sandbox = Sandbox([slow_tree])
    token = CancelToken()
    assert repr(token) == "CancelToken(cancelled=False)"
    timer = threading.Timer(0.2, token.cancel)
    timer.start()
    result = sandbox.grep(SLOW_PATTERN, threads=1, mode="count", cancel=token)
    timer.join()
    assert (result.truncated, token.cancelled) == ("cancelled", True)
    assert result.stats.files_searched < SLOW_FILES
    assert repr(token) == "CancelToken(cancelled=True)"
    assert sandbox.glob("**/*", cancel=token).truncated == "cancelled"
