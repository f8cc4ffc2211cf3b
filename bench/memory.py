"""Memory: peak resident memory a grep adds over its process's baseline, for a pattern that
matches every line of the large tree with `limit` 100. Each measurement is a fresh process
(Python, and Node through node/memory.mjs); the baseline is the resident size after loading
fsnative and building the sandbox, the peak is the process's high-water mark after the grep."""

import json
import subprocess
import sys

from measure import BENCH, REPS, corpus, record, save, trees

PATTERN = "^"
LIMIT = 100


def kib(field):
    """A VmRSS/VmHWM-style field of /proc/self/status, in KiB."""
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith(field + ":"))


def child(tree):
    import fsnative

    sandbox = fsnative.Sandbox([corpus(tree)])
    baseline = kib("VmRSS")
    result = sandbox.grep(PATTERN, limit=LIMIT)
    added_mib = (kib("VmHWM") - baseline) / 1024
    print(json.dumps({"added_mib": added_mib, "matches": result.total_matches, "files": len(result.files)}))


def measured(command):
    """Fresh processes, REPS of them (at least 3): MiB added by each."""
    runs = [json.loads(subprocess.run(command, check=True, stdout=subprocess.PIPE).stdout) for _ in range(max(REPS, 3))]
    return {"samples": [run["added_mib"] for run in runs], "matches": runs[-1]["matches"], "files": runs[-1]["files"]}


def main():
    rows = []
    for tree in trees("small", "large"):
        runs = {
            "fsnative (Python)": measured([sys.executable, __file__, "--child", tree]),
            "fsnative (Node, async)": measured(["node", str(BENCH / "node" / "memory.mjs"), tree]),
        }
        rows += record(
            "memory",
            tree,
            "match_everything",
            f"`{PATTERN}` (every line), limit {LIMIT}: resident memory added",
            runs,
            lambda name: [],
            unit="MiB",
        )
    save("memory", rows)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        child(sys.argv[2])
    else:
        main()
