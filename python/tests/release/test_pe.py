"""The static check of the Windows artifacts (packaging/pe.py, issue #34 item 3).

The reader's own tests link small Windows DLLs with zig (PyPI's ziglang, in requirements.txt)
for x64 and arm64, good ones and each kind of bad one (import libraries for the DLLs they name
are made with zig's dlltool), and feed it files that are not PE at all. `test_windows_artifact`
then checks the Windows artifacts of `make dist-all` in dist/all/ (FSNATIVE_DIST_ALL), and is
skipped, saying so, when one is not there: they are built only by `make dist-all`.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from artifact_checks import damaged_copies, dist_module, load_check, require_zig, write_packages, zig

pe = load_check("pe")

# No C runtime (-nostdlib): the DLL's entry point is its own.
ENTRY = "int __stdcall DllMainCRTStartup(void *h, unsigned reason, void *p) { return 1; }\n"
ADDON_C = (
    ENTRY
    + "__declspec(dllimport) void *__stdcall GetProcessHeap(void);\n"
    + "__declspec(dllexport) void *napi_register_module_v1(void *env, void *exports) { return GetProcessHeap(); }\n"
)
ZIG_TARGET = {"x64": "x86_64-windows-gnu", "arm64": "aarch64-windows-gnu"}
DLLTOOL_MACHINE = {"x64": "i386:x86-64", "arm64": "arm64"}


def imports_from(dll: str, function: str) -> str:
    """C that calls FUNCTION, imported from DLL (an import library is made for it)."""
    return f"/* {dll} */ __declspec(dllimport) int {function}(void);\nint call_{function}(void) {{ return {function}(); }}\n"


PYTHON_C = (
    ENTRY
    + imports_from("python3.dll", "PyModule_Create2")
    + "__declspec(dllexport) int PyInit__fsnative(void) { return call_PyModule_Create2(); }\n"
)


class Linker:
    """Links C source into a Windows DLL with zig; import libraries for the DLLs named in it."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.count = 0

    def __call__(self, source: str, arch: str = "x64", *flags: str) -> bytes:
        self.count += 1
        c_file, output = self.directory / f"m{self.count}.c", self.directory / f"m{self.count}.dll"
        c_file.write_text(source)
        libraries: list[str] = []
        # One import library per `/* NAME.dll */ … FUNCTION(void);` line of the source.
        for line in source.splitlines():
            if line.startswith("/* ") and " */ " in line:
                dll = line[3 : line.index(" */ ")]
                function = line.split("int ", 1)[1].split("(", 1)[0]
                stem = f"imp{self.count}_{len(libraries)}"
                (self.directory / f"{stem}.def").write_text(f"LIBRARY {dll}\nEXPORTS\n{function}\n")
                zig(self.directory, "dlltool", "-d", f"{stem}.def", "-l", f"lib{stem}.a", "-m", DLLTOOL_MACHINE[arch])
                libraries.append(f"-l{stem}")
        zig(
            self.directory, "cc", "-target", ZIG_TARGET[arch], "-shared", "-nostdlib", "-L.", "-lkernel32",
            *libraries, "-o", output.name, c_file.name, *flags,
        )  # fmt: skip
        return output.read_bytes()


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Linker:
    require_zig()
    return Linker(tmp_path_factory.mktemp("pe"))


def check(data: bytes, kind: str = "node", arch: str = "x64") -> list[str]:
    found: list[str] = pe.check(data, kind, arch)[0]
    return found


@pytest.mark.parametrize("arch", ["x64", "arm64"])
def test_a_node_addon_like_the_release_passes(build: Linker, arch: str) -> None:
    data = build(ADDON_C, arch)
    assert check(data, "node", arch) == []
    assert "exports napi_register_module_v1 (of 1 exported), imports kernel32.dll" in pe.check(data, "node", arch)[1]


def test_a_python_module_like_the_release_passes(build: Linker) -> None:
    data = build(PYTHON_C)
    assert check(data, "python") == []
    assert pe.parse(data).imports == ["python3.dll"]


def test_the_host_and_the_system_dlls_are_allowed(build: Linker) -> None:
    source = (
        ADDON_C
        + imports_from("node.exe", "napi_create_object")
        + imports_from("api-ms-win-core-synch-l1-2-0.dll", "WaitOnAddress")
    )
    source += imports_from("ntdll.dll", "NtCreateFile") + imports_from("bcryptprimitives.dll", "ProcessPrng")
    data = build(source)
    assert check(data, "node") == []
    assert {name.lower() for name in pe.parse(data).imports} == {
        "kernel32.dll",
        "node.exe",
        "api-ms-win-core-synch-l1-2-0.dll",
        "ntdll.dll",
        "bcryptprimitives.dll",
    }


def test_the_wrong_architecture_fails(build: Linker) -> None:
    assert check(build(ADDON_C, "arm64"), "node", "x64") == ["architecture arm64, not x64"]


def test_a_missing_entry_symbol_fails(build: Linker) -> None:
    assert check(build(ADDON_C), "python") == ["does not export PyInit__fsnative", "does not import python3.dll"]


def test_a_mingw_runtime_dll_fails(build: Linker) -> None:
    for dll, function in [("libwinpthread-1.dll", "pthread_create"), ("libgcc_s_seh-1.dll", "_Unwind_Resume")]:
        found = check(build(ADDON_C + imports_from(dll, function)))
        assert found == [f"imports {dll}, a MinGW runtime DLL that Windows lacks: link it statically"]


def test_another_dll_or_the_wrong_host_fails(build: Linker) -> None:
    assert check(build(ADDON_C + imports_from("zlib1.dll", "deflate"))) == [
        "imports zlib1.dll: neither a Windows DLL nor the host's node.exe"
    ]
    # A module for one Python version (python312.dll) is not the abi3 wheel's.
    found = check(build(PYTHON_C + imports_from("python312.dll", "Py_Initialize")), "python")
    assert found == ["imports python312.dll: neither a Windows DLL nor the host's python3.dll"]
    assert check(build(PYTHON_C), "node") == [
        "does not export napi_register_module_v1",
        "imports python3.dll: neither a Windows DLL nor the host's node.exe",
    ]


def test_a_delay_loaded_dll_is_checked_too() -> None:
    # zig's linker writes no delay-import table: the reader is checked on one made here.
    image = bytearray(0x400)
    image[:2] = b"MZ"
    image[0x3C:0x40] = (0x40).to_bytes(4, "little")
    image[0x40:0x44] = b"PE\0\0"
    optional_size = 112 + 16 * 8
    image[0x44:0x58] = pe.struct.pack("<HHIIIHH", 0x8664, 1, 0, 0, 0, optional_size, pe.IMAGE_FILE_DLL)
    optional = 0x58
    image[optional : optional + 2] = pe.struct.pack("<H", pe.PE32_PLUS)
    image[optional + 108 : optional + 112] = pe.struct.pack("<I", 16)
    directory = optional + 112 + 8 * pe.DELAY_IMPORT_DIRECTORY
    image[directory : directory + 8] = pe.struct.pack("<II", 0x1000, 64)
    section = optional + optional_size
    image[section + 8 : section + 24] = pe.struct.pack("<IIII", 0x200, 0x1000, 0x200, 0x200)
    # At RVA 0x1000 (file offset 0x200): one descriptor naming the string at 0x1100, then zeros.
    image[0x200:0x208] = pe.struct.pack("<II", 1, 0x1100)
    image[0x300:0x314] = b"libwinpthread-1.dll\0"
    parsed = pe.parse(bytes(image))
    assert parsed.delay_imports == ["libwinpthread-1.dll"]
    assert "imports libwinpthread-1.dll, a MinGW runtime DLL that Windows lacks: link it statically" in pe.problems(
        parsed, "node", "x64"
    )


def test_files_that_are_not_pe_fail() -> None:
    assert check(b"") == ["unreadable: not a PE file (no MZ header)"]
    assert check(b"\x7fELF" + bytes(60)) == ["unreadable: not a PE file (no MZ header)"]
    assert check(b"MZ" + bytes(62)) == ["unreadable: not a PE file (no PE signature)"]


def test_a_truncated_file_fails_at_every_length(build: Linker) -> None:
    data = build(ADDON_C)
    for length in range(0, len(data) - 1, 61):
        assert check(data[:length]), f"a file cut at {length} of {len(data)} bytes passed"


def test_damaged_bytes_fail_or_are_read_without_crashing(build: Linker) -> None:
    # Any byte flipped: the reader either reads the file or names a problem, and never raises.
    for damaged in damaged_copies(build(ADDON_C), seed=34, span=1024):
        pe.check(damaged, "node", "x64")


WINDOWS_ARTIFACTS = [
    ("fsnative-win32-x64-gnu-*.tgz", "node", "x64"),
    ("fsnative-*-cp39-abi3-win_amd64.whl", "python", "x64"),
]


@pytest.mark.parametrize(("pattern", "kind", "arch"), WINDOWS_ARTIFACTS, ids=[a[0] for a in WINDOWS_ARTIFACTS])
def test_windows_artifact(pattern: str, kind: str, arch: str) -> None:
    name, (_, *arguments, data) = dist_module(pe, pattern)
    assert arguments == [kind, arch]
    found, text = pe.check(data, kind, arch)
    assert found == [], f"{name}: {found}"
    print(f"{name}: {text}")


def test_the_artifacts_are_found_in_their_packages(tmp_path: Path, build: Linker) -> None:
    # What artifact_modules takes from a tarball and a wheel laid out as dist-all writes them.
    addon, module = build(ADDON_C), build(PYTHON_C)
    write_packages(tmp_path, ("win32-x64-gnu", addon), ("win_amd64", "_fsnative.pyd", module))
    found = [(name, kind, arch) for name, kind, arch, _ in pe.artifact_modules(tmp_path)]
    assert found == [
        ("fsnative-win32-x64-gnu-0.1.0.tgz", "node", "x64"),
        ("fsnative-0.1.0-cp39-abi3-win_amd64.whl", "python", "x64"),
    ]
    assert pe.main(["--artifacts", str(tmp_path)]) == 0
    with zipfile.ZipFile(tmp_path / "fsnative-0.1.0-cp39-abi3-win_amd64.whl", "a") as archive:
        archive.writestr("fsnative/_fsnative.cp312-win_amd64.pyd", module)
    with pytest.raises(pe.PEError, match="expected one fsnative/_fsnative"):
        pe.artifact_modules(tmp_path)
    assert pe.main(["--artifacts", str(tmp_path)]) == 1
