"""What the drop-in adapters' parity tests share: the fixture project and the oracles' `rg`.

The project is a small repository (a `.git` directory, so `rg` honours `.gitignore` as
fsnative always does) with nested packages, Python sections, ignore files, hidden and
excluded directories, several file types, and lines that test case, Unicode and CRLF.
"""

from __future__ import annotations

import functools
import importlib
import os
import shutil
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

from fsnative import fs_mcp

VENV_BIN = Path(sys.executable).parent
RG = shutil.which("rg", path=str(VENV_BIN))
"""The `rg` of the PyPI `ripgrep` package, installed next to the tests' interpreter."""

MANY_MATCHES = 150
"""Matching lines in `logs/many.txt`: more than fs-mcp's 100 per file."""

PROJECT_FILES: dict[str, str | bytes] = {
    ".gitignore": "*.log\nsecret/\n",
    ".ignore": "generated.py\n",
    "README.md": "# Demo\nfoo and Foo and FOO\nTODO: write docs\n",
    "notes.txt": "café au lait\nCAFÉ NOIR\nplain foo\n  padded foo  \n",
    "a.b.txt": "a.b literal\naxb regex\n(x) parens\n-x dash line\n",
    "crlf.txt": "foo with crlf\r\nbar\r\nfoo again\r\n",
    "no_newline.txt": "last foo",
    "app.log": "foo in an ignored log\n",
    "secret/key.txt": "foo secret\n",
    "generated.py": "def foo():\n    return 1\n",
    ".hidden/conf.yml": "foo: hidden\n",
    "node_modules/lib/index.js": "function foo() {}\n",
    "build/out.js": "const foo = 1;\n",
    "pkg/__init__.py": "",
    "pkg/mod.py": (
        "import os\n"
        "\n"
        "\n"
        "class Foo:\n"
        "    def bar(self):\n"
        "        # TODO: tidy\n"
        "        return 'foo'\n"
        "\n"
        "    def baz(self):\n"
        "        return 42\n"
        "\n"
        "\n"
        "def helper(value):\n"
        "    foo = value * 100\n"
        "    return foo\n"
    ),
    "pkg/sub/deep.py": ("def first():\n    return 'foo'\n\n\nclass Second:\n    pass\n# FIXME: foo at the end\n"),
    "pkg/native.h": "int foo(void);\n",
    "pkg/sub/a/b/c/leaf.rs": "fn foo() -> u32 {\n    123\n}\n",
    "pkg/config.yaml": "name: foo\nvalue: 7\n",
    "web/app.ts": "export const Foo = 'foo';\n",
    "web/page.html": "<p>foo</p>\n",
    "web/script.js": "// TODO foo\nconsole.log('foo');\n",
    "web/style.css": "p { color: red; }\n",
    "web/theme.scss": "$color: blue;\n",
    "logs/many.txt": "".join(f"match {index:03}\n" for index in range(MANY_MATCHES)),
    "data.bin": b"foo\x00binary\n",
}


def write_project(root: Path) -> Path:
    """Writes `PROJECT_FILES` (and an empty `.git` directory) under `root` and returns it."""
    for name, content in PROJECT_FILES.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    (root / ".git").mkdir()
    return root


def path_with_rg() -> str:
    """$PATH with the venv's bin first, so programs that spawn `rg` find the oracle's."""
    return os.pathsep.join([str(VENV_BIN), os.environ.get("PATH", "")])


def path_without_rg() -> str:
    """$PATH without any directory that holds an `rg`."""
    entries = os.environ.get("PATH", "").split(os.pathsep)
    return os.pathsep.join(entry for entry in entries if entry and not (Path(entry) / "rg").exists())


@functools.cache
def fs_mcp_server() -> ModuleType:
    """fs-mcp's server module; its dependencies' import-time warnings are not ours to fix."""
    with warnings.catch_warnings(record=True):  # authlib and fastmcp add filters of their own
        warnings.simplefilter("ignore")
        return importlib.import_module("fs_mcp.server")


def allow_project_in_both_servers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Writes the project under `tmp_path` (a `pytest-` path, which fs-mcp admits) and makes it
    the one allowed directory of fs-mcp (with `rg` on PATH) and of fsnative.fs_mcp."""
    assert RG is not None, "the PyPI ripgrep package is not installed in the venv"
    monkeypatch.setenv("PATH", path_with_rg())
    root = write_project(tmp_path / "project")
    fs_mcp_server().initialize([str(root)])
    fs_mcp.initialize([str(root)])
    return root


@pytest.fixture(name="fs_mcp_server")
def fs_mcp_server_fixture() -> ModuleType:
    """fs-mcp's server module (a test module imports this fixture to use it)."""
    return fs_mcp_server()


@pytest.fixture(name="project")
def fs_mcp_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The project, allowed in both servers (a test module imports this fixture to use it)."""
    return allow_project_in_both_servers(tmp_path, monkeypatch)
