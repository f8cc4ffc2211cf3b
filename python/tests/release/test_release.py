"""What a release needs beyond code: every artifact carries both licenses (each npm tarball, the
wheel and the sdist that `make dist` wrote, and the crates as `cargo package` makes them), and
the version is the same everywhere it is written (`set-version.py`, which also sets it)."""

from __future__ import annotations

import json
import os
import runpy
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
DIST_DIR = Path(os.environ.get("FSNATIVE_DIST", REPO / "dist"))
LICENSES = {name: (REPO / name).read_bytes() for name in ("LICENSE-MIT", "LICENSE-APACHE")}
SET_VERSION = REPO / "set-version.py"


def artifacts(pattern: str) -> list[Path]:
    found = sorted(DIST_DIR.glob(pattern))
    if not found:
        pytest.fail(f"no {pattern} in {DIST_DIR}: run `make dist` first")
    return found


def tar_licenses(path: Path, folder: str) -> dict[str, bytes]:
    """The license files found in `folder` of the tar archive at `path`, by name."""
    found = {}
    with tarfile.open(path) as archive:
        for name in LICENSES:
            member = archive.extractfile(f"{folder}/{name}") if f"{folder}/{name}" in archive.getnames() else None
            if member is not None:
                found[name] = member.read()
    return found


def test_every_npm_tarball_carries_both_licenses() -> None:
    tarballs = artifacts("fsnative*.tgz")
    names = {path.name.rsplit("-", 1)[0] for path in tarballs}
    assert {"fsnative", "fsnative-mcp-filesystem"} <= names and any(n.startswith("fsnative-linux-") for n in names), (
        names
    )
    for tarball in tarballs:
        assert tar_licenses(tarball, "package") == LICENSES, tarball.name


def test_the_wheel_carries_both_licenses_in_its_metadata() -> None:
    for wheel in artifacts("fsnative-*.whl"):
        with zipfile.ZipFile(wheel) as archive:
            found = {
                Path(name).name: archive.read(name) for name in archive.namelist() if ".dist-info/licenses/" in name
            }
            metadata = next(name for name in archive.namelist() if name.endswith(".dist-info/METADATA"))
            fields = archive.read(metadata).decode().splitlines()
        assert found == LICENSES, wheel.name
        assert {f"License-File: {name}" for name in LICENSES} <= set(fields), wheel.name


def test_the_sdist_carries_both_licenses() -> None:
    for sdist in artifacts("fsnative-*.tar.gz"):
        assert tar_licenses(sdist, sdist.name.removesuffix(".tar.gz")) == LICENSES, sdist.name


def test_the_crates_carry_both_licenses(tmp_path: Path) -> None:
    # What `cargo publish` uploads, packaged from the checkout's sources into a target directory
    # of the test's own (no build: --no-verify).
    run = subprocess.run(
        ["cargo", "package", "--offline", "--no-verify", "--allow-dirty", "-p", "fsnative-matcher", "-p", "fsnative"],
        cwd=REPO,
        env={**os.environ, "CARGO_TARGET_DIR": str(tmp_path)},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    crates = sorted((tmp_path / "package").glob("*.crate"))
    assert [crate.name.rsplit("-", 1)[0] for crate in crates] == ["fsnative", "fsnative-matcher"]
    for crate in crates:
        assert tar_licenses(crate, crate.name.removesuffix(".crate")) == LICENSES, crate.name


def set_version(*args: str, root: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SET_VERSION), "--root", str(root), *args], capture_output=True, text=True
    )


def test_the_version_is_the_same_everywhere_it_is_written() -> None:
    run = set_version("--check")
    assert run.returncode == 0, run.stdout + run.stderr
    places = [line.split(maxsplit=1) for line in run.stdout.splitlines()]
    assert {place for _, place in places} >= {
        "Cargo.toml [workspace.package] version",
        "Cargo.lock: fsnative",
        "npm/package.json version",
        "npm/package-lock.json version",
    }
    [version] = {version for version, _ in places}
    assert json.loads((REPO / "npm" / "package.json").read_text())["version"] == version


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """The files set-version.py reads and writes, copied to a directory of their own."""
    for name in runpy.run_path(str(SET_VERSION))["FILES"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(REPO / name, tmp_path / name)
    return tmp_path


def test_set_version_writes_every_place_and_each_platform_package_pin(copy: Path) -> None:
    manifest_path = copy / "npm" / "package.json"
    original = json.loads(manifest_path.read_text())
    old = original["version"]
    # A platform package pin the script has never heard of, and a dependency that is not ours.
    pins = {**original.get("optionalDependencies", {}), "fsnative-freebsd-riscv64": old, "other": "1.0.0"}
    manifest = {**original, "optionalDependencies": pins}
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    run = set_version("9.8.7-rc.1", root=copy)
    assert run.returncode == 0, run.stdout + run.stderr
    assert {line.split(maxsplit=1)[0] for line in run.stdout.splitlines()} == {"9.8.7-rc.1"}
    written = json.loads(manifest_path.read_text())["optionalDependencies"]
    assert written == {**{name: "9.8.7-rc.1" for name in pins}, "other": "1.0.0"}
    cargo = (copy / "Cargo.toml").read_text()
    assert 'version = "9.8.7-rc.1"' in cargo and f'"{old}"' not in cargo
    assert "fsnative-linux-x64-gnu-9.8.7-rc.1.tgz" in (copy / "README.md").read_text()
    # Nothing else changed: with the version put back, every file is as it was.
    assert set_version(old, root=copy).returncode == 0
    assert json.loads(manifest_path.read_text()) == manifest
    files = runpy.run_path(str(SET_VERSION))["FILES"]
    assert [name for name in files if (copy / name).read_bytes() != (REPO / name).read_bytes()] == ["npm/package.json"]


def test_set_version_check_fails_when_one_place_differs(copy: Path) -> None:
    lock = copy / "Cargo.lock"
    lock.write_text(
        lock.read_text().replace('name = "fsnative-node"\nversion = "', 'name = "fsnative-node"\nversion = "7.7.7-x')
    )
    run = set_version("--check", root=copy)
    assert run.returncode == 1
    assert "the versions differ" in run.stderr and "Cargo.lock: fsnative-node" in run.stdout
