#!/usr/bin/env bash
# Runs the fuzz targets one after another, SECONDS each (default 60), and prints libFuzzer's
# final stats, the corpus size and any crash:
#   ./run.sh [SECONDS [TARGET...]]       default: every target (validate glob grep constraints index_query)
# FUZZ_FLAGS chooses the build (default "-O -a -s none": optimised, debug assertions and
# overflow checks, no sanitizer: an ASAN build of the core took over 40 minutes on this 2-core
# machine; FUZZ_FLAGS="" is cargo fuzz's default, ASAN). FUZZ_ARGS adds libFuzzer options
# (e.g. -runs=10000000). Each target's whole log is left in logs/TARGET.log.
# Needs cargo-fuzz (installed from crates.io if missing); uses the stable toolchain with
# RUSTC_BOOTSTRAP=1 for the sanitizer flags, since no nightly toolchain can be installed here;
# this crate has its own workspace and target directory, so that never touches the main one.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift $(($# > 0 ? 1 : 0))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(validate glob grep constraints index_query)
read -r -a flags <<<"${FUZZ_FLAGS--O -a -s none}"
read -r -a extra <<<"${FUZZ_ARGS-}"
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
export RUSTC_BOOTSTRAP=1
mkdir -p logs
failed=0
for target in "${targets[@]}"; do
  mkdir -p "corpus/$target"
  echo "== $target: ${seconds}s, cargo fuzz run ${flags[*]} $target -- ${extra[*]}"
  status=0
  cargo fuzz run "${flags[@]}" "$target" -- -max_total_time="$seconds" -max_len=4096 "${extra[@]}" \
    >"logs/$target.log" 2>&1 || status=$?
  grep -E '^#[0-9]+ *DONE|^Done [0-9]+ runs|panicked|ERROR: libFuzzer|SUMMARY|Test unit written' "logs/$target.log" | tail -4 || true
  echo "corpus: $(find "corpus/$target" -type f | wc -l) inputs; exit $status"
  [ "$status" -eq 0 ] || failed=1
done
exit "$failed"
