// Counts a TAP log per test file (node --test-reporter=tap, one file each):
//   node count-tap.mjs FOREIGN_EXECUTABLE LOG...
// prints "passed skipped failed emulation-only". With FOREIGN_EXECUTABLE `-` (a native run)
// every failure is real. Otherwise emulation-only failures are those whose error
// shows that FOREIGN_EXECUTABLE (the arm64 node) could not start as a child, there being no
// binfmt_misc here: ENOEXEC, or, since glibc's execvp hands a file the kernel refuses to
// /bin/sh, the shell's complaint about it ("<file>: 1: ..."). A file that ended before its
// summary counts as one failure. Lists every failure on stderr.
import fs from 'node:fs';

const [foreign, ...logs] = process.argv.slice(2);
const escaped = foreign.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const EMULATION = foreign === '-' ? /(?!)/ : new RegExp(`ENOEXEC|Exec format error|${escaped}: \\d+: `);
let passed = 0;
let skipped = 0;
let failed = 0;
let emulated = 0;
for (const file of logs) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const summary = (key) => {
    const line = lines.findLast((l) => l.startsWith(`# ${key} `));
    return line === undefined ? undefined : Number(line.split(' ')[2]);
  };
  if (summary('pass') === undefined) {
    failed += 1;
    console.error(`${file}: ended without a summary (see the log)`);
    continue;
  }
  passed += summary('pass');
  skipped += summary('skipped') + summary('todo');
  failed += summary('fail') + summary('cancelled');
  // Each failed test's YAML block: from its `not ok` line to the `...` at its indentation.
  lines.forEach((line, i) => {
    const match = /^(\s*)not ok \d+ - (.*)$/.exec(line);
    if (!match) return;
    const end = lines.findIndex((l, j) => j > i && l === `${match[1]}  ...`);
    const block = lines.slice(i, end < 0 ? undefined : end).join('\n');
    if (block.includes("failureType: 'subtestsFailed'")) return;
    const own = EMULATION.test(block);
    if (own) emulated += 1;
    console.error(`${file}: failed${own ? ' (emulation: an arm64 child cannot start)' : ''}: ${match[2]}`);
  });
}
console.log(`${passed} ${skipped} ${failed - emulated} ${emulated}`);
