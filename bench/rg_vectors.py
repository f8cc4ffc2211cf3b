#!/usr/bin/env python3
"""Writes tests/vectors/rg_parity.json: shared vectors whose expected outputs are real rg runs.

    python3 bench/rg_vectors.py [--rg PATH]

Each vector's tree is built in a temp dir, `rg` (15.1.0: `pip install ripgrep==15.1.0`) runs
with the flags in its `description`, and its stdout becomes the expected `text` (standard
format) or `messages` (`--json`, with the timings left out: the comparison is a subset, and
no two runs share them). Run it again after changing a vector; commit the result.
"""

import argparse
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "tests/vectors/rg_parity.json"

# A file whose NUL lies past the first 64 KiB block rg reads: matches in the first block are
# printed, then rg gives up on the block holding the NUL (and the rest of the file).
LATE = (
    "foo first\n"
    + ("x" * 99 + "\n") * 300
    + "foo middle\n"
    + ("y" * 99 + "\n") * 361
    + "foo in the nul block\nz\u0000z\nfoo after the nul\n"
)

TREES = {
    "rg-stats": {
        "root/a.txt": "foo bar\nbaz\nfoo foo\n",
        "root/b.txt": "nothing here\n",
        "root/sub/c.md": "alpha\nfoo\nbeta\n",
        "root/bin.dat": "foo\u0000bar\n",
        "root/nonl.txt": "last foo",
    },
    "rg-late-nul": {
        "root/late.txt": LATE,
        "root/ok.txt": "foo ok\n",
    },
    "rg-multiline": {
        "root/m.txt": "foo\nbar\nfoo\nbar\nxx foo\nbar foo\nbar\n",
        "root/n.txt": "one foo\nbar two foo\nbar\n",
    },
    "rg-multiline-max-count": {
        # -U -m 1: the search stops after the first match (lines 1-2), but a second one starts
        # on line 2 and runs on to line 3; rg -c counts it (found again with 128 bytes of
        # look-ahead past the printed lines), but not when it ends further on (far.txt).
        "root/m.txt": "x def a\nreturn def b\nc return\n",
        "root/far.txt": "x def a\nreturn def b\n" + "c " * 100 + "return\n",
    },
    "rg-bytes": {
        # "café foo\nnaïve bar\nplain foo\n" in Latin-1: lines that are not UTF-8.
        "root/latin1.txt": {"hex": "636166e920666f6f0a6e61ef7665206261720a706c61696e20666f6f0a"},
    },
    "rg-names": {
        "root/bad\\xffname.txt": "foo bad\n",
        "root/latin\\xe9/in.txt": "foo inner\n",
        "root/ok.txt": "foo ok\n",
    },
}

# (name, tree, pattern, rg flags): the request and its render options follow from the flags
# (request_for, render_for), so that the two cannot disagree.
VECTORS = [
    ("rg/json-stats", "rg-stats", "foo", ["--json"]),
    ("rg/json-stats-context", "rg-stats", "foo", ["--json", "-C1"]),
    ("rg/json-stats-invert", "rg-stats", "foo", ["--json", "-v"]),
    ("rg/json-invert-context", "rg-stats", "foo", ["--json", "-v", "-C1"]),
    ("rg/json-stats-empty-matches", "rg-stats", "x*", ["--json"]),
    ("rg/late-nul/standard", "rg-late-nul", "foo", ["-n"]),
    ("rg/late-nul/heading", "rg-late-nul", "foo", ["-n", "--heading"]),
    ("rg/late-nul/heading-no-names", "rg-late-nul", "foo", ["-n", "--heading", "-I"]),
    ("rg/late-nul/json", "rg-late-nul", "foo", ["--json"]),
    ("rg/late-nul/count", "rg-late-nul", "foo", ["-c"]),
    ("rg/late-nul/files", "rg-late-nul", "foo", ["-l"]),
    ("rg/late-nul/files-invert", "rg-late-nul", "zzzz", ["-l", "-v"]),
    ("rg/multiline/count", "rg-multiline", "foo\\nbar", ["-U", "-c"]),
    ("rg/multiline/count-one-line-pattern", "rg-multiline", "foo", ["-U", "-c"]),
    ("rg/multiline/json", "rg-multiline", "foo\\nbar", ["-U", "--json"]),
    ("rg/multiline/json-terminator", "rg-multiline", "bar\\n", ["-U", "--json"]),
    ("rg/multiline/standard", "rg-multiline", "foo\\nbar", ["-U", "-n"]),
    ("rg/multiline/count-max-count", "rg-multiline-max-count", "def.*\\n.*return", ["-U", "-c", "-m1"]),
    ("rg/multiline/max-count", "rg-multiline-max-count", "def.*\\n.*return", ["-U", "-n", "-m1"]),
    # The multiline search meets the late NUL on the line before the last match, past a gap:
    # with -B1 rg has printed the group's `--` and quits on its first line; with -B2 it prints
    # the `--` and that group's first line, then quits.
    ("rg/late-nul/multiline-break", "rg-late-nul", "(first|middle|nul)\\n", ["-U", "-n", "-B1"]),
    ("rg/late-nul/multiline-break-heading", "rg-late-nul", "(first|middle|nul)\\n", ["-U", "-n", "-B1", "--heading"]),
    ("rg/late-nul/multiline-break-context", "rg-late-nul", "(first|middle|nul)\\n", ["-U", "-n", "-B2"]),
    ("rg/late-nul/multiline-break-json", "rg-late-nul", "(first|middle|nul)\\n", ["-U", "--json", "-B2"]),
    ("rg/bytes/json", "rg-bytes", "foo|na.ve", ["--json"]),
    ("rg/bytes/json-invert-context", "rg-bytes", "bar", ["--json", "-v", "-C1"]),
    ("rg/names/json", "rg-names", "foo", ["--json"]),
    # (No absolute-path JSON vector: a non-UTF-8 absolute path's base64 and every
    # bytes_printed would depend on where the runner puts the fixture.)
]


def decode_key(key: str) -> bytes:
    out, i = bytearray(), 0
    raw = key.encode("utf-8")
    while i < len(raw):
        if raw[i : i + 2] == b"\\x":
            out.append(int(raw[i + 2 : i + 4], 16))
            i += 4
        else:
            out.append(raw[i])
            i += 1
    return bytes(out)


def build(tree: dict, base: Path):
    for key, text in tree.items():
        path = os.path.join(os.fsencode(base), decode_key(key))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(bytes.fromhex(text["hex"]) if isinstance(text, dict) else text.encode("utf-8"))


# rg's flags that set a request option, and the option; a number after the flag is its value.
REQUEST_FLAGS = {
    "-U": ("multiline", True),
    "-v": ("invert", True),
    "-c": ("mode", "count"),
    "-l": ("mode", "files"),
    "-m": ("max_count_per_file", int),
    "-C": ("context", int),
    "-B": ("before_context", int),
}
# The flags that change only how the answer is printed (render_for), and `--`: the root named
# after the pattern.
RENDER_FLAGS = {"--json", "-n", "--heading", "-I", "--"}


def request_for(pattern: str, flags: list[str]) -> dict:
    """The grep request that asks what `rg -e PATTERN FLAGS` asks (keys in one order)."""
    request = {"patterns": pattern}
    for flag in flags:
        if flag in RENDER_FLAGS:
            continue
        key, value = REQUEST_FLAGS[flag[:2]]
        request[key] = value(flag[2:]) if value is int else value
    order = ["patterns", *dict.fromkeys(key for key, _ in REQUEST_FLAGS.values())]
    return {key: request[key] for key in sorted(request, key=order.index)}


def render_for(flags: list[str]) -> dict:
    """The render options that print what rg prints with these flags (paths relative to the root)."""
    render = {"format": "json" if "--json" in flags else "standard", "path_style": "relative"}
    if "--heading" in flags:
        render["heading"] = True
    if "-I" in flags:
        render["with_filename"] = False
    return render


def strip_timings(value):
    if isinstance(value, dict):
        return {k: strip_timings(v) for k, v in value.items() if k not in ("elapsed", "elapsed_total")}
    if isinstance(value, list):
        return [strip_timings(v) for v in value]
    return value


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rg", default=shutil.which("rg") or "/tmp/rgvenv/bin/rg")
    args = ap.parse_args()
    version = subprocess.run([args.rg, "--version"], capture_output=True, text=True, check=True).stdout
    assert version.startswith("ripgrep 15.1.0"), version
    vectors = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, tree, pattern, flags in VECTORS:
            request, render = request_for(pattern, flags), render_for(flags)
            base = Path(tmp, name.replace("/", "_")).resolve()
            build(TREES[tree], base)
            common = ["--no-config", "--sort", "path", "--no-require-git", "--color", "never"]
            argv = common + flags[: flags.index("--")] if "--" in flags else common + flags
            argv = argv + ["-e", pattern] + (["--", str(base / "root")] if "--" in flags else [])
            run = subprocess.run([args.rg] + argv, cwd=base / "root", capture_output=True)
            assert run.returncode in (0, 1), run.stderr
            out = run.stdout.replace(os.fsencode(base), b"$T").decode("utf-8")
            shown = " ".join(a if a.isalnum() or a.startswith("-") else json.dumps(a) for a in argv)
            shown = shown.replace(str(base), "$T")
            if render["format"] == "json":
                expect = {"messages": [strip_timings(json.loads(line)) for line in out.splitlines()]}
            else:
                expect = {"text": out}
            vectors.append(
                {
                    "name": name,
                    "description": f"cd $T/root && rg {shown} (expected output from rg 15.1.0)",
                    "tree": tree,
                    "op": "grep",
                    "args": dict(request, render=render),
                    "expect": expect,
                }
            )
    doc = {"trees": TREES, "vectors": vectors}
    OUT.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n")
    print(f"wrote {len(vectors)} vectors to {OUT.relative_to(REPO)}")


if __name__ == "__main__":
    main()
