#!/usr/bin/env bash
# `make dist-all`: the release artifacts for every Linux, macOS and Windows the packages support,
# in dist/all/ (replaced on every run), cross-built with zig (Windows: with MinGW):
#   fsnative-linux-{x64,arm64}-{gnu,musl}-<v>.tgz   the npm platform packages (gnu: glibc >= 2.17)
#   fsnative-darwin-{arm64,x64}-<v>.tgz            the npm platform packages for macOS (11.0+ on
#                                                  arm64, 10.12+ on x64)
#   fsnative-win32-x64-gnu-<v>.tgz                 the npm platform package for Windows x64
#                                                  (MinGW; Windows 10+)
#   fsnative-<v>.tgz                               the npm package, listing all seven as
#                                                  optionalDependencies
#   fsnative-<v>-cp39-abi3-manylinux_2_17_{x86_64,aarch64}.manylinux2014_*.whl
#   fsnative-<v>-cp39-abi3-musllinux_1_2_{x86_64,aarch64}.whl
#   fsnative-<v>-cp39-abi3-macosx_11_0_arm64.whl, …-macosx_10_12_x86_64.whl
#   fsnative-<v>-cp39-abi3-win_amd64.whl
#   fsnative-<v>.tar.gz                            the Python sdist
# Usage: ./packaging/dist-all.sh [RUST_TARGET ...]   (default: the seven targets below; fewer, for a
# lighter run, pack only theirs). Needs the rustup targets (it names the command when one is
# missing); zig and cargo-zigbuild come from python/cross-requirements.txt, which only this
# script installs (make dist never downloads zig; make test does only for python/tests/release/test_macho.py
# and test_pe.py). Windows is built with Debian's MinGW (gcc-mingw-w64-x86-64: its linker, and
# the C compiler LMDB needs), which the script installs with apt-get when it is missing and it
# runs as root, and otherwise names the command.
# Every library is checked: no static TLS; on glibc no symbol version above GLIBC_2.17
# (objdump -T); on musl nothing needed but libc.so, and no symbol version; each gnu wheel's tag
# confirmed by auditwheel (which cannot judge a musl wheel here: see below); on macOS, by
# packaging/macho.py: the CPU, the minimum macOS, the entry symbol, libSystem alone linked, and
# no undefined symbol but libSystem's and the host's (Node's or CPython's); on Windows, by
# packaging/pe.py: the machine type, the entry symbol, only Windows' own DLLs imported (no MinGW
# runtime DLL) besides python3.dll for the wheel.
# The targets build one after the other (each step's seconds go to target/dist-all-times.tsv);
# for each, the core compiles once and serves the addon and the wheel.
set -euo pipefail

# shellcheck source=packaging/dist-common.sh
source "$(dirname "${BASH_SOURCE[0]}")/dist-common.sh"
out="$repo/dist/all"
stage="$repo/target/dist-all-stage"
times="$repo/target/dist-all-times.tsv"
cd "$repo"

# Rust target -> npm platform, wheel policy (maturin's --compatibility) and its auditwheel tag.
declare -A PLATFORM=(
    [x86_64-unknown-linux-gnu]=linux-x64-gnu
    [x86_64-unknown-linux-musl]=linux-x64-musl
    [aarch64-unknown-linux-gnu]=linux-arm64-gnu
    [aarch64-unknown-linux-musl]=linux-arm64-musl
    [aarch64-apple-darwin]=darwin-arm64
    [x86_64-apple-darwin]=darwin-x64
    [x86_64-pc-windows-gnu]=win32-x64-gnu
)
# maturin's --compatibility (Linux only: a macOS wheel's tag comes from MACOSX_DEPLOYMENT_TARGET).
declare -A POLICY=(
    [x86_64-unknown-linux-gnu]=manylinux2014
    [x86_64-unknown-linux-musl]=musllinux_1_2
    [aarch64-unknown-linux-gnu]=manylinux2014
    [aarch64-unknown-linux-musl]=musllinux_1_2
)
declare -A TAG=(
    [x86_64-unknown-linux-gnu]=manylinux_2_17_x86_64
    [x86_64-unknown-linux-musl]=musllinux_1_2_x86_64
    [aarch64-unknown-linux-gnu]=manylinux_2_17_aarch64
    [aarch64-unknown-linux-musl]=musllinux_1_2_aarch64
    [aarch64-apple-darwin]=macosx_11_0_arm64
    [x86_64-apple-darwin]=macosx_10_12_x86_64
    [x86_64-pc-windows-gnu]=win_amd64
)
# The oldest macOS each macOS build runs on (MACOSX_DEPLOYMENT_TARGET: rustc, cc-rs and zig's
# linker read it, maturin tags the wheel with it), and its CPU as the Mach-O header names it:
# Rust's own minimum for each target (arm64 Macs start at 11.0).
declare -A MACOS=(
    [aarch64-apple-darwin]=11.0
    [x86_64-apple-darwin]=10.12
)
declare -A MACHO_ARCH=(
    [aarch64-apple-darwin]=arm64
    [x86_64-apple-darwin]=x86_64
)
# The oldest glibc the gnu builds link against: manylinux2014's.
GLIBC=2.17

targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(x86_64-unknown-linux-gnu x86_64-unknown-linux-musl aarch64-unknown-linux-gnu
    aarch64-unknown-linux-musl aarch64-apple-darwin x86_64-apple-darwin x86_64-pc-windows-gnu)
for target in "${targets[@]}"; do
    [[ -n "${PLATFORM[$target]:-}" ]] || { echo "packaging/dist-all.sh: unknown target $target (known: ${!PLATFORM[*]})" >&2; exit 2; }
done

# The Rust standard library of each target must be installed; adding one is the user's call.
missing=()
installed="$(rustup target list --installed 2>/dev/null || true)"
for target in "${targets[@]}"; do
    grep -qx "$target" <<<"$installed" || missing+=("$target")
done
if [[ ${#missing[@]} -gt 0 ]]; then
    echo "packaging/dist-all.sh: the Rust targets ${missing[*]} are not installed. Add them with:" >&2
    echo "    rustup target add ${missing[*]}" >&2
    exit 1
fi

# MinGW, for the Windows target: Debian's package, installed here when missing (as root).
if [[ " ${targets[*]} " == *-windows-gnu* ]] && ! command -v x86_64-w64-mingw32-gcc >/dev/null; then
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        apt-get install -y --no-install-recommends gcc-mingw-w64-x86-64
    else
        echo "packaging/dist-all.sh: the Windows target needs MinGW's compiler and linker; install them with:" >&2
        echo "    sudo apt-get install gcc-mingw-w64-x86-64" >&2
        exit 1
    fi
fi

install_build_tools python/cross-requirements.txt
# maturin finds zig (the ziglang package) only through the venv's python on PATH.
export PATH="$tools/bin:$PATH"
"$tools/bin/python" -m ziglang version >/dev/null || {
    echo "packaging/dist-all.sh: zig does not run from $tools; reinstall it with:" >&2
    echo "    $tools/bin/python -m pip install --force-reinstall -r python/cross-requirements.txt" >&2
    exit 1
}
# cargo-zigbuild names its zig wrapper directory after the program that writes it. Both the
# addon's build (cargo-zigbuild) and the wheel's (maturin, which embeds the same cargo-zigbuild)
# are told it is cargo-zigbuild, so both pass the same compiler paths to the build scripts and
# cargo does not rebuild the core for the second one (the name has a dash: env, not export).
same_wrappers=(env "CARGO_BIN_EXE_cargo-zigbuild=$tools/bin/cargo-zigbuild")

rm -rf "$out" "$stage"
mkdir -p "$out" "$stage/addons"
printf 'step\tseconds\n' >"$times"

# Runs the command after the step's name, and appends its wall time to $times.
timed() {
    local step="$1" start=$SECONDS
    shift
    echo "== $step"
    "$@"
    printf '%s\t%s\n' "$step" $((SECONDS - start)) >>"$times"
}

# Fails unless the gnu library FILE needs no symbol version above GLIBC_$GLIBC.
check_glibc_symbols() {
    local file="$1" newest
    newest="$(objdump -T "$file" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1)"
    if [[ "$(printf '%s\n' "GLIBC_$GLIBC" "$newest" | sort -V | tail -n 1)" != "GLIBC_$GLIBC" ]]; then
        echo "packaging/dist-all.sh: $file needs $newest, newer than GLIBC_$GLIBC" >&2
        exit 1
    fi
    echo "$file: newest symbol version $newest"
}

# Fails unless the musl library FILE needs no shared library but musl's libc.so, and no
# symbol version (musl has none).
check_musl_needs() {
    local file="$1" needed
    needed="$(readelf -d "$file" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u | tr '\n' ' ')"
    if [[ "$needed" != "libc.so " ]]; then
        echo "packaging/dist-all.sh: $file needs [$needed], not only libc.so" >&2
        exit 1
    fi
    if readelf -V "$file" | grep -q 'Version needs section'; then
        echo "packaging/dist-all.sh: $file requires symbol versions, which musl does not have" >&2
        exit 1
    fi
    echo "$file: needs only libc.so, no symbol versions"
}

# The abi3 wheel for TARGET into $out, tagged with its POLICY (on Linux). Windows links with
# MinGW, not zig; PyO3 links python3.dll with raw-dylib (PyO3 0.28+), so no Windows Python and
# no import library are needed (its generate-import-lib feature is deprecated and does nothing).
build_wheel() {
    local target="$1" policy=() linker=(--zig)
    [[ -n "${POLICY[$target]:-}" ]] && policy=(--compatibility "${POLICY[$target]}")
    [[ "$target" == *-windows-gnu ]] && linker=()
    (cd python && "${same_wrappers[@]}" maturin build --release "${linker[@]}" --target "$target" \
        "${policy[@]}" --out "$out")
}

# The checks of a library built for TARGET: KIND is node (the addon) or python (the module).
check_library() {
    local target="$1" file="$2" kind="$3"
    case "$target" in
        *-apple-darwin)
            "$tools/bin/python" packaging/macho.py --kind "$kind" --arch "${MACHO_ARCH[$target]}" \
                --min-os "${MACOS[$target]}" "$file"
            return
            ;;
        x86_64-pc-windows-gnu)
            "$tools/bin/python" packaging/pe.py --kind "$kind" --arch x64 "$file"
            return
            ;;
    esac
    check_no_static_tls "$file"
    case "$target" in
        *-gnu) check_glibc_symbols "$file" ;;
        *-musl) check_musl_needs "$file" ;;
    esac
}

# napi-build's MinGW step needs LIBNODE_PATH/libnode.dll: an import library naming node.exe,
# from which the addon imports nothing (packaging/windows/node.def says why).
if [[ " ${targets[*]} " == *-windows-gnu* ]]; then
    mkdir -p "$stage/libnode"
    x86_64-w64-mingw32-dlltool -d packaging/windows/node.def -D node.exe -l "$stage/libnode/libnode.dll"
    export LIBNODE_PATH="$stage/libnode"
fi

addons=()
for target in "${targets[@]}"; do
    platform="${PLATFORM[$target]}"
    zig_target="$target"
    [[ "$target" == *-gnu ]] && zig_target+=".$GLIBC"
    # A musl cdylib must link the C library dynamically (rustc links musl statically by default);
    # set for the target, it reaches the addon's build and maturin's alike.
    if [[ "$target" == *-musl ]]; then
        export "CARGO_TARGET_$(tr 'a-z-' 'A-Z_' <<<"$target")_RUSTFLAGS=-C target-feature=-crt-static"
    fi
    library=libfsnative_node.so
    addon_env=()
    # macOS: the oldest version it runs on, for the addon and the wheel alike (the same value,
    # so the core compiles once). maturin builds a macOS module with
    # CARGO_ENCODED_RUSTFLAGS="-C link-arg=-undefined -C link-arg=dynamic_lookup" (its debug log
    # shows it), which reaches every crate: the addon is built with the very same flags, or the
    # core compiles a second time for the wheel (it did: 318 s instead of a link). cargo-zigbuild's zig wrapper drops the `-arch` and
    # `--target=arm64-apple-macosx` that cc-rs passes and `zig cc` refuses. The addon links with
    # `-undefined dynamic_lookup` (napi-build's setup() on macOS), the module likewise (maturin),
    # and both with `-dead_strip_dylibs` (their build.rs), or libiconv would be linked, unused.
    unset MACOSX_DEPLOYMENT_TARGET
    if [[ "$target" == *-apple-darwin ]]; then
        export MACOSX_DEPLOYMENT_TARGET="${MACOS[$target]}"
        library=libfsnative_node.dylib
        addon_env=("CARGO_ENCODED_RUSTFLAGS=-C"$'\x1f'"link-arg=-undefined"$'\x1f'"-C"$'\x1f'"link-arg=dynamic_lookup")
    fi

    # Windows: MinGW's gcc links (rustc's default for the target), not zig.
    build=(zigbuild --target "$zig_target")
    if [[ "$target" == *-windows-gnu ]]; then
        library=fsnative_node.dll
        build=(build --target "$target")
    fi

    timed "addon $platform" "${same_wrappers[@]}" "${addon_env[@]}" cargo "${build[@]}" --release --locked -p fsnative-node
    addon="$stage/addons/fsnative.$platform.node"
    cp "target/$target/release/$library" "$addon"
    check_library "$target" "$addon" node
    addons+=(--addon "$platform=$addon")

    timed "wheel ${TAG[$target]}" build_wheel "$target"
    wheel="$(ls "$out"/fsnative-*"${TAG[$target]}"*.whl)"
    case "$target" in
        # maturin tags a Windows wheel from the target; auditwheel reads ELF alone. The checks
        # are packaging/pe.py's, below.
        *-windows-gnu) echo "$(basename "$wheel"): tagged ${TAG[$target]} by maturin; checked below" ;;
        *-gnu) check_wheel_tag "$wheel" "${TAG[$target]}" ;;
        # auditwheel cannot judge a musl wheel on this glibc machine: it resolves the module's
        # libc.so against the host (glibc's libc.so, a linker script: it stops at "Magic number
        # does not match"), and its musllinux policy knows musl's libc only by Alpine's name
        # libc.musl-<arch>.so.1. musl's loader takes any libc.* name for itself, so the module
        # loads (packaging/test.sh runs it in a musl CPython); the checks below are the tag's:
        # nothing needed but libc.so, no symbol version, no static TLS.
        *-musl | *-apple-darwin) echo "$(basename "$wheel"): tagged ${TAG[$target]} by maturin; checked below" ;;
    esac
    check_library "$target" "$(wheel_module "$wheel" "$stage/wheel-${TAG[$target]}")" python
done

echo "== npm packages and sdist"
stage_rust_sources "$stage/node-rust" node
node npm/scripts/pack.js "${addons[@]}" --rust-sources "$stage/node-rust" --stage "$stage" --out "$out"
build_sdist "$out" "$stage/python-sdist"
# The macOS and Windows modules again, as packed (python/tests/release/test_macho.py and test_pe.py run
# the same checks on them).
if [[ " ${targets[*]} " == *-apple-darwin* ]]; then
    echo "== the macOS artifacts as packed"
    "$tools/bin/python" packaging/macho.py --artifacts "$out"
fi
if [[ " ${targets[*]} " == *-windows-gnu* ]]; then
    echo "== the Windows artifacts as packed"
    "$tools/bin/python" packaging/pe.py --artifacts "$out"
fi

echo "== dist/all/ (seconds per step in ${times#"$repo"/})"
ls -l "$out"
column -t "$times"
