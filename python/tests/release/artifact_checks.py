"""What the tests of packaging/'s artifact checks (macho.py, pe.py) share: where the
cross-built artifacts are, and each check script loaded as a module."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

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
