"""Glob from Python: fsnative vs Path.rglob, glob.glob(recursive=True) and wcmatch.

None of the peers reads .gitignore, so fsnative runs with `no_ignore=True` to list the same
files; Path.rglob also yields hidden files, so it is compared with `hidden=True` as well.
The peers do not sort; fsnative's walk yields path order, so its (default) sorted result costs
nothing extra.
"""

import glob
from pathlib import Path

from wcmatch import glob as wcglob

import fsnative
from measure import corpus, interleaved, record, save, trees

PATTERN = "**/*.py"


def fsnative_glob(sandbox, **options):
    def run():
        result = sandbox.glob(PATTERN, limit=None, **options)
        paths = [entry.path for entry in result.entries]
        return len(paths), len(paths)

    return run


def peer(listing):
    def run():
        paths = listing()
        return len(paths), len(paths)

    return run


def main():
    rows = []
    for tree in trees("small", "medium", "large"):
        root = corpus(tree)
        sandbox = fsnative.Sandbox([root])
        runs = interleaved(
            {
                "fsnative (no_ignore)": fsnative_glob(sandbox, no_ignore=True),
                "fsnative (no_ignore, hidden)": fsnative_glob(sandbox, no_ignore=True, hidden=True),
                "fsnative (default: .gitignore)": fsnative_glob(sandbox),
                "Path.rglob": peer(lambda: [p for p in Path(root).rglob("*.py") if p.is_file()]),
                "glob.glob(recursive=True)": peer(lambda: glob.glob(PATTERN, root_dir=root, recursive=True)),
                "wcmatch.glob": peer(lambda: wcglob.glob(PATTERN, root_dir=root, flags=wcglob.GLOBSTAR)),
            }
        )
        same_files = ["fsnative (no_ignore)"]
        with_hidden = ["fsnative (no_ignore, hidden)"]
        baselines = {"Path.rglob": with_hidden, "glob.glob(recursive=True)": same_files, "wcmatch.glob": same_files}
        rows += record(
            "glob-python",
            tree,
            "py_files",
            f"`{PATTERN}`",
            runs,
            lambda name: baselines.get(name, []),
            {"fsnative (default: .gitignore)": "skips ignored directories: fewer files, shown for reference"},
        )
    save("glob-python", rows)


if __name__ == "__main__":
    main()
