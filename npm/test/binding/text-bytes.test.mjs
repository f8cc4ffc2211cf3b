// grepText with `encoding: 'buffer'`: ripgrep's output as the exact bytes rg prints, where a
// string must read file names and lines that are not UTF-8 with U+FFFD.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, test } from 'node:test';

import { FsnativeError, Sandbox } from 'fsnative';
import { nonUtf8NamesSkip } from '../support/system.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';

const root = makeTree({ 'plain.txt': 'needle plain\n' });
// Windows names are UTF-16, so there the name is UTF-8 and only the line is not.
const latinName = nonUtf8NamesSkip ? Buffer.from('caf\u00e9.txt') : Buffer.from('caf\xe9.txt', 'latin1');
const latinLine = Buffer.concat([Buffer.from('needle '), Buffer.from([0xff]), Buffer.from(' here\n')]);
fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/`), latinName]), latinLine);
after(() => removeTree(root));

const sandbox = new Sandbox([root]);
const options = { pattern: 'needle' };
const expectedBytes = Buffer.concat([latinName, Buffer.from(':1:'), latinLine, Buffer.from('plain.txt:1:needle plain\n')]);

test('as bytes, names and lines that are not UTF-8 are the bytes rg prints', async () => {
  const format = { pathStyle: 'relative', encoding: 'buffer' };
  const sync = sandbox.grepTextSync(options, format);
  assert.ok(Buffer.isBuffer(sync.text));
  assert.deepEqual(sync.text, expectedBytes);
  const asynchronous = await sandbox.grepText(options, format);
  assert.deepEqual(asynchronous.text, expectedBytes);
  assert.equal(asynchronous.totalMatches, 2);
});

test('as a string (the default and utf8), those bytes read as U+FFFD', () => {
  const lossy = expectedBytes.toString('utf8');
  assert.equal(sandbox.grepTextSync(options, { pathStyle: 'relative' }).text, lossy);
  assert.equal(sandbox.grepTextSync(options, { pathStyle: 'relative', encoding: 'utf8' }).text, lossy);
  assert.ok(lossy.includes('\ufffd'));
});

test('JSON lines as bytes carry the names as rg --json does', () => {
  const { text } = sandbox.grepTextSync(options, { format: 'json', pathStyle: 'relative', encoding: 'buffer' });
  const begin = JSON.parse(text.toString('utf8').split('\n')[0]);
  const name = nonUtf8NamesSkip ? { text: latinName.toString('utf8') } : { bytes: latinName.toString('base64') };
  assert.deepEqual(begin, { type: 'begin', data: { path: name } });
});

test('an encoding other than utf8 or buffer is an INVALID_OPTION naming it', () => {
  for (const encoding of ['latin1', 42, null]) {
    assert.throws(
      () => sandbox.grepTextSync(options, { encoding }),
      (err) => err instanceof FsnativeError && err instanceof TypeError && err.code === 'INVALID_OPTION' && err.option === 'encoding',
    );
  }
});
