# The core's Rust tests that fail under Wine 8.0 for Wine's own reason (sourced by
# platforms/windows/test.sh): test name -> the Wine behaviour that makes it fail. test.sh skips
# them by name (cargo test -- --skip NAME) and counts them as skipped, never as passed; a
# Windows runner (.github/workflows/test.yml) runs them all.
# shellcheck shell=bash
