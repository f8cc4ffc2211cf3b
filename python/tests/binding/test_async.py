"""The asyncio variants: same answers, concurrent, cancellable with their task."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest
from conftest import SLOW_PATTERN

from fsnative import CancelToken, OutsideSandboxError, Sandbox


def test_async_variants_answer_like_the_sync_ones(sandbox: Sandbox) -> None:
    async def main() -> None:
        found = await sandbox.grep_async("foo", path="sub", context=1)
        listed = await sandbox.glob_async("**/*.py", sort="mtime")
        assert found.to_dict()["files"] == sandbox.grep("foo", path="sub", context=1).to_dict()["files"]
        assert listed.to_dict()["entries"] == sandbox.glob("**/*.py", sort="mtime").to_dict()["entries"]
        with pytest.raises(OutsideSandboxError):
            await sandbox.grep_async("foo", path="/")

    asyncio.run(main())
    assert Sandbox.grep_async.__name__ == "grep_async"
    assert "cancelling the task cancels the search" in (Sandbox.glob_async.__doc__ or "")


def test_searches_run_concurrently_with_the_event_loop(sandbox: Sandbox) -> None:
    async def main() -> list[int]:
        searches = [sandbox.grep_async(pattern) for pattern in ["foo", "hello", "TODO", "import"]]
        return [result.total_matches for result in await asyncio.gather(*searches)]

    assert asyncio.run(main()) == [4, 1, 1, 1]


@pytest.mark.parametrize("own_token", [False, True])
def test_cancelling_the_task_cancels_the_search(slow_tree: Path, own_token: bool) -> None:
    sandbox = Sandbox([slow_tree])
    token = CancelToken() if own_token else None

    async def main() -> float:
        task = asyncio.create_task(sandbox.grep_async(SLOW_PATTERN, threads=1, cancel=token))
        await asyncio.sleep(0.2)
        task.cancel()
        started = time.perf_counter()
        with pytest.raises(asyncio.CancelledError):
            await task
        # The task ends only once the search has stopped: seconds of work were cut short.
        return time.perf_counter() - started

    assert asyncio.run(main()) < 1.0
    if token is not None:
        assert token.cancelled
