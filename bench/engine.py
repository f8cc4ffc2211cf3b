"""Engine: the core's search as a command (the fsgrep example, -c or -l) vs the `rg` CLI.

Both are spawned the same way with output to a pipe that is drained and counted, so process
start-up is in both figures.
"""

import subprocess

from measure import BENCH, RG, SCENARIOS, corpus, interleaved, patterns_of, record, save, trees

FSGREP = str(BENCH.parent / "target" / "release" / "examples" / "fsgrep")
CASES = ["rare_literal", "common_limit", "regex_context", "case_insensitive", "files_mode", "multi_pattern"]


def engine_flags(case):
    """Count mode (-c) unless the case is files mode (-l); fsgrep has no -F, -C or limit, so
    every case is a regex counted over the whole tree (multi-pattern as an alternation)."""
    flags = ["-l" if case.get("mode") == "files" else "-c"]
    return flags + ["-i"] * case.get("case_insensitive", False)


def command_run(command, files_mode):
    def run():
        output = subprocess.run(command, stdout=subprocess.PIPE, check=False).stdout.splitlines()
        if files_mode:
            return len(output), len(output)
        return sum(int(line.rsplit(b":", 1)[1]) for line in output), len(output)

    return run


def main():
    rows = []
    for tree in trees("small", "medium", "large"):
        for case_id in CASES:
            case = SCENARIOS[case_id]
            pattern = "|".join(patterns_of(case, tree))
            flags = engine_flags(case)
            files_mode = case.get("mode") == "files"
            runs = interleaved(
                {
                    "fsnative (fsgrep)": command_run([FSGREP, *flags, pattern, str(corpus(tree))], files_mode),
                    "rg": command_run([RG, "--no-require-git", *flags, pattern, str(corpus(tree))], files_mode),
                }
            )
            title = f"{case['title'].split(',')[0]} ({' '.join(flags)} `{pattern}`)"
            rows += record(
                "engine", tree, case_id, title, runs, lambda name: ["fsnative (fsgrep)"] if name == "rg" else []
            )
    save("engine", rows)


if __name__ == "__main__":
    main()
