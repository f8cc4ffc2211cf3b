"""What the tests of packaging/'s artifact checks (macho.py, pe.py) share: where the
cross-built artifacts are, each check script loaded as a module, zig to link small libraries,
damaged copies of one, and packages laid out as dist-all writes them."""

from __future__ import annotations

import importlib.util
import io
import os
import random
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

REPO_DIR = Path(__file__).resolve().parents[3]
DIST_ALL = Path(os.environ.get("FSNATIVE_DIST_ALL", REPO_DIR / "dist" / "all"))


def load_check(name: str) -> ModuleType:
    """packaging/NAME.py, imported as the module NAME (with packaging/ on the path, for the
    modules the checks share)."""
    packaging = str(REPO_DIR / "packaging")
    if packaging not in sys.path:
        sys.path.insert(0, packaging)
    spec = importlib.util.spec_from_file_location(name, REPO_DIR / "packaging" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def require_zig() -> None:
    """Fails the test, naming the fix, when PyPI's ziglang (the tests' linker) is missing."""
    if importlib.util.find_spec("ziglang") is None:
        pytest.fail("ziglang is not installed: pip install -r python/tests/requirements.txt")


def zig(directory: Path, *args: str) -> None:
    """Runs `zig ARGS...` (PyPI's ziglang) in DIRECTORY."""
    subprocess.run([sys.executable, "-m", "ziglang", *args], check=True, cwd=directory)


def damaged_copies(data: bytes, seed: int, span: int, count: int = 400) -> Iterator[bytes]:
    """COUNT copies of DATA with 1 to 4 of its first SPAN bytes set at random (seeded)."""
    rng = random.Random(seed)
    for _ in range(count):
        damaged = bytearray(data)
        for _ in range(rng.randint(1, 4)):
            damaged[rng.randrange(0, span)] = rng.randrange(256)
        yield bytes(damaged)


def dist_module(check: ModuleType, pattern: str) -> tuple[str, tuple[Any, ...]]:
    """The artifact of DIST_ALL matching PATTERN and its one module as `check.artifact_modules`
    finds it; skips the test, saying why, when `make dist-all` has not built it."""
    matches = sorted(DIST_ALL.glob(pattern))
    if not matches:
        pytest.skip(f"no {pattern} in {DIST_ALL}: `make dist-all` builds it (not part of make test)")
    name = matches[0].name
    modules = [module for module in check.artifact_modules(DIST_ALL) if module[0] == name]
    assert len(modules) == 1, modules
    return name, modules[0]


def write_packages(directory: Path, addon: tuple[str, bytes], wheel: tuple[str, str, bytes]) -> None:
    """An npm platform package and a wheel, laid out as dist-all writes them: ADDON is (npm
    platform, the addon's bytes), WHEEL (platform tag, the module's file name, its bytes)."""
    platform, library = addon
    with tarfile.open(directory / f"fsnative-{platform}-0.1.0.tgz", "w:gz") as archive:
        info = tarfile.TarInfo(f"package/fsnative.{platform}.node")
        info.size = len(library)
        archive.addfile(info, io.BytesIO(library))
    tag, module_name, module = wheel
    with zipfile.ZipFile(directory / f"fsnative-0.1.0-cp39-abi3-{tag}.whl", "w") as archive:
        archive.writestr(f"fsnative/{module_name}", module)
        archive.writestr("fsnative/__init__.py", "")
