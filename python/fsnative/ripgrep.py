"""A drop-in for RA.Aid's ``ripgrep_search`` tool, searching with fsnative instead of ``rg``.

Same parameters, same ``{"output", "return_code", "success"}`` answer, same text (rg's
heading layout without colour, paths relative to the project root), confined to the root
directories given to :func:`configure`::

    from fsnative import ripgrep

    ripgrep.configure(["/repo"])        # once, before the first search
    answer = ripgrep.ripgrep_search("def main", file_type="py", after_context_lines=2)
    print(answer["output"])

Where it differs from running ``rg``:

- Every path stays inside the configured roots: a search path outside is an error, and
  ``follow_links`` follows only links that stay inside.
- Files come in path order, each path relative to its root and normalised
  (``include_paths=["./src"]`` prints ``src/a.py`` where rg prints ``./src/a.py``).
- ``.gitignore`` applies also outside a git repository; binary files are skipped, also when
  named in ``include_paths``.
- An error (bad regex, unknown type, missing path) fails the whole search with return code 2
  and fsnative's message as the output.
- Where RA.Aid named a type ripgrep does not have (``js`` → ``javascript``, ``h`` →
  ``c-header``, ``hpp`` → ``cpp-header``, ``psql`` → ``postgres``, and ``scss``), so that
  ``rg`` failed, the type holding those files is searched (``js``, ``h``, ``sql``, ``sass``).
"""

from __future__ import annotations

from typing import Dict, List, Optional, Sequence, Union

from fsnative import FsnativeError, Sandbox

__all__ = [
    "DEFAULT_EXCLUDE_DIRS",
    "FILE_TYPE_ALIASES",
    "MAX_OUTPUT_LINES",
    "SearchAnswer",
    "configure",
    "ripgrep_search",
]

DEFAULT_EXCLUDE_DIRS = (
    ".git",
    "node_modules",
    "vendor",
    ".venv",
    "__pycache__",
    ".cache",
    "dist",
    "build",
    "env",
    ".env",
    "venv",
    ".idea",
    ".vscode",
    ".ra-aid",
)
"""Names never searched (excluded as ``--glob '!NAME'``), plus the caller's ``exclude_dirs``."""

FILE_TYPE_ALIASES = {
    "py": "python",
    "rs": "rust",
    "ts": "typescript",
    "hpp": "h",
    "cs": "csharp",
    "rb": "ruby",
    "kt": "kotlin",
    "bash": "sh",
    "pl": "perl",
    "htm": "html",
    "yml": "yaml",
    "md": "markdown",
    "psql": "sql",
    "scss": "sass",
}
"""Short ``file_type`` names and the ripgrep type each stands for; other names (``js``, ``h``,
``go``, ``json``, …) are ripgrep types already and pass through."""

MAX_OUTPUT_LINES = 5000
"""Output longer than this keeps its last lines, after a note saying how many were cut."""

_NOTHING_SEARCHED = "No files were searched: the file type, exclusions or ignore files left none.\n"

_sandbox: Sandbox | None = None

SearchAnswer = Dict[str, Union[str, int, bool]]
"""What :func:`ripgrep_search` returns: ``output`` (str), ``return_code`` (int), ``success``."""


def configure(roots: Sequence[str]) -> None:
    """Confines every later :func:`ripgrep_search` to ``roots`` (existing directories).

    A search covers every root, as ``rg`` run with the root as its working directory; relative
    ``include_paths`` resolve against the first root. Calling again replaces the roots.
    """
    global _sandbox
    _sandbox = Sandbox(roots)


def ripgrep_search(
    pattern: str,
    *,
    before_context_lines: Optional[int] = None,
    after_context_lines: Optional[int] = None,
    file_type: Optional[str] = None,
    case_sensitive: bool = True,
    include_hidden: bool = False,
    follow_links: bool = False,
    exclude_dirs: Optional[List[str]] = None,
    include_paths: Optional[List[str]] = None,
    fixed_string: bool = False,
) -> SearchAnswer:
    """Searches file contents for a regular expression (or, with ``fixed_string``, a literal).

    Args:
        pattern: What to look for.
        before_context_lines: Lines to show before each match.
        after_context_lines: Lines to show after each match.
        file_type: Only search this kind of file (``py``, ``rs``, ``ts``, ``md``, … or any
            ripgrep type name).
        case_sensitive: False to ignore case.
        include_hidden: Also search hidden files and directories.
        follow_links: Follow symbolic links (those that stay inside the roots).
        exclude_dirs: Names to skip, on top of :data:`DEFAULT_EXCLUDE_DIRS`.
        include_paths: Files or directories to search instead of the whole first root.
        fixed_string: Treat ``pattern`` as literal text.

    Returns:
        ``output``: each file's path, then its ``line:text`` matches (``line-text`` for
        context); ``return_code``: 0 found, 1 nothing found, 2 error or no file to search
        (as ``rg``); ``success``: found.
    """
    if _sandbox is None:
        raise RuntimeError("call fsnative.ripgrep.configure(roots) before ripgrep_search")
    excluded = [*DEFAULT_EXCLUDE_DIRS, *(exclude_dirs or [])]
    try:
        found = _sandbox.grep(
            pattern,
            fixed_strings=fixed_string,
            case_mode="sensitive" if case_sensitive else "insensitive",
            paths=include_paths or [],
            globs=[f"!{name}" for name in excluded],
            types=[FILE_TYPE_ALIASES.get(file_type, file_type)] if file_type else [],
            hidden=include_hidden,
            follow_links=follow_links,
            before_context=before_context_lines,
            after_context=after_context_lines,
            limit=None,
        )
    except FsnativeError as error:
        return {"output": str(error), "return_code": 2, "success": False}
    if found.stats.files_walked == 0:
        return {"output": _NOTHING_SEARCHED, "return_code": 2, "success": False}
    if not found.files:
        return {"output": "", "return_code": 1, "success": False}
    output = found.render(format="standard", heading=True, path_style="relative")
    return {"output": _last_lines(output), "return_code": 0, "success": True}


def _last_lines(output: str) -> str:
    lines = output.splitlines(keepends=True)
    if len(lines) <= MAX_OUTPUT_LINES:
        return output
    cut = len(lines) - MAX_OUTPUT_LINES
    return f"[{cut} lines of output truncated]\n" + "".join(lines[cut:])
