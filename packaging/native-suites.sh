#!/usr/bin/env bash
# Runs the x86-64 glibc 2.17 builds of `make dist-all` through the FULL Node and Python suites on
# this machine's node and python3, in place of the native builds `make test` tests:
#   packaging/native-suites.sh [node|python] ARTIFACT_DIR   (make test-platforms-native: dist/all)
# - Node: a copy of the checkout's files (git ls-files: tracked and untracked, none ignored) in
#   target/platforms-native/node/checkout; in its npm/, `npm ci --ignore-scripts` (the
#   dependencies, no addon build), fsnative-linux-x64-gnu-<v>.tgz unpacked into node_modules
#   where npm puts an optionalDependency, and no native/fsnative.node, so lib/native.js loads
#   the platform package; then every command of `npm run test:suite` in order, each
#   `node --test` with the TAP reporter, and FSNATIVE_DIST=ARTIFACT_DIR (the project test
#   installs the packages from there: dist-all's fsnative-<v>.tgz and this platform package).
# - Python: a fresh venv (target/platforms-native/python/venv) with the manylinux2014 x86_64
#   wheel and python/tests/requirements.txt, then pytest on a copy's python/tests (as for Node,
#   in target/platforms-native/python/checkout) as `make test-python-suite` runs it (all but
#   test_dist_install.py, which tests dist/'s packages), less the one test that compares the
#   README's size table with `make dist`'s artifacts, which are not these.
# Before each suite it checks that the module the tests load is the artifact's own (same
# sha256). Prints one line per suite (passed, skipped, failed, seconds), also written to
# target/platforms-native/summary.txt; exits 1 when a test failed or a check did not hold.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"

# shellcheck source=packaging/runner-arguments.sh
source "$here/runner-arguments.sh"

runner_arguments "node python" "$@"
if [[ -n "$word" ]]; then suites=("$word"); else suites=(node python); fi
work="$repo/target/platforms-native"
summary="$work/summary.txt"
status=0
mkdir -p "$work"
# Both suites: a new summary; one: its line is added to the last.
if [[ ${#suites[@]} -eq 2 ]]; then : >"$summary"; else touch "$summary"; fi

say() { echo "native-suites: $*" >&2; }

# NAME WHERE PASSED SKIPPED FAILED SECONDS: one summary line; a failure fails the run.
record() {
    printf '%s\t%s\tpassed %s\tskipped %s\tfailed %s\t%ss\n' "$@" | tee -a "$summary"
    [[ "$5" == 0 ]] || status=1
}

# The one file matching GLOB in the artifact folder, or the run stops naming it.
artifact() {
    local matches=("$artifacts"/$1)
    [[ -f "${matches[0]}" ]] || { say "no $1 in $artifacts (make dist-all builds it)"; exit 1; }
    echo "${matches[0]}"
}

# Fails the run unless files A and B are the same bytes.
same_file() {
    if ! cmp -s "$1" "$2"; then
        say "the tests would load $2, not the artifact's $1"
        exit 1
    fi
    say "the tests load $(sha256sum "$2" | cut -c1-16)…, the artifact's own module"
}

# A copy of the checkout's files for SUITE (so that the two suites can run at once); sets checkout.
copy_checkout() {
    checkout="$work/$1/checkout"
    rm -rf "$checkout"
    mkdir -p "$checkout"
    (cd "$repo" && git ls-files -z --cached --others --exclude-standard |
        while IFS= read -r -d '' file; do [[ -e "$file" || -L "$file" ]] && printf '%s\0' "$file"; done |
        xargs -0 cp -P --parents -t "$checkout")
}

node_suite() {
    local tgz package started passed=0 skipped=0 failed=0 step=0 counts
    tgz="$(artifact "fsnative-linux-x64-gnu-$version.tgz")"
    package="$checkout/npm"
    (cd "$package" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error)
    rm -rf "$package/native" "$package/node_modules/fsnative-linux-x64-gnu"
    mkdir -p "$package/node_modules/fsnative-linux-x64-gnu"
    tar -xzf "$tgz" -C "$package/node_modules/fsnative-linux-x64-gnu" --strip-components=1
    local loaded
    loaded="$(cd "$package" && node -p "require.resolve(require('./lib/platform').platformPackage())")"
    same_file "$(find "$package/node_modules/fsnative-linux-x64-gnu" -name '*.node')" "$loaded"
    # The rg the parity tests compare with, in the copy's npm/.oracle (pip's cache serves it).
    "$package/test/fsmcp/install-oracle.sh" >/dev/null
    say "node $(node --version): npm run test:suite's commands on fsnative-linux-x64-gnu (glibc 2.17)"
    started=$SECONDS
    while IFS= read -r command; do
        step=$((step + 1))
        if [[ "$command" == "node --test "* ]]; then
            local log="$work/node-$step.tap"
            # shellcheck disable=SC2086 # the script's own words, globs expanded as npm's shell does
            (cd "$package" && FSNATIVE_DIST="$artifacts" node --test --test-reporter=tap ${command#node --test }) \
                >"$log" 2>&1 || true
            read -r counts < <(node "$here/count-tap.mjs" - "$log" 2>>"$work/node.failures")
            read -r p s f _ <<<"$counts"
            passed=$((passed + p)) skipped=$((skipped + s)) failed=$((failed + f))
            say "$command: passed $p, skipped $s, failed $f"
        else
            # shellcheck disable=SC2086
            (cd "$package" && PATH="$package/node_modules/.bin:$PATH" $command) ||
                { failed=$((failed + 1)); say "$command failed"; }
        fi
    done < <(node -p "require('$package/package.json').scripts['test:suite'].split(' && ').join('\n')")
    record "fsnative-linux-x64-gnu (glibc 2.17)" "native, node $(node --version)" \
        "$passed" "$skipped" "$failed" "$((SECONDS - started))"
}

python_suite() {
    local wheel venv="$work/python/venv" started counts
    wheel="$(artifact "fsnative-$version-cp39-abi3-manylinux*_x86_64*.whl")"
    rm -rf "$venv"
    "${PYTHON:-python3}" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "$wheel"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$checkout/python/tests/requirements.txt"
    local installed
    installed="$(cd "$work" && "$venv/bin/python" -c 'import fsnative._fsnative as m; print(m.__file__)')"
    mkdir -p "$work/wheel"
    "$venv/bin/python" -m zipfile -e "$wheel" "$work/wheel"
    same_file "$(ls "$work"/wheel/fsnative/_fsnative*.so)" "$installed"
    say "$("$venv/bin/python" --version): python/tests on $(basename "$wheel")"
    started=$SECONDS
    (cd "$checkout/python/tests" && "$venv/bin/pytest" -q -p no:cacheprovider -c "$checkout/python/pyproject.toml" \
        --rootdir "$checkout/python" --junitxml "$work/python.xml" --ignore=release/test_dist_install.py \
        --deselect tests/binding/test_readme.py::test_the_readme_size_table_matches_dist) \
        >"$work/python.log" 2>&1 || true
    read -r counts < <(python3 "$here/count_junit.py" "$work/python.xml" 2>"$work/python.failures")
    read -r p s f _ <<<"$counts"
    record "manylinux2014_x86_64 wheel (glibc 2.17)" "native, $("$venv/bin/python" --version)" \
        "$p" "$s" "$f" "$((SECONDS - started))"
}

for suite in "${suites[@]}"; do
    copy_checkout "$suite"
    "${suite}_suite"
done
say "summary in ${summary#"$repo"/}; logs and failures beside it"
exit $status
