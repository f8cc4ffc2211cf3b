#!/usr/bin/env bash
# Developer commands of the Python binding (the root Makefile calls them):
#   ./python/dev.sh test [PYTEST ARGS]   install the package into .venv, then run its tests
#   ./python/dev.sh demo DIR             the same install, then validate, grep and glob DIR
# The install is `pip install ./python`, which builds the wheel from source with maturin
# (cargo, release profile; the workspace's target/ keeps later builds quick). The venv at
# the repository's .venv is kept between runs. PYTHON chooses the interpreter (python3).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
venv="$repo/.venv"
pip_quiet=(--quiet --disable-pip-version-check)

install() {
    if [[ ! -x "$venv/bin/python" ]]; then
        echo "creating $venv"
        "${PYTHON:-python3}" -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install "${pip_quiet[@]}" -r "$here/tests/requirements.txt"
    echo "building and installing fsnative from $here (cargo build --release on the first run)"
    "$venv/bin/python" -m pip install "${pip_quiet[@]}" --force-reinstall --no-deps "$here"
}

case "${1:-}" in
test)
    shift
    install
    # Run from the tests' folder with the venv's pytest script, so `import fsnative` finds
    # the installed package and never the source folder next to it.
    cd "$here/tests"
    exec "$venv/bin/pytest" -c "$here/pyproject.toml" --rootdir "$here" "$@"
    ;;
demo)
    if [[ $# -ne 2 ]]; then
        echo "usage: $0 demo DIR" >&2
        exit 2
    fi
    install
    exec "$venv/bin/python" "$here/examples/demo.py" "$2"
    ;;
*)
    echo "usage: $0 test [PYTEST ARGS] | demo DIR" >&2
    exit 2
    ;;
esac
