"""Uses the whole public API with the types a caller relies on; `mypy --strict` checks it
(see test_typing.py). It is never run. A `# type: ignore[...]` marks a call the stubs must
reject: strict mode fails on an ignore that is not needed."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, Literal

from typing_extensions import assert_type

import fsnative
from fsnative import (
    CancelToken,
    ContextLine,
    FileMatches,
    FindEntry,
    FindResult,
    FindStats,
    FsnativeError,
    GlobEntry,
    GlobResult,
    GlobStats,
    GrepResult,
    GrepStats,
    IndexOptions,
    IndexStatus,
    Match,
    OutsideSandboxError,
    Sandbox,
    ThesaurusStatus,
)


def synchronous(sandbox: Sandbox) -> None:
    assert_type(sandbox.roots, list[str])
    assert_type(sandbox.validate("src/a.py", intent="read"), str)
    assert_type(sandbox.validate(Path("x"), intent="write"), str)
    assert_type(sandbox.validate(b"x"), str)

    found = sandbox.grep("TODO", path="src", context=2, globs=["*.py"], limit=100)
    assert_type(found, GrepResult)
    sandbox.grep(["foo", "bar"], fixed_strings=True, mode="files", case_mode="smart", paths=[Path("a")])
    sandbox.grep(pattern="x", glob="*.rs", type="rust", types_not=["md"], hidden=True, follow_links=True)
    sandbox.grep("x", no_ignore=True, max_depth=2, max_filesize=10_000, search_binary=False, word=True)
    sandbox.grep("x", multiline=True, invert=False, before_context=1, after_context=None, max_count_per_file=3)
    sandbox.grep("x", limit=None, max_columns=200, sort="mtime", cursor=found.next_cursor, timeout_ms=500)
    sandbox.grep("x", threads=4, cancel=CancelToken())
    sandbox.grep("x", contxt=2)  # type: ignore[call-arg]
    sandbox.grep("x", mode="lines")  # type: ignore[arg-type]
    sandbox.grep(5)  # type: ignore[arg-type]

    assert_type(found.files, list[FileMatches])
    assert_type(found.total_matches, int)
    assert_type(found.truncated, Literal["limit", "timeout", "cancelled"] | None)
    assert_type(found.next_cursor, str | None)
    assert_type(found.mode, Literal["content", "files", "count"])
    assert_type(found.context_enabled, bool)
    assert_type(found.single_file, bool)
    stats = found.stats
    assert_type(stats, GrepStats)
    assert_type(stats.files_searched + stats.files_matched + stats.files_walked + stats.bytes_searched, int)
    assert_type(stats.skipped_binary + stats.skipped_special + stats.skipped_outside + stats.skipped_errors, int)
    assert_type(stats.elapsed_ms, float)
    for file in found.files:
        assert_type(file.path, str)
        assert_type(file.relative_path, str)
        assert_type(file.count, int)
        for match in file.matches:
            assert_type(match, Match)
            assert_type(match.line_number + match.column + match.byte_offset, int)
            assert_type(match.text, str)
            assert_type(match.truncated, bool)
            assert_type(match.submatches, list[tuple[int, int]])
            context: list[ContextLine] = match.before + match.after
            assert_type(context[0].line_number + context[0].byte_offset, int)
            assert_type(context[0].text, str)
            assert_type(context[0].truncated, bool)
    assert_type(found.render(format="standard", path_style="relative", with_filename=None, heading=False), str)
    assert_type(found.render("json", path_style="absolute"), str)
    assert_type(found.render("fff", path=".", base="/repo", patterns=["a", "b"]), str)
    found.render("xml")  # type: ignore[call-overload]
    found.render("fff", heading=True)  # type: ignore[call-overload]
    assert_type(found.to_json(), str)
    assert_type(found.to_dict()["files"], Any)

    listed = sandbox.glob("**/*.py", path=".", sort="mtime", limit=1000, kind="all", case_insensitive=True)
    assert_type(listed, GlobResult)
    assert_type(listed.total, int)
    entries: list[GlobEntry] = listed.entries
    assert_type(entries[0].is_dir, bool)
    glob_stats: GlobStats = listed.stats
    assert_type(glob_stats.entries_walked, int)
    sandbox.glob("*", context=1)  # type: ignore[call-arg]

    best = sandbox.find("confg", path="src", limit=20, constraints="*.py !test/", timeout_ms=None)
    assert_type(best, FindResult)
    assert_type(best.total, int)
    ranked: list[FindEntry] = best.entries
    assert_type(ranked[0].score + ranked[0].fuzzy + ranked[0].filename_bonus + ranked[0].exact_bonus, int)
    assert_type(ranked[0].typos, int)
    assert_type(ranked[0].relative_path, str)
    find_stats: FindStats = best.stats
    assert_type(find_stats.indexed, bool)
    sandbox.grep("x", constraints="src/")
    sandbox.glob("**", constraints="*.rs")
    sandbox.find("x", paths=["a"])  # type: ignore[call-arg]


def indexed(root: Path) -> None:
    with Sandbox([root], index=True) as sandbox:
        assert_type(sandbox, Sandbox)
        assert_type(sandbox.wait_for_index(timeout_ms=30_000), bool)
        assert_type(sandbox.wait_for_index(), bool)
        status = sandbox.index_status()
        assert_type(status, IndexStatus | None)
        if status is not None:
            assert_type(status.state, Literal["building", "ready", "failed", "closed"])
            assert_type(status.watching, Literal["live", "partial", "off"])
            assert_type(status.files + status.dirs + status.memory_bytes + status.content_pending, int)
            assert_type(status.list_ms, float | None)
            assert_type(status.error, str | None)
            store = status.store
            if store is not None:
                assert_type(store["outcome"], Literal["loaded", "rebuilt"])
                if store["outcome"] == "rebuilt":
                    assert_type(store["reason"], str)
            assert_type(status.store_bytes + status.store_changes, int)
            assert_type(status.cache_bytes + status.cache_files + status.cache_hits, int)
            assert_type(status.to_dict(), dict[str, Any])
    options = IndexOptions(max_files=200_000, max_memory=1 << 28, content=False, allow_home=False)
    assert_type(options.max_files, int)
    Sandbox([root], index=options).close()
    Sandbox([root], index={"max_files": 10, "content": True}).close()
    Sandbox([root], index=IndexOptions(persist=root.parent / "store")).close()
    Sandbox([root], index={"persist": str(root.parent / "store")}).close()
    Sandbox([root], index=None).close()
    IndexOptions(10)  # type: ignore[call-arg]
    Sandbox([root], index="yes")  # type: ignore[arg-type]
    Sandbox([root], indx=True)  # type: ignore[call-arg]


def ranked(root: Path) -> None:
    sandbox = Sandbox([root], frecency={"path": root / "db", "profile": "ai"}, record_hits=True)
    sandbox.record_access("a.py")
    assert_type(sandbox.frecency_score(root / "a.py"), float)
    assert_type(sandbox.grep("TODO", sort="frecency"), GrepResult)
    frecency = sandbox.frecency_status()
    if frecency is not None:
        assert_type(frecency["path"], str)
        assert_type(frecency["profile"], Literal["normal", "ai"])
    assert_type(sandbox.find("main").render("fff", query="main", path="."), str)
    boosted = Sandbox([root], thesaurus={"auth": "security"}, boost_weight=3, max_boost=9)
    assert_type(boosted.path_boost(b"src/auth.py"), int)
    status = boosted.thesaurus_status()
    assert_type(status, ThesaurusStatus | None)
    if status is not None:
        assert_type(status.path, str | None)
        assert_type(status.terms + status.concepts + status.reloads + status.max_boost, int)
        assert_type(status.last_error, str | None)
    Sandbox([root], frecency=True, thesaurus=root / "kg.json").close()
    Sandbox([root], boost_weight="5")  # type: ignore[arg-type]


async def asynchronous(sandbox: Sandbox) -> None:
    found = await sandbox.grep_async("TODO", context=2, cancel=None)
    assert_type(found, GrepResult)
    listed = await sandbox.glob_async("**/*.py", limit=None)
    assert_type(listed, GlobResult)
    best = await sandbox.find_async("mian", limit=None)
    assert_type(best, FindResult)
    await sandbox.grep_async("x", contxt=2)  # type: ignore[call-arg]


def errors() -> None:
    try:
        synchronous(Sandbox(["/repo"]))
        asyncio.run(asynchronous(Sandbox([Path("/repo")])))
    except fsnative.InvalidOptionError as error:
        assert_type(error.option, str | None)
        assert isinstance(error, TypeError) and isinstance(error, ValueError)
    except OutsideSandboxError as error:
        assert_type(error.code, str)
        assert isinstance(error, PermissionError)
    except FsnativeError as error:
        assert_type(error.code, str)
    token = CancelToken()
    token.cancel()
    assert_type(token.cancelled, bool)
    assert_type(fsnative.__version__, str)
