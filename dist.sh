#!/usr/bin/env bash
# `make dist`: the release artifacts, in dist/ (replaced on every run):
#   fsnative-<v>.tgz                 the npm package: JS, types, and the Rust sources it builds
#                                    from where no platform package fits
#   fsnative-<platform>-<v>.tgz      the platform package with this machine's prebuilt addon,
#                                    e.g. fsnative-linux-x64-gnu (an optionalDependency of the first)
#   fsnative-<v>.tar.gz              the Python sdist (builds with maturin and cargo)
#   fsnative-<v>-cp39-abi3-manylinux_*.whl   the Python wheel, checked with auditwheel
# Each package that carries Rust sources carries a workspace of just the crates it builds,
# with a Cargo.lock pruned to fit them, so `cargo build --locked` works from it.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$repo/dist"
stage="$repo/target/dist-stage"
tools="$repo/target/dist-venv"
cd "$repo"

# A workspace of the core and the given binding crates in DIR, with a lock file that fits it.
stage_rust_sources() {
    local dir="$1"
    shift
    rm -rf "$dir"
    mkdir -p "$dir/crates" "$dir/bindings"
    local members='"crates/fsnative", "crates/fsnative-alignment"'
    for binding in "$@"; do
        members+=", \"bindings/$binding\""
        cp -R "bindings/$binding" "$dir/bindings/$binding"
    done
    sed "s|^members = .*|members = [$members]|" Cargo.toml >"$dir/Cargo.toml"
    cp Cargo.lock "$dir/Cargo.lock"
    # The core without its fuzz targets (a package of their own, never built from here), and
    # the crate that compiles the alignment of its typo count.
    cp -R crates/fsnative "$dir/crates/fsnative"
    cp -R crates/fsnative-alignment "$dir/crates/fsnative-alignment"
    rm -rf "$dir/crates/fsnative/fuzz"
    # Updating only the workspace's own crates, offline, drops the packages no member needs and
    # keeps every other version as pinned; the second call fails unless the lock now fits.
    cargo update --workspace --offline --quiet --manifest-path "$dir/Cargo.toml"
    cargo update --workspace --offline --quiet --locked --manifest-path "$dir/Cargo.toml"
}

rm -rf "$out" "$stage"
mkdir -p "$out" "$stage"

echo "== npm packages"
cargo build --release --locked -p fsnative-node
stage_rust_sources "$stage/node-rust" node
node npm/scripts/pack.js --addon target/release/libfsnative_node.so --rust-sources "$stage/node-rust" \
    --stage "$stage" --out "$out"

echo "== Python sdist and wheel"
if [[ ! -x "$tools/bin/maturin" ]]; then
    "${PYTHON:-python3}" -m venv "$tools"
fi
"$tools/bin/python" -m pip install --quiet --disable-pip-version-check -r python/build-requirements.txt
stage_rust_sources "$stage/python-sdist" python
cp -R python "$stage/python-sdist/python"
# maturin 1.16 first asks cargo for a Cargo.toml in the current directory, before it reads the
# manifest path in pyproject.toml, and prints cargo's "manifest path `Cargo.toml` does not exist";
# that one line is dropped, everything else maturin says is kept.
(cd "$stage/python-sdist/python" && "$tools/bin/maturin" sdist --out "$out") \
    2> >(grep -v '^error: manifest path `Cargo.toml` does not exist$' >&2)
(cd python && "$tools/bin/maturin" build --release --out "$out")
# maturin tagged the wheel with the oldest manylinux policy its symbols allow; auditwheel
# confirms the tag from the outside.
report="$("$tools/bin/auditwheel" show "$out"/fsnative-*.whl)"
echo "$report"
grep -q 'consistent with.*platform tag: "manylinux_' <<<"$(tr '\n' ' ' <<<"$report")" || {
    echo "dist.sh: auditwheel did not confirm a manylinux tag" >&2
    exit 1
}

echo "== dist/"
ls -l "$out"
