// Races through the binding: a worker thread swaps a file and a directory for symlinks to an
// outside secret in a tight loop while this thread greps, globs and validates many times. The
// secret never appears (the core opens files beneath its root's directory handle; see
// crates/fsnative/tests/race.rs). The worker is stopped in a `finally`, so a failure never
// hangs the run.
//
// FSNATIVE_FULL_LOAD=1 runs 2,000 rounds instead of the 300 that keep CI fast.

import assert from 'node:assert/strict';
import path from 'node:path';
import { test } from 'node:test';
import { Worker } from 'node:worker_threads';

import { Sandbox } from 'fsnative';
import { symlinksSkip } from '../support/system.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';

const FULL = process.env.FSNATIVE_FULL_LOAD === '1';
const ROUNDS = FULL ? 2000 : 300;

/** The swapper: flips root/victim.txt and root/dir between real entries and links outside, by rename. */
const SWAPPER = `
const fs = require('node:fs');
const { workerData: { root, outside, stop, flips } } = require('node:worker_threads');
const staging = root + '/.staging';
fs.mkdirSync(staging, { recursive: true });
let flip = false;
const quietly = (f) => { try { f(); } catch {} };
while (Atomics.load(stop, 0) === 0) {
  const fileLink = staging + '/victim';
  const dirLink = staging + '/dir';
  quietly(() => fs.rmSync(fileLink, { force: true }));
  quietly(() => fs.rmSync(dirLink, { recursive: true, force: true }));
  if (flip) {
    fs.symlinkSync(outside + '/secret.txt', fileLink);
    fs.symlinkSync(outside, dirLink);
  } else {
    fs.writeFileSync(fileLink, 'public needle\\n');
    fs.mkdirSync(dirLink);
    fs.writeFileSync(dirLink + '/secret.txt', 'public needle\\n');
  }
  quietly(() => fs.renameSync(fileLink, root + '/victim.txt'));
  quietly(() => fs.rmSync(root + '/dir', { recursive: true, force: true }));
  quietly(() => fs.renameSync(dirLink, root + '/dir'));
  flip = !flip;
  Atomics.add(flips, 0, 1);
}
`;

test(`a path swapped for a link to an outside secret never leaks it (${ROUNDS} rounds)`, { timeout: 120_000, skip: symlinksSkip() }, async (t) => {
  const fixture = makeTree({ 'outside/secret.txt': 'SECRET needle\n', 'root/victim.txt': 'public needle\n', 'root/dir/secret.txt': 'public needle\n' });
  const root = path.join(fixture, 'root');
  const outside = path.join(fixture, 'outside');
  const stop = new Int32Array(new SharedArrayBuffer(4));
  const flips = new Int32Array(new SharedArrayBuffer(4));
  const sandbox = new Sandbox([root]);
  const swapper = new Worker(SWAPPER, { eval: true, workerData: { root, outside, stop, flips } });
  let failed = null;
  swapper.on('error', (err) => (failed = err));
  let searched = 0;
  let validateEinval = 0;
  try {
    while (Atomics.load(flips, 0) < 2 && failed === null) await new Promise((resolve) => setTimeout(resolve, 1));
    for (let round = 0; round < ROUNDS && failed === null; round++) {
      const options = { pattern: 'needle', followLinks: round % 2 === 0, hidden: true, limit: null };
      const found = round % 3 === 0 ? sandbox.grepSync(options) : await sandbox.grep(options);
      searched += found.stats.filesSearched;
      for (const file of found.files) {
        assert.ok(typeof file.path === 'string' && file.path.startsWith(`${root}${path.sep}`), `round ${round}: ${JSON.stringify(file.path)}`);
        for (const match of file.matches) assert.ok(!match.text.includes('SECRET'), `round ${round}: leaked ${file.relativePath}: ${match.text}`);
      }
      const text = await sandbox.grepText({ ...options, path: round % 2 ? 'dir' : 'victim.txt' }).then(
        (page) => page.text,
        (err) => err.code,
      );
      assert.ok(!String(text).includes('SECRET'), `round ${round}: grepText leaked ${text}`);
      const listed =
        round % 2
          ? sandbox.globSync({ pattern: '**', limit: null, hidden: true, followLinks: true })
          : await sandbox.glob({ pattern: '**', limit: null, hidden: true });
      for (const entry of listed.entries) {
        assert.ok(entry.path.startsWith(`${root}${path.sep}`), `round ${round}: glob escaped to ${entry.path}`);
      }
      for (const name of ['victim.txt', 'dir/secret.txt']) {
        try {
          const valid = sandbox.validate(name);
          assert.ok(valid.startsWith(`${root}${path.sep}`), `round ${round}: validate(${name}) = ${valid}`);
        } catch (err) {
          // A refusal, never a path outside. EINVAL is the core's readlink of a component
          // that stopped being a link between its lstat and its readlink (reported upstream).
          const einval = err.code === 'IO' && /os error 22/.test(err.message);
          assert.ok(['OUTSIDE_SANDBOX', 'NOT_FOUND', 'NOT_A_DIRECTORY', 'SYMLINK_LOOP'].includes(err.code) || einval, `round ${round}: ${err.code} ${err}`);
          if (einval) validateEinval++;
        }
      }
    }
  } finally {
    Atomics.store(stop, 0, 1);
    await swapper.terminate();
    removeTree(fixture);
  }
  t.diagnostic(`${searched} files searched, ${Atomics.load(flips, 0)} swaps, ${validateEinval} validate EINVAL refusals`);
  assert.equal(failed, null, `the swapper failed: ${failed}`);
  assert.ok(searched > 0, 'the searches ran');
  assert.ok(Atomics.load(flips, 0) > 10, `the swapper flipped only ${Atomics.load(flips, 0)} times`);
});
