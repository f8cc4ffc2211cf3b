#!/usr/bin/env bash
# make lint's clippy for macOS (issue #33 item 7), so that no Linux-only call creeps back: for
# each of aarch64-apple-darwin and x86_64-apple-darwin that rustup has installed,
#   cargo clippy --workspace --all-targets --locked --target TARGET -- -D warnings
# and for those it has not, the command that installs them (then it passes: adding a target is
# the user's call, and needs rustup's own server). Off a Mac, the C code of the dependencies
# (LMDB, mimalloc) is compiled for macOS by zig through cargo-zigbuild
# (python/cross-requirements.txt, installed into target/dist-venv on first use, as make
# dist-all does); on a Mac, by its own compiler.
set -euo pipefail

# shellcheck source=packaging/dist-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/dist-common.sh"
cd "$repo"
TARGETS=(aarch64-apple-darwin x86_64-apple-darwin)

installed="$(rustup target list --installed 2>/dev/null || true)"
present=() missing=()
for target in "${TARGETS[@]}"; do
    if grep -qx "$target" <<<"$installed"; then present+=("$target"); else missing+=("$target"); fi
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "clippy-apple.sh: clippy for ${missing[*]} skipped: the Rust target is not installed. Add it with:" >&2
    echo "    rustup target add ${missing[*]}" >&2
fi
[[ ${#present[@]} -gt 0 ]] || exit 0

clippy=(cargo clippy)
if [[ "$(uname -s)" != Darwin ]]; then
    install_build_tools python/cross-requirements.txt
    export PATH="$tools/bin:$PATH"
    clippy=(cargo-zigbuild clippy)
fi
# Each target is linted even when the one before failed: both verdicts, then the exit status.
failed=()
for target in "${present[@]}"; do
    echo "== clippy --target $target"
    "${clippy[@]}" --workspace --all-targets --locked --target "$target" -- -D warnings || failed+=("$target")
done
if [[ ${#failed[@]} -gt 0 ]]; then
    echo "clippy-apple.sh: clippy failed for ${failed[*]}" >&2
    exit 1
fi
