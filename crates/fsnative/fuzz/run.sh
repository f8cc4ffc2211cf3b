#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) and prints libFuzzer's final stats.
# Needs cargo-fuzz (installed from crates.io if missing); uses the stable toolchain with
# RUSTC_BOOTSTRAP=1 for the sanitizer flags, since no nightly toolchain can be installed here.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
for target in validate glob grep; do
  echo "== $target (${seconds}s)"
  cargo fuzz run "$target" -- -max_total_time="$seconds" -max_len=4096 2>&1 \
    | grep -E '^(#[0-9]+ *DONE|Done [0-9]+ runs)|cov:|crash|panicked|ERROR' | tail -3
done
