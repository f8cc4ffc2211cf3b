"""`python -m fsnative.fs_mcp DIR` is fs-mcp's stdio server searching with fsnative: an MCP
client lists its tools and calls them, with no `rg` anywhere on PATH."""

from __future__ import annotations

import asyncio
import shutil
import sys
from pathlib import Path
from typing import Any

import parity
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent

SEARCH_TOOL_PARAMETERS = {
    "grep_content": ["pattern", "search_path", "case_insensitive", "context_lines", "section_patterns"],
    "search_files": ["path", "pattern"],
}


def text_of(result: CallToolResult) -> str:
    assert not result.isError, result
    [content] = result.content
    assert isinstance(content, TextContent)
    return content.text


async def talk_to_server(root: Path, errors: Path) -> dict[str, Any]:
    path = parity.path_without_rg()
    assert shutil.which("rg", path=path) is None
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "fsnative.fs_mcp", str(root)],
        env={"PATH": path, "FASTMCP_SHOW_CLI_BANNER": "false"},
    )
    with errors.open("w") as errlog:
        async with stdio_client(server, errlog=errlog) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            return {
                "tools": tools,
                "grep": text_of(await session.call_tool("grep_content", {"pattern": "return 'foo'"})),
                "grep_sub": text_of(
                    await session.call_tool(
                        "grep_content",
                        {"pattern": "FIXME", "search_path": "pkg/sub", "case_insensitive": True, "section_patterns": []},
                    )
                ),
                "search": text_of(await session.call_tool("search_files", {"path": "pkg", "pattern": "*.py"})),
                "outside": await session.call_tool("grep_content", {"pattern": "x", "search_path": str(root.parent)}),
                "read": text_of(await session.call_tool("read_files", {"files": [{"path": "pkg/sub/deep.py"}]})),
                "read_sibling": text_of(
                    await session.call_tool("read_files", {"files": [{"path": f"{root}_evil/secret.txt"}]})
                ),
            }


def test_the_server_answers_with_fsnative_and_no_rg(tmp_path: Path) -> None:
    root = parity.write_project(tmp_path / "project").resolve()
    (tmp_path / "project_evil").mkdir()
    (tmp_path / "project_evil" / "secret.txt").write_text("secret\n", encoding="utf-8")
    errors = tmp_path / "server-stderr.txt"
    answers = asyncio.run(talk_to_server(root, errors))
    assert {"grep_content", "search_files", "read_files"} <= set(answers["tools"]), errors.read_text()
    for name, parameters in SEARCH_TOOL_PARAMETERS.items():
        assert list(answers["tools"][name].inputSchema["properties"]) == parameters
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
