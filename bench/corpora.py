"""Builds the benchmark corpora under bench/corpora/ (deterministic, cached by a stamp file).

small   a 40-file project tree
medium  a copy of this interpreter's standard library (no site-packages, no __pycache__)
large   >= 100,000 generated files: realistic sizes, nested ignored directories (node_modules,
        target, .venv, named by a .gitignore), hidden files and binary files; seeded RNG
email   a copy of this interpreter's standard library's email package (no __pycache__)
agent   the repositories agents work in: large real projects from PyPI (agent-requirements.txt),
        installed with pip as a venv's site-packages (about 20,000 files)
"""

import hashlib
import random
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

BENCH = Path(__file__).resolve().parent
CORPORA = BENCH / "corpora"
AGENT_REQUIREMENTS = BENCH / "agent-requirements.txt"
STAMP_NAME = ".fsnative-bench-stamp"
GENERATOR_VERSION = "1"  # bump when the generated trees change
RARE_TOKEN = "FSNATIVE_RARE_TOKEN"

WORDS = (
    "request response value result error buffer config handler parser token cache index "
    "stream record entry path node tree walker matcher search pattern limit count offset "
    "client server session user item list map table query filter option context state"
).split()


# A generated source line: three distinct words in one of its language's templates
# ({a}, {b}, {c}, and {A}, {B} for the first two in title case).
LINE_TEMPLATES = {
    ".py": [
        "def {a}_{b}(self, {c}):",
        "def test_{a}_{b}():",
        "    return self.{a}.{b}({c})",
        "    {a} = {b}.get({c!r}, None)",
        "    if {a} is None:",
        "        raise ValueError('{a} {b} error')",
        "# {a} {b} {c}: see the {c} handler",
        "import {a}",
        "from {a}.{b} import {c}",
        "",
        "    for {a} in self.{b}:",
        "        yield {a}.{c}",
        "class {A}{B}:",
        "    # TODO: cache the {a}",
    ],
    ".js": [
        "export function {a}{B}({c}) {{",
        "  return {a}.{b}({c});",
        "  const {a} = await {b}.{c}();",
        "  if (!{a}) throw new Error('{b} {c} error');",
        "// {a} {b} {c}",
        "import {{ {a} }} from './{b}.js';",
        "}}",
        "",
        "  // FIXME: {a} leaks the {b}",
    ],
    ".rs": [
        "pub fn {a}_{b}(&self, {c}: usize) -> Result<(), Error> {{",
        "    let {a} = self.{b}.{c}()?;",
        "    return Ok({a});",
        "/// Returns the {a} of the {b}.",
        "use crate::{a}::{b};",
        "}}",
        "",
        "    // XXX: {a} {b}",
    ],
}


def source_line(templates):
    """A line generator for one language's templates."""

    def line(rng):
        a, b, c = rng.sample(WORDS, 3)
        return rng.choice(templates).format(a=a, b=b, c=c, A=a.title(), B=b.title())

    return line


def text_line(rng):
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(4, 14)))


LANGUAGES = {ext: source_line(templates) for ext, templates in LINE_TEMPLATES.items()}
LANGUAGES |= {".md": text_line, ".txt": text_line}


def language_blobs(rng, lines_each=40_000):
    """One long text per extension; files are slices of it (fast and realistic enough)."""
    return {ext: "\n".join(make(rng) for _ in range(lines_each)) + "\n" for ext, make in LANGUAGES.items()}


def file_text(rng, blobs, ext, size):
    blob = blobs[ext]
    start = blob.index("\n", rng.randrange(len(blob) - size - 1)) + 1 if size < len(blob) - 2 else 0
    end = blob.find("\n", start + size)
    return blob[start : (end + 1 if end >= 0 else len(blob))]


def realistic_size(rng):
    """Source-file sizes: log-normal around 2 KB, a long tail, capped at 256 KB."""
    return max(40, min(int(rng.lognormvariate(7.6, 1.1)), 256 * 1024))


def write(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        path.write_text(data)
    else:
        path.write_bytes(data)


def build_small(root):
    rng = random.Random(40)
    blobs = language_blobs(rng, 2_000)
    layout = (
        [f"src/app/{name}.py" for name in ("main", "config", "server", "client", "cache", "search", "models", "utils")]
        + [f"src/app/handlers/{name}.py" for name in ("files", "grep", "glob", "users", "session")]
        + [f"tests/test_{name}.py" for name in ("main", "config", "server", "client", "cache", "search", "handlers")]
        + [f"web/src/{name}.js" for name in ("index", "api", "store", "router", "view", "format")]
        + [f"native/src/{name}.rs" for name in ("lib", "walk", "search", "error")]
        + [f"docs/{name}.md" for name in ("index", "install", "usage", "api", "faq")]
        + ["README.md", "CHANGELOG.md", "notes.txt", "requirements.txt", "setup.py"]
    )
    assert len(layout) == 40, len(layout)
    for i, rel in enumerate(layout):
        text = file_text(rng, blobs, Path(rel).suffix, realistic_size(rng) // 2)
        if i == 7:
            text += f"# {RARE_TOKEN}\n"
        write(root / rel, text)


def build_medium(root):
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copytree(stdlib, root, ignore=shutil.ignore_patterns("site-packages", "__pycache__"), symlinks=True)


def build_email(root):
    package = Path(sysconfig.get_paths()["stdlib"]) / "email"
    shutil.copytree(package, root, ignore=shutil.ignore_patterns("__pycache__"), symlinks=True)


def build_large(root, visible_files=100_000):
    rng = random.Random(100_000)
    blobs = language_blobs(rng)
    extensions = [".py"] * 5 + [".js"] * 3 + [".rs"] * 2 + [".md", ".txt"]
    written = 0
    package = 0
    while written < visible_files:
        pkg = root / f"packages/pkg{package:04d}"
        if package % 10 == 0:  # nested ignored directories, named by the package's .gitignore
            write(pkg / ".gitignore", "node_modules/\ntarget/\n.venv/\n*.log\n")
            for ignored in ("node_modules/dep/lib", "target/release/build", ".venv/lib/site"):
                for n in range(rng.randint(20, 60)):
                    ext = rng.choice(extensions)
                    write(pkg / ignored / f"f{n}{ext}", file_text(rng, blobs, ext, realistic_size(rng)))
            write(pkg / "debug.log", text_line(rng) * 50)
        if package % 25 == 0:  # hidden files and directories
            write(pkg / ".env", "SECRET=1\n" + text_line(rng) + "\n")
            write(pkg / ".config/settings.py", file_text(rng, blobs, ".py", 800))
        if package % 20 == 0:  # binary files: NUL bytes early, text after
            write(pkg / "assets/logo.png", b"\x89PNG\r\n\x1a\n\x00\x00" + rng.randbytes(rng.randint(1_000, 60_000)))
            write(pkg / "lib/native.so", b"\x7fELF\x00\x00" + rng.randbytes(20_000) + b"\nreturn error\n")
            written += 2
        for d in range(rng.randint(3, 8)):
            subdir = pkg / ("src", "lib", "tests", "docs", "src/core", "src/util", "src/api/v1", "examples")[d]
            for n in range(rng.randint(10, 40)):
                ext = rng.choice(extensions)
                text = file_text(rng, blobs, ext, realistic_size(rng))
                if rng.random() < 0.0003:
                    text += f"{RARE_TOKEN}\n"
                write(subdir / f"{rng.choice(WORDS)}_{n}{ext}", text)
                written += 1
        package += 1


def build_agent(root):
    """The pinned wheels, without their dependencies (each project is pinned itself) and without
    bytecode; pip's own cache keeps the downloads between builds."""
    command = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps"]
    command += ["--only-binary=:all:", "--no-compile", "--target", str(root), "-r", str(AGENT_REQUIREMENTS)]
    subprocess.run(command, check=True)


BUILDERS = {
    "small": build_small,
    "medium": build_medium,
    "large": build_large,
    "email": build_email,
    "agent": build_agent,
}


def stamp_for(name):
    """What a corpus was built from: a change rebuilds it (for `agent`, its requirements)."""
    stamp = f"{name} v{GENERATOR_VERSION} python {sys.version.split()[0]}"
    if name == "agent":
        stamp += f" requirements {hashlib.sha256(AGENT_REQUIREMENTS.read_bytes()).hexdigest()[:16]}"
    return stamp + "\n"


def ensure(name):
    root = CORPORA / name
    stamp = root / STAMP_NAME
    if stamp.exists() and stamp.read_text() == stamp_for(name):
        return root
    if root.exists():
        shutil.rmtree(root)
    print(f"building corpus {name} in {root}", file=sys.stderr, flush=True)
    BUILDERS[name](root)
    # The stamp is hidden, so no search sees it.
    stamp.write_text(stamp_for(name))
    return root


if __name__ == "__main__":
    for corpus in sys.argv[1:] or BUILDERS:
        print(ensure(corpus))
