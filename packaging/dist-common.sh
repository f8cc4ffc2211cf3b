# Shared by packaging/dist.sh (`make dist`) and packaging/dist-all.sh (`make dist-all`); sourced, not run.
# Sets repo, tools (the build tools' venv) and the functions both scripts build and check with.

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tools="$repo/target/dist-venv"

# The venv with python/build-requirements.txt installed (maturin, auditwheel), and with each
# further requirements file named (packaging/dist-all.sh adds python/cross-requirements.txt: zig and
# cargo-zigbuild, which `make dist` does not need).
install_build_tools() {
    if [[ ! -x "$tools/bin/python" ]]; then
        "${PYTHON:-python3}" -m venv "$tools"
    fi
    local file args=()
    for file in python/build-requirements.txt "$@"; do
        args+=(-r "$repo/$file")
    done
    "$tools/bin/python" -m pip install --quiet --disable-pip-version-check "${args[@]}" || {
        echo "$(basename "$0"): pip could not install the build tools into $tools; retry with:" >&2
        echo "    $tools/bin/python -m pip install ${args[*]#"$repo/"}" >&2
        exit 1
    }
}

# A workspace of the core and the given binding crates in DIR, with a lock file that fits it.
stage_rust_sources() {
    local dir="$1"
    shift
    rm -rf "$dir"
    mkdir -p "$dir/crates" "$dir/bindings"
    local members='"crates/fsnative", "crates/fsnative-matcher"'
    for binding in "$@"; do
        members+=", \"bindings/$binding\""
        cp -R "$repo/bindings/$binding" "$dir/bindings/$binding"
    done
    sed "s|^members = .*|members = [$members]|" "$repo/Cargo.toml" >"$dir/Cargo.toml"
    cp "$repo/Cargo.lock" "$dir/Cargo.lock"
    # The core without its fuzz targets (a package of their own, never built from here), and
    # the crate that compiles its fuzzy matcher.
    cp -R "$repo/crates/fsnative" "$dir/crates/fsnative"
    cp -R "$repo/crates/fsnative-matcher" "$dir/crates/fsnative-matcher"
    rm -rf "$dir/crates/fsnative/fuzz"
    # The licenses, which the crates' and the Python package's LICENSE-* links point to.
    cp "$repo/LICENSE-MIT" "$repo/LICENSE-APACHE" "$dir/"
    # Updating only the workspace's own crates, offline, drops the packages no member needs and
    # keeps every other version as pinned; the second call fails unless the lock now fits.
    cargo update --workspace --offline --quiet --manifest-path "$dir/Cargo.toml"
    cargo update --workspace --offline --quiet --locked --manifest-path "$dir/Cargo.toml"
}

# The Python sdist into OUT, staged in STAGE_DIR (a workspace of the core and the Python binding).
build_sdist() {
    local out="$1" stage_dir="$2"
    stage_rust_sources "$stage_dir" python
    cp -R "$repo/python" "$stage_dir/python"
    # maturin 1.16 first asks cargo for a Cargo.toml in the current directory, before it reads
    # the manifest path in pyproject.toml, and prints cargo's "manifest path `Cargo.toml` does
    # not exist"; that one line is dropped, everything else maturin says is kept.
    (cd "$stage_dir/python" && "$tools/bin/maturin" sdist --out "$out") \
        2> >(grep -v '^error: manifest path `Cargo.toml` does not exist$' >&2)
}

# Fails unless auditwheel confirms, from the symbols its module links, a platform tag of WHEEL
# that starts with TAG (`manylinux_` for any, `musllinux_1_2_aarch64` for exactly that one).
check_wheel_tag() {
    local wheel="$1" tag="$2" report
    report="$("$tools/bin/auditwheel" show "$wheel")"
    echo "$report"
    grep -q "consistent with.*platform tag: \"$tag" <<<"$(tr '\n' ' ' <<<"$report")" || {
        echo "$(basename "$0"): auditwheel did not confirm a tag $tag… for $wheel" >&2
        exit 1
    }
}

# Extracts the native module of WHEEL into DIR; prints its path (`.so`, or `.pyd` on Windows).
wheel_module() {
    local wheel="$1" dir="$2"
    rm -rf "$dir"
    "$tools/bin/python" -m zipfile -e "$wheel" "$dir"
    compgen -G "$dir/fsnative/_fsnative*.so" || compgen -G "$dir/fsnative/_fsnative*.pyd"
}

# Fails when the shared library FILE asks for static TLS (the STATIC_TLS flag): such a library
# does not load at all on musl, and on glibc fails to dlopen into a process whose static TLS
# block is used up (docs/decisions.md, "Resources").
check_no_static_tls() {
    local file="$1"
    if readelf -d "$file" | grep -q 'STATIC_TLS'; then
        echo "$(basename "$0"): $file needs static TLS (readelf -d shows STATIC_TLS)" >&2
        exit 1
    fi
}
