// Load through the binding: many concurrent async greps and globs all settle with correct
// answers, and resident memory stops growing (no leak per call).
//
// CI runs a size that keeps it fast: 200 concurrent calls, memory compared between 500 and
// 2,000 calls. FSNATIVE_FULL_LOAD=1 runs the full size: 1,000 concurrent calls,
// memory compared between 1,000 and 10,000 calls:
//   cd npm && FSNATIVE_FULL_LOAD=1 node --test test/binding/load.test.mjs
// Resident memory is VmRSS from /proc/self/status, after a full garbage collection. It is
// compared after a warm-up: the first few thousand calls grow it by 10-15 MB as glibc fills its
// per-thread arenas and its cache of thread stacks (each grep starts its own worker threads),
// and then it stays flat (within 1 MB from 10,000 to 30,000 calls); a leak keeps growing.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { after, test } from 'node:test';
import v8 from 'node:v8';
import vm from 'node:vm';

import { FsnativeError, Sandbox } from 'fsnative';
import { makeTree, removeTree } from '../support/tree.mjs';

const FULL = process.env.FSNATIVE_FULL_LOAD === '1';
const CONCURRENT = FULL ? 1000 : 200;
const [EARLY, LATE] = FULL ? [1000, 10_000] : [500, 2000];
const WARM_UP = FULL ? 10_000 : 3000;
/** Growth of resident memory allowed from the first readings (up to EARLY calls) to the last. */
const LEAK_MB = 8;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc');

const FILES = 20;
const root = makeTree(
  Object.fromEntries(Array.from({ length: FILES }, (_, i) => [`d${i % 4}/f${String(i).padStart(2, '0')}.txt`, `word${i}\n`.repeat(i + 1) + 'common line\n'])),
);
after(() => removeTree(root));
const sandbox = new Sandbox([root]);

function rssMb() {
  const line = fs
    .readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(line.split(/\s+/)[1]) / 1024;
}

/** Call `i` of a mix of operations, and a check of its answer. */
function call(i) {
  const n = i % FILES;
  const file = `d${n % 4}/f${String(n).padStart(2, '0')}.txt`;
  switch (i % 6) {
    case 0:
      return sandbox.grep({ pattern: `word${n}\\b` }).then((r) => {
        assert.equal(r.totalMatches, n + 1);
        assert.equal(r.files[0].relativePath, file);
      });
    case 1:
      return sandbox.grep({ pattern: 'common', mode: 'files', limit: null }).then((r) => assert.equal(r.files.length, FILES));
    case 2:
      return sandbox.glob({ pattern: `**/f${String(n).padStart(2, '0')}.txt` }).then((r) =>
        assert.deepEqual(
          r.entries.map((e) => e.relativePath),
          [file],
        ),
      );
    case 3:
      return sandbox.grepText({ pattern: `word${n}\\b`, mode: 'count' }, { pathStyle: 'relative' }).then((t) => assert.equal(t.text, `${file}:${n + 1}\n`));
    case 4:
      return sandbox.grep({ pattern: `word${n}(` }).then(
        () => assert.fail('an invalid pattern was accepted'),
        (err) => assert.ok(err instanceof FsnativeError && err.code === 'INVALID_PATTERN'),
      );
    default:
      return sandbox.glob({ pattern: '**/*.txt', limit: 5 }).then((r) => {
        assert.equal(r.total, FILES);
        assert.equal(r.entries.length, 5);
        assert.equal(r.truncated, 'limit');
      });
  }
}

test(`${CONCURRENT} concurrent async greps and globs all settle, each with its own answer`, { timeout: 120_000 }, async (t) => {
  const started = performance.now();
  const outcomes = await Promise.allSettled(Array.from({ length: CONCURRENT }, (_, i) => call(i)));
  const elapsed = performance.now() - started;
  const failures = outcomes.filter((o) => o.status === 'rejected');
  assert.deepEqual(
    failures.slice(0, 3).map((f) => String(f.reason)),
    [],
  );
  t.diagnostic(`${CONCURRENT} concurrent calls settled in ${elapsed.toFixed(0)} ms`);
});

const NO_PROC = !fs.existsSync('/proc/self/status') && 'resident memory is read from /proc/self/status (Linux)';
test(`resident memory stops growing between ${EARLY} and ${LATE} calls`, { timeout: 300_000, skip: NO_PROC }, async (t) => {
  // Settled RSS moves by several MB from one reading to the next (the allocators keep and
  // return pages as threads come and go), so one reading against another flakes. A leak raises
  // every later reading: the lowest of the last quarter must stay within LEAK_MB of the highest
  // up to EARLY calls.
  const BATCH = 100;
  const STEP = EARLY / 2;
  const settle = () => {
    gc();
    gc();
    return rssMb();
  };
  let done = 0;
  const run = async (until) => {
    while (done < until) {
      const batch = Math.min(BATCH, until - done);
      await Promise.all(Array.from({ length: batch }, (_, i) => call(done + i)));
      done += batch;
    }
  };
  const before = settle();
  await run(WARM_UP);
  const warm = settle();
  const started = performance.now();
  const readings = [];
  for (let calls = STEP; calls <= LATE; calls += STEP) {
    await run(WARM_UP + calls);
    readings.push({ calls, rss: settle() });
  }
  const elapsed = performance.now() - started;
  const early = Math.max(...readings.filter((r) => r.calls <= EARLY).map((r) => r.rss));
  const late = Math.min(...readings.filter((r) => r.calls >= (LATE * 3) / 4).map((r) => r.rss));
  t.diagnostic(`RSS before ${before.toFixed(1)} MB, after a warm-up of ${WARM_UP} calls ${warm.toFixed(1)} MB`);
  t.diagnostic(`RSS every ${STEP} calls: ${readings.map((r) => r.rss.toFixed(1)).join(', ')} MB; ${LATE} calls in ${elapsed.toFixed(0)} ms`);
  assert.ok(
    late - early < LEAK_MB,
    `resident memory grew ${(late - early).toFixed(1)} MB: at least ${late.toFixed(1)} MB after ${(LATE * 3) / 4} calls, at most ${early.toFixed(1)} MB up to ${EARLY}`,
  );
});
