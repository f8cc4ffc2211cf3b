"""Drop-ins for the FFF search tools of Terraphim's MCP server: ``find_files``, ``grep`` and
``multi_grep``, with Terraphim's parameter names, defaults and text, searching with fsnative.

The core holds every rule of them (``render::fff::tools`` in the Rust crate: how the
arguments map to its options, the limits and defaults, the tools' descriptions) and prints the
answers as Terraphim prints its own; this module gives them Python signatures, registers them
on an MCP server and splits the text into lines::

    from fsnative import Sandbox
    from fsnative.fff import FffTools

    tools = FffTools(Sandbox(["/repo"]))
    print("\\n".join(tools.grep("TODO")))  # a header, then rel:line:text lines
    print("\\n".join(tools.multi_grep(["fn main", "def main"], constraints="*.rs *.py")))

    from mcp.server.fastmcp import FastMCP  # pip install "fsnative[fff]"

    server = FastMCP("fff")
    tools.register(server)  # or register(server, prefix="terraphim_") for Terraphim's names
    server.run()

``fsnative-fff-mcp DIR`` (or ``python -m fsnative.fff DIR``) serves the three tools over
stdio. Each tool answers as Terraphim's does, one text block per line: a ``Found …`` header,
then ``rel:line:text`` lines (``rel`` relative to ``path``), or one path per file with
``output_mode="files"``, and last ``next_cursor: TOKEN`` when there is more. Grep searches
the query as plain text, smart case (case-insensitive unless it has an upper-case letter),
skips files over :data:`MAX_FILESIZE` bytes, reports at most :data:`MATCHES_PER_FILE` lines
per file and cuts lines at :data:`MAX_LINE_BYTES` bytes: the core's limits, read from it.

Where this module differs from Terraphim on purpose:

- A page never loses matches. The cursor (URL-safe base64 without padding, as Terraphim's)
  is the core's own: it names the file and the match a page stopped at, so the next page
  goes on from there, also inside a file. Terraphim's named only a file, dropped what a page
  took past its limit in the last file, and went on at the next file.
- A cursor that does not decode, or that belongs to other arguments, is an error
  (``INVALID_CURSOR``); Terraphim started over from the first file. An empty cursor is none.
- Every path stays inside the sandbox: ``path`` outside its directories is refused
  (``OUTSIDE_SANDBOX``), as are symlinks that lead out of them.
- With ``output_mode="files"``, ``limit`` counts files (Terraphim listed the files of the first
  ``limit`` matches), and the header counts their matching lines.
- Files come most used first when the sandbox keeps frecency (``Sandbox(..., frecency=...)``),
  ties in path order; in path order when it does not. (Terraphim: frecency, then modification
  time.)
"""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, Any, List, Literal, Optional, Sequence

from fsnative import Sandbox, __version__, _fsnative

if TYPE_CHECKING:
    from mcp.server.fastmcp import FastMCP
    from typing_extensions import TypeAlias

    _OutputMode: TypeAlias = Literal["content", "files"]
    """Terraphim's ``output_mode`` values: ``rel:line:text`` lines, or the files' paths only."""

__all__ = [
    "FIND_LIMIT",
    "GREP_LIMIT",
    "MATCHES_PER_FILE",
    "MAX_FILESIZE",
    "MAX_LINE_BYTES",
    "FffTools",
    "main",
]

_LIMITS: dict[str, int] = _fsnative.FFF_CATALOG["limits"]

FIND_LIMIT: int = _LIMITS["find_limit"]
"""Paths ``find_files`` lists unless ``limit`` says otherwise, as Terraphim's (from the core)."""
GREP_LIMIT: int = _LIMITS["grep_limit"]
"""Matching lines (files, with ``output_mode="files"``) in one grep page unless ``limit`` says otherwise."""
MAX_FILESIZE: int = _LIMITS["max_filesize"]
"""Files larger than this many bytes are not searched, as in Terraphim."""
MATCHES_PER_FILE: int = _LIMITS["matches_per_file"]
"""Matching lines reported per file at most, as in Terraphim."""
MAX_LINE_BYTES: int = _LIMITS["max_line_bytes"]
"""A longer line is cut to this many bytes (at a character boundary), as in Terraphim."""


class FffTools:
    """Terraphim's three FFF tools over one sandbox: call them, or :meth:`register` them.

    Each returns the lines of Terraphim's answer (one MCP text block each) and raises the
    core's :class:`~fsnative.FsnativeError` on a refused path, a bad cursor or a bad argument.
    ``path`` (default ``"."``, the sandbox's first directory) is validated by the sandbox, and
    printed paths are relative to it. An argument left as None takes the core's default.
    Files come most used first when the sandbox keeps frecency, else in path order.
    """

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox

    def find_files(self, query: str, path: Optional[str] = None, limit: Optional[int] = None) -> List[str]:
        """Fuzzy file path search, best first: ``Found N files matching 'query' …``, then
        ``score  path`` lines (the score right-aligned in five columns)."""
        return self._call("find_files", query=query, path=path, limit=limit)

    def grep(
        self,
        query: str,
        path: Optional[str] = None,
        limit: Optional[int] = None,
        output_mode: Optional[_OutputMode] = None,
        cursor: Optional[str] = None,
    ) -> List[str]:
        """Lines holding ``query`` (plain text, smart case); ``cursor`` continues a page."""
        return self._call("grep", query=query, path=path, limit=limit, output_mode=output_mode, cursor=cursor)

    def multi_grep(
        self,
        patterns: Sequence[str],
        path: Optional[str] = None,
        constraints: Optional[str] = None,
        limit: Optional[int] = None,
        output_mode: Optional[_OutputMode] = None,
        cursor: Optional[str] = None,
    ) -> List[str]:
        """Lines holding any of ``patterns`` (plain text, smart case over all of them) in the
        files ``constraints`` admits (FFF's syntax: ``*.rs !test/ src/ type:rust``)."""
        arguments = {"path": path, "constraints": constraints, "limit": limit, "output_mode": output_mode}
        return self._call("multi_grep", patterns=list(patterns), cursor=cursor, **arguments)

    def register(self, server: FastMCP, *, prefix: str = "") -> None:
        """Registers ``find_files``, ``grep`` and ``multi_grep`` (each name after ``prefix``;
        Terraphim's own server calls them ``terraphim_find_files`` and so on) on a FastMCP
        server of the ``mcp`` package, with Terraphim's parameters and the core's descriptions."""
        from fsnative._fff_mcp import register

        register(server, prefix, self._call)

    def _call(self, tool: str, **arguments: Any) -> List[str]:
        """One call of ``tool`` in the core (arguments left as None: the core's defaults), as
        one line per MCP text block."""
        given = {name: value for name, value in arguments.items() if value is not None}
        return self.sandbox.fff_tool(tool, given).split("\n")[:-1]


def main(argv: Optional[List[str]] = None) -> None:
    """The ``fsnative-fff-mcp`` command: an MCP server over stdio with the three tools.

    ``argv`` (default ``sys.argv[1:]``): the directories to serve (default: the current
    directory); ``--frecency DIR`` keeps frecency (AI profile) in that database, recording the
    files grep returns, ``--thesaurus FILE`` boosts ``find_files`` paths by its concepts,
    ``--index`` keeps a warm index, ``--prefix`` goes before the tool names, ``--verbose`` logs
    each request on stderr (which is otherwise silent but for warnings). The server names itself
    ``fsnative-fff-mcp``, with fsnative's version. Needs the ``mcp`` package
    (``pip install "fsnative[fff]"``).
    """
    parser = argparse.ArgumentParser(
        prog="fsnative-fff-mcp",
        description="Terraphim's FFF tools (find_files, grep, multi_grep) over stdio, searching with fsnative.",
    )
    parser.add_argument("dirs", nargs="*", help="the directories to serve (default: the current directory)")
    parser.add_argument("--frecency", metavar="DIR", help="rank by frecency kept in this database (AI profile)")
    parser.add_argument("--thesaurus", metavar="FILE", help="boost find_files paths by this thesaurus's concepts")
    parser.add_argument("--index", action="store_true", help="keep a warm index of the directories")
    parser.add_argument("--prefix", default="", help="put this before each tool's name, e.g. terraphim_")
    parser.add_argument("--verbose", action="store_true", help="log each request on stderr")
    arguments = parser.parse_args(argv)
    try:
        from mcp.server.fastmcp import FastMCP
    except ModuleNotFoundError as missing:
        raise SystemExit(f'fsnative-fff-mcp needs the mcp package: pip install "fsnative[fff]" ({missing})') from None
    sandbox = Sandbox(
        arguments.dirs or [os.getcwd()],
        index=arguments.index,
        frecency={"path": arguments.frecency, "profile": "ai"} if arguments.frecency else None,
        record_hits=arguments.frecency is not None,
        thesaurus=arguments.thesaurus,
    )
    server = FastMCP("fsnative-fff-mcp", log_level="INFO" if arguments.verbose else "WARNING")
    # FastMCP takes no version and reports the mcp package's own; the low-level server takes one.
    server._mcp_server.version = __version__
    FffTools(sandbox).register(server, prefix=arguments.prefix)
    server.run()


if __name__ == "__main__":
    main()
