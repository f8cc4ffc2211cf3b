// Hostile files. Every call returns within its bounds (a guard fails a hung call and ends the
// process rather than blocking CI) and says what it skipped in its stats; hostile arguments
// are in hostile-arguments.test.mjs. These run at full size in CI; FSNATIVE_FULL_LOAD (see
// load and race) does not change them.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import { FsnativeError, Sandbox } from 'fsnative';
import platform from '../../lib/platform.js';
import { GUARD_MS, guarded } from '../support/guard.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';
import { PACKAGE_RUNTIME, unreadableDirectoryCase } from '../support/unreadable-case.mjs';

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
      assert.deepEqual(
        listed.entries.map((e) => e.relativePath),
        ['sparse.bin'],
      );
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

    test('is skipped and counted (as this user)', {
      skip: asRoot && 'running as root: permission bits do not apply (covered by the next test as nobody)',
    }, async () => {
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
      assert.throws(() => sandbox.validate('zeros'), { code: 'OUTSIDE_SANDBOX' });

      for (const followLinks of [false, true]) {
        const listed = await guarded(sandbox.glob({ pattern: '*', kind: 'all', followLinks }), 'glob');
        assert.deepEqual(
          listed.entries.map((e) => e.relativePath),
          ['a.txt'],
        );
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
      assert.throws(() => sandbox.validate('loop-a'), { code: 'SYMLINK_LOOP' });
      assert.equal(sandbox.validate(`${'loop/'.repeat(30)}loop`), root);
      assert.throws(
        () => sandbox.validate(`${'loop/'.repeat(50)}a`),
        (err) => err instanceof FsnativeError && ['SYMLINK_LOOP', 'NOT_FOUND'].includes(err.code),
      );
      assert.equal(sandbox.validate(`${'d/'.repeat(1000)}bottom.txt`), path.join(root, `${'d/'.repeat(1000)}bottom.txt`));
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
        assert.deepEqual(sandbox.validate(full), { bytes: full.toString('base64') });
      }
      const { text } = await guarded(sandbox.grepText({ pattern: 'needle', mode: 'files' }, { pathStyle: 'relative' }), 'grepText');
      assert.equal(text.split('\n').length, 5);
    } finally {
      removeTree(root);
    }
  });
});

function assertUnreadableSkipped({ grep, glob, validate }) {
  assert.deepEqual(
    grep.files.map((f) => f.relativePath),
    ['a.txt'],
  );
  assert.equal(grep.stats.skippedErrors, 2, 'the locked directory and the unreadable file');
  assert.equal(validate, 'PERMISSION_DENIED');
  assert.deepEqual(
    glob.entries.map((e) => e.relativePath),
    ['a.txt', 'unreadable.txt'],
  );
  assert.equal(glob.stats.skippedErrors, 1, 'the locked directory');
}
