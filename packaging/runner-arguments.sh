# The command line of the cross-built artifacts' runners (test.sh, native-suites.sh; sourced,
# not run): `[WORD] ARTIFACT_DIR`.
# shellcheck shell=bash

# Reads `[WORD] ARTIFACT_DIR` from the arguments after WORDS (the words the runner takes, one
# of them or none): sets $word (empty when none was given), $artifacts (the folder, absolute)
# and $version (the npm package's, which the artifacts' names carry), for the runner that
# sources this and sets $repo. A wrong call exits 2.
# shellcheck disable=SC2034,SC2154
runner_arguments() {
    local words="$1"
    shift
    word=""
    if [[ $# -ge 1 && " $words " == *" $1 "* ]]; then
        word="$1"
        shift
    fi
    if [[ $# -ne 1 || ! -d "$1" ]]; then
        echo "usage: $0 [${words// /|}] ARTIFACT_DIR" >&2
        exit 2
    fi
    artifacts="$(cd "$1" && pwd)"
    version="$(node -p "require('$repo/npm/package.json').version")"
}
