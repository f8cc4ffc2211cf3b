"""Grep from Python: fsnative vs `rg --json` as a subprocess, python-ripgrep, fs-mcp's grep_content."""

import json
import re
import subprocess

import fs_mcp.server
import python_ripgrep

import fsnative
from measure import RG, SCENARIOS, corpus, interleaved, patterns_of, record, save, trees

CASES = ["rare_literal", "common_limit", "regex_context", "case_insensitive", "files_mode", "multi_pattern"]
FS_MCP_SECTION_PATTERNS = [r"^\\s*def ", r"^\\s*class "]  # fs-mcp's defaults, as it writes them

RG_LIMIT_NOTE = "stops reading and kills rg at the limit; rg's first N are in walk order, not path order"
PYTHON_RIPGREP_NOTE = "regex only (fixed strings escaped, -i as `(?i)`), drops non-UTF-8 files"
PYTHON_RIPGREP_LIMIT_NOTE = "; no total limit: collects all, then keeps N"


def peer_notes(case):
    if case["limit"] is None:
        return {"python-ripgrep": PYTHON_RIPGREP_NOTE}
    return {"rg --json subprocess": RG_LIMIT_NOTE, "python-ripgrep": PYTHON_RIPGREP_NOTE + PYTHON_RIPGREP_LIMIT_NOTE}


def fsnative_grep(sandbox, case, tree, **extra):
    options = {
        "fixed_strings": case.get("fixed", False),
        "case_mode": "insensitive" if case.get("case_insensitive") else "sensitive",
        "context": case.get("context"),
        "mode": case.get("mode", "content"),
        "limit": case["limit"],
        **extra,
    }
    patterns = patterns_of(case, tree)

    def run():
        result = sandbox.grep(patterns, **options)
        # What a tool does with the answer: one (path, line, text) record per match.
        records = [(f.path, m.line_number, m.text) for f in result.files for m in f.matches]
        return len(records) if options["mode"] == "content" else len(result.files), len(result.files)

    return run


def rg_json_subprocess(case, tree):
    """What fs-mcp and most Python servers do: spawn rg, parse each JSON event."""
    files_mode = case.get("mode") == "files"
    command = [RG, "--no-require-git", "-l" if files_mode else "--json"]
    command += ["-F"] * case.get("fixed", False) + ["-i"] * case.get("case_insensitive", False)
    if case.get("context"):
        command += ["-C", str(case["context"])]
    for pattern in patterns_of(case, tree):
        command += ["-e", pattern]
    command.append(str(corpus(tree)))
    limit = case["limit"]

    def run():
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        records, files = [], set()
        for line in process.stdout:
            if files_mode:
                files.add(line.rstrip("\n"))
                continue
            event = json.loads(line)
            if event["type"] == "match":
                data = event["data"]
                records.append((data["path"]["text"], data["line_number"], data["lines"]["text"]))
                files.add(data["path"]["text"])
                if limit is not None and len(records) >= limit:
                    process.kill()
                    break
        process.stdout.close()
        process.wait()
        return (len(files) if files_mode else len(records)), len(files)

    return run


MATCH_SEPARATOR = "\x1f"  # between path, line number and text on match lines only


def python_ripgrep_search(case, tree):
    patterns = patterns_of(case, tree)
    if case.get("fixed"):
        patterns = [re.escape(p) for p in patterns]
    if case.get("case_insensitive"):
        patterns = [f"(?i){p}" for p in patterns]
    context = case.get("context")
    files_mode = case.get("mode") == "files"
    limit = case["limit"]

    def run():
        # One formatted string per file, a line per match or context line.
        per_file = python_ripgrep.search(
            patterns,
            paths=[str(corpus(tree))],
            line_number=True,
            after_context=context,
            before_context=context,
            separator_field_match=MATCH_SEPARATOR,
            separator_field_context="\x1e",
        )
        if files_mode:
            return len(per_file), len(per_file)
        records = [line for text in per_file for line in text.split("\n") if line.count(MATCH_SEPARATOR) >= 2]
        if limit is not None:
            records = records[:limit]
        return len(records), len(per_file)

    return run


def fs_mcp_grep_content(pattern, tree):
    fs_mcp.server.initialize([str(corpus(tree))])

    def run():
        output = fs_mcp.server.grep_content.fn(pattern, str(corpus(tree)))
        paths = re.findall(r"^File: (.*), Line: \d+", output, re.MULTILINE)
        return len(paths), len(set(paths))

    return run


def main():
    rows = []
    for tree in trees("small", "medium"):
        sandbox = fsnative.Sandbox([corpus(tree)])
        for case_id in CASES:
            case = SCENARIOS[case_id]
            runs = interleaved(
                {
                    "fsnative": fsnative_grep(sandbox, case, tree),
                    "rg --json subprocess": rg_json_subprocess(case, tree),
                    "python-ripgrep": python_ripgrep_search(case, tree),
                }
            )
            rows += record(
                "grep-python",
                tree,
                case_id,
                case["title"],
                runs,
                lambda name: [] if name == "fsnative" else ["fsnative"],
                peer_notes(case),
            )
        # fs-mcp's grep_content: `def test_`, rg --max-count=100 per file, 2 lines of context,
        # section-end hints; no total limit. fsnative once with limit 100, once doing the same work.
        case = SCENARIOS["def_test_limit"]
        pattern = patterns_of(case, tree)[0]
        fs_mcp_case = {**case, "context": 2}
        runs = interleaved(
            {
                "fsnative (limit 100)": fsnative_grep(sandbox, fs_mcp_case, tree),
                "fsnative (fs-mcp's full output)": fsnative_grep(
                    sandbox,
                    fs_mcp_case,
                    tree,
                    limit=None,
                    max_count_per_file=100,
                    section_end_patterns=FS_MCP_SECTION_PATTERNS,
                ),
                "fs-mcp grep_content": fs_mcp_grep_content(pattern, tree),
            }
        )
        rows += record(
            "grep-python",
            tree,
            "fs_mcp",
            "`def test_` as fs-mcp's grep_content",
            runs,
            lambda name: list(runs)[:2] if name == "fs-mcp grep_content" else [],
            {
                "fs-mcp grep_content": "no total limit (rg --max-count=100 per file), 2 lines of context, "
                "re-reads each file for a section-end hint; rg without --no-require-git"
            },
            same_work_of=lambda name: list(runs)[1:2] if name == "fs-mcp grep_content" else [],
        )
    save("grep-python", rows)


if __name__ == "__main__":
    main()
