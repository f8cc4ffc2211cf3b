"""`fsnative-fs-mcp DIR` is fs-mcp's stdio server searching with fsnative: an MCP client lists
its tools (described and typed as fs-mcp's) and calls them, with no `rg` anywhere on PATH."""

from __future__ import annotations

import asyncio
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Union

import parity
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.session import RequestResponder
from mcp.types import CallToolResult, ClientResult, ServerNotification, ServerRequest, TextContent, Tool

import fsnative

COMMAND = str(parity.VENV_BIN / "fsnative-fs-mcp")
"""The console script pip installed next to the tests' interpreter."""
SERVER_START_SECONDS = 120
"""Ample time for a server to import fs-mcp and answer, on a busy machine."""

ServerMessage = Union[RequestResponder[ServerRequest, ClientResult], ServerNotification, Exception]


def fs_mcp_tools() -> dict[str, Tool]:
    """The tools fs-mcp's own server lists, as an MCP client receives them."""
    registered = asyncio.run(parity.fs_mcp_server().mcp.get_tools())
    return {name: tool.to_mcp_tool() for name, tool in registered.items()}


def text_of(result: CallToolResult) -> str:
    assert not result.isError, result
    [content] = result.content
    assert isinstance(content, TextContent)
    return content.text


def server_env() -> dict[str, str]:
    path = parity.path_without_rg()
    assert shutil.which("rg", path=path) is None
    return {"PATH": path}


async def talk_to_server(command: list[str], root: Path, errors: Path) -> dict[str, Any]:
    """Lists the tools of the server `command` starts and calls a few; `unparsed_output`
    holds whatever the server wrote on stdout that is not an MCP message."""
    unparsed_output: list[Exception] = []

    async def keep_unparsed_output(message: ServerMessage) -> None:
        if isinstance(message, Exception):
            unparsed_output.append(message)

    server = StdioServerParameters(command=command[0], args=command[1:], env=server_env())
    with errors.open("w") as errlog:
        async with (
            stdio_client(server, errlog=errlog) as (read, write),
            ClientSession(read, write, message_handler=keep_unparsed_output) as session,
        ):
            started = await session.initialize()
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            return {
                "server_info": started.serverInfo,
                "tools": tools,
                "grep": text_of(await session.call_tool("grep_content", {"pattern": "return 'foo'"})),
                "grep_sub": text_of(
                    await session.call_tool(
                        "grep_content",
                        {
                            "pattern": "FIXME",
                            "search_path": "pkg/sub",
                            "case_insensitive": True,
                            "section_patterns": [],
                        },
                    )
                ),
                "search": text_of(await session.call_tool("search_files", {"path": "pkg", "pattern": "*.py"})),
                "outside": await session.call_tool("grep_content", {"pattern": "x", "search_path": str(root.parent)}),
                "read": text_of(await session.call_tool("read_files", {"files": [{"path": "pkg/sub/deep.py"}]})),
                "read_sibling": text_of(
                    await session.call_tool("read_files", {"files": [{"path": f"{root}_evil/secret.txt"}]})
                ),
                "unparsed_output": unparsed_output,
            }


def serve(command: list[str], tmp_path: Path) -> tuple[Path, dict[str, Any], str]:
    """Runs `command` on a fresh project; returns the project, the answers and the stderr."""
    root = parity.write_project(tmp_path / "project").resolve()
    (tmp_path / "project_evil").mkdir()
    (tmp_path / "project_evil" / "secret.txt").write_text("secret\n", encoding="utf-8")
    errors = tmp_path / "server-stderr.txt"
    talk = talk_to_server([*command, str(root)], root, errors)
    answers = asyncio.run(asyncio.wait_for(talk, SERVER_START_SECONDS))
    return root, answers, errors.read_text()


def test_the_command_serves_fs_mcps_tools_searching_with_fsnative_and_no_rg(tmp_path: Path) -> None:
    root, answers, stderr = serve([COMMAND, "--no-ui", "--no-http"], tmp_path)
    fs_mcp = fs_mcp_tools()
    assert set(answers["tools"]) == set(fs_mcp), stderr
    for name in ("grep_content", "search_files"):
        # No sentence of fs-mcp's descriptions is false of fsnative, so none is changed.
        assert answers["tools"][name].description == fs_mcp[name].description
        assert answers["tools"][name].inputSchema == fs_mcp[name].inputSchema
        assert answers["tools"][name] == fs_mcp[name]  # and the rest: output schema, annotations
    # Sorted by path, and the hint is the next `def` (fs-mcp: rg's order, and EOF always).
    assert answers["grep"] == "\n\n".join(
        [
            f"File: {root / 'pkg' / 'mod.py'}, Line: 7 (section end hint: L9)\n---\nreturn 'foo'\n---",
            f"File: {root / 'pkg' / 'sub' / 'deep.py'}, Line: 2 (section end hint: L5)\n---\nreturn 'foo'\n---",
        ]
    )
    assert answers["grep_sub"] == (
        f"File: {root / 'pkg' / 'sub' / 'deep.py'}, Line: 7\n---\n# FIXME: foo at the end\n---"
    )
    assert answers["search"] == "__init__.py\nmod.py\nsub/deep.py"
    assert answers["outside"].isError
    assert "Access denied" in str(answers["outside"].content)
    assert "class Second:" in answers["read"]
    assert "Error: Access denied" in answers["read_sibling"]  # fs-mcp's own tools use our check
    assert answers["unparsed_output"] == []
    assert (answers["server_info"].name, answers["server_info"].version) == ("fsnative-fs-mcp", fsnative.__version__)
    # Quiet: no banner, no request log, no library warnings, and not fs-mcp's false "ripgrep is
    # not installed" (its notices of other missing programs, true of its own tools, may stay).
    for noise in ("fsnative-fs-mcp:", "ripgrep", "FastMCP", "Starting MCP server", "DeprecationWarning"):
        assert noise not in stderr, stderr


@pytest.mark.parametrize(
    "command", [[COMMAND], [sys.executable, "-m", "fsnative.fs_mcp"]], ids=["fsnative-fs-mcp", "python -m"]
)
def test_without_no_ui_and_no_http_it_serves_stdio_and_says_so_on_stderr(command: list[str], tmp_path: Path) -> None:
    root, answers, stderr = serve([*command, "--port", "9000", "--watch"], tmp_path)
    assert answers["grep"].startswith(f"File: {root / 'pkg' / 'mod.py'}, Line: 7 (section end hint: L9)")
    assert answers["unparsed_output"] == []
    assert "fsnative-fs-mcp: not starting fs-mcp's web UI on 0.0.0.0:9000;" in stderr
    assert "fsnative-fs-mcp: not starting fs-mcp's HTTP server on 0.0.0.0:8124;" in stderr
    assert "fsnative-fs-mcp: ignoring unrecognized arguments, as fs-mcp does: --watch" in stderr


def test_verbose_turns_the_sdks_log_on(tmp_path: Path) -> None:
    _, answers, stderr = serve([COMMAND, "--no-ui", "--no-http", "--verbose"], tmp_path)
    assert answers["unparsed_output"] == []
    assert "Starting MCP server" in stderr
    assert "ripgrep" not in stderr


def test_without_fs_mcp_it_names_the_fix(tmp_path: Path) -> None:
    hide_fs_mcp = tmp_path / "hide_fs_mcp"
    hide_fs_mcp.mkdir()
    (hide_fs_mcp / "sitecustomize.py").write_text("import sys\n\nsys.modules['fs_mcp'] = None\n", encoding="utf-8")
    finished = subprocess.run(
        [COMMAND, "--no-ui", "--no-http", str(tmp_path)],
        env={**server_env(), "PYTHONPATH": str(hide_fs_mcp)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=SERVER_START_SECONDS,
    )
    assert finished.returncode == 1
    assert finished.stdout == ""
    assert finished.stderr.startswith('fsnative-fs-mcp needs fs-mcp 1.15.0: pip install "fsnative[fs-mcp]"')
