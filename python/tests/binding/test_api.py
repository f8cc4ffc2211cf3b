"""The Python API: sandbox, validation, grep, glob, results, rendering, stubs' defaults."""

from __future__ import annotations

import ast
import base64
import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

import fsnative
from fsnative import OutsideSandboxError, Sandbox

REPO = Path(__file__).resolve().parents[3]


def without_timings(result: Any) -> Any:
    data = result.to_dict()
    data.pop("stats")
    return data


def test_the_installed_package_is_tested() -> None:
    installed = Path(fsnative.__file__).resolve().parent
    assert installed != REPO / "python" / "fsnative"
    assert any(name.startswith("_fsnative.") for name in os.listdir(installed))


def test_version_is_cargos() -> None:
    cargo = (REPO / "Cargo.toml").read_text(encoding="utf-8")
    workspace_package = cargo.split("[workspace.package]", 1)[1]
    match = re.search(r'^version = "([^"]+)"', workspace_package, re.MULTILINE)
    assert match is not None
    assert fsnative.__version__ == match.group(1)


def test_every_exported_name_exists_and_the_list_is_sorted() -> None:
    assert sorted(fsnative.__all__) == fsnative.__all__
    for name in fsnative.__all__:
        assert hasattr(fsnative, name), name
    assert fsnative.Sandbox.__module__ == "fsnative._sandbox"
    assert fsnative.GrepResult.__module__ == "fsnative"


def test_sandbox_roots_are_canonical(tree: Path, tmp_path: Path) -> None:
    (tmp_path / "link").symlink_to(tree)
    other = tmp_path / "other"
    other.mkdir()
    sandbox = Sandbox((tmp_path / "link", os.fsencode(other)))
    assert sandbox.roots == [str(tree), str(other)]
    assert repr(sandbox) == f"Sandbox([{str(tree)!r}, {str(other)!r}])"
    assert Sandbox(str(root) for root in [tree]).roots == [str(tree)]


def test_validate_path_is_a_deprecated_alias_of_validate(sandbox: Sandbox, tree: Path) -> None:
    with pytest.warns(DeprecationWarning, match=r"use Sandbox\.validate\(\)"):
        assert sandbox.validate_path("a.txt", intent="write") == sandbox.validate("a.txt")
    with pytest.warns(DeprecationWarning), pytest.raises(OutsideSandboxError):
        sandbox.validate_path("../outside.txt")


def test_validate_resolves_inside_and_refuses_outside_or_missing(sandbox: Sandbox, tree: Path) -> None:
    assert sandbox.validate("a.txt") == str(tree / "a.txt")
    assert sandbox.validate(tree / "sub" / ".." / "b.md", intent="read") == str(tree / "b.md")
    assert sandbox.validate(b"new/file.txt", intent="write") == str(tree / "new" / "file.txt")
    with pytest.raises(OutsideSandboxError):
        sandbox.validate("../outside.txt")
    with pytest.raises(fsnative.NotFoundError):
        sandbox.validate("missing.txt")


def test_grep_content_views(sandbox: Sandbox, tree: Path) -> None:
    result = sandbox.grep("foo", context=1)
    assert repr(result) == "<GrepResult mode='content' files=3 total_matches=4 truncated=None>"
    assert (result.mode, result.total_matches, result.truncated, result.next_cursor) == ("content", 4, None, None)
    assert result.context_enabled and not result.single_file
    first = result.files[0]
    assert repr(first) == "FileMatches(relative_path='a.txt', count=2)"
    assert (first.path, first.relative_path, first.count) == (str(tree / "a.txt"), "a.txt", 2)
    found = first.matches[1]
    assert repr(found) == "Match(line_number=4, column=1, text='foo foo')"
    assert (found.line_number, found.column, found.byte_offset, found.text) == (4, 1, 32, "foo foo")
    assert found.submatches == [(0, 3), (4, 7)]
    assert not found.truncated
    assert found.before == found.after == []  # line 3 is the first match's after-context
    assert [line.text for line in first.matches[0].after] == ["Hello again"]
    context = first.matches[0].before[0]
    assert repr(context) == "ContextLine(line_number=1, text='hello world')"
    assert (context.line_number, context.byte_offset, context.truncated) == (1, 0, False)
    assert [file.relative_path for file in result.files] == ["a.txt", "b.md", "sub/c.py"]
    stats = result.stats
    assert (stats.files_walked, stats.files_searched, stats.files_matched) == (4, 4, 3)
    assert stats.skipped_binary == stats.skipped_special == stats.skipped_outside == stats.skipped_errors == 0
    assert stats.bytes_searched > 0 and stats.elapsed_ms > 0
    assert repr(stats).startswith("GrepStats(files_searched=4, files_matched=3,")


def test_views_outlive_their_result(sandbox: Sandbox) -> None:
    matches = sandbox.grep("foo").files[0].matches
    assert [m.text for m in matches] == ["foo bar", "foo foo"]


def test_grep_filters_modes_and_limits_choose_the_files(sandbox: Sandbox) -> None:
    def paths(**options: Any) -> list[str]:
        return [file.relative_path for file in sandbox.grep(**options).files]

    assert paths(pattern="foo", path="sub") == ["sub/c.py"]
    assert paths(patterns=["TODO", "import"]) == ["sub/c.py", "sub/deeper/d.py"]
    assert paths(pattern="foo", globs=["*.md", "*.py"]) == ["b.md", "sub/c.py"]
    assert paths(pattern="foo", glob="!*.txt") == ["b.md", "sub/c.py"]
    assert paths(pattern="foo", type="py") == ["sub/c.py"]
    assert paths(pattern="foo", types_not=["py", "md"]) == ["a.txt"]
    assert paths(pattern="foo", hidden=True) == [".hidden/e.txt", "a.txt", "b.md", "sub/c.py"]
    assert paths(pattern="foo", no_ignore=True) == ["a.txt", "b.md", "ignored.log", "sub/c.py"]
    assert paths(pattern="hello", case_mode="insensitive") == ["a.txt"]
    assert paths(pattern="f.o", fixed_strings=True) == []
    assert paths(pattern="fo", word=True) == []
    assert paths(pattern="foo", max_depth=1) == ["a.txt", "b.md"]
    counted = sandbox.grep("foo", mode="count")
    assert [(f.relative_path, f.count, f.matches) for f in counted.files] == [
        ("a.txt", 2, []),
        ("b.md", 1, []),
        ("sub/c.py", 1, []),
    ]
    only = sandbox.grep("foo", mode="files", limit=2)
    assert [f.relative_path for f in only.files] == ["a.txt", "b.md"]
    assert only.truncated == "limit" and only.next_cursor is not None


def test_grep_pages_with_cursor(sandbox: Sandbox) -> None:
    everything = [(f.relative_path, m.line_number) for f in sandbox.grep("o").files for m in f.matches]
    seen: list[tuple[str, int]] = []
    cursor = None
    while True:
        page = sandbox.grep("o", limit=2, cursor=cursor)
        seen += [(f.relative_path, m.line_number) for f in page.files for m in f.matches]
        if page.next_cursor is None:
            break
        assert page.truncated == "limit"
        cursor = page.next_cursor
    assert seen == everything


def test_render_bytes_prints_names_and_lines_as_on_disk(tmp_path: Path) -> None:
    root = os.fsencode(tmp_path)
    with open(os.path.join(root, b"bad\xffname.txt"), "wb") as f:
        f.write(b"caf\xe9 foo\n")
    result = Sandbox([tmp_path]).grep("foo")
    assert result.render_bytes(path_style="relative") == b"bad\xffname.txt:1:caf\xe9 foo\n"
    assert result.render(path_style="relative") == "bad\ufffdname.txt:1:caf\ufffd foo\n"
    begin = json.loads(result.render_bytes("json", path_style="relative").splitlines()[0])
    assert begin["data"]["path"] == {"bytes": base64.b64encode(b"bad\xffname.txt").decode()}


def test_render_as_ripgrep(sandbox: Sandbox) -> None:
    result = sandbox.grep("foo")
    assert result.render(path_style="relative") == (
        "a.txt:2:foo bar\na.txt:4:foo foo\nb.md:2:foo\nsub/c.py:4:    return 'foo'\n"
    )
    assert result.render("standard", path_style="relative", heading=True, line_number=False) == (
        "a.txt\nfoo bar\nfoo foo\n\nb.md\nfoo\n\nsub/c.py\n    return 'foo'\n"
    )
    assert result.render(path_style="relative", with_filename=False).startswith("2:foo bar\n")
    assert sandbox.grep("foo", mode="files").render(path_style="relative") == "a.txt\nb.md\nsub/c.py\n"
    messages = [json.loads(line) for line in result.render(format="json", path_style="relative").splitlines()]
    assert [m["type"] for m in messages[:4]] == ["begin", "match", "match", "end"]
    assert messages[1]["data"]["path"] == {"text": "a.txt"}
    assert messages[-1]["type"] == "summary"


def test_plain_data_is_the_core_shape(sandbox: Sandbox) -> None:
    result = sandbox.grep("foo", context=1)
    data = result.to_dict()
    assert data == json.loads(result.to_json())
    assert list(data) == [
        "files",
        "total_matches",
        "truncated",
        "next_cursor",
        "mode",
        "context_enabled",
        "single_file",
        "stats",
    ]
    assert data["files"][0]["matches"][0] == {
        "line_number": 2,
        "column": 1,
        "byte_offset": 12,
        "text": "foo bar",
        "truncated": False,
        "submatches": [[0, 3]],
        "section_end": None,
        "before": [{"line_number": 1, "byte_offset": 0, "text": "hello world", "truncated": False}],
        "after": [{"line_number": 3, "byte_offset": 20, "text": "Hello again", "truncated": False}],
    }
    file = result.files[0]
    assert file.to_dict() == data["files"][0]
    assert file.matches[0].to_dict() == data["files"][0]["matches"][0]
    assert file.matches[0].before[0].to_dict() == data["files"][0]["matches"][0]["before"][0]
    assert result.stats.to_dict() == data["stats"]
    listed = sandbox.glob("*.md")
    assert listed.to_dict() == json.loads(listed.to_json())
    assert listed.entries[0].to_dict() == {"path": listed.entries[0].path, "relative_path": "b.md", "is_dir": False}
    assert set(listed.stats.to_dict()) == {
        "entries_walked",
        "skipped_special",
        "skipped_outside",
        "skipped_errors",
        "elapsed_ms",
    }


def test_glob_lists_sorts_and_limits_entries(sandbox: Sandbox, tree: Path) -> None:
    os.utime(tree / "b.md", (2_000_000_000, 2_000_000_000))
    listed = sandbox.glob("**/*.{md,py}")
    assert [e.relative_path for e in listed.entries] == ["b.md", "sub/c.py", "sub/deeper/d.py"]
    assert repr(listed) == "<GlobResult entries=3 total=3 truncated=None>"
    entry = listed.entries[0]
    assert (entry.path, entry.is_dir) == (str(tree / "b.md"), False)
    assert repr(entry) == "GlobEntry(relative_path='b.md', is_dir=False)"
    assert listed.stats.entries_walked > 0 and repr(listed.stats).startswith("GlobStats(entries_walked=")
    newest = sandbox.glob("**/*", sort="mtime", limit=1)
    assert ([e.relative_path for e in newest.entries], newest.total, newest.truncated) == (["b.md"], 4, "limit")
    assert [e.relative_path for e in sandbox.glob("*", path="sub", kind="dirs").entries] == ["deeper"]
    assert [e.relative_path for e in sandbox.glob("A.TXT", case_insensitive=True).entries] == ["a.txt"]


def test_non_utf8_names_round_trip(tmp_path: Path) -> None:
    name = b"caf\xe9.txt"
    with open(os.path.join(os.fsencode(tmp_path), name), "w", encoding="utf-8") as file:
        file.write("foo\n")
    sandbox = Sandbox([tmp_path])
    found = sandbox.grep("foo").files[0]
    assert os.fsencode(found.relative_path) == name
    assert os.fsencode(found.path) == os.fsencode(tmp_path) + b"/" + name
    with open(found.path, encoding="utf-8") as file:
        assert file.read() == "foo\n"
    assert sandbox.validate(found.relative_path) == found.path
    assert found.to_dict()["relative_path"] == {"bytes": base64.b64encode(name).decode()}
    entry = sandbox.glob("*.txt").entries[0]
    assert os.fsencode(entry.relative_path) == name
    assert repr(entry) == "GlobEntry(relative_path='caf\\udce9.txt', is_dir=False)"


def stub_parameters(function: str) -> dict[str, ast.expr]:
    """The keyword parameters (and their defaults) of a method in the installed stubs."""
    package = Path(fsnative.__file__).parent
    stubs = "\n".join((package / name).read_text(encoding="utf-8") for name in ("_fsnative.pyi", "_views.pyi"))
    for node in ast.walk(ast.parse(stubs)):
        if isinstance(node, ast.FunctionDef) and node.name == function:
            arguments = node.args
            positional = arguments.posonlyargs + arguments.args
            named = positional[len(positional) - len(arguments.defaults) :] + arguments.kwonlyargs
            defaults = arguments.defaults + [d for d in arguments.kw_defaults if d is not None]
            return {arg.arg: default for arg, default in zip(named, defaults)}
    raise AssertionError(f"{function} not in the stub")


# The aliases (stub default `...`): a value each, and the canonical name it stands for.
ALIASES = {"path": ("paths", "sub"), "glob": ("globs", "*.py"), "type": ("types", "py")}


@pytest.mark.parametrize("method", ["grep", "glob"])
def test_every_stub_keyword_is_a_core_option_with_the_stub_default(sandbox: Sandbox, method: str) -> None:
    search = getattr(sandbox, method)
    pattern = "foo" if method == "grep" else "**/*.py"
    plain = without_timings(search(pattern))
    parameters = stub_parameters(method)
    assert {"patterns", "pattern", "paths", "path", "limit", "cancel"} <= set(parameters)
    for name, default in parameters.items():
        if name == "patterns":  # positional; as a keyword it is the alias's canonical name
            assert without_timings(search(patterns=pattern)) == plain
        elif name == "pattern":
            assert without_timings(search(pattern=pattern)) == plain
        elif name in ALIASES:
            canonical, value = ALIASES[name]
            aliased = without_timings(search(pattern, **{name: value}))
            assert aliased == without_timings(search(pattern, **{canonical: [value]})), name
        else:
            value = ast.literal_eval(default)
            assert without_timings(search(pattern, **{name: value})) == plain, name


def test_render_and_validate_stub_defaults(sandbox: Sandbox) -> None:
    result = sandbox.grep("foo")
    defaults = {name: ast.literal_eval(value) for name, value in stub_parameters("render").items()}
    assert result.render(**defaults) == result.render()
    intent = ast.literal_eval(stub_parameters("validate")["intent"])
    with pytest.raises(fsnative.NotFoundError):
        sandbox.validate("new.txt", intent=intent)


def test_fff_tool_takes_terraphims_tools_and_arguments_only(sandbox: Sandbox) -> None:
    """The FFF drop-in's entry refuses an unknown tool or argument in the core's words."""
    with pytest.raises(fsnative.InvalidArgumentError, match=r"the tools are find_files, grep and multi_grep$"):
        sandbox.fff_tool("search", {"query": "foo"})
    with pytest.raises(fsnative.InvalidOptionError, match=r"^unknown grep argument `constraints`$") as refused:
        sandbox.fff_tool("grep", {"query": "foo", "constraints": "*.rs"})
    assert refused.value.option == "constraints"
    with pytest.raises(fsnative.InvalidOptionError, match=r"^fff_tool option `limit` cannot be set$"):
        sandbox.fff_tool("grep", {"query": "foo", "limit": {1, 2}})
    lines = sandbox.fff_tool("grep", {"query": "foo", "output_mode": "files"}).split("\n")
    assert lines[0].startswith("Found ") and lines[-1] == ""
