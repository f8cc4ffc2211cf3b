"""The release wheel and sdist install outside the checkout, as a new user installs them: each into
a fresh venv in a temp dir, from a clean copy of dist/ (env FSNATIVE_DIST, default <repo>/dist,
which `make dist` writes), with no repository beside it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
# What the source builds add to the environment (the file says why: an unoptimised release build).
SOURCE_BUILD_ENV: dict[str, str] = json.loads((REPO / "packaging" / "source-build-env.json").read_text())["env"]

CHECK = """
import json, sys
from fsnative import Sandbox, fs_mcp
from fsnative.fff import FffTools
tree = sys.argv[1]
found = Sandbox([tree]).grep("needle")
fs_mcp.initialize([tree])
print(json.dumps({
    "files": [[f.relative_path, [m.line_number for m in f.matches]] for f in found.files],
    "grep_content": fs_mcp.grep_content("needle", section_patterns=[]),
    "search_files": fs_mcp.search_files(".", "*.md"),
    "fff_grep": FffTools(Sandbox([tree])).grep("needle"),
}))
"""
"""Greps the tree named by argv[1] with the API and with the fs_mcp and fff drop-ins' tools."""


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    source = Path(os.environ.get("FSNATIVE_DIST", REPO / "dist"))
    if not list(source.glob("fsnative-*.whl")) or not list(source.glob("fsnative-*.tar.gz")):
        pytest.fail(f"no wheel or sdist in {source}: run `make dist` first")
    copy = tmp_path_factory.mktemp("dist-copy") / "dist"
    shutil.copytree(source, copy)
    return copy


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("install-tree")
    (root / "sub").mkdir()
    (root / "a.txt").write_text("one\nneedle here\n")
    (root / "sub" / "b.md").write_text("needle\nno\nneedle again\n")
    return root


def without_cargo() -> dict[str, str]:
    """This environment with every PATH entry that holds a `cargo` program left out."""
    env = {name: value for name, value in os.environ.items() if name not in ("CARGO", "VIRTUAL_ENV")}
    env["PATH"] = os.pathsep.join(
        d for d in env.get("PATH", "").split(os.pathsep) if d and not (Path(d) / "cargo").exists()
    )
    return env


def fresh_venv(path: Path) -> Path:
    """A new venv at `path` (from the interpreter running the tests): its bin directory."""
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    return path / "bin"


def pip_install(bin_dir: Path, *args: str, env: dict[str, str]) -> str:
    run = subprocess.run(
        [str(bin_dir / "python"), "-m", "pip", "install", "--disable-pip-version-check", *args],
        env=env,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout + run.stderr


def assert_searches(bin_dir: Path, tree: Path, env: dict[str, str]) -> None:
    run = subprocess.run([str(bin_dir / "python"), "-c", CHECK, str(tree)], env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    answer = json.loads(run.stdout)
    assert answer["files"] == [["a.txt", [2]], ["sub/b.md", [1, 3]]]
    assert answer["grep_content"] == "\n\n".join(
        f"File: {tree / name}, Line: {line}\n---\n{text}\n---"
        for name, line, text in [
            ("a.txt", 2, "needle here"),
            ("sub/b.md", 1, "needle"),
            ("sub/b.md", 3, "needle again"),
        ]
    )
    assert answer["search_files"] == "sub/b.md"
    assert answer["fff_grep"] == [
        "Found 3 matches across 2 files (searched 2 files under '.')",
        "a.txt:2:needle here",
        "sub/b.md:1:needle",
        "sub/b.md:3:needle again",
    ]
    # The console scripts are installed; without fs-mcp or mcp (extras) they name the fix.
    for command, extra in (("fsnative-fs-mcp", "fs-mcp"), ("fsnative-fff-mcp", "fff")):
        server = subprocess.run([str(bin_dir / command), str(tree)], env=env, capture_output=True, text=True)
        assert server.returncode == 1
        assert f'pip install "fsnative[{extra}]"' in server.stderr


def test_the_wheel_installs_with_no_cargo_on_path(dist: Path, tree: Path, tmp_path: Path) -> None:
    env = without_cargo()
    assert shutil.which("cargo", path=env["PATH"]) is None
    [wheel] = dist.glob("fsnative-*.whl")
    assert f"-cp39-abi3-{'macosx' if sys.platform == 'darwin' else 'manylinux'}_" in wheel.name
    bin_dir = fresh_venv(tmp_path / "venv")
    pip_install(bin_dir, "--no-index", str(wheel), env=env)
    assert_searches(bin_dir, tree, env)


def test_the_sdist_builds_from_source_and_installs(dist: Path, tree: Path, tmp_path: Path) -> None:
    [sdist] = dist.glob("fsnative-*.tar.gz")
    bin_dir = fresh_venv(tmp_path / "venv")
    # A target directory of its own: a cold build of the sdist's sources, nothing reused, and
    # unoptimised (packaging/source-build-env.json says why).
    env = {
        **without_cargo(),
        **SOURCE_BUILD_ENV,
        "PATH": os.environ["PATH"],
        "CARGO_TARGET_DIR": str(tmp_path / "target"),
    }
    # -v shows the build's output (maturin's and cargo's); no cache, so it really builds.
    output = pip_install(bin_dir, "-v", "--no-cache-dir", str(sdist), env=env)
    assert "Compiling fsnative v" in output and "Compiling fsnative-python v" in output, output
    assert_searches(bin_dir, tree, without_cargo())
