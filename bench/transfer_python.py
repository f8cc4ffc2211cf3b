"""The Python counterpart of node/transfer.mjs: the same search (the `email` corpus, `\\bdef\\b`,
2 lines of context, no limit: 525 matches), read the same way (the path, line number and text
of every match and context line), in the same two arrangements (each call right after rg; runs
of 10 calls per tool), so that what Node costs over Python is measured, not guessed.

fsnative's sync grep on a plain sandbox and on one with a warm index (`index=True`: its
prefilter and content cache), against spawning `rg -n -C2 PATTERN DIR` and splitting its
stdout into lines. Each fsnative row notes the core's own time (`stats.elapsed_ms`).
"""

import statistics
import subprocess

import fsnative
from measure import RG, SCENARIOS, SMOKE, corpus, interleaved, patterns_of, record, save

CASE_ID = "email_context"
TREE = "email"
CASE = SCENARIOS[CASE_ID]
PATTERN = patterns_of(CASE, TREE)[0]
DIR = corpus(TREE)
RG_ARGS = ["-n", f"-C{CASE['context']}", PATTERN, DIR]

PLAIN = "fsnative (sync)"
INDEXED = "fsnative indexed (sync)"
RG_PEER = "spawn rg -n -C2, split lines"


def read_all(result):
    """Reads every record a tool would: [match records, files]."""
    matches = read = 0
    for file in result.files:
        path = file.path
        for match in file.matches:
            matches += 1
            read += len(path) + match.line_number + len(match.text)
            for line in match.before:
                read += len(path) + line.line_number + len(line.text)
            for line in match.after:
                read += len(path) + line.line_number + len(line.text)
    assert read > 0
    return matches, len(result.files)


def main():
    plain = fsnative.Sandbox([DIR])
    indexed = fsnative.Sandbox([DIR], index=True)
    assert indexed.wait_for_index(timeout_ms=60_000), indexed.index_status()
    core_ms = {PLAIN: [], INDEXED: []}

    def grep(sandbox, name):
        def run():
            result = sandbox.grep(PATTERN, context=CASE["context"], limit=CASE["limit"])
            core_ms[name].append(result.stats.elapsed_ms)
            return read_all(result)

        return run

    def ripgrep():
        out = subprocess.run([RG, *RG_ARGS], capture_output=True, check=True).stdout.decode()
        return out.count("\n"), 0

    impls = {RG_PEER: ripgrep, PLAIN: grep(plain, PLAIN), INDEXED: grep(indexed, INDEXED)}
    warmup, reps = (1, 2) if SMOKE else (CASE["rounds"]["warmup"], CASE["rounds"]["measured"])
    counts = subprocess.run([RG, "-c", PATTERN, DIR], capture_output=True, check=True).stdout.decode().split()
    rg_counts = [int(line.rsplit(":", 1)[1]) for line in counts]
    rows = []
    for case_id, title, block in (
        (CASE_ID, f"{CASE['title']}, each call right after rg", 1),
        (f"{CASE_ID}_runs", f"{CASE['title']}, runs of 10 calls per tool", 10),
    ):
        for samples in core_ms.values():
            samples.clear()
        orders = [[RG_PEER, PLAIN, INDEXED], [RG_PEER, INDEXED, PLAIN]]
        runs = interleaved(impls, warmup, reps, block, orders)
        runs[RG_PEER].update(matches=sum(rg_counts), files=len(rg_counts))
        notes = {
            name: f"of which the core's search (stats.elapsed_ms): {statistics.median(core_ms[name][-len(runs[name]['samples']) :]):.2f} ms"
            for name in (PLAIN, INDEXED)
        }
        notes[RG_PEER] = f"`rg {' '.join(RG_ARGS[:3])} DIR`; the lines are not parsed into fields"
        rows += record(
            "transfer-python", TREE, case_id, title, runs, lambda name: [INDEXED] if name == RG_PEER else [], notes
        )
    save("transfer-python", rows)


if __name__ == "__main__":
    main()
