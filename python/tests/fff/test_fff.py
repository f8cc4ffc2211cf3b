"""`fsnative-fff-mcp DIR` serves Terraphim's FFF tools (find_files, grep, multi_grep) over
stdio: an MCP client lists them and calls them, and gets Terraphim's text, limits and cursors,
except that pages never lose matches and a bad cursor is an error."""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, InitializeResult, TextContent

COMMAND = str(Path(sys.executable).parent / "fsnative-fff-mcp")
"""The console script pip installed next to the tests' interpreter."""
SECONDS = 120
"""Ample time for a server to start or answer on a busy machine."""

MANY = 250
"""Lines holding `needle` in many.txt: more than a file reports (200) and than a page holds."""
LONG_LINE = "needle" + "a" * 505 + "é" * 10
"""Its 512th byte falls inside an `é`, so the cut keeps 511 bytes."""
FILES = {
    "src/main.rs": "fn main() {\n    // TODO: parse args\n    let todo = 1;\n}\n",
    "src/lib.rs": "pub fn run() {}\n// Todo: docs\n",
    "docs/notes.md": "TODO list\n- nothing\n",
    "tests/test_main.rs": "// TODO test\n",
    "long.txt": LONG_LINE + "\n",
    "many.txt": "".join(f"needle {n}\n" for n in range(1, MANY + 1)),
    **{f"gen/file_{n:02}.txt": "generated\n" for n in range(25)},  # more than find_files lists
}


class McpSession:
    """A stdio MCP client session with a server process, kept open across calls: its event
    loop runs on a thread of its own, and `call` waits for each answer."""

    initialized: InitializeResult
    """The server's answer to `initialize` (its name and version in `serverInfo`)."""

    def __init__(self, command: list[str], errors: Path) -> None:
        self.errors = errors
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._thread.start()
        self._ready: concurrent.futures.Future[ClientSession] = concurrent.futures.Future()
        self._stop = asyncio.Event()
        self._served = asyncio.run_coroutine_threadsafe(self._serve(command, errors), self._loop)
        self.session = self._ready.result(SECONDS)

    async def _serve(self, command: list[str], errors: Path) -> None:
        server = StdioServerParameters(command=command[0], args=command[1:])
        try:
            with errors.open("w") as errlog:
                async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                    self.initialized = await session.initialize()
                    self._ready.set_result(session)
                    await self._stop.wait()
        except BaseException as error:
            if not self._ready.done():
                self._ready.set_exception(error)
            raise

    def run(self, call: Any) -> Any:
        """Runs the coroutine `call(session)` on the session's loop and returns its result."""
        return asyncio.run_coroutine_threadsafe(call(self.session), self._loop).result(SECONDS)

    def call(self, name: str, arguments: dict[str, Any]) -> CallToolResult:
        result: CallToolResult = self.run(lambda session: session.call_tool(name, arguments))
        return result

    def stderr(self) -> str:
        """What the server printed on stderr so far."""
        return self.errors.read_text(encoding="utf-8")

    def close(self) -> None:
        self._loop.call_soon_threadsafe(self._stop.set)
        self._served.result(SECONDS)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(SECONDS)
        self._loop.close()


def lines_of(result: CallToolResult) -> list[str]:
    """The text blocks of a successful answer, one per line as Terraphim sends them."""
    assert not result.isError, result
    texts = []
    for content in result.content:
        assert isinstance(content, TextContent)
        texts.append(content.text)
    return texts


def error_of(result: CallToolResult) -> str:
    assert result.isError, result
    [content] = result.content
    assert isinstance(content, TextContent)
    return content.text


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project the server serves, a sibling directory outside it, and a link out."""
    base = tmp_path_factory.mktemp("fff")
    root = base / "project"
    for name, text in FILES.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    with (root / "huge.txt").open("w", encoding="utf-8") as huge:  # over 10 MiB: not searched
        huge.write("needle TODO\n" + "z" * (10 * 1024 * 1024))
    (root / "empty").mkdir()
    (base / "project_evil").mkdir()
    (base / "project_evil" / "secret.txt").write_text("needle TODO\n", encoding="utf-8")
    (root / "escape").symlink_to(base / "project_evil")
    return root.resolve()


@pytest.fixture(scope="module")
def server(project: Path) -> Iterator[McpSession]:
    session = McpSession([COMMAND, str(project)], project.parent / "server-stderr.txt")
    yield session
    session.close()


def test_the_tools_are_listed_with_terraphims_parameters_and_defaults(server: McpSession) -> None:
    tools = {tool.name: tool for tool in server.run(lambda session: session.list_tools()).tools}
    assert sorted(tools) == ["find_files", "grep", "multi_grep"]
    for tool in tools.values():
        assert tool.annotations is not None and tool.annotations.readOnlyHint
    params = {name: tool.inputSchema["properties"] for name, tool in tools.items()}
    assert {name: tools[name].inputSchema["required"] for name in tools} == {
        "find_files": ["query"],
        "grep": ["query"],
        "multi_grep": ["patterns"],
    }
    assert {name: {key: value.get("default") for key, value in p.items()} for name, p in params.items()} == {
        "find_files": {"query": None, "path": ".", "limit": 20},
        "grep": {"query": None, "path": ".", "limit": 50, "output_mode": "content", "cursor": None},
        "multi_grep": {
            "patterns": None,
            "path": ".",
            "constraints": "",
            "limit": 50,
            "output_mode": "content",
            "cursor": None,
        },
    }
    assert params["grep"]["output_mode"]["enum"] == ["content", "files"]
    assert params["multi_grep"]["patterns"]["items"] == {"type": "string"}
    assert params["grep"]["cursor"]["description"] == "Pagination cursor from a previous result's next_cursor field"


# The lines themselves (header, plurals, relative paths, files mode) are the core's, checked by
# tests/vectors/fff.json in every language; these tests check what the adapter decides.
def test_grep_maps_terraphims_options_smart_case_path_order_files_mode(server: McpSession) -> None:
    # An upper-case letter makes the search case-sensitive; huge.txt (over 10 MiB) is skipped.
    assert lines_of(server.call("grep", {"query": "TODO"})) == [
        "Found 3 matches across 3 files (searched 31 files under '.')",
        "docs/notes.md:1:TODO list",
        "src/main.rs:2:    // TODO: parse args",
        "tests/test_main.rs:1:// TODO test",
    ]
    # All lower case: case-insensitive (smart case); paths relative to `path`.
    assert lines_of(server.call("grep", {"query": "todo", "path": "src"}))[1:] == [
        "lib.rs:2:// Todo: docs",
        "main.rs:2:    // TODO: parse args",
        "main.rs:3:    let todo = 1;",
    ]
    assert lines_of(server.call("grep", {"query": "TODO", "output_mode": "files"}))[1:] == [
        "docs/notes.md",
        "src/main.rs",
        "tests/test_main.rs",
    ]


def test_grep_searches_plain_text_cuts_lines_at_512_bytes_and_reports_200_per_file(server: McpSession) -> None:
    assert lines_of(server.call("grep", {"query": "let todo = 1;", "path": "src"}))[1:] == [
        "main.rs:3:    let todo = 1;"
    ]
    assert lines_of(server.call("grep", {"query": "a.*é"})) == [
        "Found 0 matches across 0 files (searched 31 files under '.')"
    ]
    [_header, line] = lines_of(server.call("grep", {"query": "needleaaa"}))
    assert line == "long.txt:1:" + LONG_LINE.encode()[:511].decode()
    answer = lines_of(server.call("grep", {"query": "needle ", "limit": 1000}))
    assert answer[0] == "Found 200 matches across 1 file (searched 31 files under '.')"
    assert answer[1:] == [f"many.txt:{n}:needle {n}" for n in range(1, 201)]


def pages(server: McpSession, tool: str, arguments: dict[str, Any]) -> tuple[list[str], int]:
    """Every line of every page of a call (headers and cursors left out), and the page count."""
    lines: list[str] = []
    cursor: str | None = None
    for count in range(1, 1000):
        answer = lines_of(server.call(tool, {**arguments, **({"cursor": cursor} if cursor else {})}))
        assert answer[0].startswith("Found ")
        cursor = answer[-1].removeprefix("next_cursor: ") if answer[-1].startswith("next_cursor: ") else None
        lines += answer[1:-1] if cursor else answer[1:]
        if cursor is None:
            return lines, count
        assert re.fullmatch(r"[A-Za-z0-9_-]+", cursor), cursor  # URL-safe base64, no padding
    raise AssertionError("more than 1000 pages")


@pytest.mark.parametrize("limit", [1, 7, 50, 199])
def test_pages_add_up_to_the_whole_answer_also_inside_a_file(server: McpSession, limit: int) -> None:
    whole = lines_of(server.call("grep", {"query": "needle", "limit": 1000}))[1:]
    assert len(whole) == 201  # long.txt's line and many.txt's first 200
    paged, count = pages(server, "grep", {"query": "needle", "limit": limit})
    assert paged == whole
    assert count == -(-len(whole) // limit)  # no empty last page


def test_pages_of_files_and_of_multi_grep_add_up_too(server: McpSession) -> None:
    arguments = {"patterns": ["TODO", "needle"], "output_mode": "files"}
    whole = lines_of(server.call("multi_grep", arguments))[1:]
    assert whole == ["docs/notes.md", "long.txt", "many.txt", "src/main.rs", "tests/test_main.rs"]
    assert pages(server, "multi_grep", {**arguments, "limit": 2}) == (whole, 3)
    content = {"patterns": ["Todo", "needle 1"]}
    whole = lines_of(server.call("multi_grep", {**content, "limit": 1000}))[1:]
    # "Todo" makes the search case-sensitive: lib.rs's line, and many.txt's 1, 10…19 and 100…199.
    assert len(whole) == 112
    assert pages(server, "multi_grep", {**content, "limit": 3}) == (whole, 38)


def test_a_cursor_that_does_not_decode_or_fit_the_arguments_is_an_error(server: McpSession) -> None:
    for cursor in ("!!not base64!!", "MTA", "MTA="):  # "MTA" is Terraphim's cursor for file 10
        assert error_of(server.call("grep", {"query": "needle", "cursor": cursor})).startswith(
            "Error executing tool grep: INVALID_CURSOR: the cursor is malformed"
        ), cursor
    first = lines_of(server.call("grep", {"query": "needle", "limit": 5}))
    assert lines_of(server.call("grep", {"query": "needle", "limit": 5, "cursor": ""})) == first  # none
    cursor = first[-1].removeprefix("next_cursor: ")
    assert "INVALID_CURSOR: the cursor belongs to a different request" in error_of(
        server.call("grep", {"query": "TODO", "cursor": cursor})
    )
    # Only `limit` may change between pages.
    assert lines_of(server.call("grep", {"query": "needle", "limit": 1, "cursor": cursor}))[1] == "many.txt:5:needle 5"


def test_multi_grep_ors_its_patterns(server: McpSession) -> None:
    assert lines_of(server.call("multi_grep", {"patterns": ["fn main", 'pub "fn"', "nothing"]}))[1:] == [
        "docs/notes.md:2:- nothing",
        "src/main.rs:1:fn main() {",
    ]
    assert "at least one pattern" in error_of(server.call("multi_grep", {"patterns": []}))


def test_multi_grep_constraints_choose_the_files(server: McpSession) -> None:
    assert lines_of(server.call("multi_grep", {"patterns": ["todo"], "constraints": "*.rs !tests/"}))[1:] == [
        "src/lib.rs:2:// Todo: docs",
        "src/main.rs:2:    // TODO: parse args",
        "src/main.rs:3:    let todo = 1;",
    ]


def test_paths_outside_the_sandbox_are_refused(server: McpSession, project: Path) -> None:
    for outside in (str(project.parent / "project_evil"), "..", "escape", "/etc"):
        for tool, arguments in (("grep", {"query": "needle"}), ("multi_grep", {"patterns": ["needle"]})):
            message = error_of(server.call(tool, {**arguments, "path": outside}))
            assert message.startswith(f"Error executing tool {tool}: OUTSIDE_SANDBOX: access denied: {outside}")
    # The link is not followed while searching either.
    assert "secret" not in "".join(lines_of(server.call("grep", {"query": "needle", "limit": 1000})))


def scored(line: str) -> tuple[int, str]:
    """A `find_files` line: the score right-aligned in five columns, two spaces, the path."""
    match = re.fullmatch(r"( *\d+)  (\S+)", line)
    assert match and len(match[1]) >= 5, line
    return int(match[1]), match[2]


def test_find_files_lists_the_best_paths_first_with_their_scores(server: McpSession) -> None:
    answer = lines_of(server.call("find_files", {"query": "main.rs"}))
    # (The core's count of candidates takes in the link out, which it never lists.)
    assert re.fullmatch(r"Found 2 files matching 'main\.rs' \(searched 3[23] files under '\.'\)", answer[0])
    found = [scored(line) for line in answer[1:]]
    assert [path for _, path in found] == ["src/main.rs", "tests/test_main.rs"]
    assert found[0][0] > found[1][0]
    # Typos are forgiven; paths are relative to `path`.
    assert scored(lines_of(server.call("find_files", {"query": "mian.rs", "path": "src"}))[1])[1] == "main.rs"
    # 20 paths unless `limit` says otherwise.
    assert lines_of(server.call("find_files", {"query": "file"}))[0].startswith("Found 20 files matching 'file' (")
    assert len(lines_of(server.call("find_files", {"query": "file", "limit": 3}))) == 4
    message = error_of(server.call("find_files", {"query": "secret", "path": "escape"}))
    assert message.startswith("Error executing tool find_files: OUTSIDE_SANDBOX: access denied: escape")


def test_the_prefix_gives_terraphims_own_tool_names(project: Path) -> None:
    session = McpSession([COMMAND, "--prefix", "terraphim_", str(project)], project.parent / "prefix-stderr.txt")
    try:
        tools = sorted(tool.name for tool in session.run(lambda s: s.list_tools()).tools)
        assert tools == ["terraphim_find_files", "terraphim_grep", "terraphim_multi_grep"]
        assert lines_of(session.call("terraphim_grep", {"query": "TODO", "path": "tests"}))[1:] == [
            "test_main.rs:1:// TODO test"
        ]
    finally:
        session.close()


def test_with_frecency_files_come_most_used_first_and_a_thesaurus_boosts_found_paths(
    server: McpSession, project: Path, tmp_path: Path
) -> None:
    thesaurus = tmp_path / "thesaurus.json"
    thesaurus.write_text(json.dumps({"tests": "testing"}), encoding="utf-8")
    command = [COMMAND, "--frecency", str(tmp_path / "frecency"), "--thesaurus", str(thesaurus), str(project)]
    session = McpSession(command, tmp_path / "stderr.txt")
    try:
        files = {"patterns": ["TODO", "needle"], "output_mode": "files"}
        # Nothing recorded yet: path order. Each file a page returns counts as an access.
        assert lines_of(session.call("multi_grep", files))[1:] == [
            "docs/notes.md",
            "long.txt",
            "many.txt",
            "src/main.rs",
            "tests/test_main.rs",
        ]
        lines_of(session.call("grep", {"query": "TODO"}))  # three of them once more
        assert lines_of(session.call("multi_grep", files))[1:] == [
            "docs/notes.md",
            "src/main.rs",
            "tests/test_main.rs",
            "long.txt",
            "many.txt",
        ]
        # find_files adds frecency (both files alike) and the boost of "tests" (5) to the scores.
        plain = [scored(line) for line in lines_of(server.call("find_files", {"query": "main.rs"}))[1:]]
        ranked = [scored(line) for line in lines_of(session.call("find_files", {"query": "main.rs"}))[1:]]
        assert [path for _, path in ranked] == ["src/main.rs", "tests/test_main.rs"]
        assert ranked[0][0] > plain[0][0]
        assert ranked[1][0] - plain[1][0] == ranked[0][0] - plain[0][0] + 5
    finally:
        session.close()


def test_the_server_names_itself_with_fsnatives_version_and_keeps_stderr_quiet(server: McpSession) -> None:
    import fsnative

    info = server.initialized.serverInfo
    assert (info.name, info.version) == ("fsnative-fff-mcp", fsnative.__version__)
    lines_of(server.call("grep", {"query": "TODO"}))
    error_of(server.call("grep", {"query": "x", "path": ".."}))
    assert server.stderr() == ""


def test_verbose_logs_each_request_on_stderr(project: Path, tmp_path: Path) -> None:
    session = McpSession([COMMAND, "--verbose", str(project)], tmp_path / "verbose-stderr.txt")
    try:
        lines_of(session.call("grep", {"query": "TODO"}))
    finally:
        session.close()
    assert "CallToolRequest" in session.stderr()


def test_without_mcp_the_command_names_the_fix(tmp_path: Path) -> None:
    hide_mcp = tmp_path / "hide_mcp"
    hide_mcp.mkdir()
    (hide_mcp / "sitecustomize.py").write_text("import sys\n\nsys.modules['mcp'] = None\n", encoding="utf-8")
    finished = subprocess.run(
        [COMMAND, str(tmp_path)],
        env={"PYTHONPATH": str(hide_mcp)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=SECONDS,
    )
    assert finished.returncode == 1
    assert finished.stderr.startswith('fsnative-fff-mcp needs the mcp package: pip install "fsnative[fff]"')


def test_fff_tools_is_a_deprecated_alias_of_fff() -> None:
    """``fsnative.fff_tools``, the module's former name, still imports, with a warning."""
    import importlib

    import fsnative.fff

    sys.modules.pop("fsnative.fff_tools", None)
    with pytest.warns(DeprecationWarning, match=r"import fsnative\.fff"):
        old = importlib.import_module("fsnative.fff_tools")
    assert old.FffTools is fsnative.fff.FffTools
    assert (old.GREP_LIMIT, old.FIND_LIMIT, old.MATCHES_PER_FILE) == (50, 20, 200)
