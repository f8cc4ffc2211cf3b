// Temporary directory trees for the binding tests.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A new temporary directory (its canonical path) holding `files`: relative path → content.
 * Remove it with `removeTree`.
 */
export function makeTree(files) {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-test-')));
  for (const [relative, content] of Object.entries(files)) {
    const file = path.join(root, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, content);
  }
  return root;
}

/** A tree of `fileCount` files of `linesPerFile` lines, each containing "needle". */
export function makeLargeTree(fileCount, linesPerFile) {
  const body = Array.from({ length: linesPerFile }, (_, i) => `line ${i}: alpha beta needle gamma delta\n`).join('');
  return makeTree(Object.fromEntries(Array.from({ length: fileCount }, (_, i) => [`d${i % 16}/f${i}.txt`, body])));
}

export function removeTree(root) {
  fs.rmSync(root, { recursive: true, force: true });
}
