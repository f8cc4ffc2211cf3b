// The async methods: searches run off the JavaScript thread, `signal` stops them, and many
// concurrent calls all settle with their own answer. Nothing here measures time (timings
// belong in the benchmarks): the slow search below takes far longer than the few turns of
// the event loop the tests wait for, and each assertion is about what happened, not when.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { after, describe, test } from 'node:test';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';

import { AbortError, FsnativeError, Sandbox } from 'fsnative';
import native from '../../lib/native.js';
import { grepResult } from '../../lib/transfer.js';
import { makeLargeTree, makeTree, removeTree } from '../support/tree.mjs';

const FILES = 200;
const LINES = 2000;
const large = makeLargeTree(FILES, LINES);
after(() => removeTree(large));
const largeSandbox = new Sandbox([large]);
/** A single-threaded search of every line of the large tree that takes a while. */
const SLOW_COUNT = { pattern: '(\\p{L}+\\s+){2}needle(\\s+\\p{L}+){2}', caseMode: 'insensitive', mode: 'count', limit: null, threads: 1 };

/** Asserts that `promise` rejects with the package's AbortError carrying `reason`. */
async function assertAborted(promise, reason) {
  await assert.rejects(promise, (err) => {
    assert.ok(err instanceof AbortError, `expected an AbortError, got ${err}`);
    assert.equal(err.name, 'AbortError');
    assert.equal(err.code, 'ABORT_ERR');
    assert.equal(err.cause, reason);
    return true;
  });
}

describe('off the JavaScript thread', () => {
  test('the event loop keeps turning while large greps run', async () => {
    // A grep that blocked would run all eight searches before the interval could fire once:
    // the calls are made, and their promises settle, before the event loop turns.
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const results = await Promise.all(Array.from({ length: 8 }, () => largeSandbox.grep(SLOW_COUNT)));
    clearInterval(timer);
    for (const result of results) assert.equal(result.totalMatches, FILES * LINES);
    assert.ok(ticks > 0, 'setInterval never fired while the searches ran');
  });

  test('a synchronous grep, by contrast, blocks it', () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    largeSandbox.grepSync(SLOW_COUNT);
    clearInterval(timer);
    assert.equal(ticks, 0);
  });
});

describe('signal', () => {
  test('aborting mid-search cancels the call in the core and rejects with AbortError', async () => {
    // Which native tokens the abort cancels (the next test shows that a cancelled token stops
    // the core's search).
    const cancelled = [];
    const { cancel } = native.CancelToken.prototype;
    native.CancelToken.prototype.cancel = function recordCancel() {
      cancelled.push(this);
      return cancel.call(this);
    };
    const controller = new AbortController();
    try {
      const search = largeSandbox.grep({ ...SLOW_COUNT, signal: controller.signal });
      await nextTurn();
      controller.abort('enough');
      await assertAborted(search, 'enough');
    } finally {
      native.CancelToken.prototype.cancel = cancel;
    }
    assert.equal(cancelled.length, 1, "the abort cancelled the call's token");
    assert.ok(cancelled[0] instanceof native.CancelToken);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });

  test('the cancel token stops the core mid-search, with a cursor to continue', async () => {
    const addon = new native.Sandbox([large]);
    const token = new native.CancelToken();
    const pending = addon.grep(JSON.stringify(SLOW_COUNT), token);
    await sleep(5);
    token.cancel();
    const result = grepResult(await pending);
    assert.equal(result.truncated, 'cancelled');
    assert.ok(result.totalMatches < FILES * LINES, `${result.totalMatches} matches: the search was not stopped`);
    assert.equal(typeof result.nextCursor, 'string');
  });

  test('an already aborted signal rejects without searching', async () => {
    const reason = new Error('stop');
    await assertAborted(largeSandbox.grep({ pattern: 'needle', signal: AbortSignal.abort(reason) }), reason);
    await assertAborted(largeSandbox.glob({ pattern: '**', signal: AbortSignal.abort(reason) }), reason);
    await assertAborted(largeSandbox.grepText({ pattern: 'needle', signal: AbortSignal.abort(reason) }), reason);
  });

  test('glob and grepText stop too', async () => {
    for (const start of [(signal) => largeSandbox.glob({ pattern: '**', limit: null, signal }), (signal) => largeSandbox.grepText({ ...SLOW_COUNT, signal })]) {
      const controller = new AbortController();
      const call = start(controller.signal);
      controller.abort();
      await assertAborted(call, controller.signal.reason);
    }
  });

  test('a call that finishes first resolves and lets go of the signal', async () => {
    const controller = new AbortController();
    const result = await largeSandbox.grep({ pattern: 'needle', path: 'd0/f0.txt', signal: controller.signal });
    assert.equal(result.totalMatches, 1000);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
  });
});

describe('1,000 concurrent calls', () => {
  const small = makeTree(Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}.txt`, `word${i}\n`.repeat(i + 1)])));
  after(() => removeTree(small));
  const sandbox = new Sandbox([small]);

  test('all settle, each with its own answer', async () => {
    const controller = new AbortController();
    const calls = Array.from({ length: 1000 }, (_, i) => {
      switch (i % 4) {
        case 0:
          return sandbox.grep({ pattern: `word${i % 10}\\b` });
        case 1:
          return sandbox.grep({ pattern: `word${i % 10}(` });
        case 2:
          return sandbox.glob({ pattern: `f${i % 10}.txt` });
        default:
          return sandbox.grep({ pattern: 'word', signal: controller.signal });
      }
    });
    assert.equal(getEventListeners(controller.signal, 'abort').length, 1, 'one listener for the 250 calls sharing the signal');
    controller.abort();
    const outcomes = await Promise.allSettled(calls);
    assert.equal(outcomes.length, 1000);
    assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
    outcomes.forEach((outcome, i) => {
      switch (i % 4) {
        case 0:
          assert.equal(outcome.status, 'fulfilled');
          assert.equal(outcome.value.totalMatches, (i % 10) + 1);
          assert.equal(outcome.value.files[0].relativePath, `f${i % 10}.txt`);
          break;
        case 1:
          assert.equal(outcome.status, 'rejected');
          assert.ok(outcome.reason instanceof FsnativeError);
          assert.equal(outcome.reason.code, 'INVALID_PATTERN');
          break;
        case 2:
          assert.equal(outcome.status, 'fulfilled');
          assert.deepEqual(
            outcome.value.entries.map((entry) => entry.relativePath),
            [`f${i % 10}.txt`],
          );
          break;
        default:
          assert.equal(outcome.status, 'rejected');
          assert.ok(outcome.reason instanceof AbortError);
      }
    });
  });
});
