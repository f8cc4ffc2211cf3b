"""Counts a pytest JUnit XML report: prints "passed skipped failed emulation-only", where
emulation-only failures are those whose error says the kernel could not execute an arm64 child
(ENOEXEC, "Exec format error": no binfmt_misc here). A missing report counts as one failure.
Lists every failure on stderr."""

import re
import sys
import xml.etree.ElementTree as ET

EMULATION = re.compile(r"ENOEXEC|Exec format error")

path = sys.argv[1]
try:
    cases = list(ET.parse(path).getroot().iter("testcase"))
except (OSError, ET.ParseError) as err:
    print(f"{path}: no report ({err})", file=sys.stderr)
    print("0 0 1 0")
    sys.exit(0)
passed = skipped = failed = emulated = 0
for case in cases:
    problems = case.findall("failure") + case.findall("error")
    if case.find("skipped") is not None:
        skipped += 1
    elif not problems:
        passed += 1
    else:
        text = "\n".join((p.get("message") or "") + (p.text or "") for p in problems)
        own = bool(EMULATION.search(text))
        emulated += own
        failed += not own
        name = f"{case.get('classname')}::{case.get('name')}"
        print(f"{path}: failed{' (emulation: ENOEXEC)' if own else ''}: {name}", file=sys.stderr)
print(passed, skipped, failed, emulated)
