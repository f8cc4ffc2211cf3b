"""Races through the binding: a thread swaps a file and a directory for symlinks to an outside
secret in a tight loop while the test greps, globs and validates many times. The secret never
appears (the core opens files beneath its root's directory handle; see
crates/fsnative/tests/race.rs). The swapper is stopped in a ``finally``, so a failure never
hangs the run.

``FSNATIVE_FULL_LOAD=1`` runs 2,000 rounds instead of the 300 that keep CI fast
(``FSNATIVE_FULL_LOAD=1 ./python/dev.sh test binding/test_race.py -s``).
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

from fsnative import FsnativeError, Sandbox

FULL = os.environ.get("FSNATIVE_FULL_LOAD") == "1"
ROUNDS = 2000 if FULL else 300
MIN_FLIPS = 10


def swap_until(
    root: Path, outside: Path, stop: threading.Event, flips: list[int], failures: list[BaseException]
) -> None:
    """Flips root/victim.txt and root/dir between real entries and links outside, by rename."""
    staging = root / ".staging"
    staging.mkdir(exist_ok=True)
    flip = False
    try:
        while not stop.is_set():
            file_link, dir_link = staging / "victim", staging / "dir"
            if file_link.is_symlink() or file_link.exists():
                file_link.unlink()
            if dir_link.is_symlink():
                dir_link.unlink()
            elif dir_link.exists():
                shutil.rmtree(dir_link)
            if flip:
                file_link.symlink_to(outside / "secret.txt")
                dir_link.symlink_to(outside)
            else:
                file_link.write_text("public needle\n")
                dir_link.mkdir()
                (dir_link / "secret.txt").write_text("public needle\n")
            os.replace(file_link, root / "victim.txt")
            current = root / "dir"
            if current.is_symlink():
                current.unlink()
            else:
                shutil.rmtree(current, ignore_errors=True)
            os.replace(dir_link, current)
            flip = not flip
            flips[0] += 1
    except BaseException as error:  # noqa: BLE001 - reported by the test
        failures.append(error)


def test_a_path_swapped_for_a_link_to_an_outside_secret_never_leaks_it(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "dir").mkdir(parents=True)
    outside.mkdir()
    (outside / "secret.txt").write_text("SECRET needle\n")
    (root / "victim.txt").write_text("public needle\n")
    (root / "dir" / "secret.txt").write_text("public needle\n")
    sandbox = Sandbox([root])
    prefix = f"{root}/"
    stop = threading.Event()
    flips = [0]
    failures: list[BaseException] = []
    searched = einval = rounds = 0
    swapper = threading.Thread(target=swap_until, args=(root, outside, stop, flips, failures), daemon=True)
    swapper.start()
    try:
        # At least ROUNDS rounds, and on until the swapper has had its turns (a loaded machine
        # may starve its thread), within a bound.
        for round_ in range(ROUNDS * 20):
            if failures or (round_ >= ROUNDS and flips[0] > MIN_FLIPS):
                break
            rounds += 1
            found = sandbox.grep("needle", follow_links=round_ % 2 == 0, hidden=True, limit=None)
            searched += found.stats.files_searched
            for file in found.files:
                assert file.path.startswith(prefix), f"round {round_}: {file.path}"
                for match in file.matches:
                    assert "SECRET" not in match.text, f"round {round_}: leaked {file.relative_path}: {match.text}"
            try:
                text = sandbox.grep("needle", path="dir" if round_ % 2 else "victim.txt", follow_links=True).render()
                assert "SECRET" not in text, f"round {round_}: render leaked {text}"
            except FsnativeError:
                pass  # the named path was a link outside at that moment: refused
            listed = sandbox.glob("**", limit=None, hidden=True, follow_links=round_ % 2 == 1)
            for entry in listed.entries:
                assert entry.path.startswith(prefix), f"round {round_}: glob escaped to {entry.path}"
            for name in ("victim.txt", "dir/secret.txt"):
                try:
                    valid = sandbox.validate(name)
                    assert valid.startswith(prefix), f"round {round_}: validate({name}) = {valid}"
                except FsnativeError as error:
                    # A refusal, never a path outside. EINVAL is the core's readlink of a
                    # component that stopped being a link between its lstat and its readlink.
                    if error.code == "IO" and "os error 22" in str(error):
                        einval += 1
                    else:
                        assert error.code in {"OUTSIDE_SANDBOX", "NOT_FOUND", "NOT_A_DIRECTORY", "SYMLINK_LOOP"}, (
                            f"round {round_}: {error.code} {error}"
                        )
    finally:
        stop.set()
        swapper.join(10)
    print(f"\n{rounds} rounds: {searched} files searched, {flips[0]} swaps, {einval} validate EINVAL refusals")
    assert not swapper.is_alive()
    assert not failures, failures
    assert searched > 0, "the searches ran"
    assert flips[0] > MIN_FLIPS, f"the swapper flipped only {flips[0]} times"
