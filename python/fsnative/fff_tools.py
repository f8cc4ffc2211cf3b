"""Drop-ins for the FFF search tools of Terraphim's MCP server: ``find_files``, ``grep`` and
``multi_grep``, with Terraphim's parameter names, defaults and text, searching with fsnative.

The core does all the searching; this module maps Terraphim's parameters onto the core's
options and prints the core's answers as Terraphim prints its own::

    from fsnative import Sandbox, __version__
    from fsnative.fff_tools import FffTools

    tools = FffTools(Sandbox(["/repo"]))
    print("\\n".join(tools.grep("TODO")))  # a header, then rel:line:text lines
    print("\\n".join(tools.multi_grep(["fn main", "def main"], constraints="*.rs *.py")))

    from mcp.server.fastmcp import FastMCP  # pip install "fsnative[fff]"

    server = FastMCP("fff")
    tools.register(server)  # or register(server, prefix="terraphim_") for Terraphim's names
    server.run()

``fsnative-fff-mcp DIR`` (or ``python -m fsnative.fff_tools DIR``) serves the three tools over
stdio. Each tool answers as Terraphim's does, one text block per line: a ``Found …`` header,
then ``rel:line:text`` lines (``rel`` relative to ``path``), or one path per file with
``output_mode="files"``, and last ``next_cursor: TOKEN`` when there is more. Grep searches
the query as plain text, smart case (case-insensitive unless it has an upper-case letter),
skips files over 10 MiB, reports at most 200 lines per file and cuts lines at 512 bytes.

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
from typing import TYPE_CHECKING, List, Literal, Optional, Sequence

from fsnative import Sandbox, __version__

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

FIND_LIMIT = 20
"""Paths ``find_files`` lists unless ``limit`` says otherwise, as Terraphim's."""
GREP_LIMIT = 50
"""Matching lines (files, with ``output_mode="files"``) in one grep page unless ``limit`` says otherwise."""
MAX_FILESIZE = 10 * 1024 * 1024
"""Files larger than this many bytes are not searched, as in Terraphim."""
MATCHES_PER_FILE = 200
"""Matching lines reported per file at most, as in Terraphim."""
MAX_LINE_BYTES = 512
"""A longer line is cut to this many bytes (at a character boundary), as in Terraphim."""


class FffTools:
    """Terraphim's three FFF tools over one sandbox: call them, or :meth:`register` them.

    Each returns the lines of Terraphim's answer (one MCP text block each) and raises the
    core's :class:`~fsnative.FsnativeError` on a refused path, a bad cursor or a bad option.
    ``path`` (default ``"."``, the sandbox's first directory) is validated by the sandbox, and
    printed paths are relative to it. Files come most used first (the core's
    ``sort="frecency"``) when the sandbox keeps frecency, else in path order.
    """

    def __init__(self, sandbox: Sandbox) -> None:
        self.sandbox = sandbox
        self.file_order = _file_order(sandbox)

    def find_files(self, query: str, path: str = ".", limit: int = FIND_LIMIT) -> List[str]:
        """Fuzzy file path search, best first: ``Found N files matching 'query' …``, then
        ``score  path`` lines (the score right-aligned in five columns)."""
        found = self.sandbox.find(query, path=path, limit=limit)
        return _lines(found.render("fff", query=query, path=path))

    def grep(
        self,
        query: str,
        path: str = ".",
        limit: int = GREP_LIMIT,
        output_mode: _OutputMode = "content",
        cursor: Optional[str] = None,
    ) -> List[str]:
        """Lines holding ``query`` (plain text, smart case); ``cursor`` continues a page."""
        return self._search([query], path, "", limit, output_mode, cursor, None)

    def multi_grep(
        self,
        patterns: Sequence[str],
        path: str = ".",
        constraints: str = "",
        limit: int = GREP_LIMIT,
        output_mode: _OutputMode = "content",
        cursor: Optional[str] = None,
    ) -> List[str]:
        """Lines holding any of ``patterns`` (plain text, smart case over all of them) in the
        files ``constraints`` admits (FFF's syntax: ``*.rs !test/ src/ type:rust``)."""
        return self._search(patterns, path, constraints, limit, output_mode, cursor, list(patterns))

    def register(self, server: FastMCP, *, prefix: str = "") -> None:
        """Registers ``find_files``, ``grep`` and ``multi_grep`` (each name after ``prefix``;
        Terraphim's own server calls them ``terraphim_find_files`` and so on) on a FastMCP
        server of the ``mcp`` package, with Terraphim's parameters and defaults."""
        from fsnative._fff_mcp import register

        register(self, server, prefix)

    def _search(
        self,
        patterns: Sequence[str],
        path: str,
        constraints: str,
        limit: int,
        output_mode: _OutputMode,
        cursor: Optional[str],
        listed: Optional[List[str]],
    ) -> List[str]:
        """One page of the core's grep with Terraphim's options, as Terraphim's lines (the
        core renders them): a header, the matches or files, then the cursor. ``listed``:
        multi_grep's patterns, which its header lists."""
        # The core takes text: a base that is not UTF-8 reads lossily (files then print absolute).
        base = os.fsencode(self.sandbox.validate_path(path, intent="read")).decode("utf-8", "replace")
        found = self.sandbox.grep(
            list(patterns),
            path=path,
            fixed_strings=True,
            case_mode="smart",
            max_filesize=MAX_FILESIZE,
            max_count_per_file=MATCHES_PER_FILE,
            max_columns=MAX_LINE_BYTES,
            mode="count" if output_mode == "files" else "content",
            sort=self.file_order,
            limit=limit,
            cursor=cursor or None,  # an empty cursor, as some clients send for none: the first page
            constraints=constraints or None,
        )
        return _lines(found.render("fff", path=path, base=base, patterns=listed))


def _file_order(sandbox: Sandbox) -> Literal["frecency", "path"]:
    """Terraphim's order of files: most used first where the sandbox keeps frecency (the core
    refuses that order without it), else path order."""
    return "path" if sandbox.frecency_status() is None else "frecency"


def _lines(text: str) -> List[str]:
    """The core's FFF text as one line per MCP text block."""
    return text.split("\n")[:-1]


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
