// How errors reach JavaScript: option mistakes are the core's INVALID_OPTION, as an
// InvalidOptionError (a TypeError and an FsnativeError) naming the option in the core's words;
// errors about a file or path carry it as `err.path`.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';

import { AbortError, FsnativeError, InvalidOptionError, Sandbox } from 'fsnative';
import { nonUtf8NamesSkip, onWindows, symlinksSkip } from '../support/system.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';

const root = makeTree({ 'a.txt': 'alpha\n', 'src/b.ts': 'beta\n' });
after(() => removeTree(root));
const sandbox = new Sandbox([root]);

/** Asserts that `run` throws (or rejects with) the INVALID_OPTION error about `option`, with `message`. */
async function assertInvalidOption(run, option, message) {
  const check = (err) => {
    assert.ok(err instanceof InvalidOptionError, `expected an InvalidOptionError, got ${err}`);
    assert.ok(err instanceof TypeError && err instanceof FsnativeError && err instanceof Error);
    assert.equal(err.name, 'InvalidOptionError');
    assert.equal(err.code, 'INVALID_OPTION');
    assert.equal(err.option, option);
    if (message !== undefined) assert.equal(err.message, message);
    return true;
  };
  try {
    await run();
  } catch (err) {
    check(err);
    return;
  }
  assert.fail(`no error about ${option}`);
}

describe('INVALID_OPTION', () => {
  test('the core words every complaint, naming the option as the caller spelled it', async () => {
    await assertInvalidOption(() => sandbox.grep({ pattern: 'x', limit: -1 }), 'limit', 'grep option `limit` must be a non-negative integer, not -1');
    await assertInvalidOption(
      () => sandbox.grepSync({ pattern: 'x', maxDepth: 'deep' }),
      'maxDepth',
      'grep option `maxDepth` must be a non-negative integer, not "deep"',
    );
    await assertInvalidOption(
      () => sandbox.grepSync({ pattern: 'x', max_depth: 1 }),
      'max_depth',
      'unknown grep option `max_depth` (did you mean `maxDepth`?)',
    );
    await assertInvalidOption(
      () => sandbox.grepSync({ pattern: 'x', mode: 'lines' }),
      'mode',
      'grep option `mode` must be "content", "files" or "count", not "lines"',
    );
    await assertInvalidOption(
      () => sandbox.grepSync({ pattern: 'x', patterns: 'y' }),
      'patterns',
      'grep options `pattern` and `patterns` are the same option; give one',
    );
    await assertInvalidOption(() => sandbox.glob({ pattern: '*', kind: 'links' }), 'kind', 'glob option `kind` must be "files", "dirs" or "all", not "links"');
    await assertInvalidOption(() => sandbox.validate('a.txt', { intent: 'rw' }), 'intent', 'validate option `intent` must be "read" or "write", not "rw"');
    await assertInvalidOption(() => sandbox.validate('a.txt', { mode: 'read' }), 'mode', 'unknown validate option `mode`');
    await assertInvalidOption(
      () => sandbox.grepTextSync({ pattern: 'x' }, { format: 'xml' }),
      'format',
      'render option `format` must be "standard", "json" or "fff", not "xml"',
    );
    await assertInvalidOption(
      () => sandbox.grepText({ pattern: 'x' }, { format: 'json', heading: true }),
      'heading',
      'render option `heading` applies to the standard format only',
    );
  });

  test('values with no JSON form are refused in the core words too', async () => {
    await assertInvalidOption(
      () => sandbox.grep({ pattern: 'x', limit: Infinity }),
      'limit',
      'grep option `limit` must be a non-negative integer, not Infinity, not finite',
    );
    await assertInvalidOption(
      () => sandbox.grep({ pattern: 'x', maxFilesize: 10n }),
      'maxFilesize',
      'grep option `maxFilesize` must be a non-negative integer, not a bigint',
    );
    await assertInvalidOption(
      () => sandbox.grep({ pattern: /x/ }),
      'pattern',
      'grep option `pattern` must be a string or a list of strings, not an instance of RegExp',
    );
    await assertInvalidOption(
      () => sandbox.grepSync({ pattern: ['x', 'y\ud800'] }),
      'pattern',
      'grep option `pattern` must be a string or a list of strings, not a string with a lone surrogate',
    );
    await assertInvalidOption(
      () => sandbox.globSync({ pattern: '*', path: () => 'src' }),
      'path',
      'glob option `path` must be a string or a list of strings, not a function',
    );
    await assertInvalidOption(
      () => sandbox.globSync({ pattern: '*', ['a\ud800']: 1 }),
      'a\ufffd',
      'glob option `a\ufffd` cannot be named with a lone surrogate',
    );
    let nested = ['x'];
    for (let i = 0; i < 20; i++) nested = [nested];
    await assertInvalidOption(
      () => sandbox.grepSync({ pattern: nested }),
      'pattern',
      'grep option `pattern` must be a string or a list of strings, not arrays nested more than 16 deep',
    );
    const circular = ['x'];
    circular.push(circular);
    await assertInvalidOption(() => sandbox.grepSync({ pattern: circular }), 'pattern');
  });

  test('signal: an AbortSignal, and only for the async methods', async () => {
    await assertInvalidOption(() => sandbox.grep({ pattern: 'x', signal: 'stop' }), 'signal', 'grep option `signal` must be an AbortSignal, not "stop"');
    await assertInvalidOption(() => sandbox.globSync({ pattern: '*', signal: new AbortController().signal }), 'signal');
  });

  test("arguments that are not options stay TypeErrors with Node's codes", () => {
    assert.throws(
      () => sandbox.grepSync('x'),
      (err) => err instanceof TypeError && !(err instanceof FsnativeError) && err.code === 'ERR_INVALID_ARG_TYPE',
    );
    assert.throws(() => new Sandbox(root), { name: 'TypeError', code: 'ERR_INVALID_ARG_TYPE' });
  });

  test('instanceof FsnativeError: its own instances and InvalidOptionErrors, nothing else', () => {
    assert.ok(new FsnativeError('IO', 'x') instanceof FsnativeError);
    assert.ok(new InvalidOptionError('x', 'limit') instanceof FsnativeError);
    assert.ok(!(new TypeError('x') instanceof FsnativeError));
    assert.ok(!(new AbortError() instanceof FsnativeError));
    assert.ok(!(new FsnativeError('IO', 'x') instanceof InvalidOptionError));
    assert.ok(!(null instanceof FsnativeError));
  });
});

describe('err.path', () => {
  test('errors about a path carry it, as the message names it', async () => {
    // A relative path is named below its root: the root, this system's separator, the path as given.
    const below = (given) => `${root}${path.sep}${given}`;
    assert.throws(() => sandbox.validate('missing.txt'), { code: 'NOT_FOUND', path: 'missing.txt' });
    assert.throws(() => sandbox.validate('a.txt/x'), { code: 'NOT_A_DIRECTORY', path: below('a.txt/x') });
    assert.throws(() => sandbox.validate(''), { code: 'INVALID_PATH', path: '' });
    assert.throws(() => new Sandbox([`${root}/nope`]), { code: 'NOT_FOUND', path: `${root}/nope` });
    await assert.rejects(sandbox.glob({ pattern: '*', path: 'a.txt' }), { code: 'NOT_A_DIRECTORY', path: below('a.txt') });
    await assert.rejects(sandbox.grep({ pattern: 'x', path: 'gone' }), { code: 'NOT_FOUND', path: 'gone' });
  });

  test('an OUTSIDE_SANDBOX error carries the path as given, nothing learned outside', { skip: symlinksSkip() }, () => {
    // A directory outside the root: /etc, or on Windows the temporary directory that holds it.
    fs.symlinkSync(onWindows ? path.dirname(root) : '/etc', `${root}/etc-link`, 'dir');
    assert.throws(
      () => sandbox.validate('etc-link/passwd'),
      (err) => {
        assert.equal(err.code, 'OUTSIDE_SANDBOX');
        assert.equal(err.path, 'etc-link/passwd');
        return true;
      },
    );
  });

  test('a path that is not UTF-8 is a Buffer of its bytes', { skip: nonUtf8NamesSkip }, () => {
    const name = Buffer.concat([Buffer.from('missing'), Buffer.from([0xff])]);
    assert.throws(
      () => sandbox.validate(name),
      (err) => {
        assert.equal(err.code, 'NOT_FOUND');
        assert.ok(Buffer.isBuffer(err.path));
        assert.deepEqual(err.path, name);
        return true;
      },
    );
  });

  test('on Windows, a Buffer path is read as UTF-8, as Node reads one', { skip: !onWindows && 'Windows only: elsewhere a name is bytes' }, () => {
    const name = Buffer.concat([Buffer.from('missing'), Buffer.from([0xff])]);
    assert.throws(() => sandbox.validate(name), { code: 'NOT_FOUND', path: name.toString('utf8') });
  });

  test('errors about no path have none', () => {
    assert.throws(
      () => sandbox.grepSync({ pattern: '(' }),
      (err) => err.code === 'INVALID_PATTERN' && !('path' in err),
    );
    assert.throws(
      () => sandbox.grepSync({ pattern: 'x', limit: -1 }),
      (err) => !('path' in err),
    );
  });
});
