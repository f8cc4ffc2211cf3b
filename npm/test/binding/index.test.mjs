// The warm index through the Node API: its options (checked by the core), its status, that a
// change is in the very next search, close() and Symbol.dispose, and the refusal of $HOME.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { FsnativeError, InvalidOptionError, Sandbox } from 'fsnative';
import { WINE_GAPS, wineSkip } from '../support/system.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));
/** Generous: an index of a handful of files is ready in milliseconds. */
const READY_TIMEOUT_MS = 60_000;

const root = makeTree({ 'a.txt': 'alpha common\n', 'sub/b.txt': 'beta common\n', 'sub/deep/c.md': 'gamma\n' });
after(() => removeTree(root));

/** A sandbox of `dir` with an index, ready. */
async function indexed(dir, index = true) {
  const sandbox = new Sandbox([dir], { index });
  assert.equal(await sandbox.waitForIndex(READY_TIMEOUT_MS), true, JSON.stringify(sandbox.indexStatus()));
  return sandbox;
}

/** Asserts that `run` throws the core's INVALID_OPTION error about `option`, saying `message`. */
function assertInvalidOption(run, option, message) {
  assert.throws(run, (err) => {
    assert.ok(err instanceof InvalidOptionError, `expected an InvalidOptionError, got ${err}`);
    assert.ok(err instanceof FsnativeError && err instanceof TypeError);
    assert.equal(err.code, 'INVALID_OPTION');
    assert.equal(err.option, option);
    assert.match(err.message, message);
    return true;
  });
}

describe('index options', () => {
  test('are checked by the core, each complaint naming its option', () => {
    const cases = [
      [{ index: { maxFiles: 0 } }, 'index.maxFiles', /^Sandbox option `index.maxFiles` must be a positive integer, not 0$/],
      [{ index: { maxFiles: 2.5 } }, 'index.maxFiles', /must be a positive integer, not 2.5$/],
      [{ index: { maxMemory: -1 } }, 'index.maxMemory', /must be a non-negative integer, not -1$/],
      [{ index: { content: 'yes' } }, 'index.content', /must be a boolean, not "yes"$/],
      [{ index: { allowHome: 1 } }, 'index.allowHome', /must be a boolean, not 1$/],
      [{ index: { persist: '' } }, 'index.persist', /must be a non-empty path string, not ""$/],
      [{ index: { persist: 3 } }, 'index.persist', /must be a non-empty path string, not 3$/],
      [{ index: { cacheMemory: -1 } }, 'index.cacheMemory', /must be a non-negative integer, not -1$/],
      [{ index: { max_files: 5 } }, 'index.max_files', /\(did you mean `index.maxFiles`\?\)$/],
      [{ index: 'yes' }, 'index', /^Sandbox option `index` must be a boolean or an object of index options, not "yes"$/],
      [{ indx: true }, 'indx', /^unknown Sandbox option `indx` \(did you mean `index`\?\)$/],
      [{ index: { maxFiles: 10n } }, 'index', /not a bigint$/],
    ];
    for (const [options, option, message] of cases) {
      assertInvalidOption(() => new Sandbox([root], options), option, message);
    }
  });

  test('false, null, undefined and no options mean no index', async () => {
    for (const options of [undefined, {}, { index: false }, { index: null }, { index: undefined }]) {
      const sandbox = new Sandbox([root], options);
      assert.equal(sandbox.indexStatus(), null);
      assert.equal(await sandbox.waitForIndex(0), false);
      sandbox.close();
    }
  });

  test('waitForIndex takes a non-negative number of milliseconds', async () => {
    const sandbox = new Sandbox([root]);
    await assert.rejects(sandbox.waitForIndex(-1), (err) => {
      assert.ok(err instanceof FsnativeError);
      assert.equal(err.code, 'INVALID_ARGUMENT');
      assert.match(err.message, /`timeoutMs` must be a non-negative number, not -1/);
      return true;
    });
    await assert.rejects(sandbox.waitForIndex('5'), (err) => err instanceof TypeError && err.code === 'ERR_INVALID_ARG_TYPE');
  });
});

describe('the index', () => {
  test('reports its status once ready, in camelCase', async () => {
    const sandbox = await indexed(root, { maxFiles: 1000, content: true });
    const status = sandbox.indexStatus();
    assert.deepEqual(Object.keys(status).sort(), [
      'bytes',
      'cacheBytes',
      'cacheFiles',
      'cacheHits',
      'contentFiles',
      'contentMs',
      'contentPending',
      'dirs',
      'error',
      'files',
      'listMs',
      'memoryBytes',
      'rescans',
      'searches',
      'state',
      'store',
      'storeBytes',
      'storeChanges',
      'storeError',
      'unwatchedDirs',
      'watchedDirs',
      'watching',
    ]);
    assert.equal(status.store, null, 'no store without persist');
    assert.equal(status.state, 'ready');
    assert.equal(status.files, 3);
    assert.equal(status.dirs, 2);
    assert.equal(status.contentFiles, 3);
    assert.equal(status.contentPending, 0);
    const sizes = ['a.txt', 'sub/b.txt', 'sub/deep/c.md'].map((file) => fs.statSync(path.join(root, file)).size);
    assert.equal(
      status.bytes,
      sizes.reduce((sum, size) => sum + size),
    );
    assert.equal(status.watching, 'live');
    assert.equal(status.watchedDirs, 3);
    assert.equal(status.unwatchedDirs, 0);
    assert.equal(status.error, null);
    assert.equal(typeof status.listMs, 'number');
    assert.ok(status.memoryBytes > 0);
    assert.equal(status.searches, 0);
    const found = await sandbox.grep({ pattern: 'common' });
    assert.deepEqual(
      found.files.map((file) => file.relativePath),
      ['a.txt', 'sub/b.txt'],
    );
    assert.deepEqual(
      sandbox.globSync({ pattern: '**/*.md' }).entries.map((entry) => entry.relativePath),
      ['sub/deep/c.md'],
    );
    assert.equal(sandbox.indexStatus().searches, 2, 'both searches were answered from the index');
    sandbox.close();
  });

  test('serves small files from its content cache until they change', async () => {
    const dir = makeTree(Object.fromEntries([0, 1, 2, 3, 4].map((n) => [`f${n}.txt`, `common line\nvalue ${n}\n`])));
    // Past the clock's tick: the index's stamps vouch for these versions.
    await new Promise((resolve) => setTimeout(resolve, 250));
    const cached = await indexed(dir);
    const uncached = await indexed(dir, { cacheMemory: 0 });
    const plain = new Sandbox([dir]);
    try {
      const lines = (sandbox) => sandbox.grepSync({ pattern: 'value', context: 1 }).files.map((f) => [f.relativePath, f.matches]);
      for (let round = 0; round < 3; round++) {
        assert.deepEqual(lines(cached), lines(plain));
        assert.deepEqual(lines(uncached), lines(plain));
      }
      const status = cached.indexStatus();
      assert.deepEqual([status.cacheFiles, status.cacheBytes], [5, 5 * 20], JSON.stringify(status));
      assert.ok(status.cacheHits >= 5, JSON.stringify(status));
      const off = uncached.indexStatus();
      assert.deepEqual([off.cacheFiles, off.cacheBytes, off.cacheHits], [0, 0, 0]);
      fs.writeFileSync(path.join(dir, 'f2.txt'), 'common line\nvalue changed\n');
      const texts = cached.grepSync({ pattern: 'value' }).files.flatMap((f) => f.matches.map((m) => m.text));
      assert.deepEqual(texts, ['value 0', 'value 1', 'value changed', 'value 3', 'value 4']);
      assert.equal(cached.indexStatus().cacheFiles, 4);
    } finally {
      cached.close();
      uncached.close();
      removeTree(dir);
    }
  });

  test('without content, lists files but reads none', async () => {
    const sandbox = await indexed(root, { content: false });
    const status = sandbox.indexStatus();
    assert.equal(status.files, 3);
    assert.equal(status.contentFiles, 0);
    assert.equal(status.bytes, 0);
    sandbox.close();
  });

  test('answers with every change made before the search, 200 rounds', { skip: wineSkip(WINE_GAPS.lateChangeRecords) }, async () => {
    const dir = makeTree({ 'keep.txt': 'nothing to see\n' });
    const sandbox = await indexed(dir);
    try {
      const grep = (pattern) => sandbox.grepSync({ pattern, mode: 'files' }).files.map((file) => file.relativePath);
      for (let round = 0; round < 200; round++) {
        const file = path.join(dir, `d${round % 7}`, `f${round}.txt`);
        const token = `tok${round}x`;
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, `${token}\n`);
        assert.deepEqual(grep(token), [`d${round % 7}/f${round}.txt`], `round ${round}: created`);
        fs.writeFileSync(file, `changed${token}\n`);
        assert.deepEqual(grep(`changed${token}`), [`d${round % 7}/f${round}.txt`], `round ${round}: modified`);
        assert.deepEqual(grep(`^${token}`), [], `round ${round}: the old content is gone`);
        fs.rmSync(file);
        assert.deepEqual(grep(token), [], `round ${round}: deleted`);
      }
      const status = sandbox.indexStatus();
      assert.equal(status.state, 'ready');
      assert.equal(status.searches, 800, 'every search was answered from the index');
    } finally {
      sandbox.close();
      removeTree(dir);
    }
  });

  test('close() stops it; searches still answer, walking', async () => {
    const sandbox = await indexed(root);
    const before = await sandbox.grep({ pattern: 'common' });
    sandbox.close();
    sandbox.close();
    assert.equal(sandbox.indexStatus().state, 'closed');
    assert.equal(await sandbox.waitForIndex(10), false);
    const walked = await sandbox.grep({ pattern: 'common' });
    assert.deepEqual(walked.files, before.files);
    assert.equal(sandbox.indexStatus().searches, 1, 'only the search before close() read the index');
  });

  test('persists: a restart loads the store and finds what changed while it was down', async () => {
    const tree = makeTree({ 'a.txt': 'alpha common\n', 'sub/b.txt': 'beta common\n' });
    const store = makeTree({});
    try {
      const first = await indexed(tree, { persist: store });
      assert.deepEqual(first.indexStatus().store, { outcome: 'rebuilt', reason: 'no store yet' });
      first.close();
      assert.equal(first.indexStatus().storeError, null);
      fs.writeFileSync(path.join(tree, 'sub/b.txt'), 'beta changed_while_down\n');
      fs.writeFileSync(path.join(tree, 'new.txt'), 'changed_while_down\n');
      fs.rmSync(path.join(tree, 'a.txt'));
      const second = await indexed(tree, { persist: store });
      const status = second.indexStatus();
      assert.deepEqual(status.store, { outcome: 'loaded' });
      assert.ok(status.storeBytes > 0 && status.storeChanges > 0, JSON.stringify(status));
      const found = await second.grep({ pattern: 'changed_while_down' });
      assert.deepEqual(
        found.files.map((file) => file.relativePath),
        ['new.txt', 'sub/b.txt'],
      );
      assert.deepEqual(
        second.globSync({ pattern: '**/*.txt' }).entries.map((entry) => entry.relativePath),
        ['new.txt', 'sub/b.txt'],
      );
      assert.equal(second.indexStatus().searches, 2, 'answered from the loaded index');
      second.close();
    } finally {
      removeTree(tree);
      removeTree(store);
    }
  });

  test('Symbol.dispose closes it', async () => {
    const sandbox = await indexed(root);
    const dispose = Symbol.dispose ?? Symbol.for('nodejs.dispose');
    assert.equal(typeof sandbox[dispose], 'function');
    sandbox[dispose]();
    assert.equal(sandbox.indexStatus().state, 'closed');
    assert.equal(sandbox.globSync({ pattern: '*.txt' }).total, 1);
  });

  test('refuses / and the home directory unless allowHome', () => {
    // `/` is the root of the current drive on Windows (`C:\`).
    assertInvalidOption(() => new Sandbox(['/'], { index: true }), 'index', /refusing to index (\/|[A-Z]:\\):/);
    // A child process whose home (HOME; USERPROFILE on Windows) is a fresh directory: indexing it
    // is refused, allowHome indexes it.
    const home = makeTree({ 'h.txt': 'home\n' });
    try {
      const script = `
        const { Sandbox } = require('.');
        const home = process.env.HOME;
        let refused;
        try { new Sandbox([home], { index: true }); } catch (err) { refused = { code: err.code, option: err.option }; }
        const allowed = new Sandbox([home], { index: { allowHome: true } });
        allowed.waitForIndex(60000).then((ready) => {
          console.log(JSON.stringify({ refused, ready, files: allowed.indexStatus().files }));
          allowed.close();
        });`;
      const output = execFileSync(process.execPath, ['-e', script], {
        cwd: PACKAGE_DIR,
        env: { ...process.env, HOME: home, USERPROFILE: home },
        encoding: 'utf8',
      });
      assert.deepEqual(JSON.parse(output), { refused: { code: 'INVALID_OPTION', option: 'index' }, ready: true, files: 1 });
    } finally {
      removeTree(home);
    }
  });
});
