#!/usr/bin/env python3
"""A static check of the macOS libraries `make dist-all` builds (issue #33), with no macOS tool.

    python3 packaging/macho.py --kind node|python --arch arm64|x86_64 --min-os 11.0 FILE...
    python3 packaging/macho.py --artifacts DIR      every macOS artifact in DIR (dist/all)

No Mac, Xcode or otool is needed: this reads the Mach-O file itself (Python's standard library
only) and fails, naming the problem, unless the file is

- a 64-bit Mach-O dynamic library (not universal) for the CPU given;
- built for macOS with exactly the minimum version given (LC_BUILD_VERSION, or
  LC_VERSION_MIN_MACOSX below 10.14);
- exporting its entry symbol (the export trie, which is what dyld reads):
  `napi_register_module_v1` for the Node addon, `PyInit__fsnative` for the Python module;
- linked against /usr/lib/libSystem.B.dylib and nothing else (no LC_RPATH either). A library
  named in the file as a path under /System/Library or /usr/lib that it does not link must be in
  RUNTIME_LIBRARIES: what the code opens with dlopen at run time, named there;
- left with no undefined symbol except those bound to libSystem (two-level namespace, by the
  library ordinal of the symbol table and of the chained fixups' imports) and those the host
  process defines, looked up at load time (`-undefined dynamic_lookup`): Node-API's `napi_*` and
  `node_api_*` in Node, the C API's `Py*` and `_Py*` in CPython.

It cannot tell whether each libSystem symbol exists in the oldest macOS named: zig's libSystem
stubs, which the link used, list the current SDK's symbols. It counts, and does not limit, the
symbols exported: zig 0.17.1's linker ignores `-exported_symbols_list`, which rustc passes to
export only the entry points, so a zig-linked library exports every global Rust symbol too (a
library built on a Mac, by Apple's linker, does not).
"""

from __future__ import annotations

import re
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import library_check  # packaging/, beside this script

MH_MAGIC_64 = 0xFEEDFACF
FAT_MAGICS = {0xCAFEBABE, 0xBEBAFECA, 0xCAFEBABF, 0xBFBAFECA}
CPU_TYPES = {0x0100000C: "arm64", 0x01000007: "x86_64"}
MH_DYLIB, MH_BUNDLE = 6, 8
MH_TWOLEVEL = 0x80

LC_REQ_DYLD = 0x80000000
LC_SEGMENT_64 = 0x19
LC_SYMTAB = 0x2
LC_DYSYMTAB = 0xB
LC_VERSION_MIN_MACOSX = 0x24
LC_BUILD_VERSION = 0x32
LC_DYLD_INFO = 0x22
LC_DYLD_INFO_ONLY = 0x22 | LC_REQ_DYLD
LC_DYLD_EXPORTS_TRIE = 0x33 | LC_REQ_DYLD
LC_DYLD_CHAINED_FIXUPS = 0x34 | LC_REQ_DYLD
LC_RPATH = 0x1C | LC_REQ_DYLD
# Every command that adds a library, in the order their ordinals count (1, 2, ...).
DYLIB_COMMANDS = {
    0xC: "LC_LOAD_DYLIB",
    0x18 | LC_REQ_DYLD: "LC_LOAD_WEAK_DYLIB",
    0x1F | LC_REQ_DYLD: "LC_REEXPORT_DYLIB",
    0x20: "LC_LAZY_LOAD_DYLIB",
    0x23 | LC_REQ_DYLD: "LC_LOAD_UPWARD_DYLIB",
}
PLATFORM_MACOS = 1

N_STAB, N_TYPE, N_EXT, N_UNDF = 0xE0, 0x0E, 0x01, 0x0
SELF_LIBRARY_ORDINAL, DYNAMIC_LOOKUP_ORDINAL, EXECUTABLE_ORDINAL = 0, 0xFE, 0xFF

LIBSYSTEM = "/usr/lib/libSystem.B.dylib"
# What the code loads with dlopen at run time, never linked: path -> who loads it and why.
RUNTIME_LIBRARIES = {
    "/System/Library/Frameworks/CoreFoundation.framework/CoreFoundation": (
        "the run loop and strings of the warm index's FSEvents watcher (crates/fsnative/src/sys/"
        "macos/fsevents.rs), and Rust's standard library, to read the running macOS's version: "
        "both with dlopen"
    ),
    "/System/Library/Frameworks/CoreServices.framework/CoreServices": (
        "FSEvents, for the warm index's watcher (crates/fsnative/src/sys/macos/fsevents.rs): "
        "loaded with dlopen, since linking it needs the macOS SDK, which cannot be had on Linux"
    ),
}
# Paths of libraries written in the file (for dlopen): a framework's binary (named as the
# framework: Rust's strings have no NUL, so the name is what ends the path) or a dylib.
LIBRARY_PATH = re.compile(
    rb"/System/Library/(?:Private)?Frameworks/(?P<name>\w+)\.framework/(?:Versions/[A-Z]/)?(?P=name)|/usr/lib/[\w./+-]+\.dylib"
)

# The two kinds of module: their entry symbol, and the symbols the host process defines
# (C names, without Mach-O's leading underscore).
KINDS = {
    "node": ("napi_register_module_v1", re.compile(r"(napi|node_api)_\w+")),
    "python": ("PyInit__fsnative", re.compile(r"_?Py\w+")),
}
# What `make dist-all` builds for macOS: Rust target -> CPU and minimum macOS.
TARGETS = {
    "aarch64-apple-darwin": ("arm64", "11.0"),
    "x86_64-apple-darwin": ("x86_64", "10.12"),
}


class MachOError(Exception):
    """The file is not a Mach-O library this reader can read."""


@dataclass
class MachO:
    arch: str
    filetype: int
    flags: int
    platform: int | None = None
    min_os: str | None = None
    libraries: list[tuple[str, str]] = field(default_factory=list)  # (command, path), ordinal order
    rpaths: list[str] = field(default_factory=list)
    exports: set[str] = field(default_factory=set)  # C names
    undefined: list[tuple[str, int]] = field(default_factory=list)  # (C name, library ordinal)
    named_libraries: set[str] = field(default_factory=set)


def _version(packed: int) -> str:
    major, minor, patch = packed >> 16, (packed >> 8) & 0xFF, packed & 0xFF
    return f"{major}.{minor}" + (f".{patch}" if patch else "")


def _c_name(symbol: str) -> str:
    return symbol.removeprefix("_")


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data

    def unpack(self, fmt: str, offset: int, what: str) -> tuple[Any, ...]:
        size = struct.calcsize(fmt)
        if offset < 0 or offset + size > len(self.data):
            raise MachOError(f"truncated: {what} at {offset}+{size} is past the end ({len(self.data)} bytes)")
        return struct.unpack_from(fmt, self.data, offset)

    def span(self, offset: int, size: int, what: str) -> bytes:
        if offset < 0 or size < 0 or offset + size > len(self.data):
            raise MachOError(f"truncated: {what} at {offset}+{size} is past the end ({len(self.data)} bytes)")
        return self.data[offset : offset + size]

    def cstring(self, offset: int, limit: int, what: str) -> str:
        end = self.data.find(b"\0", offset, limit)
        if offset >= limit or end < 0:
            raise MachOError(f"{what}: no NUL-terminated string at {offset}")
        return self.data[offset:end].decode("utf-8", "replace")


def _uleb(data: bytes, pos: int, signed: bool = False) -> tuple[int, int]:
    """The (S)LEB128 number at POS, and the position after it."""
    value = shift = 0
    while True:
        if pos >= len(data):
            raise MachOError("a LEB128 number runs past the end of its table")
        byte = data[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return (value - (1 << shift) if signed and byte & 0x40 else value), pos


def _export_trie(trie: bytes) -> set[str]:
    """The names in an export trie (dyld's format: nodes of terminal info and edges)."""
    names: set[str] = set()
    seen: set[int] = set()
    stack = [(0, b"")]
    while stack:
        node, prefix = stack.pop()
        if node in seen or node >= len(trie):
            raise MachOError(f"export trie: node {node} is out of bounds or visited twice")
        seen.add(node)
        info_size, pos = _uleb(trie, node)
        if info_size:
            names.add(prefix.decode("utf-8", "replace"))
        pos += info_size
        if pos >= len(trie):
            raise MachOError("export trie: a node runs past its end")
        children = trie[pos]
        pos += 1
        for _ in range(children):
            end = trie.find(b"\0", pos)
            if end < 0:
                raise MachOError("export trie: an edge's label has no end")
            label = trie[pos:end]
            child, pos = _uleb(trie, end + 1)
            stack.append((child, prefix + label))
    return {_c_name(name) for name in names}


def _bind_imports(opcodes: bytes) -> list[tuple[str, int]]:
    """(C name, library ordinal) of each bind in dyld's bind or lazy-bind opcodes: what dyld
    binds, and from where (zig's linker leaves ordinal 0 in the symbol table for a symbol it
    binds by flat lookup, so the opcodes, not the table, say where a symbol comes from)."""
    imports = []
    ordinal, name, pos = 0, "", 0
    while pos < len(opcodes):
        byte = opcodes[pos]
        pos += 1
        opcode, imm = byte & 0xF0, byte & 0x0F
        if opcode == 0x00:  # DONE (the lazy table has one after each symbol)
            continue
        if opcode == 0x10:  # SET_DYLIB_ORDINAL_IMM
            ordinal = imm
        elif opcode == 0x20:  # SET_DYLIB_ORDINAL_ULEB
            ordinal, pos = _uleb(opcodes, pos)
        elif opcode == 0x30:  # SET_DYLIB_SPECIAL_IMM: 0 self, -1 main executable, -2 flat lookup
            ordinal = {0: SELF_LIBRARY_ORDINAL, 0xF: EXECUTABLE_ORDINAL, 0xE: DYNAMIC_LOOKUP_ORDINAL}.get(
                imm, 0x100 + imm
            )
        elif opcode == 0x40:  # SET_SYMBOL_TRAILING_FLAGS_IMM
            end = opcodes.find(b"\0", pos)
            if end < 0:
                raise MachOError("bind info: a symbol name has no end")
            name, pos = _c_name(opcodes[pos:end].decode("utf-8", "replace")), end + 1
        elif opcode in (0x50, 0x90, 0xB0):  # SET_TYPE_IMM, DO_BIND, DO_BIND_ADD_ADDR_IMM_SCALED
            pass
        elif opcode == 0x60:  # SET_ADDEND_SLEB
            _, pos = _uleb(opcodes, pos, signed=True)
        elif opcode in (0x70, 0x80, 0xA0):  # SET_SEGMENT_AND_OFFSET_ULEB, ADD_ADDR_ULEB, DO_BIND_ADD_ADDR_ULEB
            _, pos = _uleb(opcodes, pos)
        elif opcode == 0xC0:  # DO_BIND_ULEB_TIMES_SKIPPING_ULEB
            _, pos = _uleb(opcodes, pos)
            _, pos = _uleb(opcodes, pos)
        elif opcode == 0xD0 and imm == 0:  # THREADED: SET_BIND_ORDINAL_TABLE_SIZE_ULEB
            _, pos = _uleb(opcodes, pos)
        elif opcode == 0xD0 and imm == 1:  # THREADED: APPLY
            pass
        else:
            raise MachOError(f"bind info: unknown opcode {byte:#04x}")
        if opcode in (0x90, 0xA0, 0xB0, 0xC0):
            imports.append((name, ordinal))
    return imports


def _chained_imports(r: _Reader, offset: int, size: int) -> list[tuple[str, int]]:
    """The imports of LC_DYLD_CHAINED_FIXUPS: (C name, library ordinal)."""
    blob = _Reader(r.span(offset, size, "chained fixups"))
    _, _, imports_offset, symbols_offset, count, imports_format, symbols_format = blob.unpack(
        "<7I", 0, "chained fixups header"
    )
    if symbols_format != 0:
        raise MachOError(f"chained fixups: compressed symbol names (format {symbols_format}) are not read")
    entry = {1: 4, 2: 8, 3: 16}.get(imports_format)
    if entry is None:
        raise MachOError(f"chained fixups: unknown imports format {imports_format}")
    imports = []
    for i in range(count):
        at = imports_offset + i * entry
        if imports_format == 3:
            (word,) = blob.unpack("<Q", at, "chained import")
            ordinal, name_offset = word & 0xFFFF, word >> 32
            # 16-bit ordinals: the special ones are negative (-1 main, -2 flat, -3 weak).
            ordinal = ordinal - 0x10000 if ordinal > 0xFFF0 else ordinal
        else:
            (word,) = blob.unpack("<I", at, "chained import")
            ordinal, name_offset = word & 0xFF, word >> 9
            ordinal = ordinal - 0x100 if ordinal > 0xF0 else ordinal
        # As the symbol table numbers them: -1 (main executable) 0xff, -2 (flat) 0xfe.
        ordinal = {-1: EXECUTABLE_ORDINAL, -2: DYNAMIC_LOOKUP_ORDINAL}.get(ordinal, ordinal)
        name = blob.cstring(symbols_offset + name_offset, len(blob.data), "chained import name")
        imports.append((_c_name(name), ordinal))
    return imports


def parse(data: bytes) -> MachO:
    """Reads a thin 64-bit little-endian Mach-O file."""
    r = _Reader(data)
    if len(data) < 4:
        raise MachOError(f"too short for a Mach-O header ({len(data)} bytes)")
    (magic,) = struct.unpack_from("<I", data, 0)
    if magic in FAT_MAGICS:
        raise MachOError("a universal (fat) file: each architecture is built and checked as its own file")
    if magic != MH_MAGIC_64:
        kind = "an ELF file" if data[:4] == b"\x7fELF" else f"magic {magic:#010x}"
        raise MachOError(f"not a 64-bit Mach-O file ({kind})")
    _, cputype, _, filetype, ncmds, sizeofcmds, flags, _ = r.unpack("<8I", 0, "header")
    arch = CPU_TYPES.get(cputype, f"cputype {cputype:#x}")
    macho = MachO(arch=arch, filetype=filetype, flags=flags)
    if 32 + sizeofcmds > len(data):
        raise MachOError(f"truncated: the load commands ({sizeofcmds} bytes) are past the end")
    symtab = dysymtab = None
    chained = None
    binds: list[tuple[str, int]] = []
    offset = 32
    for _ in range(ncmds):
        cmd, cmdsize = r.unpack("<2I", offset, "load command")
        if cmdsize < 8 or offset + cmdsize > 32 + sizeofcmds:
            raise MachOError(f"load command {cmd:#x} at {offset} has a bad size {cmdsize}")
        if cmd == LC_SEGMENT_64:
            name, _, _, fileoff, filesize = r.unpack("<16s4Q", offset + 8, "segment")
            if fileoff + filesize > len(data):
                segment = name.rstrip(b"\0").decode()
                raise MachOError(f"truncated: segment {segment} ends at {fileoff + filesize}, the file at {len(data)}")
        elif cmd == LC_BUILD_VERSION:
            platform, minos, _ = r.unpack("<3I", offset + 8, "LC_BUILD_VERSION")
            macho.platform, macho.min_os = platform, _version(minos)
        elif cmd == LC_VERSION_MIN_MACOSX:
            (version,) = r.unpack("<I", offset + 8, "LC_VERSION_MIN_MACOSX")
            macho.platform, macho.min_os = PLATFORM_MACOS, _version(version)
        elif cmd in DYLIB_COMMANDS:
            (name_at,) = r.unpack("<I", offset + 8, "dylib command")
            path = r.cstring(offset + name_at, offset + cmdsize, DYLIB_COMMANDS[cmd])
            macho.libraries.append((DYLIB_COMMANDS[cmd], path))
        elif cmd == LC_RPATH:
            (path_at,) = r.unpack("<I", offset + 8, "LC_RPATH")
            macho.rpaths.append(r.cstring(offset + path_at, offset + cmdsize, "LC_RPATH"))
        elif cmd == LC_SYMTAB:
            symtab = r.unpack("<4I", offset + 8, "LC_SYMTAB")
        elif cmd == LC_DYSYMTAB:
            dysymtab = r.unpack("<18I", offset + 8, "LC_DYSYMTAB")
        elif cmd in (LC_DYLD_INFO, LC_DYLD_INFO_ONLY):
            info = r.unpack("<10I", offset + 8, "LC_DYLD_INFO")
            for at, size in (info[2:4], info[6:8]):  # the bind and lazy-bind opcodes
                binds += _bind_imports(r.span(at, size, "bind info"))
            export_off, export_size = info[8:10]
            if export_size:
                macho.exports |= _export_trie(r.span(export_off, export_size, "export trie"))
        elif cmd == LC_DYLD_EXPORTS_TRIE:
            export_off, export_size = r.unpack("<2I", offset + 8, "LC_DYLD_EXPORTS_TRIE")
            macho.exports |= _export_trie(r.span(export_off, export_size, "export trie"))
        elif cmd == LC_DYLD_CHAINED_FIXUPS:
            chained = r.unpack("<2I", offset + 8, "LC_DYLD_CHAINED_FIXUPS")
        offset += cmdsize
    if symtab is None:
        raise MachOError("no symbol table (LC_SYMTAB)")
    symoff, nsyms, stroff, strsize = symtab
    r.span(stroff, strsize, "string table")
    symbols = []
    for i in range(nsyms):
        strx, ntype, _, desc, _ = r.unpack("<IBBHQ", symoff + 16 * i, "symbol")
        name = r.cstring(stroff + strx, stroff + strsize, "symbol name") if strx else ""
        symbols.append((name, ntype, desc))
    undefined_range = range(nsyms)
    if dysymtab is not None:
        iundef, nundef = dysymtab[4], dysymtab[5]
        if iundef + nundef > nsyms:
            raise MachOError(f"LC_DYSYMTAB's undefined symbols {iundef}+{nundef} are past the {nsyms} symbols")
        undefined_range = range(iundef, iundef + nundef)
    # Where each undefined symbol comes from: the bind opcodes' ordinal where dyld binds it,
    # else the symbol table's (n_desc's high byte).
    bound: dict[str, set[int]] = {}
    for name, ordinal in binds:
        bound.setdefault(name, set()).add(ordinal)
    for i in undefined_range:
        name, ntype, desc = symbols[i]
        if ntype & N_STAB or ntype & N_TYPE != N_UNDF or not ntype & N_EXT:
            continue
        name = _c_name(name)
        for ordinal in sorted(bound.pop(name, {(desc >> 8) & 0xFF})):
            macho.undefined.append((name, ordinal))
    macho.undefined += [(name, ordinal) for name, ordinals in bound.items() for ordinal in sorted(ordinals)]
    # A stripped table may leave defined globals out; the export trie is what dyld reads.
    if not macho.exports:
        macho.exports = {
            _c_name(name) for name, ntype, _ in symbols if not ntype & N_STAB and ntype & N_TYPE and ntype & N_EXT
        }
    if chained is not None and chained[1]:
        macho.undefined += _chained_imports(r, *chained)
    linked = {path for _, path in macho.libraries}
    macho.named_libraries = {m.group(0).decode() for m in LIBRARY_PATH.finditer(data)} - linked
    return macho


def problems(macho: MachO, kind: str, arch: str, min_os: str) -> list[str]:
    """What is wrong with a module of KIND (node, python) for ARCH and macOS MIN_OS; [] if nothing."""
    entry, host = KINDS[kind]
    found = []
    if macho.arch != arch:
        found.append(f"architecture {macho.arch}, not {arch}")
    if macho.filetype not in (MH_DYLIB, MH_BUNDLE):
        found.append(f"file type {macho.filetype}, not a dynamic library or bundle")
    if macho.platform != PLATFORM_MACOS:
        found.append(f"platform {macho.platform}, not macOS ({PLATFORM_MACOS})")
    if macho.min_os != min_os:
        found.append(f"minimum macOS {macho.min_os}, not {min_os}")
    if entry not in macho.exports:
        found.append(f"does not export {entry}")
    for command, path in macho.libraries:
        if path != LIBSYSTEM or command != "LC_LOAD_DYLIB":
            found.append(f"links {path} ({command}): only {LIBSYSTEM} may be linked")
    if not any(path == LIBSYSTEM for _, path in macho.libraries):
        found.append(f"does not link {LIBSYSTEM}")
    for path in macho.rpaths:
        found.append(f"has an LC_RPATH {path}")
    for path in sorted(macho.named_libraries - RUNTIME_LIBRARIES.keys()):
        found.append(f"names {path}, which it does not link: not a library known to be loaded at run time")
    twolevel = bool(macho.flags & MH_TWOLEVEL)
    strays = []
    for name, ordinal in macho.undefined:
        if twolevel and 1 <= ordinal <= len(macho.libraries):
            if macho.libraries[ordinal - 1][1] == LIBSYSTEM:
                continue
        elif (ordinal in (DYNAMIC_LOOKUP_ORDINAL, EXECUTABLE_ORDINAL) or not twolevel) and host.fullmatch(name):
            continue
        strays.append(f"{name} (ordinal {ordinal:#x})")
    if strays:
        shown = ", ".join(sorted(strays)[:10]) + (f" and {len(strays) - 10} more" if len(strays) > 10 else "")
        found.append(f"{len(strays)} undefined symbols neither from libSystem nor the host's: {shown}")
    return found


def summary(macho: MachO, kind: str) -> str:
    host = macho.undefined
    from_host = sum(1 for _, ordinal in host if ordinal in (DYNAMIC_LOOKUP_ORDINAL, EXECUTABLE_ORDINAL))
    runtime = ", ".join(sorted(macho.named_libraries)) or "none"
    return (
        f"{macho.arch}, macOS {macho.min_os}+, exports {KINDS[kind][0]} (of {len(macho.exports)} exported), links "
        f"{' '.join(path for _, path in macho.libraries)}; {len(host)} undefined symbols: "
        f"{len(host) - from_host} from libSystem, {from_host} from the host; loaded at run time: {runtime}"
    )


def check(data: bytes, kind: str, arch: str, min_os: str) -> tuple[list[str], str]:
    """(problems, summary) of one file's bytes; a file that cannot be read is one problem."""
    try:
        macho = parse(data)
    except MachOError as err:
        return [str(err)], "unreadable"
    return problems(macho, kind, arch, min_os), summary(macho, kind)


def artifact_modules(directory: Path) -> list[tuple[str, str, str, str, bytes]]:
    """The macOS modules in a dist-all directory: (artifact, kind, arch, min_os, bytes)."""
    targets = []
    for arch, min_os in TARGETS.values():
        platform = "darwin-arm64" if arch == "arm64" else "darwin-x64"
        targets.append((platform, f"macosx_{min_os.replace('.', '_')}_{arch}", (arch, min_os)))
    return library_check.packed_modules(directory, targets, "so", MachOError)


def main(argv: list[str] | None = None) -> int:
    options: dict[str, dict[str, Any]] = {
        "--kind": {"choices": sorted(KINDS)},
        "--arch": {"choices": sorted(CPU_TYPES.values())},
        "--min-os": {},
    }
    return library_check.main(
        argv,
        tool="macho",
        doc=__doc__,
        platform="macOS",
        options=options,
        artifact_modules=artifact_modules,
        check=check,
        error=MachOError,
    )


if __name__ == "__main__":
    sys.exit(main())
