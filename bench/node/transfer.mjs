// A whole grep result crossing into JavaScript: the CPython standard library's email package
// (the `email` corpus), every `\bdef\b` with 2 lines of context, no limit. fsnative's async and
// sync grep, on a plain sandbox and on one with a warm index (its prefilter and content cache),
// each reading the path, line number and text of every match and context line (so
// no lazy object gets away with doing less), against spawning `rg -n -C2 PATTERN DIR` and
// splitting its stdout into lines.
//
// Measured in two arrangements. A call made right after rg exits runs slower (the fork leaves
// the process's pages copy-on-write and its caches cold; by up to a millisecond on a busy
// machine), so in the first (case `email_context`) rg opens every round and the two fsnative
// calls take turns following it. In the second (`email_context_runs`) each tool makes runs of
// ten calls in a row, as a server that no longer spawns rg would. The report checks the
// targets in both: async ≥ 10× faster than spawning rg, and async within 0.2 ms of sync; with
// bench/transfer_python.py's rows (the same search from Python, measured the same way), Node's
// cost over Python's.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { corpus, fsnative, interleaved, patternsOf, RG, record, SCENARIOS, SMOKE, save } from './measure.mjs';

const CASE_ID = 'email_context';
const TREE = 'email';
const testCase = SCENARIOS[CASE_ID];
const [pattern] = patternsOf(testCase, TREE);
const dir = corpus(TREE);
const sandbox = new fsnative.Sandbox([dir]);
const indexed = new fsnative.Sandbox([dir], { index: true });
assert.ok(await indexed.waitForIndex(60_000), JSON.stringify(indexed.indexStatus()));
const options = { pattern, context: testCase.context, limit: testCase.limit };

/** The core's own time (stats.elapsedMs) of each fsnative call, by implementation. */
const searchMs = { async: [], sync: [], indexedAsync: [], indexedSync: [], indexedOneThread: [] };

/** Reads every record a tool would: [match records, files]. */
function readAll(result, kind) {
  searchMs[kind].push(result.stats.elapsedMs);
  let matches = 0;
  let read = 0;
  for (const file of result.files) {
    const path = file.path;
    for (const match of file.matches) {
      matches++;
      read += path.length + match.lineNumber + match.text.length;
      for (const line of match.before) read += path.length + line.lineNumber + line.text.length;
      for (const line of match.after) read += path.length + line.lineNumber + line.text.length;
    }
  }
  assert.ok(read > 0);
  return [matches, result.files.length];
}

const RG_ARGS = ['-n', `-C${testCase.context}`, pattern, dir];

/** rg's stdout. */
function ripgrep(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(RG, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(Buffer.concat(chunks).toString()) : reject(new Error(`rg exited with ${code}`))));
  });
}

const ASYNC = 'fsnative (async)';
const SYNC = 'fsnative (sync)';
const INDEXED_ASYNC = 'fsnative indexed (async)';
const INDEXED_SYNC = 'fsnative indexed (sync)';
// The same on the calling thread alone: with every file from the content cache the search is
// all computing, and handing files to helper threads may cost more than it saves.
const INDEXED_ONE_THREAD = 'fsnative indexed (async, threads: 1)';
const RG_PEER = 'spawn rg -n -C2, split lines';
const impls = {
  [ASYNC]: async () => readAll(await sandbox.grep(options), 'async'),
  [SYNC]: async () => readAll(sandbox.grepSync(options), 'sync'),
  [INDEXED_ASYNC]: async () => readAll(await indexed.grep(options), 'indexedAsync'),
  [INDEXED_SYNC]: async () => readAll(indexed.grepSync(options), 'indexedSync'),
  [INDEXED_ONE_THREAD]: async () => readAll(await indexed.grep({ ...options, threads: 1 }), 'indexedOneThread'),
  [RG_PEER]: async () => [(await ripgrep(RG_ARGS)).split('\n').length - 1, 0],
};
const rounds = SMOKE ? {} : { warmup: testCase.rounds.warmup, reps: testCase.rounds.measured };
const arrangements = [
  { caseId: CASE_ID, title: `${testCase.title}, each call right after rg`, block: 1 },
  { caseId: `${CASE_ID}_runs`, title: `${testCase.title}, runs of 10 calls per tool`, block: 10 },
];

// The rg runs timed only the split; their matches and files are counted here, untimed, by
// `rg -c` (one `path:count` line per file).
const counts = (await ripgrep(['-c', pattern, dir]))
  .trimEnd()
  .split('\n')
  .map((line) => Number(line.slice(line.lastIndexOf(':') + 1)));
const median = (values) => values.toSorted((a, b) => a - b)[values.length >> 1];
const rows = [];
for (const { caseId, title, block } of arrangements) {
  for (const samples of Object.values(searchMs)) samples.length = 0;
  const orders = [
    [RG_PEER, ASYNC, SYNC, INDEXED_ASYNC, INDEXED_SYNC, INDEXED_ONE_THREAD],
    [RG_PEER, INDEXED_ONE_THREAD, INDEXED_SYNC, INDEXED_ASYNC, SYNC, ASYNC],
  ];
  const runs = await interleaved(impls, { ...rounds, block, orders });
  Object.assign(runs[RG_PEER], { matches: counts.reduce((a, b) => a + b, 0), files: counts.length });
  const searchNote = (kind) => `of which the core's search (stats.elapsedMs): ${median(searchMs[kind]).toFixed(2)} ms`;
  rows.push(
    ...record('transfer-node', TREE, caseId, title, runs, (name) => (name === RG_PEER ? [ASYNC, INDEXED_ASYNC, INDEXED_ONE_THREAD] : []), {
      [ASYNC]: searchNote('async'),
      [SYNC]: `${searchNote('sync')}; blocks the event loop for the whole search`,
      [INDEXED_ASYNC]: searchNote('indexedAsync'),
      [INDEXED_ONE_THREAD]: `${searchNote('indexedOneThread')}; searched on the calling thread alone`,
      [INDEXED_SYNC]: `${searchNote('indexedSync')}; blocks the event loop for the whole search`,
      [RG_PEER]: `\`rg ${RG_ARGS.slice(0, 3).join(' ')} DIR\`; the lines are not parsed into fields`,
    }),
  );
}
save('transfer-node', rows);
