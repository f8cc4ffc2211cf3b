// Frecency and path boost through the Node API: the options (checked by the core), recording
// and scoring only inside the sandbox, grep in frecency order with recorded hits, a thesaurus
// file reloaded (and a bad one reported), and one database shared by several processes.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { FsnativeError, InvalidOptionError, Sandbox } from 'fsnative';
import { WINE_GAPS, wineSkip } from '../support/system.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';

const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));

const dir = makeTree({
  'root/src/auth/login.js': 'needle\n',
  'root/src/db.js': 'needle\n',
  'root/lib/cache.js': 'needle\n',
  'root/notes.txt': 'hay\n',
  'outside.js': 'needle\n',
});
const root = path.join(dir, 'root');
after(() => removeTree(dir));

let databases = 0;
/** A new frecency database directory, outside the root. */
function database() {
  databases += 1;
  return path.join(dir, `frecency-${databases}`);
}

/** Polls `done` every 20 ms for at most 10 s. */
async function eventually(done) {
  for (let waited = 0; waited < 10_000; waited += 20) {
    if (done()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

describe('rank options', () => {
  test('are checked by the core, each complaint naming its option', () => {
    const cases = [
      [{ recordHits: true }, 'recordHits', /^Sandbox option `recordHits` needs option `frecency`$/],
      [{ frecency: { path: database(), profile: 'fast' } }, 'frecency.profile', /must be "normal" or "ai", not "fast"$/],
      [{ frecency: 3 }, 'frecency', /must be a boolean, a path string or an object with `path` and `profile`, not 3$/],
      [{ thesaurus: {}, boostWeight: -1 }, 'boostWeight', /must be an integer from 0 to 4294967295, not -1$/],
      [{ maxBoost: 3 }, 'maxBoost', /^Sandbox option `maxBoost` needs option `thesaurus`$/],
      [{ thesaurus: { auth: 1 } }, 'thesaurus', /thesaurus term "auth" must map to a concept string, not 1$/],
      [{ boost_weight: 1 }, 'boost_weight', /\(did you mean `boostWeight`\?\)$/],
    ];
    for (const [options, option, message] of cases) {
      assert.throws(
        () => new Sandbox([root], options),
        (err) => {
          assert.ok(err instanceof InvalidOptionError, `expected an InvalidOptionError, got ${err}`);
          assert.equal(err.option, option);
          assert.match(err.message, message);
          return true;
        },
      );
    }
  });

  test('a missing or bad thesaurus file fails the constructor', () => {
    fs.writeFileSync(path.join(dir, 'bad.json'), '{"auth": ');
    assert.throws(() => new Sandbox([root], { thesaurus: path.join(dir, 'missing.json') }), { code: 'NOT_FOUND' });
    assert.throws(() => new Sandbox([root], { thesaurus: path.join(dir, 'bad.json') }), { code: 'INVALID_ARGUMENT' });
  });
});

describe('frecency', () => {
  // Every test here opens a frecency store.
  const skip = wineSkip(WINE_GAPS.lmdbView);

  test('records and scores only what lies inside the sandbox', { skip }, () => {
    const sandbox = new Sandbox([root], { frecency: database() });
    for (const outside of [path.join(dir, 'outside.js'), '../outside.js']) {
      assert.throws(
        () => sandbox.recordAccess(outside),
        (err) => err instanceof FsnativeError && err.code === 'OUTSIDE_SANDBOX',
      );
      assert.throws(() => sandbox.frecencyScore(outside), { code: 'OUTSIDE_SANDBOX' });
    }
    assert.throws(() => sandbox.recordAccess('src/nope.js'), { code: 'NOT_FOUND' });
    assert.throws(
      () => sandbox.recordAccess(42),
      (err) => err instanceof TypeError && err.code === 'ERR_INVALID_ARG_TYPE',
    );
    sandbox.recordAccess('src/db.js');
    sandbox.recordAccess(Buffer.from(path.join(root, 'src/db.js')));
    const score = sandbox.frecencyScore('src/db.js');
    assert.ok(score > 1.99 && score <= 2, `${score}`);
    assert.equal(sandbox.frecencyScore('lib/cache.js'), 0);
    const plain = new Sandbox([root]);
    assert.throws(() => plain.recordAccess('src/db.js'), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => plain.frecencyScore('src/db.js'), { code: 'INVALID_ARGUMENT' });
    assert.throws(() => plain.grepSync({ pattern: 'needle', sort: 'frecency' }), { code: 'INVALID_OPTION', option: 'sort' });
  });

  test('frecencyStatus names the database and its profile, null without one', { skip }, () => {
    const db = database();
    const status = new Sandbox([root], { frecency: { path: db, profile: 'ai' } }).frecencyStatus();
    assert.deepEqual(status, { path: fs.realpathSync(db), profile: 'ai' });
    assert.equal(new Sandbox([root]).frecencyStatus(), null);
  });

  test('orders grep and glob, and recordHits records every file a grep returns', { skip }, async () => {
    const sandbox = new Sandbox([root], { frecency: { path: database(), profile: 'ai' }, recordHits: true });
    sandbox.recordAccess('src/db.js');
    const pages = [];
    let cursor = null;
    do {
      const page = await sandbox.grep({ pattern: 'needle', mode: 'files', sort: 'frecency', limit: 1, cursor });
      pages.push(...page.files.map((file) => file.relativePath));
      cursor = page.nextCursor;
    } while (cursor !== null);
    assert.deepEqual(pages, ['src/db.js', 'lib/cache.js', 'src/auth/login.js']);
    // Each hit was recorded once more; the file without a match not at all.
    assert.ok(sandbox.frecencyScore('src/db.js') > 1.99);
    assert.ok(sandbox.frecencyScore('lib/cache.js') > 0.99 && sandbox.frecencyScore('lib/cache.js') <= 1);
    assert.equal(sandbox.frecencyScore('notes.txt'), 0);
    for (let i = 0; i < 3; i++) sandbox.recordAccess('notes.txt');
    const listed = sandbox.globSync({ pattern: '**/*', sort: 'frecency' }).entries.map((entry) => entry.relativePath);
    // notes.txt (3 accesses), db.js (2), then the two files of one access each.
    assert.deepEqual(listed.slice(0, 2), ['notes.txt', 'src/db.js']);
    assert.deepEqual(listed.slice(2).sort(), ['lib/cache.js', 'src/auth/login.js']);
  });

  test('several processes share one database (and frecency: true reads FSNATIVE_FRECENCY_DB)', { skip }, async () => {
    const db = database();
    const script = `
      const { Sandbox } = require('fsnative');
      const sandbox = new Sandbox([process.argv[1]], { frecency: true });
      for (let i = 0; i < 30; i++) sandbox.recordAccess('lib/cache.js');`;
    const run = promisify(execFile);
    const env = { ...process.env, FSNATIVE_FRECENCY_DB: db };
    await Promise.all([0, 1, 2].map(() => run(process.execPath, ['-e', script, root], { cwd: PACKAGE_DIR, env })));
    const sandbox = new Sandbox([root], { frecency: { path: db } });
    // 90 accesses just now: 10 + sqrt(80).
    assert.ok(Math.abs(sandbox.frecencyScore('lib/cache.js') - (10 + Math.sqrt(80))) < 1e-3);
    assert.throws(() => new Sandbox([root], { frecency: { path: db, profile: 'ai' } }), { code: 'INVALID_ARGUMENT' });
  });
});

describe('path boost', () => {
  test('counts the concepts a path mentions below its root', () => {
    const sandbox = new Sandbox([root], { thesaurus: { auth: 'security', login: 'security', db: 'storage', root: 'x' }, boostWeight: 7, maxBoost: 10 });
    assert.equal(sandbox.pathBoost('src/auth/login.js'), 7);
    assert.equal(sandbox.pathBoost('src/db.js'), 7);
    assert.equal(sandbox.pathBoost('notes.txt'), 0);
    assert.throws(() => sandbox.pathBoost('../outside.js'), { code: 'OUTSIDE_SANDBOX' });
    assert.deepEqual(sandbox.thesaurusStatus(), { path: null, terms: 4, concepts: 3, reloads: 0, lastError: null, weightPerTerm: 7, maxBoost: 10 });
    assert.equal(new Sandbox([root]).thesaurusStatus(), null);
    assert.throws(() => new Sandbox([root]).pathBoost('src/db.js'), { code: 'INVALID_ARGUMENT' });
  });

  test('a thesaurus file is reloaded when it changes, and a bad one keeps the last good', async () => {
    const file = path.join(dir, 'kg.json');
    fs.writeFileSync(file, JSON.stringify({ name: 'kg', data: { auth: { id: 1, nterm: 'auth', url: null } } }));
    const sandbox = new Sandbox([root], { thesaurus: file });
    assert.equal(sandbox.pathBoost('src/auth/login.js'), 5);
    fs.writeFileSync(file, JSON.stringify({ auth: 'security', db: 'storage' }));
    assert.ok(await eventually(() => sandbox.thesaurusStatus().reloads === 1));
    assert.equal(sandbox.pathBoost('src/db.js'), 5);
    fs.writeFileSync(file, '{not json');
    assert.ok(await eventually(() => sandbox.thesaurusStatus().lastError !== null));
    assert.match(sandbox.thesaurusStatus().lastError, /is not JSON/);
    assert.equal(sandbox.pathBoost('src/db.js'), 5);
    assert.equal(sandbox.thesaurusStatus().path, path.join(fs.realpathSync(dir), 'kg.json'));
  });
});
