#!/usr/bin/env bash
# The release's last step (.github/workflows/release.yml, job `packages`): from the platform
# packages and wheels that each runner built, gathered in DIR, it adds to DIR
#   fsnative-<v>.tgz      the npm main package, listing every platform package in DIR (all seven
#                         are required) as optionalDependencies (and any other package that
#                         npm/scripts/pack.js makes beside it)
#   fsnative-<v>.tar.gz   the Python sdist
# and checks the macOS and Windows libraries as packed (packaging/macho.py, packaging/pe.py).
# Usage: packaging/release-packages.sh DIR
set -euo pipefail

# shellcheck source=packaging/dist-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/dist-common.sh"
[[ $# -eq 1 && -d "$1" ]] || { echo "usage: $0 DIR" >&2; exit 2; }
dir="$(cd "$1" && pwd)"
stage="$repo/target/release-stage"
cd "$repo"
version="$(node -p "require('./npm/package.json').version")"
PLATFORMS=(linux-x64-gnu linux-x64-musl linux-arm64-gnu linux-arm64-musl darwin-arm64 darwin-x64 win32-x64-gnu)

rm -rf "$stage"
mkdir -p "$stage/addons" "$stage/out"
addons=()
for platform in "${PLATFORMS[@]}"; do
    tgz="$dir/fsnative-$platform-$version.tgz"
    [[ -f "$tgz" ]] || { echo "$0: $tgz is missing: every platform package is required" >&2; exit 1; }
    tar -xzf "$tgz" -C "$stage/addons" --strip-components=1 "package/fsnative.$platform.node"
    addons+=(--addon "$platform=$stage/addons/fsnative.$platform.node")
done

stage_rust_sources "$stage/node-rust" node
# pack.js packs the platform packages again, into the stage (DIR keeps the runners' own), and
# the packages that are not a platform's: the main one, and any other it makes. Those are what
# this step adds to DIR.
node npm/scripts/pack.js "${addons[@]}" --rust-sources "$stage/node-rust" --stage "$stage" --out "$stage/out"
for tgz in "$stage/out"/*.tgz; do
    name="$(basename "$tgz")"
    for platform in "${PLATFORMS[@]}"; do
        [[ "$name" == "fsnative-$platform-$version.tgz" ]] && continue 2
    done
    cp "$tgz" "$dir/"
done
install_build_tools
build_sdist "$dir" "$stage/python-sdist"
"$tools/bin/python" packaging/macho.py --artifacts "$dir"
"$tools/bin/python" packaging/pe.py --artifacts "$dir"
ls -l "$dir"
