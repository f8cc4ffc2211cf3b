// grep, grepText, glob and find: typed camelCase results, sync and async alike, options checked by
// the core and reported as InvalidOptionErrors (TypeErrors) naming the option, and the core's
// error codes.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';

import { FsnativeError, Sandbox } from 'fsnative';
import { nonUtf8NamesSkip } from '../support/system.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';

const root = makeTree({
  'a.txt': 'alpha\nTODO: one\nbeta\n',
  'src/b.ts': 'const x = 1; // TODO two\n',
  'src/c.ts': 'nothing here\n',
  'many.txt': 'hit\n'.repeat(1500),
});
const nonUtf8Name = Buffer.from([0x6c, 0x61, 0x74, 0x69, 0x6e, 0xe9, 0x2e, 0x74, 0x78, 0x74]); // "latin\xe9.txt"
// Where no name can be bytes that are not UTF-8 (Windows), the same file under its UTF-8 name.
const thirdName = nonUtf8NamesSkip ? Buffer.from('latin\u00e9.txt') : nonUtf8Name;
fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/`), thirdName]), 'TODO three\n');
after(() => removeTree(root));
const sandbox = new Sandbox([root]);

/** A result without its timings, for comparing two runs. */
function withoutTimings(result) {
  return JSON.parse(JSON.stringify(result, (key, value) => (key === 'elapsedMs' ? 0 : value)));
}

async function assertRejectsWithCode(promise, code) {
  await assert.rejects(promise, (err) => err instanceof FsnativeError && err.code === code);
}

async function assertRejectsNaming(promise, option) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof TypeError, `expected a TypeError, got ${err}`);
    assert.ok(err.message.includes(option), `"${err.message}" does not name ${option}`);
    return true;
  });
}

describe('grep', () => {
  test('returns a typed result with camelCase keys', async () => {
    const result = await sandbox.grep({ pattern: 'TODO', path: 'src', context: 1 });
    assert.deepEqual(Object.keys(result).sort(), ['contextEnabled', 'files', 'mode', 'nextCursor', 'singleFile', 'stats', 'totalMatches', 'truncated']);
    assert.equal(result.totalMatches, 1);
    assert.equal(result.truncated, null);
    assert.equal(result.nextCursor, null);
    assert.equal(result.contextEnabled, true);
    const [file] = result.files;
    assert.equal(file.relativePath, 'src/b.ts');
    assert.equal(file.path, path.join(root, 'src/b.ts'));
    assert.deepEqual(file.matches[0], {
      lineNumber: 1,
      column: 17,
      byteOffset: 0,
      text: 'const x = 1; // TODO two',
      truncated: false,
      submatches: [[16, 20]],
      sectionEnd: null,
      before: [],
      after: [],
    });
    assert.deepEqual(Object.keys(result.stats).sort(), [
      'bytesSearched',
      'elapsedMs',
      'filesMatched',
      'filesSearched',
      'filesWalked',
      'skippedBinary',
      'skippedErrors',
      'skippedOutside',
      'skippedSpecial',
    ]);
  });

  test('grepSync gives the same answer as grep', async () => {
    const options = { patterns: ['TODO', 'beta'], caseMode: 'smart', limit: null };
    assert.deepEqual(withoutTimings(sandbox.grepSync(options)), withoutTimings(await sandbox.grep(options)));
  });

  test('an option left undefined keeps its default; null means no limit', async () => {
    assert.equal((await sandbox.grep({ pattern: 'hit', limit: undefined })).totalMatches, 1000);
    assert.equal((await sandbox.grep({ pattern: 'hit' })).truncated, 'limit');
    assert.equal((await sandbox.grep({ pattern: 'hit', limit: null })).totalMatches, 1500);
  });

  test('pages continue with nextCursor', async () => {
    const first = await sandbox.grep({ pattern: 'hit', limit: 1000 });
    const second = await sandbox.grep({ pattern: 'hit', limit: 1000, cursor: first.nextCursor });
    assert.equal(second.totalMatches, 500);
    assert.equal(second.files[0].matches[0].lineNumber, 1001);
    assert.equal(second.nextCursor, null);
  });

  test('names that are not UTF-8 come back as { bytes }, byte for byte', { skip: nonUtf8NamesSkip }, async () => {
    const result = await sandbox.grep({ pattern: 'three', mode: 'files' });
    assert.deepEqual(result.files[0].relativePath, { bytes: nonUtf8Name.toString('base64') });
    assert.deepEqual(Buffer.from(result.files[0].path.bytes, 'base64'), Buffer.concat([Buffer.from(`${root}/`), nonUtf8Name]));
  });

  test('rejects with the core error codes', async () => {
    await assertRejectsWithCode(sandbox.grep({ pattern: '(' }), 'INVALID_PATTERN');
    await assertRejectsWithCode(sandbox.grep({ pattern: 'a'.repeat(70000) }), 'PATTERN_TOO_LARGE');
    await assertRejectsWithCode(sandbox.grep({ pattern: 'x', glob: '[' }), 'INVALID_GLOB');
    await assertRejectsWithCode(sandbox.grep({ pattern: 'x', cursor: 'nonsense' }), 'INVALID_CURSOR');
    await assertRejectsWithCode(sandbox.grep({}), 'INVALID_ARGUMENT');
    await assertRejectsWithCode(sandbox.grep({ pattern: 'x', type: 'no-such-type' }), 'INVALID_ARGUMENT');
    await assertRejectsWithCode(sandbox.grep({ pattern: 'x', path: 'missing' }), 'NOT_FOUND');
    await assertRejectsWithCode(sandbox.grep({ pattern: 'x', path: '/etc' }), 'OUTSIDE_SANDBOX');
    assert.throws(
      () => sandbox.grepSync({ pattern: '(' }),
      (err) => err instanceof FsnativeError && err.code === 'INVALID_PATTERN',
    );
  });

  test('rejects options it cannot use with a TypeError naming the option', async () => {
    await assertRejectsNaming(sandbox.grep({ pattern: 'x', fooBar: 1 }), 'fooBar');
    await assertRejectsNaming(sandbox.grep({ pattern: 'x', max_depth: 1 }), 'maxDepth');
    await assertRejectsNaming(sandbox.grep({ pattern: 'x', maxDepth: 'deep' }), 'maxDepth');
    await assertRejectsNaming(sandbox.grep({ pattern: 'x', maxDepth: -1 }), 'maxDepth');
    await assertRejectsNaming(sandbox.grep({ pattern: 'x', limit: Infinity }), 'limit');
    await assertRejectsNaming(sandbox.grep({ pattern: 'x', maxFilesize: 10n }), 'maxFilesize');
    await assertRejectsNaming(sandbox.grep({ pattern: /x/ }), 'pattern');
    await assertRejectsNaming(sandbox.grep({ pattern: ['x', 1] }), 'pattern');
    await assertRejectsNaming(sandbox.grep({ pattern: ['x', 'y\ud800'] }), 'pattern');
    await assertRejectsNaming(sandbox.grep({ pattern: 'x', caseMode: 'loud' }), 'caseMode');
    await assertRejectsNaming(sandbox.grep({ pattern: 'x', signal: 'stop' }), 'signal');
    await assertRejectsNaming(sandbox.grep('TODO'), 'options');
    assert.throws(() => sandbox.grepSync({ pattern: 'x', signal: new AbortController().signal }), /signal/);
    assert.throws(
      () => sandbox.grepSync({ pattern: 'x', contextLines: 2 }),
      (err) => err instanceof TypeError && /contextLines/.test(err.message),
    );
  });
});

describe('grepText', () => {
  test('prints what rg -n prints, in each mode', async () => {
    const options = { pattern: 'TODO', path: ['a.txt', 'src'] };
    const page = await sandbox.grepText(options, { pathStyle: 'relative' });
    assert.equal(page.text, 'a.txt:2:TODO: one\nsrc/b.ts:1:const x = 1; // TODO two\n');
    assert.deepEqual([page.truncated, page.nextCursor, page.totalMatches], [null, null, 2]);
    assert.equal(sandbox.grepTextSync({ ...options, mode: 'files' }, { format: 'standard', pathStyle: 'relative' }).text, 'a.txt\nsrc/b.ts\n');
    assert.equal(sandbox.grepTextSync({ ...options, mode: 'count' }).text, `${path.join(root, 'a.txt')}:1\n${path.join(root, 'src/b.ts')}:1\n`);
    assert.equal(sandbox.grepTextSync({ pattern: 'TODO', path: 'a.txt' }).text, '2:TODO: one\n');
    const cut = sandbox.grepTextSync({ pattern: 'TODO', limit: 1 });
    assert.equal(cut.truncated, 'limit');
    assert.equal(typeof cut.nextCursor, 'string');
  });

  test('json format gives rg --json lines', async () => {
    const { text } = await sandbox.grepText({ pattern: 'TODO', path: 'a.txt' }, { format: 'json', pathStyle: 'relative' });
    const messages = text
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    assert.deepEqual(
      messages.map((m) => m.type),
      ['begin', 'match', 'end', 'summary'],
    );
    assert.equal(messages[1].data.line_number, 2);
    assert.deepEqual(messages[1].data.path, { text: 'a.txt' });
  });

  test('rejects format options it cannot use, naming them', async () => {
    await assertRejectsNaming(sandbox.grepText({ pattern: 'x' }, { format: 'xml' }), 'format');
    await assertRejectsNaming(sandbox.grepText({ pattern: 'x' }, { pathStyle: 'nested' }), 'pathStyle');
    await assertRejectsNaming(sandbox.grepText({ pattern: 'x' }, { format: 'json', heading: true }), 'heading');
    assert.throws(() => sandbox.grepTextSync({ pattern: 'x' }, 'json'), /format/);
  });
});

describe('glob', () => {
  test('lists matching entries as typed camelCase objects', async () => {
    const result = await sandbox.glob({ pattern: '**/*.ts' });
    assert.deepEqual(result.entries, [
      { path: path.join(root, 'src/b.ts'), relativePath: 'src/b.ts', isDir: false },
      { path: path.join(root, 'src/c.ts'), relativePath: 'src/c.ts', isDir: false },
    ]);
    assert.equal(result.total, 2);
    assert.equal(result.truncated, null);
    assert.deepEqual(Object.keys(result.stats).sort(), ['elapsedMs', 'entriesWalked', 'skippedErrors', 'skippedOutside', 'skippedSpecial']);
  });

  test('globSync gives the same answer as glob; limit and kind apply', async () => {
    const options = { pattern: '*', kind: 'all', limit: 2, sort: 'path' };
    const result = sandbox.globSync(options);
    assert.deepEqual(withoutTimings(result), withoutTimings(await sandbox.glob(options)));
    assert.equal(result.entries.length, 2);
    assert.equal(result.truncated, 'limit');
  });

  test('errors: codes from the core, TypeErrors for options', async () => {
    await assertRejectsWithCode(sandbox.glob({ pattern: '[' }), 'INVALID_GLOB');
    await assertRejectsWithCode(sandbox.glob({ pattern: '*', path: 'a.txt' }), 'NOT_A_DIRECTORY');
    await assertRejectsNaming(sandbox.glob({ pattern: '*', caseSensitive: true }), 'caseSensitive');
    assert.throws(
      () => sandbox.globSync({ pattern: '*', kind: 'links' }),
      (err) => err instanceof TypeError && /kind/.test(err.message),
    );
  });
});

describe('find', () => {
  test('ranks paths best first, typo-tolerant, as typed camelCase objects', async () => {
    const result = await sandbox.find({ query: 'sr/b' });
    assert.equal(result.entries[0].relativePath, 'src/b.ts');
    assert.equal(result.entries[0].path, path.join(root, 'src/b.ts'));
    const first = result.entries[0];
    assert.equal(first.score, first.fuzzy + first.filenameBonus + first.exactBonus + first.pathBoost + first.frecency);
    assert.deepEqual(Object.keys(first).sort(), ['exactBonus', 'filenameBonus', 'frecency', 'fuzzy', 'path', 'pathBoost', 'relativePath', 'score', 'typos']);
    assert.deepEqual(Object.keys(result.stats).sort(), ['candidates', 'elapsedMs', 'indexed']);
    const typo = await sandbox.find({ query: 'mnay.txt' });
    assert.equal(typo.entries[0].relativePath, 'many.txt');
    assert.ok(typo.entries[0].typos > 0);
  });

  test('findSync gives the same answer as find; limit, path and constraints apply', async () => {
    const options = { query: 'ts', limit: 1, path: 'src', constraints: '!c.ts' };
    const result = sandbox.findSync(options);
    assert.deepEqual(withoutTimings(result), withoutTimings(await sandbox.find(options)));
    assert.deepEqual(
      result.entries.map((e) => e.relativePath),
      ['b.ts'],
    );
    assert.equal(result.total, 1);
    assert.equal(sandbox.globSync({ pattern: '**', constraints: '*.ts !c.ts' }).total, 1);
    assert.equal(sandbox.grepSync({ pattern: 'TODO', constraints: 'src/', mode: 'files' }).files.length, 1);
  });

  test('errors: codes from the core, TypeErrors for options', async () => {
    await assertRejectsWithCode(sandbox.find({ query: ' ' }), 'INVALID_ARGUMENT');
    await assertRejectsWithCode(sandbox.find({ query: 'x', path: 'a.txt' }), 'NOT_A_DIRECTORY');
    await assertRejectsNaming(sandbox.find({ query: 'x', paths: 'src' }), 'paths');
    await assertRejectsNaming(sandbox.find({ query: 'x', constraints: 'type:nonesuch' }), 'constraints');
    assert.throws(
      () => sandbox.findSync({ query: 'x', limit: -1 }),
      (err) => err instanceof TypeError && /limit/.test(err.message),
    );
  });
});
