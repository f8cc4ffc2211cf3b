#!/usr/bin/env bash
# The Node binding's tasks, as the root Makefile calls them:
#   ./npm/dev.sh test       install the package (npm ci, then scripts/build.js builds the addon with cargo), then npm test
#   ./npm/dev.sh demo DIR   install the package, then validate, grep, glob and fuzzy-find DIR through the Node API
#   ./npm/dev.sh install    only install the package (make test then runs `npm run test:suite` and
#                           `npm run test:dist`, the installs from dist/, side by side)
# Needs only node, npm and a Rust toolchain; packages come from the npm registry and crates.io.
set -euo pipefail

usage() {
  echo "usage: $0 test | demo DIR | install" >&2
  exit 2
}

package_dir="$(cd "$(dirname "$0")" && pwd)"

install_package() {
  (cd "$package_dir" && npm ci --no-audit --no-fund && node scripts/build.js)
}

case "${1:-}" in
  install)
    [ $# -eq 1 ] || usage
    install_package
    ;;
  test)
    [ $# -eq 1 ] || usage
    install_package
    (cd "$package_dir" && npm test)
    ;;
  demo)
    [ $# -eq 2 ] || usage
    dir="$(cd "$2" && pwd)"
    install_package
    node "$package_dir/examples/demo.mjs" "$dir"
    ;;
  *)
    usage
    ;;
esac
