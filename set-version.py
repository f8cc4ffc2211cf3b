#!/usr/bin/env python3
"""Sets the release version everywhere it is written, or checks that every place agrees.

    ./set-version.py 0.2.0        # or: make set-version VERSION=0.2.0
    ./set-version.py --check      # prints each place and its version; exits 1 if they differ

The places: the workspace's version and its path dependencies' version requirements
(Cargo.toml), each member crate (which inherits it), the workspace crates in Cargo.lock and
the fuzz workspace's lock, npm/package.json with the pins of every `fsnative-*` package in its
optionalDependencies (read from the file, so platform packages added later are covered),
npm/package-lock.json, python/pyproject.toml (its version is Cargo's while it is `dynamic`),
and the artifact names in the READMEs and docs. Standard library only (Python 3.9+).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

CARGO_MANIFESTS = [
    "crates/fsnative/Cargo.toml",
    "crates/fsnative-matcher/Cargo.toml",
    "bindings/node/Cargo.toml",
    "bindings/python/Cargo.toml",
]
CARGO_LOCKS = ["Cargo.lock", "crates/fsnative/fuzz/Cargo.lock"]
WORKSPACE = "Cargo.toml"
NPM_MANIFEST = "npm/package.json"
NPM_LOCK = "npm/package-lock.json"
PYPROJECT = "python/pyproject.toml"
DOCS = ["README.md", "docs/install.md", "docs/drop-ins.md", "npm/README.md", "python/README.md"]
FILES = [WORKSPACE, *CARGO_MANIFESTS, *CARGO_LOCKS, NPM_MANIFEST, NPM_LOCK, PYPROJECT, *DOCS]
"""Every file this script reads or writes, relative to the repository."""

VERSION = re.compile(r"\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?")
WORKSPACE_VERSION = re.compile(r'(?m)^(\[workspace\.package\]\n(?:(?!\[).*\n)*?version = ")([^"]*)(")')
PATH_DEPENDENCY = re.compile(r'(?m)^(fsnative[\w-]* = \{ path = "[^"]*", version = ")([^"]*)(")')
LOCKED_CRATE = re.compile(r'(?m)^(name = "fsnative(?:-matcher|-node|-python)?"\nversion = ")([^"]*)(")')
PROJECT_VERSION = re.compile(r'(?m)^(version = ")([^"]*)(")')
ARTIFACT = r"(fsnative(?:-[a-z][a-z0-9_]*)*-){}(?=\.tgz|\.tar\.gz|-cp)"


def places(root: Path) -> list[tuple[str, str]]:
    """Each place the version is written, as (description, version)."""
    found: list[tuple[str, str]] = []
    workspace = (root / WORKSPACE).read_text()
    [(_, version, _)] = WORKSPACE_VERSION.findall(workspace)
    found.append((f"{WORKSPACE} [workspace.package] version", version))
    found += [
        (f"{WORKSPACE}: {m.group(0).split(' =')[0]}'s version requirement", m.group(2))
        for m in PATH_DEPENDENCY.finditer(workspace)
    ]
    for name in CARGO_MANIFESTS:
        text = (root / name).read_text()
        if not inherits_version(text):
            [(_, own, _)] = PROJECT_VERSION.findall(text)
            found.append((f"{name} version", own))
    for name in CARGO_LOCKS:
        found += [
            (f"{name}: {m.group(1).split(chr(34))[1]}", m.group(2))
            for m in LOCKED_CRATE.finditer((root / name).read_text())
        ]
    manifest = json.loads((root / NPM_MANIFEST).read_text())
    found.append((f"{NPM_MANIFEST} version", manifest["version"]))
    found += [(f"{NPM_MANIFEST} optionalDependencies {n}", v) for n, v in pins(manifest).items()]
    lock = json.loads((root / NPM_LOCK).read_text())
    found.append((f"{NPM_LOCK} version", lock["version"]))
    found.append((f'{NPM_LOCK} packages[""] version', lock["packages"][""]["version"]))
    found += [(f'{NPM_LOCK} packages[""] optionalDependencies {n}', v) for n, v in pins(lock["packages"][""]).items()]
    project = project_table(root)
    if not version_is_dynamic(project):
        [(_, own, _)] = PROJECT_VERSION.findall(project)
        found.append((f"{PYPROJECT} [project] version", own))
    for name in DOCS:
        text = (root / name).read_text()
        found += [
            (f"{name}: {m.group(0)}", m.group(2)) for m in re.finditer(ARTIFACT.format(f"({VERSION.pattern})"), text)
        ]
    return list(dict.fromkeys(found))


def pins(manifest: dict) -> dict[str, str]:
    """The optionalDependencies of a package manifest that are fsnative's own packages."""
    return {name: pin for name, pin in manifest.get("optionalDependencies", {}).items() if name.startswith("fsnative-")}


def inherits_version(manifest: str) -> bool:
    """A member crate's manifest takes the workspace's version (`version.workspace = true`)."""
    return re.search(r"(?m)^version\.workspace = true$", manifest) is not None


def version_is_dynamic(project: str) -> bool:
    """The [project] table leaves its version to the build (maturin: Cargo's)."""
    return re.search(r'(?m)^dynamic = \[[^]]*"version"', project) is not None


def project_table(root: Path) -> str:
    """The [project] table of python/pyproject.toml, as text."""
    text = (root / PYPROJECT).read_text()
    return re.search(r"(?ms)^\[project\]\n(.*?)(?=^\[|\Z)", text).group(1)


def set_version(root: Path, new: str) -> None:
    """Writes `new` into every place `places` reads."""

    def replace(pattern: re.Pattern, text: str, count: int = 0) -> str:
        return pattern.sub(lambda m: m.group(1) + new + m.group(3), text, count=count)

    old = dict(places(root))[f"{WORKSPACE} [workspace.package] version"]
    edit(root, WORKSPACE, lambda t: replace(PATH_DEPENDENCY, replace(WORKSPACE_VERSION, t)))
    for name in CARGO_MANIFESTS:
        if not inherits_version((root / name).read_text()):
            edit(root, name, lambda t: replace(PROJECT_VERSION, t, count=1))
    for name in CARGO_LOCKS:
        edit(root, name, lambda t: replace(LOCKED_CRATE, t))
    for name in (NPM_MANIFEST, NPM_LOCK):
        data = json.loads((root / name).read_text())
        for manifest in (data, data.get("packages", {}).get("")):
            if manifest is None:
                continue
            manifest["version"] = new
            manifest.get("optionalDependencies", {}).update(dict.fromkeys(pins(manifest), new))
        (root / name).write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    project = project_table(root)
    if not version_is_dynamic(project):
        edit(root, PYPROJECT, lambda t: t.replace(project, replace(PROJECT_VERSION, project, count=1)))
    for name in DOCS:
        edit(root, name, lambda t: re.sub(ARTIFACT.format(re.escape(old)), lambda m: m.group(1) + new, t))


def edit(root: Path, name: str, change) -> None:
    path = root / name
    path.write_text(change(path.read_text()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("version", nargs="?", help="the new version (X.Y.Z or X.Y.Z-pre)")
    parser.add_argument("--check", action="store_true", help="check that every place agrees, and print them")
    parser.add_argument(
        "--root", type=Path, default=Path(__file__).resolve().parent, help="the repository (default: this script's)"
    )
    args = parser.parse_args()
    if args.check == bool(args.version):
        parser.error("give either a version or --check")
    if args.version:
        if not VERSION.fullmatch(args.version):
            parser.error(f"{args.version!r} is not a version like 1.2.3 or 1.2.3-rc.1")
        set_version(args.root, args.version)
    found = places(args.root)
    versions = {version for _, version in found}
    for place, version in found:
        print(f"{version:<12} {place}")
    if len(versions) != 1:
        print(f"set-version: the versions differ: {', '.join(sorted(versions))}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
