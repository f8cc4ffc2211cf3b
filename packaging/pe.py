#!/usr/bin/env python3
"""A static check of the Windows libraries `make dist-all` builds (issue #34), with no Windows tool.

    python3 packaging/pe.py --kind node|python --arch x64|arm64 FILE...
    python3 packaging/pe.py --artifacts DIR      every Windows artifact in DIR (dist/all)

Reads the PE file itself (Python's standard library only) and fails, naming the problem, unless
the file is

- a PE32+ DLL for the CPU given (COFF machine AMD64 or ARM64);
- exporting its entry symbol by name: `napi_register_module_v1` for the Node addon,
  `PyInit__fsnative` for the Python module;
- importing (directly or delay-loaded) only DLLs of Windows itself (SYSTEM_DLLS, and the
  `api-ms-win-*` API sets), plus its host: `node.exe` for the addon (allowed, not required:
  napi-rs looks Node-API up in the host process at load time), `python3.dll` for the abi3 module
  (required: the stable ABI's DLL, never a versioned `python3X.dll`). A MinGW runtime DLL
  (`libgcc_s_seh-1.dll`, `libwinpthread-1.dll`, `libstdc++-6.dll`) is named as such: those must
  be linked statically, since no Windows has them.
"""

from __future__ import annotations

import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path

import library_check  # packaging/, beside this script

MACHINES = {0x8664: "x64", 0xAA64: "arm64", 0x14C: "x86"}
PE32_PLUS = 0x20B
IMAGE_FILE_DLL = 0x2000
EXPORT_DIRECTORY, IMPORT_DIRECTORY, DELAY_IMPORT_DIRECTORY = 0, 1, 13

# DLLs every Windows 10 has, which the Rust standard library, windows-sys and MinGW's static
# C runtime import (lower case): the kernel and its native layer, sockets, the random numbers of
# Rust 1.78+ (ProcessPrng), security and the profile folder (std::env::home_dir), the C runtime
# that MinGW links against (msvcrt.dll, or the UCRT), the synchronisation DLL of WaitOnAddress,
# and the shell and COM libraries.
SYSTEM_DLLS = frozenset(
    {
        "kernel32.dll",
        "ntdll.dll",
        "ws2_32.dll",
        "bcrypt.dll",
        "bcryptprimitives.dll",
        "advapi32.dll",
        "userenv.dll",
        "msvcrt.dll",
        "ucrtbase.dll",
        "synchronization.dll",
        "shell32.dll",
        "ole32.dll",
        "oleaut32.dll",
        "user32.dll",
    }
)
API_SET = re.compile(r"api-ms-win-[a-z0-9-]+\.dll")
MINGW_RUNTIME = re.compile(r"libgcc_s_\w+-1\.dll|libwinpthread-1\.dll|libstdc\+\+-6\.dll|libssp-0\.dll")

# The two kinds of module: their entry symbol, the host's DLL, and whether it must be imported.
KINDS = {
    "node": ("napi_register_module_v1", "node.exe", False),
    "python": ("PyInit__fsnative", "python3.dll", True),
}
# What `make dist-all` builds for Windows: npm's CPU name -> the wheel's platform tag.
WHEEL_TAGS = {"x64": "win_amd64", "arm64": "win_arm64"}


class PEError(Exception):
    """The file is not a PE image this reader can read."""


@dataclass
class PE:
    arch: str
    characteristics: int
    magic: int
    exports: set[str] = field(default_factory=set)
    imports: list[str] = field(default_factory=list)  # DLL names as written
    delay_imports: list[str] = field(default_factory=list)


class _Image:
    """Reads a PE file's bytes by relative virtual address, through its section table."""

    def __init__(self, data: bytes, sections: list[tuple[int, int, int, int]]) -> None:
        self.data = data
        self.sections = sections  # (virtual address, virtual size, raw offset, raw size)

    def offset(self, rva: int) -> int:
        for address, virtual_size, raw, raw_size in self.sections:
            if address <= rva < address + max(virtual_size, raw_size):
                if rva - address >= raw_size:
                    raise PEError(f"RVA {rva:#x} lies in a section's uninitialised part")
                return raw + rva - address
        raise PEError(f"RVA {rva:#x} is in no section")

    def unpack(self, fmt: str, rva: int) -> tuple[int, ...]:
        pos = self.offset(rva)
        if pos + struct.calcsize(fmt) > len(self.data):
            raise PEError(f"truncated at RVA {rva:#x}")
        return struct.unpack_from(fmt, self.data, pos)

    def string(self, rva: int) -> str:
        pos = self.offset(rva)
        end = self.data.find(b"\0", pos)
        if end < 0:
            raise PEError(f"unterminated name at RVA {rva:#x}")
        return self.data[pos:end].decode("ascii", "replace")


def parse(data: bytes) -> PE:
    """The machine, characteristics, exported names and imported DLLs of a PE image."""
    if len(data) < 64 or data[:2] != b"MZ":
        raise PEError("not a PE file (no MZ header)")
    (pe_offset,) = struct.unpack_from("<I", data, 0x3C)
    if data[pe_offset : pe_offset + 4] != b"PE\0\0":
        raise PEError("not a PE file (no PE signature)")
    coff = pe_offset + 4
    if coff + 20 > len(data):
        raise PEError("truncated COFF header")
    machine, section_count, _, _, _, optional_size, characteristics = struct.unpack_from("<HHIIIHH", data, coff)
    optional = coff + 20
    (magic,) = struct.unpack_from("<H", data, optional)
    pe = PE(MACHINES.get(machine, f"machine {machine:#x}"), characteristics, magic)
    if magic != PE32_PLUS:
        return pe
    (directory_count,) = struct.unpack_from("<I", data, optional + 108)
    directories = [struct.unpack_from("<II", data, optional + 112 + 8 * i) for i in range(min(directory_count, 16))]
    table = optional + optional_size
    sections = []
    for i in range(section_count):
        virtual_size, address, raw_size, raw = struct.unpack_from("<IIII", data, table + 40 * i + 8)
        if raw + raw_size > len(data):
            raise PEError(f"truncated: section {i} ends at byte {raw + raw_size}, the file at {len(data)}")
        sections.append((address, virtual_size, raw, raw_size))
    image = _Image(data, sections)

    def directory(index: int) -> int:
        return directories[index][0] if index < len(directories) and directories[index][1] else 0

    if rva := directory(EXPORT_DIRECTORY):
        (names,) = image.unpack("<I", rva + 24)  # NumberOfNames; AddressOfNames follows at 32
        (name_table,) = image.unpack("<I", rva + 32)
        pe.exports = {image.string(image.unpack("<I", name_table + 4 * i)[0]) for i in range(names)}
    if rva := directory(IMPORT_DIRECTORY):
        while True:  # 20-byte descriptors, ended by one of zeros
            lookup, _, _, name, thunks = image.unpack("<IIIII", rva)
            if not (lookup or name or thunks):
                break
            pe.imports.append(image.string(name))
            rva += 20
    if rva := directory(DELAY_IMPORT_DIRECTORY):
        while True:  # 32-byte descriptors, ended by one of zeros
            attributes, name = image.unpack("<II", rva)
            if not (attributes or name):
                break
            pe.delay_imports.append(image.string(name))
            rva += 32
    return pe


def problems(pe: PE, kind: str, arch: str) -> list[str]:
    """What is wrong with a module of KIND (node, python) for ARCH (x64, arm64); [] if nothing."""
    entry, host, host_required = KINDS[kind]
    found = []
    if pe.arch != arch:
        found.append(f"architecture {pe.arch}, not {arch}")
    if pe.magic != PE32_PLUS:
        found.append(f"optional header magic {pe.magic:#x}, not PE32+")
        return found
    if not pe.characteristics & IMAGE_FILE_DLL:
        found.append("not a DLL (IMAGE_FILE_DLL unset)")
    if entry not in pe.exports:
        found.append(f"does not export {entry}")
    for name in pe.imports + pe.delay_imports:
        lower = name.lower()
        if MINGW_RUNTIME.fullmatch(lower):
            found.append(f"imports {name}, a MinGW runtime DLL that Windows lacks: link it statically")
        elif lower not in SYSTEM_DLLS and not API_SET.fullmatch(lower) and lower != host:
            found.append(f"imports {name}: neither a Windows DLL nor the host's {host}")
    if host_required and host not in {name.lower() for name in pe.imports + pe.delay_imports}:
        found.append(f"does not import {host}")
    return found


def summary(pe: PE, kind: str) -> str:
    delayed = f"; delay-loaded: {', '.join(pe.delay_imports)}" if pe.delay_imports else ""
    return (
        f"{pe.arch} DLL, exports {KINDS[kind][0]} (of {len(pe.exports)} exported), "
        f"imports {', '.join(sorted({name.lower() for name in pe.imports}))}{delayed}"
    )


def check(data: bytes, kind: str, arch: str) -> tuple[list[str], str]:
    """(problems, summary) of one file's bytes; a file that cannot be read is one problem."""
    try:
        pe = parse(data)
    except (PEError, struct.error) as err:
        return [f"unreadable: {err}"], "unreadable"
    return problems(pe, kind, arch), summary(pe, kind)


def artifact_modules(directory: Path) -> list[tuple[str, str, str, bytes]]:
    """The Windows modules in a dist-all directory: (artifact, kind, arch, bytes)."""
    targets = [(f"win32-{arch}-gnu", tag, (arch,)) for arch, tag in WHEEL_TAGS.items()]
    return library_check.packed_modules(directory, targets, "pyd", PEError)


def main(argv: list[str] | None = None) -> int:
    return library_check.main(
        argv,
        tool="pe",
        doc=__doc__,
        platform="Windows",
        options={"--kind": {"choices": sorted(KINDS)}, "--arch": {"choices": sorted(WHEEL_TAGS)}},
        artifact_modules=artifact_modules,
        check=check,
        error=PEError,
    )


if __name__ == "__main__":
    sys.exit(main())
