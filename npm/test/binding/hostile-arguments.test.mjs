// Hostile arguments: every call answers a bad argument with a TypeError or an FsnativeError,
// never a crash, and returns within its bounds (a guard fails a hung call and ends the process
// rather than blocking CI). Hostile files are in hostile.test.mjs.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';

import { FsnativeError, Sandbox } from 'fsnative';
import native from '../../lib/native.js';
import { guarded } from '../support/guard.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';

const CODES = new Set([
  'OUTSIDE_SANDBOX',
  'NOT_FOUND',
  'NOT_A_DIRECTORY',
  'INVALID_PATH',
  'SYMLINK_LOOP',
  'PERMISSION_DENIED',
  'INVALID_PATTERN',
  'PATTERN_TOO_LARGE',
  'INVALID_GLOB',
  'INVALID_CURSOR',
  'INVALID_ARGUMENT',
  'IO',
]);

describe('hostile arguments', () => {
  let root;
  let sandbox;
  before(() => {
    root = makeTree({ 'a.txt': 'needle\nhit\n', 'sub/b.txt': 'needle\n' });
    sandbox = new Sandbox([root]);
  });
  after(() => removeTree(root));

  const ODD = [
    null,
    true,
    false,
    0,
    -0,
    -1,
    1.5,
    NaN,
    Infinity,
    -Infinity,
    2 ** 64,
    1e308,
    -1e308,
    Number.MAX_SAFE_INTEGER + 2,
    Number.MIN_SAFE_INTEGER,
    Number.EPSILON,
    '',
    '\0',
    '\uD800',
    'x\uDC00y',
    '\uDBFF\uDFFF',
    'x'.repeat(100_000),
    [],
    [null],
    ['\uD800'],
    [[['deep']]],
    {},
    Object.create(null),
    { a: 1 },
    Symbol('s'),
    () => 1,
    10n,
    new Date(0),
    /re/,
    Buffer.from('x'),
    new Map(),
    new Uint8Array(2),
    new Proxy({}, {}),
  ];
  const GREP_OPTIONS = [
    'pattern',
    'patterns',
    'fixedStrings',
    'caseMode',
    'word',
    'multiline',
    'invert',
    'path',
    'paths',
    'glob',
    'globs',
    'type',
    'types',
    'typesNot',
    'hidden',
    'followLinks',
    'noIgnore',
    'maxDepth',
    'maxFilesize',
    'searchBinary',
    'mode',
    'context',
    'beforeContext',
    'afterContext',
    'maxCountPerFile',
    'sectionEndPatterns',
    'limit',
    'maxColumns',
    'sort',
    'cursor',
    'timeoutMs',
    'threads',
  ];
  const GLOB_OPTIONS = [
    'pattern',
    'patterns',
    'path',
    'paths',
    'syntax',
    'exclude',
    'caseInsensitive',
    'hidden',
    'gitDir',
    'followLinks',
    'noIgnore',
    'maxDepth',
    'kind',
    'sort',
    'limit',
    'timeoutMs',
  ];

  /**
   * A result, a TypeError with Node's argument codes, an InvalidOptionError (a TypeError and an
   * FsnativeError) or an FsnativeError with a documented code; anything else fails.
   */
  function assertClean(outcome, what) {
    if (outcome.status === 'fulfilled') return;
    const err = outcome.reason;
    if (err instanceof TypeError && err.code === 'INVALID_OPTION') {
      assert.ok(err instanceof FsnativeError && typeof err.option === 'string', `${what}: ${err.message}`);
    } else if (err instanceof TypeError) {
      assert.match(err.code ?? '', /^ERR_INVALID_ARG_(TYPE|VALUE)$/, `${what}: ${err.message}`);
    } else {
      assert.ok(err instanceof FsnativeError, `${what}: ${err?.stack ?? err}`);
      assert.ok(CODES.has(err.code), `${what}: ${err.code} ${err.message}`);
    }
  }

  function label(value) {
    try {
      return String(value).slice(0, 20);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }

  async function settle(call) {
    try {
      return { status: 'fulfilled', value: await call() };
    } catch (reason) {
      return { status: 'rejected', reason };
    }
  }

  test('every odd value in every option gives a result or a clean error, sync and async', async () => {
    const pending = [];
    for (const value of ODD) {
      for (const option of GREP_OPTIONS) {
        const options = option === 'pattern' || option === 'patterns' ? { [option]: value } : { pattern: 'needle', [option]: value };
        pending.push(settle(() => sandbox.grep(options)).then((o) => assertClean(o, `grep ${option}=${label(value)}`)));
        pending.push(settle(() => sandbox.grepSync(options)).then((o) => assertClean(o, `grepSync ${option}`)));
        pending.push(settle(() => sandbox.grepText(options, { pathStyle: 'relative' })).then((o) => assertClean(o, `grepText ${option}`)));
      }
      for (const option of GLOB_OPTIONS) {
        const options = option === 'pattern' || option === 'patterns' ? { [option]: value } : { pattern: '**', [option]: value };
        pending.push(settle(() => sandbox.glob(options)).then((o) => assertClean(o, `glob ${option}=${label(value)}`)));
        pending.push(settle(() => sandbox.globSync(options)).then((o) => assertClean(o, `globSync ${option}`)));
      }
      for (const option of ['format', 'pathStyle', 'withFilename', 'heading', 'lineNumber']) {
        pending.push(settle(() => sandbox.grepTextSync({ pattern: 'needle' }, { [option]: value })).then((o) => assertClean(o, `format ${option}`)));
      }
      pending.push(settle(() => sandbox.validate(value)).then((o) => assertClean(o, `validate(${label(value)})`)));
      pending.push(settle(() => sandbox.validate('a.txt', { intent: value })).then((o) => assertClean(o, 'intent')));
      pending.push(settle(() => sandbox.validate('a.txt', value)).then((o) => assertClean(o, 'validate options')));
      pending.push(settle(() => new Sandbox([value])).then((o) => assertClean(o, 'roots[0]')));
      pending.push(settle(() => new Sandbox(value)).then((o) => assertClean(o, 'roots')));
      pending.push(settle(() => sandbox.grep(value)).then((o) => assertClean(o, 'grep(value)')));
      pending.push(settle(() => sandbox.globSync(value)).then((o) => assertClean(o, 'globSync(value)')));
    }
    await guarded(Promise.all(pending), `${pending.length} odd calls`);
    assert.ok(pending.length > 4000);
  });

  test('odd option names are InvalidOptionErrors naming them', async () => {
    const keys = ['', '_', '__', 'A', 'MaxDepth', 'max__depth', '_limit', 'limit_', 'é_é', 'x_É', '\u0000', 'constructor', 'toString', 'x'.repeat(100_000)];
    for (const key of keys) {
      await assert.rejects(
        sandbox.grep({ pattern: 'needle', [key]: 1 }),
        { name: 'InvalidOptionError', code: 'INVALID_OPTION' },
        JSON.stringify(key.slice(0, 20)),
      );
      assert.throws(() => sandbox.globSync({ pattern: '**', [key]: 1 }), { name: 'InvalidOptionError', code: 'INVALID_OPTION' });
      assert.throws(() => sandbox.grepTextSync({ pattern: 'needle' }, { [key]: 1 }), { name: 'InvalidOptionError', code: 'INVALID_OPTION' });
      assert.throws(() => sandbox.validate('a.txt', { [key]: 1 }), { name: 'InvalidOptionError', code: 'INVALID_OPTION' });
    }
    await assert.rejects(sandbox.grep(JSON.parse('{"pattern":"needle","__proto__":{"limit":1}}')), { name: 'InvalidOptionError', code: 'INVALID_OPTION' });
    // Inherited properties are not options: JSON.stringify sees own properties only.
    const inherited = Object.create({ limit: 1, pattern: 'x' });
    inherited.pattern = 'needle';
    assert.equal((await sandbox.grep(inherited)).totalMatches, 2);
  });

  test('numbers out of range, not finite or negative are InvalidOptionErrors (TypeErrors) naming the option', async () => {
    for (const option of ['limit', 'maxDepth', 'maxFilesize', 'context', 'maxColumns', 'timeoutMs', 'threads', 'maxCountPerFile']) {
      for (const value of [NaN, Infinity, -Infinity, 2 ** 64, 1e308, -1, -1e308, 1.5, Number.MIN_SAFE_INTEGER]) {
        await assert.rejects(sandbox.grep({ pattern: 'needle', [option]: value }), (err) => {
          assert.ok(err instanceof TypeError && err.code === 'INVALID_OPTION', `${option}=${value}: ${err}`);
          assert.equal(err.option, option);
          assert.ok(err.message.includes(option), `${option}=${value}: "${err.message}"`);
          return true;
        });
      }
    }
    for (const value of [NaN, 2 ** 64, -1]) {
      assert.throws(() => sandbox.globSync({ pattern: '**', limit: value }), TypeError);
    }
  });

  test('legitimate extreme numbers give correct answers', async () => {
    const huge = Number.MAX_SAFE_INTEGER + 2;
    for (const option of ['limit', 'maxDepth', 'maxFilesize', 'context', 'maxColumns', 'timeoutMs', 'maxCountPerFile']) {
      const result = await guarded(sandbox.grep({ pattern: 'needle', [option]: huge }), `${option}=${huge}`);
      assert.equal(result.totalMatches, 2, option);
      assert.equal(result.truncated, null, option);
    }
    assert.equal((await sandbox.grep({ pattern: 'needle', limit: -0 })).truncated, 'limit');
    assert.equal((await sandbox.glob({ pattern: '**', limit: huge, maxDepth: huge })).total, 2);
    assert.equal((await sandbox.grep({ pattern: 'needle', maxColumns: 0 })).files[0].matches[0].text, '');
  });

  test('a huge thread count is cut to a sane one: the answer, not an abort or a thread storm', async () => {
    for (const threads of [1e9, 2 ** 53, Number.MAX_SAFE_INTEGER, 4096]) {
      const result = await guarded(sandbox.grep({ pattern: 'needle', threads }), `threads=${threads}`);
      assert.equal(result.totalMatches, 2);
      assert.equal(sandbox.grepSync({ pattern: 'needle', threads, mode: 'files' }).totalMatches, 2);
      assert.equal((await sandbox.grepText({ pattern: 'hit', threads }, { pathStyle: 'relative' })).text, 'a.txt:2:hit\n');
    }
  });

  test('lone surrogates in patterns, paths, globs, cursors, keys and format options are TypeErrors', async () => {
    const lone = ['\uD800', 'a\uDC00', '\uDFFF\uD800'];
    for (const bad of lone) {
      const cases = [
        { pattern: bad },
        { patterns: ['needle', bad] },
        { pattern: 'needle', path: bad },
        { pattern: 'needle', paths: ['a.txt', bad] },
        { pattern: 'needle', glob: bad },
        { pattern: 'needle', globs: [bad] },
        { pattern: 'needle', type: bad },
        { pattern: 'needle', cursor: bad },
        { pattern: 'needle', sectionEndPatterns: [bad] },
        { pattern: 'needle', caseMode: bad },
        { pattern: 'needle', [bad]: 1 },
      ];
      for (const options of cases) {
        await assert.rejects(sandbox.grep(options), TypeError, JSON.stringify(options));
        assert.throws(() => sandbox.grepSync(options), TypeError);
      }
      await assert.rejects(sandbox.glob({ pattern: bad }), TypeError);
      await assert.rejects(sandbox.glob({ pattern: '**', path: bad }), TypeError);
      assert.throws(() => sandbox.validate(bad), TypeError);
      assert.throws(() => sandbox.validate(`${root}/${bad}`), TypeError);
      assert.throws(() => new Sandbox([root, bad]), TypeError);
      assert.throws(() => sandbox.grepTextSync({ pattern: 'needle' }, { pathStyle: bad }), TypeError);
      assert.throws(() => sandbox.grepTextSync({ pattern: 'needle' }, { [bad]: true }), TypeError);
    }
    // A well-formed pair is an ordinary character: a correct (empty) answer.
    assert.equal((await sandbox.grep({ pattern: '\uD83D\uDE00' })).totalMatches, 0);
  });

  test('paths with NUL bytes, huge names and odd Buffers are FsnativeErrors, not crashes', () => {
    assert.throws(() => sandbox.validate(Buffer.from('a\0b')), { code: 'INVALID_PATH' });
    assert.throws(() => sandbox.validate(Buffer.alloc(0)), { code: 'INVALID_PATH' });
    assert.throws(
      () => sandbox.validate('x'.repeat(100_000)),
      (err) => err instanceof FsnativeError,
    );
    assert.throws(
      () => sandbox.validate('a/'.repeat(50_000)),
      (err) => err instanceof FsnativeError,
    );
    assert.throws(() => sandbox.grepSync({ pattern: 'x', path: 'a\0b' }), { code: 'INVALID_PATH' });
    assert.throws(
      () => new Sandbox([Buffer.from([0xff, 0x00])]),
      (err) => err instanceof FsnativeError,
    );
    assert.equal(sandbox.validate(Buffer.from(`${root}/a.txt`)), path.join(root, 'a.txt'));
    assert.throws(() => sandbox.validate(new Uint8Array(Buffer.from('a.txt'))), TypeError);
  });

  test('nesting, huge arrays and hostile cursors stay errors with codes', async () => {
    const nested = JSON.parse(`${'['.repeat(100_000)}"x"${']'.repeat(100_000)}`);
    const circular = ['x'];
    circular.push(circular);
    const self = { pattern: 'x' };
    self.self = self;
    const coded = { name: 'InvalidOptionError', code: 'INVALID_OPTION' };
    await assert.rejects(sandbox.grep({ pattern: nested }), coded);
    await assert.rejects(sandbox.grep({ pattern: 'needle', glob: nested }), coded);
    assert.throws(() => sandbox.globSync({ pattern: nested }), coded);
    assert.throws(() => sandbox.validate('a.txt', { intent: nested }), coded);
    assert.throws(() => sandbox.grepTextSync({ pattern: 'x' }, { pathStyle: nested }), coded);
    await assert.rejects(sandbox.grep({ pattern: circular }), coded);
    await assert.rejects(sandbox.grep({ pattern: 'x', glob: self }), coded);
    assert.throws(() => sandbox.grepTextSync({ pattern: 'x' }, { pathStyle: circular }), coded);
    const many = await guarded(
      sandbox.grep({ patterns: Array.from({ length: 5000 }, (_, i) => `w${i}`), fixedStrings: true, mode: 'count' }),
      '5,000 patterns',
    );
    assert.equal(many.totalMatches, 0);
    await assert.rejects(sandbox.grep({ pattern: 'x'.repeat(1 << 20) }), { code: 'PATTERN_TOO_LARGE' });
    await assert.rejects(sandbox.grep({ pattern: '('.repeat(1000) }), (err) => ['INVALID_PATTERN', 'PATTERN_TOO_LARGE'].includes(err.code));
    await assert.rejects(sandbox.grep({ pattern: 'a{1000}{1000}{1000}' }), (err) => ['INVALID_PATTERN', 'PATTERN_TOO_LARGE'].includes(err.code));
    for (const cursor of ['', 'A'.repeat(1 << 20), '!!!', Buffer.alloc(64, 0xff).toString('base64'), '{"a":1}', '\u0000', 'eyJ9']) {
      await assert.rejects(sandbox.grep({ pattern: 'needle', cursor }), { code: 'INVALID_CURSOR' }, JSON.stringify(cursor.slice(0, 20)));
    }
    const first = await sandbox.grep({ pattern: 'needle', limit: 1 });
    await assert.rejects(sandbox.grep({ pattern: 'other', limit: 1, cursor: first.nextCursor }), { code: 'INVALID_CURSOR' });
  });

  test('the addon itself, called with wrong types, throws instead of crashing', async () => {
    const addon = new native.Sandbox([root]);
    const calls = [
      () => new native.Sandbox(42),
      () => new native.Sandbox([42]),
      () => new native.Sandbox(null),
      () => addon.grep(42),
      () => addon.grep(),
      () => addon.grep('not json'),
      () => addon.grep('[]'),
      () => addon.grep('{"pattern":"x"}', {}),
      () => addon.grep('{"pattern":"x"}', 42),
      () => addon.grepSync(null),
      () => addon.grepText('{"pattern":"x"}', 42),
      () => addon.grepTextSync('{"pattern":"x"}', '"json"'),
      () => addon.glob('{"pattern":7}'),
      () => addon.globSync('{'),
      () => addon.validate(42, '{}'),
      () => addon.validate('a.txt', 42),
      () => addon.validate('a.txt', '{"intent":1}'),
      () => addon.validate.call({}, 'a.txt', '{}'),
      () => addon.grep.call(null, '{}'),
      () => new native.CancelToken().cancel.call({}),
      () => new native.Sandbox([root], 42),
      () => new native.Sandbox([root], '{"index":"yes"}'),
      () => new native.Sandbox([root], 'not json'),
      () => addon.waitForIndex('5'),
      () => addon.waitForIndex(-1),
      () => addon.waitForIndex(Number.NaN),
      () => addon.waitForIndex.call({}, 5),
      () => addon.indexStatus.call(null),
      () => addon.close.call({}),
    ];
    for (const call of calls) {
      await assert.rejects(async () => call(), Error, String(call));
    }
  });
});
