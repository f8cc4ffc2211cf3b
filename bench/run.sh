#!/usr/bin/env bash
# The benchmark harness (make bench / make bench-smoke):
#   ./bench/run.sh           prepare the corpora, run every scenario, write bench/results/latest.md + SVG charts
#                            (and index.md + index.svg: the warm index against fff, index_bench.py;
#                            find.md + find.svg: fuzzy find against fff, find_bench.py)
#   ./bench/run.sh --smoke   the same scripts on the small tree, 2 rounds: keeps the harness from rotting
#   ./bench/run.sh --agent   only agent_bench.py (the queries agents send, against fff) with dist/'s wheel;
#                            BENCH_AGENT_TREES="agent medium large" picks the trees (default: all three)
#   ./bench/run.sh --peers [--smoke]   only install the peers (make test does it while other parts run)
# Peers come pinned from PyPI (bench/requirements.txt, into bench/.venv with fsnative's wheel from
# dist/, which `make dist` makes) and npm (bench/node/package-lock.json); fsnative for Node is
# ../npm as ./npm/dev.sh builds it. fff-search has no wheel for glibc below 2.38, so pip builds
# it from source: the smoke run, which only checks the harness and reports no figure, has a venv
# of its own (bench/.venv-smoke) whose fff-search is built unoptimised
# (packaging/source-build-env.json) and never cached, so no full run can pick that build up.
set -euo pipefail

bench="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$bench")"
pip_quiet=(--quiet --disable-pip-version-check)

usage() {
    echo "usage: $0 [--smoke] [--peers] [--agent]" >&2
    exit 2
}

export BENCH_SMOKE=0
peers_only=0
agent_only=0
for arg in "$@"; do
    case "$arg" in
    --smoke) BENCH_SMOKE=1 ;;
    --peers) peers_only=1 ;;
    --agent) agent_only=1 ;;
    *) usage ;;
    esac
done
venv="$bench/.venv"
[[ "$BENCH_SMOKE" == 1 ]] && venv="$bench/.venv-smoke"

# Installs are skipped when nothing changed, so a smoke run after the first needs no network.
install_peers() {
    local stamp="$venv/.installed"
    if [[ ! -f "$stamp" || "$bench/requirements.txt" -nt "$stamp" ]]; then
        [[ -x "$venv/bin/python" ]] || "${PYTHON:-python3}" -m venv "$venv"
        if [[ "$BENCH_SMOKE" == 1 ]]; then
            local fff unoptimised
            fff="$(grep -E '^fff-search==' "$bench/requirements.txt")"
            unoptimised="$(python3 -c 'import json, sys; print(" ".join(f"{k}={v}" for k, v in json.load(open(sys.argv[1]))["env"].items()))' "$repo/packaging/source-build-env.json")"
            # shellcheck disable=SC2086  # KEY=VALUE words, none with a space
            env $unoptimised "$venv/bin/python" -m pip install "${pip_quiet[@]}" --no-cache-dir --no-deps "$fff"
        fi
        "$venv/bin/python" -m pip install "${pip_quiet[@]}" -r "$bench/requirements.txt"
        touch "$stamp"
    fi
    (cd "$bench/node" && { [[ -d node_modules ]] || npm ci --no-audit --no-fund; })
}

if [[ "$peers_only" == 1 ]]; then
    install_peers
    exit
fi
install_peers
wheels=("$repo"/dist/fsnative-*.whl)
[[ -f "${wheels[0]}" ]] || { echo "no wheel in $repo/dist: run make dist first" >&2; exit 1; }
"$venv/bin/python" -m pip install "${pip_quiet[@]}" --force-reinstall --no-deps "${wheels[0]}"
if [[ "$agent_only" == 1 ]]; then
    # shellcheck disable=SC2086  # tree names, none with a space
    (cd "$bench" && "$venv/bin/python" agent_bench.py ${BENCH_AGENT_TREES:+--trees $BENCH_AGENT_TREES})
    exit
fi
echo "building fsnative for Node and the fsgrep example (release)" >&2
node "$repo/npm/scripts/build.js"
cargo build --quiet --release --locked -p fsnative --features mimalloc --example fsgrep --manifest-path "$repo/Cargo.toml"

# rg (PyPI ripgrep 15.1.0) and python come from the bench venv; fs-mcp finds rg on PATH, the
# harness by BENCH_RG.
export PATH="$venv/bin:$PATH" BENCH_RG="$venv/bin/rg"
# fs-mcp refuses paths under the system temp dir (unless they contain `pytest-`), so a checkout
# under /tmp would have its corpora refused: give the run a temp dir of its own instead.
export TMPDIR="$bench/.tmp"
mkdir -p "$TMPDIR"
cd "$bench"
if [[ "$BENCH_SMOKE" == 1 ]]; then
    python corpora.py small email
else
    python corpora.py small medium large email agent
fi
rm -rf "$bench/results/raw$([[ "$BENCH_SMOKE" == 1 ]] && echo -smoke)"
python grep_python.py
node node/grep.mjs
node node/transfer.mjs
python transfer_python.py
python engine.py
python glob_python.py
node node/glob.mjs
python memory.py
python index_bench.py
python agent_bench.py
python find_bench.py
python report.py
