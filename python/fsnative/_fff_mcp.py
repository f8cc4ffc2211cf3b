"""The MCP face of :mod:`fsnative.fff_tools`: its three tools on a FastMCP server of the ``mcp``
package, with Terraphim's parameter names, descriptions and defaults.

Imported only when tools are registered, so ``fsnative.fff_tools`` works without ``mcp``.
No ``from __future__ import annotations`` here: FastMCP reads the parameters' ``Annotated``
descriptions from the live signatures of the nested tool functions.
"""

import functools
from typing import TYPE_CHECKING, Annotated, Callable, List, Literal, Optional, TypeVar

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from fsnative import FsnativeError
from fsnative.fff_tools import FIND_LIMIT, GREP_LIMIT

if TYPE_CHECKING:
    from typing_extensions import ParamSpec

    from fsnative.fff_tools import FffTools

    _Arguments = ParamSpec("_Arguments")

_Result = TypeVar("_Result")

FIND_DESCRIPTION = (
    "Fuzzy file path search (typos allowed): the paths under `path` that best match the query, "
    "best first, each with its score."
)
GREP_DESCRIPTION = (
    "Search file contents for a plain-text string (smart case: case-insensitive unless it has an "
    "upper-case letter). Lines come as path:line:text, at most 200 per file, cut at 512 bytes; "
    "files over 10 MiB are skipped. When there is more, the last line is `next_cursor: TOKEN`: "
    "call again with the same arguments and cursor=TOKEN for the next page (no match is skipped)."
)
MULTI_GREP_DESCRIPTION = (
    "Search file contents for lines matching ANY of several plain-text patterns (OR logic) in one "
    "pass; faster than separate grep calls. `constraints` limits the files searched. Output, "
    "limits and cursor pagination as in grep."
)
READ_ONLY = ToolAnnotations(readOnlyHint=True)


def register(tools: "FffTools", server: FastMCP, prefix: str) -> None:
    """Adds ``{prefix}find_files``, ``{prefix}grep`` and ``{prefix}multi_grep`` to ``server``."""
    PathArgument = Annotated[str, Field(description="Directory to search (defaults to current directory)")]
    LimitArgument = Annotated[int, Field(description=f"Maximum number of matches to return (default {GREP_LIMIT})")]
    ModeArgument = Annotated[
        Literal["content", "files"],
        Field(description="Return 'content' (file:line:text, default) or 'files' (unique file paths only)"),
    ]
    CursorArgument = Annotated[
        Optional[str], Field(description="Pagination cursor from a previous result's next_cursor field")
    ]

    @_reported
    def find_files(
        query: Annotated[str, Field(description="Fuzzy search string")],
        path: PathArgument = ".",
        limit: Annotated[int, Field(description=f"Maximum number of results (default {FIND_LIMIT})")] = FIND_LIMIT,
    ) -> List[str]:
        return tools.find_files(query, path, limit)

    @_reported
    def grep(
        query: Annotated[str, Field(description="Search pattern (plain text)")],
        path: PathArgument = ".",
        limit: LimitArgument = GREP_LIMIT,
        output_mode: ModeArgument = "content",
        cursor: CursorArgument = None,
    ) -> List[str]:
        return tools.grep(query, path, limit, output_mode, cursor)

    @_reported
    def multi_grep(
        patterns: Annotated[
            List[str],
            Field(
                description="Patterns to match (OR logic). Include all naming conventions: "
                "snake_case, PascalCase, camelCase."
            ),
        ],
        path: PathArgument = ".",
        constraints: Annotated[str, Field(description="File constraints (e.g. '*.rs !test/')")] = "",
        limit: LimitArgument = GREP_LIMIT,
        output_mode: ModeArgument = "content",
        cursor: CursorArgument = None,
    ) -> List[str]:
        return tools.multi_grep(patterns, path, constraints, limit, output_mode, cursor)

    for tool, description in (
        (find_files, FIND_DESCRIPTION),
        (grep, GREP_DESCRIPTION),
        (multi_grep, MULTI_GREP_DESCRIPTION),
    ):
        server.add_tool(
            tool, name=prefix + tool.__name__, description=description, annotations=READ_ONLY, structured_output=False
        )


def _reported(tool: "Callable[_Arguments, _Result]") -> "Callable[_Arguments, _Result]":
    """``tool``, with the core's errors reported to the client as ``CODE: message``."""

    @functools.wraps(tool)
    def run(*args: "_Arguments.args", **kwargs: "_Arguments.kwargs") -> _Result:
        try:
            return tool(*args, **kwargs)
        except FsnativeError as error:
            raise ToolError(f"{error.code}: {error}") from None

    return run
