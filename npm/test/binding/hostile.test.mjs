// Hostile files and hostile arguments. Every call returns within its bounds (a guard fails a
// hung call and ends the process rather than blocking CI), says what it skipped in its stats,
// and answers a bad argument with a TypeError or an FsnativeError, never a crash.
// These run at full size in CI; FSNATIVE_FULL_LOAD (see load and race) does not change them.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { FsnativeError, Sandbox } from 'fsnative';
import native from '../../lib/native.js';
import platform from '../../lib/platform.js';
import { makeTree, removeTree } from '../support/tree.mjs';
import { PACKAGE_RUNTIME, unreadableDirectoryCase } from '../support/unreadable-case.mjs';

const CODES = new Set([
  'OUTSIDE_SANDBOX', 'NOT_FOUND', 'NOT_A_DIRECTORY', 'INVALID_PATH', 'SYMLINK_LOOP', 'PERMISSION_DENIED', 'INVALID_PATTERN',
  'PATTERN_TOO_LARGE', 'INVALID_GLOB', 'INVALID_CURSOR', 'INVALID_ARGUMENT', 'IO',
]);
/** Generous: each guarded call takes milliseconds to a second; only a hang reaches this. */
const GUARD_MS = 30_000;

/**
 * `promise`, or a rejection once `ms` pass. A call into the addon that hangs would keep the
 * process alive after the failure, so the guard also ends the process a little later.
 */
function guarded(promise, what, ms = GUARD_MS) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      setTimeout(() => process.exit(1), 2000).unref();
      reject(new Error(`${what} did not return within ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The result's size as JSON: what a caller would hold or send on. */
function jsonSize(result) {
  return JSON.stringify(result).length;
}

describe('hostile files', () => {
  test('a 50 MB single-line file is searched, and the cut line keeps the result small', async () => {
    const root = makeTree({});
    try {
      fs.writeFileSync(path.join(root, 'minified.js'), `${'x'.repeat(50 * 1024 * 1024)}needle\n`);
      const sandbox = new Sandbox([root]);
      const result = await guarded(sandbox.grep({ pattern: 'needle', maxColumns: 200 }), 'grep of a 50 MB line');
      const [found] = result.files[0].matches;
      assert.equal(found.text.length, 200);
      assert.equal(found.truncated, true);
      assert.deepEqual(found.submatches, [[50 * 1024 * 1024, 50 * 1024 * 1024 + 6]]);
      assert.ok(jsonSize(result) < 4096, `${jsonSize(result)} bytes of result for one cut line`);
      const counted = await guarded(sandbox.grep({ pattern: 'x', mode: 'count' }), 'count of a 50 MB line');
      assert.equal(counted.files[0].count, 1);
      const skipped = await guarded(sandbox.grep({ pattern: 'needle', maxFilesize: 1024 }), 'grep with maxFilesize');
      assert.equal(skipped.totalMatches, 0);
    } finally {
      removeTree(root);
    }
  });

  test('a 1 GB sparse file is skipped as binary without reading it all', async () => {
    const root = makeTree({ 'a.txt': 'needle\n' });
    try {
      const fd = fs.openSync(path.join(root, 'sparse.bin'), 'w');
      fs.ftruncateSync(fd, 1024 ** 3);
      fs.closeSync(fd);
      const sandbox = new Sandbox([root]);
      const result = await guarded(sandbox.grep({ pattern: 'needle' }), 'grep of a 1 GB sparse file');
      assert.equal(result.totalMatches, 1);
      assert.equal(result.stats.skippedBinary, 1);
      assert.ok(result.stats.bytesSearched < 64 * 1024 * 1024, `${result.stats.bytesSearched} bytes read`);
      const named = await guarded(sandbox.grep({ pattern: 'needle', path: 'sparse.bin', mode: 'count' }), 'grep naming the sparse file');
      assert.equal(named.stats.skippedBinary, 1);
      const listed = await guarded(sandbox.glob({ pattern: '*.bin' }), 'glob');
      assert.deepEqual(listed.entries.map((e) => e.relativePath), ['sparse.bin']);
    } finally {
      removeTree(root);
    }
  });

  test('files that grow or vanish during the walk do not break it', async () => {
    const files = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`f${String(i).padStart(3, '0')}.txt`, 'needle\n'.repeat(50)]));
    const root = makeTree(files);
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const churner = new Worker(
      `const fs = require('node:fs');
       const { workerData: { root, stop } } = require('node:worker_threads');
       let round = 0;
       while (Atomics.load(stop, 0) === 0) {
         fs.appendFileSync(root + '/f000.txt', 'needle grows\\n');
         const victim = root + '/f' + String(1 + (round % 299)).padStart(3, '0') + '.txt';
         try { fs.unlinkSync(victim); } catch {}
         try { fs.writeFileSync(victim, 'needle\\n'); } catch {}
         round++;
       }`,
      { eval: true, workerData: { root, stop } },
    );
    try {
      const sandbox = new Sandbox([root]);
      for (let i = 0; i < 30; i++) {
        const grep = await guarded(sandbox.grep({ pattern: 'needle', limit: null, mode: i % 2 ? 'count' : 'content' }), 'grep of a churning tree');
        assert.ok(grep.totalMatches > 0);
        assert.ok(grep.files.length <= 300);
        const glob = await guarded(sandbox.glob({ pattern: '*.txt', limit: null }), 'glob of a churning tree');
        assert.ok(glob.total <= 300);
      }
    } finally {
      Atomics.store(stop, 0, 1);
      await churner.terminate();
      removeTree(root);
    }
  });

  describe('an unreadable directory', () => {
    const asRoot = process.getuid?.() === 0;

    test('is skipped and counted (as this user)', { skip: asRoot && 'running as root: permission bits do not apply (covered by the next test as nobody)' }, async () => {
      const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-unreadable-'));
      try {
        assertUnreadableSkipped(await guarded(unreadableDirectoryCase(base), 'the unreadable-directory case'));
      } finally {
        fs.rmSync(base, { recursive: true, force: true });
      }
    });

    test('is skipped and counted (as nobody, in a child process)', { skip: !asRoot && 'needs root to switch to nobody' }, (t) => {
      // The child runs a copy of the case and of the package's runtime files in a directory
      // that nobody can reach: the checkout may sit where nobody cannot read.
      const base = fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-unreadable-'));
      const packageDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
      for (const entry of PACKAGE_RUNTIME.filter((name) => fs.existsSync(path.join(packageDir, name)))) {
        fs.cpSync(path.join(packageDir, entry), path.join(base, 'node_modules', 'fsnative', entry), { recursive: true });
      }
      // The addon, where it is not a source build in native/, comes from the platform package
      // that npm installed beside the package (as lib/native.js looks for it): that one too.
      if (!fs.existsSync(path.join(packageDir, 'native'))) {
        const name = platform.platformPackage();
        const manifest = createRequire(path.join(packageDir, 'package.json')).resolve(`${name}/package.json`);
        fs.cpSync(path.dirname(manifest), path.join(base, 'node_modules', name), { recursive: true });
      }
      const script = path.join(base, 'unreadable-case.mjs');
      fs.copyFileSync(fileURLToPath(new URL('../support/unreadable-case.mjs', import.meta.url)), script);
      execFileSync('chmod', ['-R', 'a+rX', base]);
      const fixture = fs.mkdtempSync(path.join(base, 'case-'));
      fs.chownSync(fixture, 65534, 65534);
      try {
        const run = spawnSync(process.execPath, [script, fixture], {
          env: { ...process.env, NODE_TEST_CONTEXT: undefined },
          uid: 65534,
          gid: 65534,
          encoding: 'utf8',
          timeout: GUARD_MS,
          cwd: base,
        });
        if (run.error?.code === 'EPERM') {
          t.skip('this root cannot switch to nobody (no CAP_SETUID)');
          return;
        }
        if (run.status !== 0 && /EACCES|permission denied/i.test(run.stderr)) {
          t.skip(`nobody cannot run ${process.execPath} or reach ${os.tmpdir()}: ${run.stderr.trim().split('\n')[0]}`);
          return;
        }
        assert.equal(run.status, 0, `child failed: ${run.error ?? ''}${run.stderr}`);
        assertUnreadableSkipped(JSON.parse(run.stdout.trim().split('\n').at(-1)));
      } finally {
        fs.rmSync(base, { recursive: true, force: true });
      }
    });
  });

  test('FIFOs, sockets and a link to /dev/zero are skipped and counted, never read', async () => {
    const root = makeTree({ 'a.txt': 'needle\n' });
    const server = net.createServer();
    try {
      execFileSync('mkfifo', [path.join(root, 'pipe')]);
      await new Promise((resolve) => server.listen(path.join(root, 'server.sock'), resolve));
      fs.symlinkSync('/dev/zero', path.join(root, 'zeros'));
      const sandbox = new Sandbox([root]);

      const plain = await guarded(sandbox.grep({ pattern: 'needle' }), 'grep');
      assert.equal(plain.totalMatches, 1);
      assert.equal(plain.stats.skippedSpecial, 2, 'the FIFO and the socket');
      const followed = await guarded(sandbox.grep({ pattern: 'needle', followLinks: true, searchBinary: true }), 'grep following links');
      assert.equal(followed.totalMatches, 1);
      assert.equal(followed.stats.skippedSpecial, 2);
      assert.equal(followed.stats.skippedOutside, 1, 'the link to /dev/zero');

      const fifo = await guarded(sandbox.grep({ pattern: 'needle', path: 'pipe' }), 'grep naming the FIFO');
      assert.equal(fifo.totalMatches, 0);
      assert.equal(fifo.stats.skippedSpecial, 1);
      const socket = await guarded(sandbox.grep({ pattern: 'needle', path: 'server.sock' }), 'grep naming the socket');
      assert.equal(socket.totalMatches, 0);
      // Skipped and counted; the core counts a named socket under skippedErrors (its open
      // fails with ENXIO) where a walked one counts under skippedSpecial.
      assert.equal(socket.stats.skippedSpecial + socket.stats.skippedErrors, 1);
      await assert.rejects(guarded(sandbox.grep({ pattern: 'needle', path: 'zeros' }), 'grep naming /dev/zero'), { code: 'OUTSIDE_SANDBOX' });
      assert.throws(() => sandbox.validatePath('zeros'), { code: 'OUTSIDE_SANDBOX' });

      for (const followLinks of [false, true]) {
        const listed = await guarded(sandbox.glob({ pattern: '*', kind: 'all', followLinks }), 'glob');
        assert.deepEqual(listed.entries.map((e) => e.relativePath), ['a.txt']);
        assert.equal(listed.stats.skippedSpecial, 2);
        assert.equal(listed.stats.skippedOutside, 1);
      }
      const { text } = await guarded(sandbox.grepText({ pattern: 'needle', followLinks: true }, { pathStyle: 'relative' }), 'grepText');
      assert.equal(text, 'a.txt:1:needle\n');
    } finally {
      server.close();
      removeTree(root);
    }
  });

  test('a 1,000-level deep tree and symlink loops terminate', async () => {
    const root = makeTree({ [`${'d/'.repeat(1000)}bottom.txt`]: 'needle\n' });
    try {
      fs.symlinkSync('.', path.join(root, 'loop'));
      fs.symlinkSync('loop-b', path.join(root, 'loop-a'));
      fs.symlinkSync('loop-a', path.join(root, 'loop-b'));
      const sandbox = new Sandbox([root]);
      for (const followLinks of [false, true]) {
        const found = await guarded(sandbox.grep({ pattern: 'needle', followLinks }), 'grep of a deep tree');
        assert.equal(found.totalMatches, 1);
        assert.equal(found.files[0].relativePath, `${'d/'.repeat(1000)}bottom.txt`);
        if (followLinks) assert.ok(found.stats.skippedErrors >= 1, 'the loop is reported');
        const listed = await guarded(sandbox.glob({ pattern: '**/bottom.txt', followLinks }), 'glob of a deep tree');
        assert.equal(listed.total, 1);
      }
      const shallow = await guarded(sandbox.grep({ pattern: 'needle', maxDepth: 10 }), 'grep with maxDepth');
      assert.equal(shallow.totalMatches, 0);
      assert.throws(() => sandbox.validatePath('loop-a'), { code: 'SYMLINK_LOOP' });
      assert.equal(sandbox.validatePath(`${'loop/'.repeat(30)}loop`), root);
      assert.throws(() => sandbox.validatePath(`${'loop/'.repeat(50)}a`), (err) => err instanceof FsnativeError && ['SYMLINK_LOOP', 'NOT_FOUND'].includes(err.code));
      assert.equal(sandbox.validatePath(`${'d/'.repeat(1000)}bottom.txt`), path.join(root, `${'d/'.repeat(1000)}bottom.txt`));
    } finally {
      removeTree(root);
    }
  });

  test('names that are not UTF-8 are found and come back byte for byte', async () => {
    const root = makeTree({});
    const names = [Buffer.from([0xff, 0x2e, 0x74, 0x78, 0x74]), Buffer.from([0x80, 0x80]), Buffer.from([0xed, 0xa0, 0x80, 0x21])];
    try {
      for (const name of names) fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/`), name]), 'needle\n');
      fs.mkdirSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0xc3, 0x28])]));
      fs.writeFileSync(Buffer.concat([Buffer.from(`${root}/`), Buffer.from([0xc3, 0x28]), Buffer.from('/inner.txt')]), 'needle\n');
      const sandbox = new Sandbox([root]);
      const found = await guarded(sandbox.grep({ pattern: 'needle', mode: 'files', limit: null }), 'grep');
      const relative = found.files.map((f) => (typeof f.relativePath === 'string' ? Buffer.from(f.relativePath) : Buffer.from(f.relativePath.bytes, 'base64')));
      const expected = [...names, Buffer.concat([Buffer.from([0xc3, 0x28]), Buffer.from('/inner.txt')])];
      assert.deepEqual(relative.map((b) => b.toString('hex')).sort(), expected.map((b) => b.toString('hex')).sort());
      for (const file of found.files) assert.equal(typeof file.relativePath, 'object');
      const listed = await guarded(sandbox.glob({ pattern: '**', limit: null }), 'glob');
      assert.equal(listed.total, 4);
      for (const name of names) {
        const full = Buffer.concat([Buffer.from(`${root}/`), name]);
        assert.deepEqual(sandbox.validatePath(full), { bytes: full.toString('base64') });
      }
      const { text } = await guarded(sandbox.grepText({ pattern: 'needle', mode: 'files' }, { pathStyle: 'relative' }), 'grepText');
      assert.equal(text.split('\n').length, 5);
    } finally {
      removeTree(root);
    }
  });
});

function assertUnreadableSkipped({ grep, glob, validate }) {
  assert.deepEqual(grep.files.map((f) => f.relativePath), ['a.txt']);
  assert.equal(grep.stats.skippedErrors, 2, 'the locked directory and the unreadable file');
  assert.equal(validate, 'PERMISSION_DENIED');
  assert.deepEqual(glob.entries.map((e) => e.relativePath), ['a.txt', 'unreadable.txt']);
  assert.equal(glob.stats.skippedErrors, 1, 'the locked directory');
}

describe('hostile arguments', () => {
  let root;
  let sandbox;
  before(() => {
    root = makeTree({ 'a.txt': 'needle\nhit\n', 'sub/b.txt': 'needle\n' });
    sandbox = new Sandbox([root]);
  });
  after(() => removeTree(root));

  const ODD = [
    null, true, false, 0, -0, -1, 1.5, NaN, Infinity, -Infinity, 2 ** 64, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2,
    Number.MIN_SAFE_INTEGER, Number.EPSILON, '', '\0', '\uD800', 'x\uDC00y', '\uDBFF\uDFFF', 'x'.repeat(100_000), [], [null], ['\uD800'],
    [[['deep']]], {}, Object.create(null), { a: 1 }, Symbol('s'), () => 1, 10n, new Date(0), /re/, Buffer.from('x'), new Map(),
    new Uint8Array(2), new Proxy({}, {}),
  ];
  const GREP_OPTIONS = [
    'pattern', 'patterns', 'fixedStrings', 'caseMode', 'word', 'multiline', 'invert', 'path', 'paths', 'glob', 'globs', 'type', 'types',
    'typesNot', 'hidden', 'followLinks', 'noIgnore', 'maxDepth', 'maxFilesize', 'searchBinary', 'mode', 'context', 'beforeContext',
    'afterContext', 'maxCountPerFile', 'sectionEndPatterns', 'limit', 'maxColumns', 'sort', 'cursor', 'timeoutMs', 'threads',
  ];
  const GLOB_OPTIONS = ['pattern', 'patterns', 'path', 'paths', 'syntax', 'exclude', 'caseInsensitive', 'hidden', 'gitDir', 'followLinks', 'noIgnore', 'maxDepth', 'kind', 'sort', 'limit', 'timeoutMs'];

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
      pending.push(settle(() => sandbox.validatePath(value)).then((o) => assertClean(o, `validatePath(${label(value)})`)));
      pending.push(settle(() => sandbox.validatePath('a.txt', { intent: value })).then((o) => assertClean(o, 'intent')));
      pending.push(settle(() => sandbox.validatePath('a.txt', value)).then((o) => assertClean(o, 'validate options')));
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
      await assert.rejects(sandbox.grep({ pattern: 'needle', [key]: 1 }), { name: 'InvalidOptionError', code: 'INVALID_OPTION' }, JSON.stringify(key.slice(0, 20)));
      assert.throws(() => sandbox.globSync({ pattern: '**', [key]: 1 }), { name: 'InvalidOptionError', code: 'INVALID_OPTION' });
      assert.throws(() => sandbox.grepTextSync({ pattern: 'needle' }, { [key]: 1 }), { name: 'InvalidOptionError', code: 'INVALID_OPTION' });
      assert.throws(() => sandbox.validatePath('a.txt', { [key]: 1 }), { name: 'InvalidOptionError', code: 'INVALID_OPTION' });
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
      assert.throws(() => sandbox.validatePath(bad), TypeError);
      assert.throws(() => sandbox.validatePath(`${root}/${bad}`), TypeError);
      assert.throws(() => new Sandbox([root, bad]), TypeError);
      assert.throws(() => sandbox.grepTextSync({ pattern: 'needle' }, { pathStyle: bad }), TypeError);
      assert.throws(() => sandbox.grepTextSync({ pattern: 'needle' }, { [bad]: true }), TypeError);
    }
    // A well-formed pair is an ordinary character: a correct (empty) answer.
    assert.equal((await sandbox.grep({ pattern: '\uD83D\uDE00' })).totalMatches, 0);
  });

  test('paths with NUL bytes, huge names and odd Buffers are FsnativeErrors, not crashes', () => {
    assert.throws(() => sandbox.validatePath(Buffer.from('a\0b')), { code: 'INVALID_PATH' });
    assert.throws(() => sandbox.validatePath(Buffer.alloc(0)), { code: 'INVALID_PATH' });
    assert.throws(() => sandbox.validatePath('x'.repeat(100_000)), (err) => err instanceof FsnativeError);
    assert.throws(() => sandbox.validatePath('a/'.repeat(50_000)), (err) => err instanceof FsnativeError);
    assert.throws(() => sandbox.grepSync({ pattern: 'x', path: 'a\0b' }), { code: 'INVALID_PATH' });
    assert.throws(() => new Sandbox([Buffer.from([0xff, 0x00])]), (err) => err instanceof FsnativeError);
    assert.equal(sandbox.validatePath(Buffer.from(`${root}/a.txt`)), `${root}/a.txt`);
    assert.throws(() => sandbox.validatePath(new Uint8Array(Buffer.from('a.txt'))), TypeError);
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
    assert.throws(() => sandbox.validatePath('a.txt', { intent: nested }), coded);
    assert.throws(() => sandbox.grepTextSync({ pattern: 'x' }, { pathStyle: nested }), coded);
    await assert.rejects(sandbox.grep({ pattern: circular }), coded);
    await assert.rejects(sandbox.grep({ pattern: 'x', glob: self }), coded);
    assert.throws(() => sandbox.grepTextSync({ pattern: 'x' }, { pathStyle: circular }), coded);
    const many = await guarded(sandbox.grep({ patterns: Array.from({ length: 5000 }, (_, i) => `w${i}`), fixedStrings: true, mode: 'count' }), '5,000 patterns');
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
      () => addon.validatePath(42, '{}'),
      () => addon.validatePath('a.txt', 42),
      () => addon.validatePath('a.txt', '{"intent":1}'),
      () => addon.validatePath.call({}, 'a.txt', '{}'),
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
