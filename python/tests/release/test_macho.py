"""The static check of the macOS artifacts (packaging/macho.py, issue #33 item 4).

The reader's own tests link small Mach-O libraries with zig (PyPI's ziglang, in
requirements.txt) for macOS on arm64 and x86-64, good ones and each kind of bad one, and feed it
files that are not Mach-O at all. `test_macos_artifact` then checks the four macOS artifacts of
`make dist-all` in dist/all/ (FSNATIVE_DIST_ALL), and is skipped, saying so, for each one that
is not there: they are built only by `make dist-all`, never by `make test`.
"""

from __future__ import annotations

import shutil
import struct
from pathlib import Path

import pytest
from artifact_checks import damaged_copies, dist_module, load_check, require_zig, write_packages, zig

macho = load_check("macho")

ADDON_C = """
#include <stdlib.h>
extern int napi_create_object(void *env, void **out);
extern int node_api_get_module_file_name(void *env, const char **out);
void *napi_register_module_v1(void *env, void *exports) {
    void *object;
    const char *file;
    napi_create_object(env, &object);
    node_api_get_module_file_name(env, &file);
    return malloc(8);
}
"""
PYTHON_C = """
#include <string.h>
extern void *PyModule_Create2(void *, int);
extern void _Py_Dealloc(void *);
static char definition[64];
void *PyInit__fsnative(void) {
    void *module = PyModule_Create2(memset(definition, 0, 64), 3);
    _Py_Dealloc(module);
    return module;
}
"""
ZIG_TARGET = {"arm64": "aarch64-macos.{}", "x86_64": "x86_64-macos.{}", "linux": "x86_64-linux-gnu"}


class Linker:
    """Links C source into a macOS dynamic library (or, for arch "linux", an ELF one) with zig."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.count = 0

    def __call__(self, source: str, arch: str = "arm64", min_os: str = "11.0", *flags: str, name: str = "") -> bytes:
        """The library's bytes; NAME is its file name in `directory` (else a new one)."""
        self.count += 1
        directory = self.directory
        c_file, output = directory / f"m{self.count}.c", directory / (name or f"m{self.count}.dylib")
        c_file.write_text(source)
        # -nostdlib -lSystem: libSystem's stubs without zig's compiler-rt, which it would
        # otherwise compile for the target first (40 s). Linux's (-nostdlib alone) leaves its
        # undefined symbols to the loader, as a shared object may.
        macos = ["-lSystem", "-Wl,-undefined,dynamic_lookup"] if arch != "linux" else []
        target = ZIG_TARGET[arch].format(min_os)
        zig(directory, "cc", "-target", target, "-shared", "-nostdlib", *macos, "-o", str(output), str(c_file), *flags)
        return output.read_bytes()


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Linker:
    require_zig()
    return Linker(tmp_path_factory.mktemp("macho"))


def check(data: bytes, kind: str = "node", arch: str = "arm64", min_os: str = "11.0") -> list[str]:
    found: list[str] = macho.check(data, kind, arch, min_os)[0]
    return found


@pytest.mark.parametrize(("arch", "min_os"), [("arm64", "11.0"), ("x86_64", "10.12")])
def test_a_node_addon_like_the_release_passes(build: Linker, arch: str, min_os: str) -> None:
    data = build(ADDON_C, arch, min_os)
    found, text = macho.check(data, "node", arch, min_os)
    assert found == []
    # 10.12 is written as LC_VERSION_MIN_MACOSX, 11.0 as LC_BUILD_VERSION: both are read.
    assert text.startswith(
        f"{arch}, macOS {min_os}+, exports napi_register_module_v1 (of 3 exported), links /usr/lib/libSystem.B.dylib;"
    )
    assert "2 from the host" in text


def test_a_python_module_like_the_release_passes(build: Linker) -> None:
    data = build(PYTHON_C, "x86_64", "10.12")
    assert check(data, "python", "x86_64", "10.12") == []
    parsed = macho.parse(data)
    assert {"PyModule_Create2", "_Py_Dealloc", "memset"} <= {name for name, _ in parsed.undefined}


def test_the_wrong_architecture_fails(build: Linker) -> None:
    assert "architecture arm64, not x86_64" in check(build(ADDON_C, "arm64", "11.0"), arch="x86_64")
    assert "architecture x86_64, not arm64" in check(build(ADDON_C, "x86_64", "11.0"), arch="arm64")


def test_another_minimum_macos_fails(build: Linker) -> None:
    assert check(build(ADDON_C, "arm64", "13.0")) == ["minimum macOS 13.0, not 11.0"]
    assert check(build(ADDON_C, "x86_64", "10.15"), arch="x86_64", min_os="10.12") == ["minimum macOS 10.15, not 10.12"]


def test_a_missing_entry_symbol_fails(build: Linker) -> None:
    assert "does not export napi_register_module_v1" in check(build(PYTHON_C), "node")
    assert "does not export PyInit__fsnative" in check(build(ADDON_C), "python")


def test_a_symbol_of_the_wrong_host_fails(build: Linker) -> None:
    # A Node addon may not count on CPython's symbols, nor a Python module on Node's.
    found = check(build(PYTHON_C.replace("PyInit__fsnative", "napi_register_module_v1")), "node")
    assert found == [
        "2 undefined symbols neither from libSystem nor the host's: PyModule_Create2 (ordinal 0xfe), _Py_Dealloc (ordinal 0xfe)"
    ]


def test_an_undefined_symbol_from_nowhere_fails(build: Linker) -> None:
    source = ADDON_C.replace(
        "return malloc(8);", "extern void *CFRunLoopGetCurrent(void); return CFRunLoopGetCurrent();"
    )
    assert check(build(source)) == [
        "1 undefined symbols neither from libSystem nor the host's: CFRunLoopGetCurrent (ordinal 0xfe)"
    ]


def test_another_linked_library_or_an_rpath_fails(build: Linker) -> None:
    build(
        "int extra(void) { return 2; }",
        "arm64",
        "11.0",
        "-Wl,-install_name,@rpath/libextra.dylib",
        name="libextra.dylib",
    )
    directory = build.directory
    source = ADDON_C.replace("return malloc(8);", "extern int extra(void); return malloc(extra());")
    data = build(source, "arm64", "11.0", f"-L{directory}", "-lextra", "-Wl,-rpath,/opt/lib")
    found = check(data)
    assert "links @rpath/libextra.dylib (LC_LOAD_DYLIB): only /usr/lib/libSystem.B.dylib may be linked" in found
    assert "has an LC_RPATH /opt/lib" in found
    # extra() is bound to libextra, by two-level namespace: not libSystem's, not the host's.
    assert any(item.startswith("1 undefined symbols") and "extra (ordinal 0x2)" in item for item in found)


def test_a_library_named_for_dlopen_must_be_a_known_one(build: Linker) -> None:
    known = "/System/Library/Frameworks/CoreServices.framework/CoreServices"
    unknown = "/System/Library/Frameworks/Security.framework/Security"
    opens = 'extern void *dlopen(const char *, int); void *open_it(void) {{ return dlopen("{}", 1); }}\n'
    found, text = macho.check(build(ADDON_C + opens.format(known)), "node", "arm64", "11.0")
    assert found == []
    assert text.endswith(f"loaded at run time: {known}")
    assert check(build(ADDON_C + opens.format(unknown))) == [
        f"names {unknown}, which it does not link: not a library known to be loaded at run time"
    ]
    # Rust's strings have no NUL: its standard library's path runs into the next message, as in
    # the real builds, and is still told apart by the framework's name.
    std = "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation"
    found, text = macho.check(build(ADDON_C + opens.format(std + "failed allocating string")), "node", "arm64", "11.0")
    assert found == []
    assert text.endswith(f"loaded at run time: {std}")


def test_a_linux_library_fails(build: Linker) -> None:
    # The same addon, linked for Linux: an ELF shared object.
    linux = build(ADDON_C.replace("#include <stdlib.h>", "extern void *malloc(unsigned long);"), "linux", "", "-fPIC")
    assert linux[:4] == b"\x7fELF"
    assert check(linux) == ["not a 64-bit Mach-O file (an ELF file)"]
    assert check(b"") == ["too short for a Mach-O header (0 bytes)"]
    assert check(struct.pack(">I", 0xCAFEBABE) + bytes(60)) == [
        "a universal (fat) file: each architecture is built and checked as its own file"
    ]


def test_a_truncated_file_fails_at_every_length(build: Linker) -> None:
    data = build(ADDON_C)
    assert check(data[:3000])[0].startswith("truncated: segment __TEXT ends at")
    assert check(data[:31])[0].startswith("truncated: header at 0+32")
    for length in range(0, len(data), 97):
        found = check(data[:length])
        assert found, f"a file cut at {length} of {len(data)} bytes passed"


def test_damaged_bytes_fail_or_are_read_without_crashing(build: Linker) -> None:
    # Any byte flipped: the reader either reads the file or names a problem, and never raises.
    for damaged in damaged_copies(build(ADDON_C), seed=33, span=2048):
        macho.check(damaged, "node", "arm64", "11.0")


def test_the_chained_fixups_imports_are_read() -> None:
    # zig's linker writes dyld's bind opcodes, never chained fixups (Apple's ld does from macOS 12
    # on arm64): the imports table is checked on a blob built here. Format 1 (DYLD_CHAINED_IMPORT):
    # lib_ordinal:8, weak_import:1, name_offset:23.
    names = b"\0_malloc\0_napi_create_object\0"
    imports = struct.pack("<2I", 1 | (1 << 9), 0xFE | (9 << 9))
    header = struct.pack("<7I", 0, 28, 28, 28 + len(imports), 2, 1, 0)
    blob = header + imports + names
    reader = macho._Reader(blob)
    assert macho._chained_imports(reader, 0, len(blob)) == [("malloc", 1), ("napi_create_object", 0xFE)]


MACOS_ARTIFACTS = [
    ("fsnative-darwin-arm64-*.tgz", "node", "arm64", "11.0"),
    ("fsnative-darwin-x64-*.tgz", "node", "x86_64", "10.12"),
    ("fsnative-*-cp39-abi3-macosx_11_0_arm64.whl", "python", "arm64", "11.0"),
    ("fsnative-*-cp39-abi3-macosx_10_12_x86_64.whl", "python", "x86_64", "10.12"),
]


@pytest.mark.parametrize(("pattern", "kind", "arch", "min_os"), MACOS_ARTIFACTS, ids=[a[0] for a in MACOS_ARTIFACTS])
def test_macos_artifact(pattern: str, kind: str, arch: str, min_os: str) -> None:
    name, (_, *arguments, data) = dist_module(macho, pattern)
    assert arguments == [kind, arch, min_os]
    found, text = macho.check(data, kind, arch, min_os)
    assert found == [], f"{name}: {found}"
    print(f"{name}: {text}")


def test_the_artifacts_are_found_in_their_packages(tmp_path: Path, build: Linker) -> None:
    # What artifact_modules takes from a tarball and a wheel laid out as dist-all writes them.
    addon, module = build(ADDON_C, "x86_64", "10.12"), build(PYTHON_C)
    write_packages(tmp_path, ("darwin-x64", addon), ("macosx_11_0_arm64", "_fsnative.abi3.so", module))
    found = [(name, kind, arch, min_os) for name, kind, arch, min_os, _ in macho.artifact_modules(tmp_path)]
    assert found == [
        ("fsnative-0.1.0-cp39-abi3-macosx_11_0_arm64.whl", "python", "arm64", "11.0"),
        ("fsnative-darwin-x64-0.1.0.tgz", "node", "x86_64", "10.12"),
    ]
    assert macho.main(["--artifacts", str(tmp_path)]) == 0
    shutil.copy(tmp_path / "fsnative-darwin-x64-0.1.0.tgz", tmp_path / "fsnative-darwin-arm64-0.1.0.tgz")
    with pytest.raises(
        macho.MachOError, match="fsnative-darwin-arm64-0.1.0.tgz: no package/fsnative.darwin-arm64.node"
    ):
        macho.artifact_modules(tmp_path)
    assert macho.main(["--artifacts", str(tmp_path)]) == 1
