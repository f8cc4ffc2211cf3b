#!/usr/bin/env bash
# `make dist`: the release artifacts, in dist/ (replaced on every run):
#   fsnative-<v>.tgz                 the npm package: JS, types, and the Rust sources it builds
#                                    from where no platform package fits
#   fsnative-<platform>-<v>.tgz      the platform package with this machine's prebuilt addon,
#                                    e.g. fsnative-linux-x64-gnu (an optionalDependency of the first)
#   fsnative-<v>.tar.gz              the Python sdist (builds with maturin and cargo)
#   fsnative-<v>-cp39-abi3-manylinux_*.whl   the Python wheel, checked with auditwheel (on a
#                                    Mac, …-macosx_*.whl, checked by packaging/macho.py)
# Each package that carries Rust sources carries a workspace of just the crates it builds,
# with a Cargo.lock pruned to fit them, so `cargo build --locked` works from it.
set -euo pipefail

# shellcheck source=packaging/dist-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/dist-common.sh"
out="$repo/dist"
stage="$repo/target/dist-stage"
cd "$repo"

rm -rf "$out" "$stage"
mkdir -p "$out" "$stage"

# On a Mac (the CI's macOS runners: .github/workflows/test.yml) the addon is a .dylib, and the
# libraries are checked by packaging/macho.py instead of auditwheel and readelf, for the oldest
# macOS that MACOSX_DEPLOYMENT_TARGET names (Rust's default: 11.0 on arm64, 10.12 on x86-64).
addon=target/release/libfsnative_node.so
if [[ "$(uname -s)" == Darwin ]]; then
    addon=target/release/libfsnative_node.dylib
    arch="$(uname -m)"
    [[ "$arch" == arm64 ]] && default_macos=11.0 || default_macos=10.12
    export MACOSX_DEPLOYMENT_TARGET="${MACOSX_DEPLOYMENT_TARGET:-$default_macos}"
fi

echo "== npm packages"
cargo build --release --locked -p fsnative-node
stage_rust_sources "$stage/node-rust" node
node npm/scripts/pack.js --addon "$addon" --rust-sources "$stage/node-rust" \
    --stage "$stage" --out "$out"

echo "== Python sdist and wheel"
install_build_tools
build_sdist "$out" "$stage/python-sdist"
(cd python && "$tools/bin/maturin" build --release --out "$out")
module="$(wheel_module "$out"/fsnative-*.whl "$stage/wheel")"
if [[ "$(uname -s)" == Darwin ]]; then
    for kind in node python; do
        [[ $kind == node ]] && library="$addon" || library="$module"
        "$tools/bin/python" packaging/macho.py --kind $kind --arch "$arch" --min-os "$MACOSX_DEPLOYMENT_TARGET" "$library"
    done
else
    # maturin tagged the wheel with the oldest manylinux policy its symbols allow; auditwheel
    # confirms the tag from the outside.
    check_wheel_tag "$out"/fsnative-*.whl manylinux_
    for library in "$addon" "$module"; do
        check_no_static_tls "$library"
    done
fi

echo "== dist/"
ls -l "$out"
