"""Drop-in replacements for the search tools of the ``fs-mcp`` server (PyPI ``fs-mcp`` 1.15.0).

The functions keep fs-mcp's names, parameters and output text, so a prompt written for
fs-mcp works unchanged, but search with fsnative's core instead of spawning ``rg``::

    from fsnative import fs_mcp

    fs_mcp.initialize(["/repo"])
    print(fs_mcp.grep_content("class Sandbox", search_path="src"))
    print(fs_mcp.search_files(".", "*.py"))

``fsnative-fs-mcp DIR...`` (or ``python -m fsnative.fs_mcp DIR...``) takes ``fs-mcp``'s
arguments and runs the real fs-mcp stdio server (``pip install "fsnative[fs-mcp]"``) with these
functions in place of its own, under fs-mcp's own tool descriptions, so ``rg`` is not needed.
It serves stdio only: it never starts fs-mcp's web UI or HTTP server, and says so on stderr
when the arguments ask for them (plain ``fs-mcp DIR`` asks for both).

Where this module differs from fs-mcp on purpose:

- Containment is checked per path component after resolving every symlink: root ``/a/proj``
  never admits ``/a/proj2``. Denials raise fs-mcp's ``ValueError("Access denied: ...")``,
  whose list names the user directories only.
- The system temp dir is not an allowed directory. :func:`validate_path` admits only fs-mcp's
  own review files (``<tmp>/mcp_review_*/current_*`` and ``future_*``), so its review tools
  keep working; the rule that admitted any temp path containing ``pytest-`` is gone, and
  :func:`grep_content` and :func:`search_files` search the user directories only.
- Results come sorted by path; fs-mcp printed them in rg's parallel (random) order.
- Section end hints are right: the default patterns find ``def``/``class`` lines (fs-mcp's
  look for a literal backslash, so every default hint said EOF), they come from the same pass
  that finds the matches, and a file that is not valid UTF-8 still gets its hints.
- A pattern beginning with ``-`` is searched as text (rg read it as a flag).
- Output is bounded: at most :data:`MAX_MATCHES` matches and :data:`MAX_FILES` files, then a
  note says how to see the rest. fs-mcp capped only each file at 100 matches, and with
  context lines rg reported up to ``context_lines`` more; here a file gives 100 at most.
- Lines that are not valid UTF-8 are shown with U+FFFD for the bad bytes (fs-mcp dropped
  them), ``.gitignore`` applies also outside a git repository, and :func:`search_files`
  never lists a symlink whose target lies outside the allowed directories.
- A bad regex or path is reported as ``Error: {fsnative's message}`` instead of
  ``Error executing ripgrep: {rg's stderr}``, a bad glob as ``Error during search: ...`` with
  fsnative's message.
- ``section_patterns`` are regexes in ripgrep's syntax, like ``pattern``: one only Python's
  ``re`` accepts (look-around, backreferences) answers ``Error: ...``, where fs-mcp used ``re``
  and left out the hint of a pattern ``re`` rejected.
- :func:`search_files` patterns are ripgrep globs made to read like ``pathlib``'s (braces are
  literal), with three edge cases apart: ``**`` alone and an empty pattern list every file,
  and an absolute pattern finds nothing (pathlib listed nothing, or raised, respectively).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import io
import os
import sys
import tempfile
from pathlib import Path
from typing import List, Optional

from fsnative import FsnativeError, OutsideSandboxError, Sandbox, __version__

__all__ = [
    "DEFAULT_SECTION_PATTERNS",
    "MATCHES_PER_FILE",
    "MAX_FILES",
    "MAX_MATCHES",
    "SEARCH_TIMEOUT_SECONDS",
    "grep_content",
    "initialize",
    "main",
    "search_files",
    "validate_path",
]

MATCHES_PER_FILE = 100
"""Matching lines reported per file, as fs-mcp's ``rg --max-count=100``."""
MAX_MATCHES = 1000
"""Matches :func:`grep_content` reports in all before it adds a truncation note."""
MAX_FILES = 1000
"""Files :func:`search_files` lists before it adds a truncation note."""
DEFAULT_SECTION_PATTERNS = (r"^\s*def ", r"^\s*class ")
"""What marks the end of a section when ``section_patterns`` is None: a Python def or class."""
SEARCH_TIMEOUT_SECONDS = 10
"""A search that runs longer returns fs-mcp's timeout message."""

_REVIEW_DIR_PREFIX = "mcp_review_"
_REVIEW_FILE_PREFIXES = ("current_", "future_")

_user_dirs: list[Path] = []
_sandbox: Sandbox | None = None
_temp_sandbox: Sandbox | None = None


def initialize(directories: List[str]) -> List[Path]:
    """Sets the allowed directories (the current directory when none is valid) and returns them.

    Each is expanded (``~``) and resolved; one that does not exist or is not a directory is
    skipped with a warning on stderr. Call it again to replace the set.
    """
    global _sandbox, _temp_sandbox
    resolved: list[Path] = []
    for directory in directories or [os.getcwd()]:
        path = Path(directory).expanduser().resolve()
        if path.is_dir():
            resolved.append(path)
        else:
            print(f"Warning: Skipping invalid directory: {path}", file=sys.stderr)
    if not resolved:
        print("Warning: No valid user directories. Defaulting to CWD.", file=sys.stderr)
        resolved.append(Path.cwd())
    _sandbox = Sandbox(resolved)
    _temp_sandbox = Sandbox([tempfile.gettempdir()])
    _user_dirs[:] = [Path(root) for root in _sandbox.roots]
    return list(_user_dirs)


def validate_path(requested_path: str) -> Path:
    """The canonical path of ``requested_path`` if it lies inside an allowed directory.

    ``""`` and ``"."`` name the first directory; relative paths resolve against it. A path
    that does not exist yet is admitted when its nearest existing ancestor is inside.
    fs-mcp's review files in the temp dir (``mcp_review_*/current_*``, ``future_*``) are
    admitted too. Anything else raises ``ValueError("Access denied: ...")``.
    """
    try:
        return _inside_user_dirs(requested_path)
    except ValueError:
        review_file = _review_file(requested_path)
        if review_file is None:
            raise
        return review_file


def grep_content(
    pattern: str,
    search_path: str = ".",
    case_insensitive: bool = False,
    context_lines: int = 2,
    section_patterns: Optional[List[str]] = None,
) -> str:
    """Finds the lines matching a regular expression under ``search_path``: where to read next.

    Each match is reported as ``File: PATH, Line: N (section end hint: L<n>|EOF)`` followed by
    the line between ``---`` markers. The hint is the first later line that matches one of
    ``section_patterns`` (default: a Python ``def`` or ``class``), a good ``end_line`` for
    ``read_files``; ``section_patterns=[]`` turns hints off. At most 100 matches per file.
    ``context_lines`` is accepted for compatibility; the report shows matching lines only.
    """
    del context_lines  # fs-mcp's report never showed context lines
    directory = _inside_user_dirs(search_path)
    patterns = DEFAULT_SECTION_PATTERNS if section_patterns is None else section_patterns
    try:
        found = _require_sandbox().grep(
            pattern,
            path=str(directory),
            case_mode="insensitive" if case_insensitive else "sensitive",
            max_count_per_file=MATCHES_PER_FILE,
            section_end_patterns=list(patterns),
            limit=MAX_MATCHES,
            timeout_ms=SEARCH_TIMEOUT_SECONDS * 1000,
        )
    except FsnativeError as error:
        return f"Error: {error}"
    if found.truncated == "timeout":
        return f"Error: Search timed out after {SEARCH_TIMEOUT_SECONDS} seconds. Please try a more specific pattern."
    blocks = [
        f"File: {file.path}, Line: {match.line_number}{_hint(match.section_end, bool(patterns))}\n"
        f"---\n{match.text.strip()}\n---"
        for file in found.files
        for match in file.matches
    ]
    if not blocks:
        return "No matches found."
    if found.truncated == "limit":
        blocks.append(
            f"[Output truncated after {MAX_MATCHES} matches, in path order. "
            "Use a more specific pattern or search_path to see the rest.]"
        )
    return "\n\n".join(blocks)


def search_files(path: str, pattern: str) -> str:
    """Lists the files under ``path`` whose path matches a glob pattern, one per line.

    The pattern is matched at any depth (``*.py`` finds every Python file) with ``*``, ``?``
    and ``[...]``; braces are literal characters, as in ``pathlib``. Names come relative to
    ``path``, sorted. Hidden and ignored files are included.
    """
    directory = _inside_user_dirs(path)
    try:
        listed = _require_sandbox().glob(
            "**/" + pattern.replace("{", "[{]").replace("}", "[}]"),
            path=str(directory),
            hidden=True,
            no_ignore=True,
            limit=MAX_FILES,
            timeout_ms=SEARCH_TIMEOUT_SECONDS * 1000,
        )
    except FsnativeError as error:
        return f"Error during search: {error}"
    names = [entry.relative_path for entry in listed.entries]
    if not names:
        return "No matches found."
    if listed.total > len(names):
        names.append(
            f"[Showing the first {len(names)} of {listed.total} files. "
            "Use a more specific pattern or path to see the rest.]"
        )
    return "\n".join(names)


def main(argv: Optional[List[str]] = None) -> None:
    """The ``fsnative-fs-mcp`` command: fs-mcp's stdio server with this module's tools.

    ``argv`` (default ``sys.argv[1:]``) is what ``fs-mcp`` takes: directories, and options for
    a web UI and an HTTP server that are not started (a notice on stderr says so), and
    ``--verbose``. Stderr stays quiet otherwise: no banner, no request log, no warning that is
    not true of this server.
    ``grep_content`` and ``search_files`` are replaced, keeping fs-mcp's descriptions, and
    every other tool validates its paths with :func:`validate_path`. Needs the ``fs-mcp``
    package; ``rg`` is not used.
    """
    arguments, unrecognized = _command_line().parse_known_args(argv)
    for notice in _notices(arguments, unrecognized):
        print(f"fsnative-fs-mcp: {notice}", file=sys.stderr)
    # fs-mcp prints its start-up notices on stdout, the protocol channel of a stdio server: they
    # are caught, and the true ones passed on to stderr. What its libraries print on stderr as
    # they load (deprecation warnings, which speak to fs-mcp's authors) shows with --verbose.
    notices, library_output = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(notices), contextlib.redirect_stderr(library_output):
        try:
            from fs_mcp import server  # type: ignore[import-untyped]
        except ModuleNotFoundError as missing:
            raise SystemExit(
                f'fsnative-fs-mcp needs fs-mcp 1.15.0: pip install "fsnative[fs-mcp]" ({missing})'
            ) from None
        server.initialize(arguments.dirs)
    if arguments.verbose:
        sys.stderr.write(library_output.getvalue())
    for line in notices.getvalue().splitlines():
        # "ripgrep is not installed ... grep_content will be disabled" is not true here.
        if line.strip() and "ripgrep is not installed" not in line:
            print(line, file=sys.stderr)
    initialize(arguments.dirs)
    server.validate_path = validate_path
    for replacement in (grep_content, search_files):
        name = replacement.__name__
        description = asyncio.run(server.mcp.get_tool(name)).description
        server.mcp.remove_tool(name)
        server.mcp.tool(replacement, name=name, description=description)
    # The client sees this server's name and fsnative's version, not fs-mcp's or the SDK's.
    server.mcp._mcp_server.name = "fsnative-fs-mcp"
    server.mcp._mcp_server.version = __version__
    if arguments.verbose:
        server.mcp.run()
    else:
        server.mcp.run(show_banner=False, log_level="WARNING")


def _command_line() -> argparse.ArgumentParser:
    """fs-mcp's command line: its options are accepted, though only the stdio server runs."""
    parser = argparse.ArgumentParser(
        prog="fsnative-fs-mcp",
        description="fs-mcp's MCP server over stdio, searching with fsnative (no rg needed).",
    )
    parser.add_argument("dirs", nargs="*", help="allowed directories (default: the current directory)")
    parser.add_argument(
        "--verbose", action="store_true", help="the MCP SDK's banner, request log and its libraries' warnings on stderr"
    )
    fs_mcp_options = parser.add_argument_group(
        "fs-mcp's options", "accepted, but neither the web UI nor the HTTP server is ever started"
    )
    fs_mcp_options.add_argument("--no-ui", action="store_false", dest="run_ui", help="no web UI")
    fs_mcp_options.add_argument("--host", default="0.0.0.0", help="the web UI's host")
    fs_mcp_options.add_argument("--port", default=8123, type=int, help="the web UI's port")
    fs_mcp_options.add_argument("--no-http", action="store_false", dest="run_http", help="no HTTP server")
    fs_mcp_options.add_argument("--http-host", default="0.0.0.0", help="the HTTP server's host")
    fs_mcp_options.add_argument("--http-port", default=8124, type=int, help="the HTTP server's port")
    return parser


def _notices(arguments: argparse.Namespace, unrecognized: list[str]) -> list[str]:
    """What the command line asks for that this server does not do."""
    notices: list[str] = []
    if arguments.run_ui:
        notices.append(
            f"not starting fs-mcp's web UI on {arguments.host}:{arguments.port}; "
            "only the stdio server runs (--no-ui hides this notice)"
        )
    if arguments.run_http:
        notices.append(
            f"not starting fs-mcp's HTTP server on {arguments.http_host}:{arguments.http_port}; "
            "only the stdio server runs (--no-http hides this notice)"
        )
    if unrecognized:
        notices.append(f"ignoring unrecognized arguments, as fs-mcp does: {' '.join(unrecognized)}")
    return notices


def _require_sandbox() -> Sandbox:
    if _sandbox is None:
        raise RuntimeError("call fsnative.fs_mcp.initialize(directories) first")
    return _sandbox


def _inside_user_dirs(requested_path: str) -> Path:
    sandbox = _require_sandbox()
    if requested_path in ("", "."):
        return _user_dirs[0]
    try:
        return Path(sandbox.validate(requested_path, intent="write"))
    except OutsideSandboxError:
        raise ValueError(f"Access denied: {requested_path} is outside allowed directories: {_user_dirs}") from None


def _review_file(requested_path: str) -> Path | None:
    """The path if it names a file of one of fs-mcp's review sessions in the temp dir."""
    if _temp_sandbox is None or not os.path.isabs(os.path.expanduser(requested_path)):
        return None
    try:
        path = Path(_temp_sandbox.validate(requested_path, intent="write"))
    except FsnativeError:
        return None
    parts = path.relative_to(_temp_sandbox.roots[0]).parts
    if len(parts) == 2 and parts[0].startswith(_REVIEW_DIR_PREFIX) and parts[1].startswith(_REVIEW_FILE_PREFIXES):
        return path
    return None


def _hint(section_end: int | None, enabled: bool) -> str:
    if not enabled:
        return ""
    return f" (section end hint: {'EOF' if section_end is None else f'L{section_end}'})"


if __name__ == "__main__":
    main()
