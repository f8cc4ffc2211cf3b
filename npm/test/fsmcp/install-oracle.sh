#!/usr/bin/env bash
# Installs the parity tests' oracle, ripgrep 15.1.0 from PyPI (the wheel ships the rg binary),
# into npm/.oracle (git-ignored), once. Prints the binary's path. Nothing else uses rg.
set -euo pipefail

oracle_dir="$(cd "$(dirname "$0")/../.." && pwd)/.oracle"
rg="$oracle_dir/bin/rg"
if [ ! -x "$rg" ]; then
  python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --target "$oracle_dir" ripgrep==15.1.0 >&2
fi
echo "$rg"
