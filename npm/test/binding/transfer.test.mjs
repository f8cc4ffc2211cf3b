// Grep results cross from the addon packed (bindings/node/src/transfer.rs) and the package
// builds the documented objects from them (lib/transfer.js). Whatever the text, the paths and
// the options, the objects must be exactly those the core's own serialization gives (its
// camelCase JSON, which the addon still produces for this comparison): same keys in the same
// order, same values, plain objects and arrays.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, describe, test } from 'node:test';

import { Sandbox } from 'fsnative';
import native from '../../lib/native.js';
import { makeTree, removeTree } from '../support/tree.mjs';

const longLine = `${'x'.repeat(40)} needle ${'y'.repeat(40)}`;
const root = makeTree({
  'a.py': 'import os\n\ndef one():\n    return needle\n\n\ndef two(needle):\n    pass\n',
  'ascii/only.txt': 'alpha\nneedle one\nbeta needle two needle\ngamma\n',
  'uni.txt': 'héllo wörld\nemoji 😀 needle 😀 needle\n日本語 needle\nafter 😀\n',
  'long.txt': `before ${'b'.repeat(30)}\n${longLine}\nafter ${'a'.repeat(30)}\n`,
  'crlf.txt': 'first\r\nneedle\r\nlast\r\n',
  'blank.txt': '\n\nneedle\n\n\n',
  'noeol.txt': 'start\nneedle at the end',
  'nul.bin': 'needle\0binary\n',
  'sections.py': 'def a():\n    needle\n    more\ndef b():\n    needle\n',
  'dir/ünï/deep.txt': 'needle deep\n',
});
fs.writeFileSync(`${root}/bad.txt`, Buffer.concat([Buffer.from('needle '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' here\nnext\n')]));
// A NUL past the first 64 KiB block: matches before it, then a binary offset (rg's late NUL).
fs.writeFileSync(`${root}/late-nul.txt`, `${'needle early\n'.repeat(8)}${'filler\n'.repeat(20000)}\0tail needle\n`);
const nonUtf8Name = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74, 0x78, 0x74]); // "caf\xe9.txt"
fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/`), nonUtf8Name]), 'needle in a latin-1 name\n');
after(() => removeTree(root));

const addon = new native.Sandbox([root]);
const sandbox = new Sandbox([root]);

/** The result as the core serializes it, with its timing zeroed. */
function oracle(options) {
  return withoutTiming(JSON.parse(addon.grepJsonSync(JSON.stringify(options))));
}

function withoutTiming(result) {
  result.stats.elapsedMs = 0;
  return result;
}

/** Every object and array in `value` is a plain one (what JSON.parse gives). */
function assertPlain(value, at = 'result') {
  if (value === null || typeof value !== 'object') return;
  const prototype = Object.getPrototypeOf(value);
  assert.ok(prototype === Object.prototype || prototype === Array.prototype, `${at} is not a plain object or array`);
  for (const [key, item] of Object.entries(value)) assertPlain(item, `${at}.${key}`);
}

const CASES = {
  'context around matches': { pattern: 'needle', context: 2, limit: null },
  'ASCII text only': { pattern: 'needle', path: ['ascii', 'a.py'], context: 1 },
  'several submatches per line, non-ASCII before them': { pattern: 'needle', path: 'uni.txt', context: 1 },
  'a non-ASCII pattern': { pattern: '😀|日本|ö', context: 3 },
  'lines cut at maxColumns': { pattern: 'needle', maxColumns: 12, context: 1, path: ['long.txt', 'uni.txt'] },
  'maxColumns 0': { pattern: 'needle', maxColumns: 0, context: 1 },
  'section ends': { pattern: 'needle', sectionEndPatterns: ['^def '], path: 'sections.py' },
  'multiline matches': { pattern: 'needle\\s+\\w+', multiline: true, context: 1 },
  inverted: { pattern: 'needle', invert: true, path: ['crlf.txt', 'blank.txt', 'noeol.txt'] },
  'binary searched as text': { pattern: 'needle', searchBinary: true, path: 'nul.bin', context: 1 },
  'asymmetric context': { pattern: 'needle', beforeContext: 3, afterContext: 0 },
  'count mode': { pattern: 'needle', mode: 'count', limit: null },
  'files mode': { pattern: 'needle', mode: 'files', limit: null },
  'a page cut by the limit': { pattern: 'needle', limit: 3, context: 1 },
  'nothing found': { pattern: 'no such text anywhere' },
  'a file given up at a late NUL': { pattern: 'needle', path: 'late-nul.txt' },
};

describe('a packed grep result builds the same objects as the core serializes', () => {
  for (const [name, options] of Object.entries(CASES)) {
    test(name, async () => {
      const expected = oracle(options);
      const fromSync = withoutTiming(sandbox.grepSync(options));
      const fromAsync = withoutTiming(await sandbox.grep(options));
      assert.deepEqual(fromSync, expected);
      assert.deepEqual(fromAsync, expected);
      assert.equal(JSON.stringify(fromSync), JSON.stringify(expected), 'keys in the same order');
      assertPlain(fromSync);
    });
  }

  test('the cases cover what they are named for', () => {
    const all = sandbox.grepSync(CASES['context around matches']);
    const paths = all.files.map((file) => file.relativePath);
    assert.ok(
      paths.some((p) => typeof p === 'object' && p.bytes === nonUtf8Name.toString('base64')),
      'a non-UTF-8 name',
    );
    assert.ok(paths.includes('dir/ünï/deep.txt'), 'a non-ASCII name');
    const uni = sandbox.grepSync(CASES['several submatches per line, non-ASCII before them']).files[0].matches[0];
    assert.equal(uni.text, 'emoji 😀 needle 😀 needle');
    assert.deepEqual(uni.submatches, [
      [11, 17],
      [23, 29],
    ]);
    assert.equal(uni.before[0].text, 'héllo wörld');
    const bad = sandbox.grepSync({ pattern: 'needle', path: 'bad.txt' }).files[0].matches[0];
    assert.equal(bad.text, 'needle \ufffd\ufffd\ufffd here');
    const cut = sandbox.grepSync(CASES['lines cut at maxColumns']).files.find((file) => file.relativePath === 'long.txt').matches[0];
    assert.equal(cut.truncated, true);
    assert.equal(cut.before[0].truncated, true);
    const sections = sandbox.grepSync(CASES['section ends']).files[0].matches;
    assert.deepEqual(
      sections.map((m) => m.sectionEnd),
      [4, null],
    );
    const page = sandbox.grepSync(CASES['a page cut by the limit']);
    assert.equal(page.truncated, 'limit');
    assert.equal(typeof page.nextCursor, 'string');
  });

  test('only plain data: JSON.stringify, spread and structuredClone keep everything', () => {
    const result = sandbox.grepSync(CASES['context around matches']);
    assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
    assert.deepEqual(structuredClone(result), result);
    const [file] = result.files;
    assert.deepEqual({ ...file.matches[0] }, file.matches[0]);
    assert.deepEqual(Object.keys(file), ['path', 'relativePath', 'count', 'matches', 'bytesSearched', 'binaryOffset']);
  });
});
