"""What the static checks of the cross-built libraries (macho.py, pe.py) share: finding each
library in its package, the command line, and printing each file's verdict."""

from __future__ import annotations

import argparse
import re
import sys
import tarfile
import zipfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

# A module as checked: (file name, kind, the check's other arguments..., the library's bytes).
Module = tuple[Any, ...]


def packed_modules(
    directory: Path, targets: Iterable[tuple[str, str, tuple[str, ...]]], suffix: str, error: type[Exception]
) -> list[Module]:
    """The libraries in the packages of a dist-all directory, for each (npm platform, wheel tag,
    check arguments) of TARGETS: the addon of `fsnative-PLATFORM-*.tgz`, kind "node", and the one
    `fsnative/_fsnative*.SUFFIX` module of `fsnative-*-TAG.whl`, kind "python". A package
    without its library raises ERROR."""
    found: list[Module] = []
    for platform, tag, arguments in targets:
        for tgz in sorted(directory.glob(f"fsnative-{platform}-*.tgz")):
            member = f"package/fsnative.{platform}.node"
            with tarfile.open(tgz) as archive:
                try:
                    addon = archive.extractfile(member)
                except KeyError:
                    addon = None
                if addon is None:
                    raise error(f"{tgz.name}: no {member}")
                found.append((tgz.name, "node", *arguments, addon.read()))
        for wheel in sorted(directory.glob(f"fsnative-*-{tag}.whl")):
            with zipfile.ZipFile(wheel) as archive:
                pattern = rf"fsnative/_fsnative[.\w-]*\.{suffix}"
                modules = [n for n in archive.namelist() if re.fullmatch(pattern, n)]
                if len(modules) != 1:
                    raise error(f"{wheel.name}: expected one fsnative/_fsnative*.{suffix}, found {modules}")
                found.append((wheel.name, "python", *arguments, archive.read(modules[0])))
    return found


def main(
    argv: Sequence[str] | None,
    *,
    tool: str,
    doc: str,
    platform: str,
    options: dict[str, dict[str, Any]],
    artifact_modules: Callable[[Path], list[Module]],
    check: Callable[..., tuple[list[str], str]],
    error: type[Exception],
) -> int:
    """The command line of a check: OPTIONS (each a flag and its argparse settings, their values
    given to CHECK in that order) with FILE..., or `--artifacts DIR`; 1 if any failed. TOOL
    prefixes its messages, PLATFORM names the artifacts."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    for flag, settings in options.items():
        parser.add_argument(flag, **settings)
    parser.add_argument("--artifacts", type=Path, help=f"check every {platform} artifact in this directory")
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args(argv)
    if args.artifacts:
        try:
            checks = artifact_modules(args.artifacts)
        except (error, OSError, tarfile.TarError, zipfile.BadZipFile) as err:
            print(f"{tool}: {err}", file=sys.stderr)
            return 1
        if not checks:
            print(f"{tool}: no {platform} artifact in {args.artifacts}", file=sys.stderr)
            return 1
    else:
        values = [getattr(args, flag[2:].replace("-", "_")) for flag in options]
        if not (all(values) and args.files):
            parser.error(f"give {', '.join(options)} and FILE..., or --artifacts DIR")
        checks = [(str(f), *values, f.read_bytes()) for f in args.files]
    return report((name, *check(data, *arguments)) for name, *arguments, data in checks)


def report(verdicts: Iterable[tuple[str, list[str], str]]) -> int:
    """Prints `NAME: ok: TEXT` or `NAME: FAILED: …` per (name, faults, text); 1 if any failed."""
    failed = 0
    for name, faults, text in verdicts:
        if faults:
            failed += 1
            print(f"{name}: FAILED: " + "; ".join(faults), file=sys.stderr)
        else:
            print(f"{name}: ok: {text}")
    return 1 if failed else 0
