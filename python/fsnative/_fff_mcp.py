"""The MCP face of :mod:`fsnative.fff`: its three tools on a FastMCP server of the ``mcp``
package, with Terraphim's parameter names and the core's descriptions and defaults
(``FFF_CATALOG``, from ``render::fff::tools``).

Imported only when tools are registered, so ``fsnative.fff`` works without ``mcp``; it imports
nothing of ``fsnative.fff``, which hands it the function that runs a call.
No ``from __future__ import annotations`` here: FastMCP reads the parameters' ``Annotated``
descriptions from the live signatures of the nested tool functions.
"""

import functools
from typing import TYPE_CHECKING, Annotated, Any, Callable, Dict, List, Literal, Optional, Tuple, TypeVar

from mcp.server.fastmcp import FastMCP
from mcp.server.fastmcp.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from fsnative import FsnativeError, _fsnative

if TYPE_CHECKING:
    from typing_extensions import ParamSpec

    _Arguments = ParamSpec("_Arguments")

_Result = TypeVar("_Result")

READ_ONLY = ToolAnnotations(readOnlyHint=True)

_TOOLS: Dict[str, Dict[str, Any]] = {tool["name"]: tool for tool in _fsnative.FFF_CATALOG["tools"]}


def _argument(tool: str, name: str) -> Dict[str, Any]:
    """The core's description of ``tool``'s argument ``name``."""
    return next(argument for argument in _TOOLS[tool]["arguments"] if argument["name"] == name)


def _about(tool: str, name: str) -> Any:
    """The pydantic ``Field`` of ``tool``'s argument ``name``: its description."""
    return Field(description=_argument(tool, name)["description"])


_DEFAULTS: Dict[Tuple[str, str], Any] = {
    (tool, argument["name"]): argument["default"] for tool in _TOOLS for argument in _TOOLS[tool]["arguments"]
}
"""The default of each tool's argument, as its input schema shows it."""

_Cursor = Optional[str]
"""A page's cursor, or None for the first page."""


def register(server: FastMCP, prefix: str, call: "Callable[..., List[str]]") -> None:
    """Adds ``{prefix}find_files``, ``{prefix}grep`` and ``{prefix}multi_grep`` to ``server``;
    ``call(tool, **arguments)`` runs one call."""
    Mode = Literal["content", "files"]

    @_reported
    def find_files(
        query: Annotated[str, _about("find_files", "query")],
        path: Annotated[str, _about("find_files", "path")] = _DEFAULTS["find_files", "path"],
        limit: Annotated[int, _about("find_files", "limit")] = _DEFAULTS["find_files", "limit"],
    ) -> List[str]:
        return call("find_files", query=query, path=path, limit=limit)

    @_reported
    def grep(
        query: Annotated[str, _about("grep", "query")],
        path: Annotated[str, _about("grep", "path")] = _DEFAULTS["grep", "path"],
        limit: Annotated[int, _about("grep", "limit")] = _DEFAULTS["grep", "limit"],
        output_mode: Annotated[Mode, _about("grep", "output_mode")] = _DEFAULTS["grep", "output_mode"],
        cursor: Annotated[_Cursor, _about("grep", "cursor")] = None,
    ) -> List[str]:
        return call("grep", query=query, path=path, limit=limit, output_mode=output_mode, cursor=cursor)

    @_reported
    def multi_grep(
        patterns: Annotated[List[str], _about("multi_grep", "patterns")],
        path: Annotated[str, _about("multi_grep", "path")] = _DEFAULTS["multi_grep", "path"],
        constraints: Annotated[str, _about("multi_grep", "constraints")] = _DEFAULTS["multi_grep", "constraints"],
        limit: Annotated[int, _about("multi_grep", "limit")] = _DEFAULTS["multi_grep", "limit"],
        output_mode: Annotated[Mode, _about("multi_grep", "output_mode")] = _DEFAULTS["multi_grep", "output_mode"],
        cursor: Annotated[_Cursor, _about("multi_grep", "cursor")] = None,
    ) -> List[str]:
        arguments = {"path": path, "constraints": constraints, "limit": limit, "output_mode": output_mode}
        return call("multi_grep", patterns=patterns, cursor=cursor, **arguments)

    for tool in (find_files, grep, multi_grep):
        server.add_tool(
            tool,
            name=prefix + tool.__name__,
            description=_TOOLS[tool.__name__]["description"],
            annotations=READ_ONLY,
            structured_output=False,
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
