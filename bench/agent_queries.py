"""The query classes of agent_bench.py, drawn from a tree's own words (issue #36, item 3).

Nothing is hand-picked: each class's instances come from a seeded random draw over what a seeded
sample of the tree's `.py` files holds (definitions, import lines, identifiers, call sites) and
over its file and directory names. The same seed and tree give the same queries.

A query is a plain dict, stored as it is in the raw results:
    {"cls": class, "text": how the report shows it, "kind": "grep" | "glob",
     "patterns": [...] (OR-ed), "regex": bool, "ignore_case": bool, "limit": n, "expect": "match" | "none"}
"""

import os
import random
import re
import string
from collections import Counter
from pathlib import Path

SEED = 36
LIMIT = 100
GLOB_LIMIT = 1000
SAMPLE_FILES = 3000  # `.py` files read per tree for the draw
DRAW_ATTEMPTS = 50  # no-match candidates tried before giving up
# Directories neither tool searches by default (ignored, or hidden) or one of them skips (fff:
# `venv`, `__pycache__`): words drawn from them could be invisible to a tool.
UNSEARCHED_DIRS = {"node_modules", "target", ".venv", "venv", ".git", "__pycache__"}

# class -> (what the report calls it, the speed-up it must reach over fff)
CLASSES = {
    "definition": ("definition phrase (`def NAME`, `class NAME`)", 3),
    "import": ("import line (`import NAME`, `from NAME import`)", 3),
    "literals_or": ("2 to 5 literals OR-ed", 3),
    "ignore_case": ("case-insensitive identifier", 3),
    "regex": ("regex with a required literal (`NAME\\(\\w+`)", 3),
    "no_match_words": ("word-like no-match (tree words glued)", 5),
    "no_match_random": ("random no-match", 5),
    "common": (f"common word, limit {LIMIT}", 3),
    "glob": (f"glob, limit {GLOB_LIMIT}", 3),
}
NO_MATCH = {"no_match_words", "no_match_random"}

DEFINITION = re.compile(r"^[ \t]*(?:async )?(def|class) ([A-Za-z_]\w*)", re.MULTILINE)
IMPORT = re.compile(r"^[ \t]*(from [\w.]+ import|import [\w.]+)", re.MULTILINE)
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CALL = re.compile(r"\b([A-Za-z_]\w{2,})\(\w")


def searchable_files(root):
    """Every file below the root that both tools search, as paths relative to it, sorted: no
    hidden file or directory and none of UNSEARCHED_DIRS."""
    found = []
    for directory, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in UNSEARCHED_DIRS)
        base = Path(directory).relative_to(root)
        found += [base / name for name in sorted(files) if not name.startswith(".")]
    return found


class TreeWords:
    """What a seeded sample of the tree's `.py` files holds."""

    def __init__(self, root, rng):
        self.files = searchable_files(root)
        sources = [path for path in self.files if path.suffix == ".py"]
        sample = sorted(rng.sample(sources, min(SAMPLE_FILES, len(sources))))
        self.definitions, self.imports, self.calls = [], [], []
        self.occurrences, self.file_counts = Counter(), Counter()
        for path in sample:
            text = (root / path).read_text(errors="replace")
            self.definitions += [
                f"{kind} {name}" for kind, name in DEFINITION.findall(text) if not name.startswith("__")
            ]
            self.imports += IMPORT.findall(text)
            self.calls += CALL.findall(text)
            words = IDENTIFIER.findall(text)
            self.occurrences.update(words)
            self.file_counts.update(set(words))
        # Names of the tree in no particular favour: identifiers of 5 or more characters in at
        # least two sampled files (the middle of the distribution, not only its head).
        self.names = sorted(w for w, n in self.file_counts.items() if n >= 2 and len(w) >= 5 and not w.startswith("__"))
        self.lower_words = sorted({w for w in self.names if w.isalpha() and w.islower() and len(w) <= 10})
        self.common = [w for w, _ in self.occurrences.most_common(200) if len(w) >= 3][:40]


def distinct(rng, pool, count):
    """`count` distinct items drawn from `pool` (a list in which frequent items recur, so the
    draw favours them), or every distinct item when there are fewer."""
    chosen = []
    for item in rng.sample(pool, len(pool)):
        if item not in chosen:
            chosen.append(item)
            if len(chosen) == count:
                break
    return chosen


def grep_query(cls, patterns, text=None, regex=False, ignore_case=False, expect="match", limit=LIMIT):
    return {
        "cls": cls,
        "text": text or " | ".join(patterns),
        "kind": "grep",
        "patterns": patterns,
        "regex": regex,
        "ignore_case": ignore_case,
        "limit": limit,
        "expect": expect,
    }


def draw_definition(words, rng, count):
    return [grep_query("definition", [phrase]) for phrase in distinct(rng, words.definitions, count)]


def draw_import(words, rng, count):
    return [grep_query("import", [line]) for line in distinct(rng, words.imports, count)]


def draw_literals_or(words, rng, count):
    return [grep_query("literals_or", rng.sample(words.names, rng.randint(2, 5))) for _ in range(count)]


def draw_ignore_case(words, rng, count):
    """Mixed-case names, searched in lower case: fff's smart case then ignores case, as
    fsnative's `case_mode="insensitive"` does."""
    mixed = [w for w in words.names if w.lower() != w and len(w) >= 6]
    return [
        grep_query("ignore_case", [name.lower()], text=f"-i {name.lower()}", ignore_case=True)
        for name in rng.sample(mixed, min(count, len(mixed)))
    ]


def draw_regex(words, rng, count):
    return [grep_query("regex", [rf"{name}\(\w+"], regex=True) for name in distinct(rng, words.calls, count)]


def draw_common(words, rng, count):
    return [grep_query("common", [word]) for word in rng.sample(words.common, min(count, len(words.common)))]


def no_match_words(words, rng):
    return "_".join(rng.sample(words.lower_words, 3))


def no_match_random(words, rng):
    alphabet = string.ascii_letters + string.digits
    return "".join(rng.choice(alphabet) for _ in range(12))


def draw_no_match(cls, make, words, rng, count, matches_anywhere):
    """Candidates from `make` until `count` of them match nothing (`matches_anywhere` asks the
    tools, without a limit); the draw fails loudly if too few do."""
    queries = []
    for _ in range(DRAW_ATTEMPTS):
        query = grep_query(cls, [make(words, rng)], expect="none")
        if not matches_anywhere(query):
            queries.append(query)
            if len(queries) == count:
                return queries
    raise SystemExit(f"agent_bench: only {len(queries)} of {count} {cls} candidates match nothing")


def draw_glob(words, rng, count):
    """`**/*TAIL` (TAIL: a file's name from its last `_`, or all of it) and `**/DIR/**/*.EXT` (DIR:
    the directory of a file, EXT: its extension), alternating, from files drawn at random. Both
    forms mean the same whether `*` crosses `/` (fff) or not (fsnative, as git and rg)."""
    globs = []
    for path in rng.sample(words.files, len(words.files)):
        if not path.suffix or path.stem.endswith("_"):  # `__init__.py` would give `**/*_.py`
            continue
        if len(globs) % 2 == 0:
            pattern = f"**/*{path.name[path.name.rfind('_') :] if '_' in path.stem else path.name}"
        elif path.parent.name:
            pattern = f"**/{path.parent.name}/**/*{path.suffix}"
        else:
            continue
        if pattern not in globs:
            globs.append(pattern)
        if len(globs) == count:
            break
    return [
        {"cls": "glob", "text": g, "kind": "glob", "patterns": [g], "limit": GLOB_LIMIT, "expect": "match"}
        for g in globs
    ]


DRAWS = {
    "definition": draw_definition,
    "import": draw_import,
    "literals_or": draw_literals_or,
    "ignore_case": draw_ignore_case,
    "regex": draw_regex,
    "common": draw_common,
    "glob": draw_glob,
}


def draw(tree, root, count, matches_anywhere):
    """Every class's instances for one tree: class -> list of queries."""
    words = TreeWords(root, random.Random(f"{SEED}:{tree}:sample"))
    queries = {}
    for cls in CLASSES:
        rng = random.Random(f"{SEED}:{tree}:{cls}")
        if cls in NO_MATCH:
            make = no_match_words if cls == "no_match_words" else no_match_random
            queries[cls] = draw_no_match(cls, make, words, rng, count, matches_anywhere)
        else:
            queries[cls] = DRAWS[cls](words, rng, count)
    return queries
