#!/usr/bin/env bash
# Developer commands of the Python binding (the root Makefile calls them after `make dist`):
#   ./python/dev.sh test [PYTEST ARGS]   install the wheel from dist/ and the test requirements
#                                        into .venv, then run the tests
#   ./python/dev.sh demo DIR             install the wheel into .venv, then validate, grep, glob and fuzzy-find DIR
#   ./python/dev.sh install              install the wheel from dist/ and the test requirements into .venv
#   ./python/dev.sh requirements         only install the test requirements (make test does it while
#                                        other parts run: rg among them is a source build)
#   ./python/dev.sh pytest [PYTEST ARGS] run the tests against what .venv holds (make test runs two
#                                        at once, after one install)
#   ./python/dev.sh lint                 ruff (the version tests/requirements.txt pins, in a venv of
#                                        its own) on the Python code: lints, then formatting (ruff.toml)
# The tests run against the installed release wheel, the one `make dist` made, never against
# the source folder. The venv at the repository's .venv is kept between runs. PYTHON chooses
# the interpreter (python3).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
venv="$repo/.venv"
pip_quiet=(--quiet --disable-pip-version-check)

create_venv() {
    if [[ ! -x "$venv/bin/python" ]]; then
        echo "creating $venv"
        "${PYTHON:-python3}" -m venv "$venv"
    fi
}

install_requirements() {
    create_venv
    echo "installing the test requirements (python/tests/requirements.txt) into .venv"
    "$venv/bin/python" -m pip install "${pip_quiet[@]}" -r "$here/tests/requirements.txt"
}

install_wheel() {
    create_venv
    local wheels=("$repo"/dist/fsnative-*.whl)
    if [[ ! -f "${wheels[0]}" ]]; then
        echo "no wheel in $repo/dist: run make dist first" >&2
        exit 1
    fi
    echo "installing ${wheels[0]#"$repo"/} into .venv"
    "$venv/bin/python" -m pip install "${pip_quiet[@]}" --force-reinstall --no-deps "${wheels[0]}"
}

case "${1:-}" in
requirements)
    if [[ $# -ne 1 ]]; then
        echo "usage: $0 requirements" >&2
        exit 2
    fi
    install_requirements
    ;;
install)
    if [[ $# -ne 1 ]]; then
        echo "usage: $0 install" >&2
        exit 2
    fi
    install_wheel
    install_requirements
    ;;
test | pytest)
    [[ "$1" == test ]] && { install_wheel; install_requirements; }
    shift
    # Run from the tests' folder with the venv's pytest script, so `import fsnative` finds
    # the installed package and never the source folder next to it.
    cd "$here/tests"
    exec "$venv/bin/pytest" -c "$here/pyproject.toml" --rootdir "$here" "$@"
    ;;
lint)
    if [[ $# -ne 1 ]]; then
        echo "usage: $0 lint" >&2
        exit 2
    fi
    # Its own venv: make test installs the test requirements into .venv at the same time.
    lint_venv="$repo/target/lint-venv"
    [[ -x "$lint_venv/bin/python" ]] || "${PYTHON:-python3}" -m venv "$lint_venv"
    "$lint_venv/bin/python" -m pip install "${pip_quiet[@]}" "$(grep '^ruff==' "$here/tests/requirements.txt")"
    cd "$repo"
    "$lint_venv/bin/ruff" check python bench tests packaging set-version.py
    exec "$lint_venv/bin/ruff" format --check python bench tests packaging set-version.py
    ;;
demo)
    if [[ $# -ne 2 ]]; then
        echo "usage: $0 demo DIR" >&2
        exit 2
    fi
    install_wheel
    exec "$venv/bin/python" "$here/examples/demo.py" "$2"
    ;;
*)
    echo "usage: $0 test [PYTEST ARGS] | demo DIR | install | requirements | pytest [PYTEST ARGS] | lint" >&2
    exit 2
    ;;
esac
