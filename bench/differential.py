#!/usr/bin/env python3
"""Differential test of fsnative's renderers against ripgrep.

    python3 bench/differential.py [--rg PATH] [--fsgrep PATH] [--queries N] [--seed S]
                                  [--keep DIR] [--show K]

Builds two trees in a temp dir (``clean``: a small project; ``messy``: binary files, NULs early
and late, UTF-8/UTF-16 byte-order marks, Latin-1 and CRLF text, ignore files at many depths,
hidden files, symlinks, odd and non-UTF-8 file names), generates ``--queries`` queries from a
seeded RNG (every output mode, both render formats, context, headings, path styles, explicit
paths, filters), runs each through ``rg`` and through the ``fsgrep`` example (the fsnative core
with ``render::standard`` / ``render::json_lines``) with the same options and ``--sort path``,
and compares stdout byte for byte. JSON output is compared with the timings (``elapsed``,
``elapsed_total``), which no two runs share, set to zero on both sides; every other byte must
match.

Prints ``N of M identical`` and one line per class of difference (with a sample query).
Exit status 0 whatever the count; ``--expect N`` makes it 1 when fewer than N are identical.

Needs rg 15.1.0 (``pip install ripgrep==15.1.0``) and ``cargo build --release --example
fsgrep`` (or ``--fsgrep`` pointing at a build).
"""

import argparse
import difflib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent

# ---------------------------------------------------------------------------------------------
# Trees


def w(root: Path, rel, data):
    """Writes `data` (str or bytes) at `rel` (str or bytes path) under `root`."""
    path = os.path.join(os.fsencode(root), os.fsencode(rel))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if isinstance(data, str):
        data = data.encode("utf-8")
    with open(path, "wb") as f:
        f.write(data)


def link(root: Path, rel, target):
    path = os.path.join(os.fsencode(root), os.fsencode(rel))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(os.fsencode(target), path)


WORDS = (
    "alpha beta gamma delta foo bar baz qux TODO FIXME error Error ERROR warn import def "
    "class return self value Value needle haystack hello world é ü ß 日本 unicode"
).split()


def filler(rng, lines, width=8):
    out = []
    for _ in range(lines):
        out.append(" ".join(rng.choice(WORDS) for _ in range(rng.randint(0, width))))
    return "\n".join(out) + "\n"


def build_clean(root: Path, rng):
    w(root, "README.md", "# Project\n\nhello world\nTODO: write docs\n\nfoo bar\n")
    w(root, ".gitignore", "build/\n*.log\n")
    w(root, "build/out.txt", "foo in build\n")
    w(root, "debug.log", "error: foo failed\n")
    w(
        root,
        "src/main.py",
        "import os\n\n\ndef main():\n    # TODO: foo\n    print('hello world')\n"
        "    return 0\n\n\nclass Foo:\n    def bar(self):\n        return self.value\n\n"
        "if __name__ == '__main__':\n    main()\n",
    )
    w(root, "src/util.py", "def helper(x):\n    return x + 1\n\nERROR = 'error'\nfoo = 1\nfoobar = 2\n")
    w(
        root,
        "src/lib.rs",
        'fn main() {\n    println!("hello");\n}\n\n// TODO foo\nstruct Foo;\n'
        "impl Foo {\n    fn bar(&self) -> u32 { 42 }\n}\n",
    )
    w(root, "src/nested/deep/mod.rs", "pub fn deep() {}\n// foo bar baz\n// FIXME\n")
    w(root, "docs/guide.txt", filler(rng, 60))
    w(root, "docs/notes.md", "alpha\nbeta\ngamma\nalpha beta\n\n\nfoo\nfoo\nfoo\n")
    w(root, "data/empty.txt", "")
    w(root, "data/noeol.txt", "last line foo without newline")
    w(root, "data/one.txt", "foo\n")
    w(root, "web/app.js", "function foo() {\n  return 'bar';\n}\n// TODO: error handling\n")
    w(root, "web/app.ts", "export const foo: number = 1;\nexport function bar(): string { return 'x' }\n")
    for i in range(6):
        w(root, f"gen/file{i}.txt", filler(rng, rng.randint(5, 40)))


def build_messy(root: Path, rng):
    build_clean(root / "proj", rng)
    # Binary: NUL early; NUL after the first 64 KiB with matches before and after it; NUL in
    # between the 32 KiB and 64 KiB marks; NUL at the very end.
    w(root, "bin/early.bin", b"foo\x00bar\nfoo again\n")
    w(root, "bin/image.png", b"\x89PNG\r\n\x1a\n\x00\x00foo" + bytes(range(256)))
    late = filler(rng, 3000).encode() + b"foo before the nul\n"
    late += b"x" * 100 + b"\x00" + b"\nfoo after the nul\n" + b"foo\n" * 5
    w(root, "bin/late.txt", late)
    mid = filler(rng, 1500).encode()
    mid = mid[:40000] + b"\nfoo mid\n\x00\nfoo after\n"
    w(root, "bin/mid.txt", mid)
    w(root, "bin/endnul.txt", b"foo\nbar\n\x00")
    big = filler(rng, 30000).encode() + b"\x00tail foo\n"
    w(root, "bin/big_late.dat", big)
    # Encodings.
    w(root, "enc/utf8bom.txt", b"\xef\xbb\xbffoo with bom\nsecond line\n")
    w(root, "enc/utf16le.txt", "\ufefffoo in utf16le\nhello world\n".encode("utf-16-le"))
    w(root, "enc/utf16be.txt", "\ufefffoo in utf16be\nhello\n".encode("utf-16-be"))
    w(root, "enc/latin1.txt", "caf\xe9 foo\nna\xefve bar\n".encode("latin-1"))
    w(root, "enc/crlf.txt", b"foo\r\nbar\r\nfoo bar\r\n")
    w(root, "enc/mixed.txt", b"foo\n\xff\xfe bad bytes foo\n\xc3\x28 foo\nok\n")
    w(root, "enc/long.txt", ("foo " * 3000 + "\n") * 2 + "short foo\n")
    w(root, "enc/blank.txt", "\n\n\n\nfoo\n\n\n")
    # Ignore files at many depths, with negations.
    w(root, ".gitignore", "*.tmp\nignored_dir/\n!keep.tmp\n")
    w(root, "a.tmp", "foo tmp\n")
    w(root, "keep.tmp", "foo keep\n")
    w(root, "ignored_dir/x.txt", "foo ignored\n")
    w(root, "l1/.ignore", "secret*\n")
    w(root, "l1/secret.txt", "foo secret\n")
    w(root, "l1/open.txt", "foo open\n")
    w(root, "l1/l2/.rgignore", "!secret2.txt\n*.md\n")
    w(root, "l1/l2/secret2.txt", "foo secret2\n")
    w(root, "l1/l2/readme.md", "foo md\n")
    w(root, "l1/l2/l3/.gitignore", "*.txt\n!visible.txt\n")
    w(root, "l1/l2/l3/hidden_by_git.txt", "foo\n")
    w(root, "l1/l2/l3/visible.txt", "foo visible\n")
    w(root, "l1/l2/l3/l4/l5/deep.txt", "foo deep\n")
    w(root, "l1/l2/l3/l4/.gitignore", "/l5/\n")
    # Hidden.
    w(root, ".hidden/h.txt", "foo hidden\n")
    w(root, ".dotfile", "foo dot\n")
    # Odd names.
    w(root, "names/with space.txt", "foo space\n")
    w(root, "names/ünïcödé.txt", "foo unicode name\n")
    w(root, "names/colon:name.txt", "foo colon\n")
    w(root, "names/-dash.txt", "foo dash\n")
    w(root, b"names/bad\xffname.txt", "foo bad name\n")
    w(root, b"names/latin\xe9.txt", "foo latin name\nbar\n")
    w(root, b"names/dir\xfe/inner.txt", "foo inner\n")
    # Symlinks (all inside the tree; one dangling, one to a directory).
    link(root, "links/to_one.txt", "../proj/data/one.txt")
    link(root, "links/to_src", "../proj/src")
    link(root, "links/dangling", "nowhere.txt")
    link(root, "links/loop", ".")


# ---------------------------------------------------------------------------------------------
# Queries

PATTERNS = [
    "foo",
    "Foo",
    "FOO",
    "hello",
    "TODO",
    "error",
    "Error",
    r"fo+",
    r"\bfoo\b",
    r"^foo",
    r"foo$",
    r"def \w+",
    r"[A-Z]{3,}",
    r"é",
    r"日本",
    r"caf.",
    r"bar|baz",
    r"\d+",
    r"^$",
    r"x*",
    r"(?i)todo",
    r"foo bar",
    r"nothing-matches-this",
    r"na.ve",
    r"foo.*bar",
    r"\r$",
    r"return",
    r"self\.value",
    r"^\s+",
    r"a",
]
MULTILINE_PATTERNS = [
    r"foo\nbar",
    r"def.*\n.*return",
    r"\}\n\n",
    r"alpha\nbeta\ngamma",
    r"foo\n",
    r"(?s)foo.*?bar",
    r"\n\n",
    r"TODO.*\n.*",
]
FIXED = ["foo", "foo bar", "a.b", "(", "self.value", "é", "[x]"]
# Files with a NUL byte that queries may name explicitly (rg searches those in its "convert"
# binary mode; fsnative skips them as it does binary files it walks into).
EXPLICIT_BINARY = {"bin/late.txt", "bin/early.bin"}
GLOBS = ["*.txt", "*.py", "!*.md", "src/**", "**/*.rs", "*.{py,rs}", "!gen/**", "*.tmp"]
TYPES = ["py", "rust", "md", "txt", "js", "ts"]
SUBPATHS_CLEAN = ["src", "docs", "src/main.py", "data/noeol.txt", "web"]
SUBPATHS_MESSY = [
    "bin",
    "enc",
    "l1",
    "names",
    "proj/src",
    "bin/late.txt",
    "enc/utf16le.txt",
    "enc/mixed.txt",
    "l1/l2",
    "bin/early.bin",
    "links",
]


def gen_query(rng):
    q = {"tree": rng.choice(["clean", "messy", "messy"])}
    q["format"] = rng.choices(["standard", "json", "heading"], [5, 3, 1])[0]
    q["mode"] = "content" if q["format"] != "standard" else rng.choices(["content", "count", "files"], [6, 2, 2])[0]
    q["style"] = rng.choice(["absolute", "relative"])
    multiline = rng.random() < 0.15
    fixed = not multiline and rng.random() < 0.1
    if multiline:
        q["pattern"] = rng.choice(MULTILINE_PATTERNS)
    elif fixed:
        q["pattern"] = rng.choice(FIXED)
    else:
        q["pattern"] = rng.choice(PATTERNS)
    q["multiline"] = multiline
    q["fixed"] = fixed
    q["case"] = rng.choices(["sensitive", "insensitive", "smart"], [6, 2, 2])[0]
    q["word"] = rng.random() < 0.1
    q["invert"] = rng.random() < 0.07
    if q["mode"] == "content" and rng.random() < 0.35:
        kind = rng.choice(["C", "A", "B", "AB"])
        q["context"] = {k: rng.randint(0, 3) for k in (kind if kind != "AB" else "AB")}
    q["hidden"] = rng.random() < 0.25
    q["no_ignore"] = rng.random() < 0.2
    q["follow"] = rng.random() < 0.2
    q["text"] = rng.random() < 0.1
    if rng.random() < 0.15:
        q["max_depth"] = rng.randint(0, 4)
    if rng.random() < 0.12:
        q["max_count"] = rng.randint(1, 3)
    if rng.random() < 0.15:
        q["glob"] = rng.choice(GLOBS)
    if rng.random() < 0.1:
        q["type"] = rng.choice(TYPES)
    if rng.random() < 0.25:
        q["path"] = rng.choice(SUBPATHS_CLEAN if q["tree"] == "clean" else SUBPATHS_MESSY)
    # rg --json always numbers lines (-N prints null there); render::json_lines always does.
    q["line_number"] = q["format"] == "json" or rng.random() < 0.9
    if not multiline and rng.random() < 0.1:
        q["pattern2"] = rng.choice(FIXED if fixed else PATTERNS)
    if rng.random() < 0.05:
        q["max_columns"] = rng.choice([5, 20, 80])
    if rng.random() < 0.05:
        q["type_not"] = rng.choice(TYPES)
    if rng.random() < 0.05:
        q["max_filesize"] = rng.choice([10, 100, 5000])
    if q["format"] != "json" and rng.random() < 0.05:
        q["with_filename"] = rng.choice([True, False])
    return q


def rg_args(q, root):
    args = ["--no-config", "--sort", "path", "--no-require-git", "--color", "never"]
    if q["format"] == "json":
        args.append("--json")
    elif q["format"] == "heading":
        args.append("--heading")
    if q["mode"] == "count":
        args.append("-c")
    elif q["mode"] == "files":
        args.append("-l")
    args.append("-n" if q["line_number"] else "-N")
    if q["multiline"]:
        args.append("-U")
    if q["fixed"]:
        args.append("-F")
    args += {"sensitive": ["-s"], "insensitive": ["-i"], "smart": ["-S"]}[q["case"]]
    if q["word"]:
        args.append("-w")
    if q["invert"]:
        args.append("-v")
    for k, v in q.get("context", {}).items():
        args += [f"-{k}", str(v)]
    if q["hidden"]:
        args.append("--hidden")
    if q["no_ignore"]:
        args.append("--no-ignore")
    if q["follow"]:
        args.append("-L")
    if q["text"]:
        args.append("-a")
    if "max_depth" in q:
        args += ["--max-depth", str(q["max_depth"])]
    if "max_count" in q:
        args += ["-m", str(q["max_count"])]
    if "glob" in q:
        args += ["-g", q["glob"]]
    if "type" in q:
        args += ["-t", q["type"]]
    if "max_columns" in q:
        args += ["-M", str(q["max_columns"])]
    if "type_not" in q:
        args += ["-T", q["type_not"]]
    if "max_filesize" in q:
        args += ["--max-filesize", str(q["max_filesize"])]
    if "with_filename" in q:
        args.append("-H" if q["with_filename"] else "-I")
    args += ["-e", q["pattern"]]
    if "pattern2" in q:
        args += ["-e", q["pattern2"]]
    if q["style"] == "absolute":
        args.append(str(root / q["path"]) if "path" in q else str(root))
    elif "path" in q:
        args.append(q["path"])
    return args


def fs_args(q, root):
    req = {
        "mode": q["mode"],
        "multiline": q["multiline"],
        "fixed_strings": q["fixed"],
        "case_mode": q["case"],
        "word": q["word"],
        "invert": q["invert"],
        "hidden": q["hidden"],
        "no_ignore": q["no_ignore"],
        "follow_links": q["follow"],
        "search_binary": q["text"],
        "limit": None,
        "sort": "path",
    }
    ctx = q.get("context", {})
    if "C" in ctx:
        req["context"] = ctx["C"]
    if "A" in ctx:
        req["after_context"] = ctx["A"]
    if "B" in ctx:
        req["before_context"] = ctx["B"]
    if "max_depth" in q:
        req["max_depth"] = q["max_depth"]
    if "max_count" in q:
        req["max_count_per_file"] = q["max_count"]
    if "glob" in q:
        req["globs"] = [q["glob"]]
    if "type" in q:
        req["types"] = [q["type"]]
    if "path" in q:
        req["paths"] = [q["path"]]
    if "max_columns" in q:
        req["max_columns"] = q["max_columns"]
    if "type_not" in q:
        req["types_not"] = [q["type_not"]]
    if "max_filesize" in q:
        req["max_filesize"] = q["max_filesize"]
    if "pattern2" in q:
        req["patterns"] = [q["pattern"], q["pattern2"]]
    args = ["--request", json.dumps(req)]
    if "with_filename" in q:
        args.append("-H" if q["with_filename"] else "-I")
    if q["format"] == "json":
        args.append("--json")
    elif q["format"] == "heading":
        args.append("--heading")
    if not q["line_number"]:
        args.append("-N")
    if q["style"] == "relative":
        args.append("--relative")
    return args + [q["pattern"], str(root)]


# ---------------------------------------------------------------------------------------------
# Comparison

TIMING = re.compile(rb'"(elapsed|elapsed_total)":\{[^}]*\}')


def normalize(q, out: bytes) -> bytes:
    if q["format"] == "json":
        return TIMING.sub(rb'"\1":{}', out)
    return out


def lossy(out: bytes) -> bytes:
    return out.decode("utf-8", "replace").encode("utf-8")


BAD_NAMES = (b"bad\xffname.txt", b"latin\xe9.txt", b"dir\xfe")


def standard_lossy_class(rg: bytes, fs: bytes) -> str:
    """Outputs equal but for invalid UTF-8: in a file name (the tree's non-UTF-8 names) or in
    line text."""
    for a, b in zip(rg.split(b"\n"), fs.split(b"\n")):
        if a == b:
            continue
        at = next(i for i, (x, y) in enumerate(zip(a + b"\0", b + b"\0")) if x != y)
        for name in BAD_NAMES:
            start = a.find(name)
            if start != -1 and start <= at < start + len(name):
                return "file name that is not UTF-8 printed lossily"
    return "documented: line text that is not UTF-8 is printed lossily (U+FFFD)"


def classify(q, rg: bytes, fs: bytes) -> str:
    """A short name for how two outputs differ (the first differing line, generalised)."""
    if q["format"] != "json" and lossy(rg) == lossy(fs):
        return standard_lossy_class(rg, fs)
    rl, fl = rg.split(b"\n"), fs.split(b"\n")
    if q["format"] == "json":
        for a, b in zip(rl, fl):
            if a == b:
                continue
            try:
                ja, jb = json.loads(a), json.loads(b)
            except ValueError:
                return "json: unparsable line"
            if ja.get("type") != jb.get("type"):
                return f"json: message {ja.get('type')} vs {jb.get('type')}"
            keys = diff_keys(ja, jb)
            if "data.lines.bytes" in keys:
                return (
                    "documented: JSON line text that is not UTF-8 is printed lossily, "
                    'not as {"bytes": …}, and submatch offsets index that text'
                )
            return f"json {ja.get('type')}: " + ", ".join(sorted(keys))[:120]
        return f"json: {len(rl)} vs {len(fl)} lines"
    for a, b in zip(rl, fl):
        if a != b:
            if b"WARNING" in a or b"binary file" in a:
                return f"{q['mode']}: binary warning line"
            if b"\xef\xbf\xbd" in b and b"\xef\xbf\xbd" not in a:
                return f"{q['mode']}: lossy text (U+FFFD)"
            return f"{q['mode']}: line differs"
    return f"{q['mode']}: rg {len(rl) - 1} lines, fsnative {len(fl) - 1} lines"


def diff_keys(a, b, prefix=""):
    if isinstance(a, dict) and isinstance(b, dict):
        out = set()
        for k in set(a) | set(b):
            if a.get(k) != b.get(k):
                out |= diff_keys(a.get(k), b.get(k), f"{prefix}.{k}" if prefix else k)
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        out = set()
        for x, y in zip(a, b):
            out |= diff_keys(x, y, prefix + "[]")
        return out
    return {prefix}


def describe(q):
    return " ".join(f"{k}={v}" for k, v in q.items())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[1])
    ap.add_argument("--rg", default=shutil.which("rg") or "/tmp/rgvenv/bin/rg")
    ap.add_argument("--fsgrep", default=str(REPO / "target/release/examples/fsgrep"))
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--keep", help="build the trees here and keep them")
    ap.add_argument("--show", type=int, default=0, help="print the first K differences in full")
    ap.add_argument("--only", default="", help="with --show: only differences whose class has this")
    ap.add_argument("--expect", type=int, default=0)
    args = ap.parse_args()
    args.fsgrep = str(Path(args.fsgrep).resolve())

    version = subprocess.run([args.rg, "--version"], capture_output=True, text=True).stdout
    print(version.splitlines()[0] if version else f"no rg at {args.rg}")
    base = Path(args.keep or tempfile.mkdtemp(prefix="fsnative-diff-")).resolve()
    if base.exists():
        shutil.rmtree(base)
    rng = random.Random(args.seed)
    roots = {"clean": base / "clean", "messy": base / "messy"}
    build_clean(roots["clean"], random.Random(args.seed + 1))
    build_messy(roots["messy"], random.Random(args.seed + 2))

    env = dict(os.environ)
    env.pop("RIPGREP_CONFIG_PATH", None)
    identical = 0
    classes = defaultdict(list)
    shown = 0
    queries = [gen_query(rng) for _ in range(args.queries)]
    for q in queries:
        root = roots[q["tree"]]
        cwd = root  # rg matches globs relative to its working directory
        rg = subprocess.run(
            [args.rg] + rg_args(q, root), cwd=cwd, capture_output=True, env=env, stdin=subprocess.DEVNULL
        )  # rg would search a piped stdin
        fs = subprocess.run([args.fsgrep] + fs_args(q, root), cwd=cwd, capture_output=True)
        a, b = normalize(q, rg.stdout), normalize(q, fs.stdout)
        if a == b:
            identical += 1
            continue
        kind = classify(q, a, b)
        if rg.returncode == 101:
            kind = "rg panicked (an rg 15.1.0 bug: --json with -U and -m)"
        if q.get("path") in EXPLICIT_BINARY and not kind.startswith("documented"):
            kind = "documented: a binary file named explicitly is searched like any other (" + kind + ")"
        if "max_columns" in q and (not kind.startswith("documented") or "lossily" in kind):
            kind = "documented: max_columns is not rg's -M (" + kind + ")"
        classes[kind].append(q)
        if shown < args.show and args.only in kind:
            shown += 1
            print(f"--- {describe(q)}\n    rg args: {rg_args(q, root)}")
            diff = difflib.unified_diff(
                a.decode("utf-8", "replace").splitlines(),
                b.decode("utf-8", "replace").splitlines(),
                "rg",
                "fsnative",
                lineterm="",
                n=1,
            )
            print("\n".join(list(diff)[:40]))
            if fs.stderr:
                print("    fsnative stderr: " + fs.stderr.decode("utf-8", "replace"))
    if not args.keep:
        shutil.rmtree(base)
    total = len(queries)
    print(f"{identical} of {total} identical")
    for kind, qs in sorted(classes.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(qs):4}  {kind}\n        e.g. {describe(qs[0])}")
    return 1 if identical < args.expect else 0


if __name__ == "__main__":
    sys.exit(main())
