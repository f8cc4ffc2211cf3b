// fsMCP's time budget: FSMCP_GREP_TIMEOUT_MS (else 30 s) bounds fs_grep and fs_glob through
// the core's deadline, and a search that runs out of it answers fsMCP's error, never a partial
// list. The tree is large enough that 5 ms surely runs out; nothing here measures time.

import assert from 'node:assert/strict';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fsGlob, fsGrep } from 'fsnative/fsmcp';
import { makeTree, removeTree } from '../support/tree.mjs';

const FILE_COUNT = 20_000;
/** One file in this many holds the marker (and is named for it), spread over the whole walk. */
const MARKED_EVERY = 1000;

let root;
let markedFiles;

before(() => {
  delete process.env.FSMCP_GREP_TIMEOUT_MS;
  const files = {};
  for (let i = 0; i < FILE_COUNT; i++) {
    const marked = i % MARKED_EVERY === 0;
    files[`d${i % 16}/f${i}${marked ? '-marked' : ''}.txt`] = `line one\nline two${marked ? ' marker' : ''}\nline three\n`;
  }
  root = makeTree(files);
  markedFiles = Object.keys(files)
    .filter((relative) => relative.endsWith('-marked.txt'))
    .map((relative) => path.join(root, relative))
    .sort();
});

after(() => removeTree(root));

const ctx = () => ({ allowedDirs: [root] });
const grepMarker = () => fsGrep({ pattern: 'marker' }, ctx());
const globMarked = () => fsGlob({ pattern: '**/*-marked.txt' }, ctx());

/** `search()` run with FSMCP_GREP_TIMEOUT_MS set to `value`. */
function withBudget(value, search) {
  process.env.FSMCP_GREP_TIMEOUT_MS = value;
  try {
    return search();
  } finally {
    delete process.env.FSMCP_GREP_TIMEOUT_MS;
  }
}

/** Asserts `result` lists exactly the marked files. */
function assertListsMarkedFiles(result) {
  assert.equal(result.isError, undefined, JSON.stringify(result));
  assert.deepEqual(result.content[0].text.split('\n').sort(), markedFiles);
}

/** Asserts `result` is the time-out error of `search` for `ms`, holding no path. */
function assertTimedOut(result, search, ms) {
  assert.equal(result.isError, true, JSON.stringify(result).slice(0, 500));
  assert.equal(result.content.length, 1);
  const { text } = result.content[0];
  assert.match(text, new RegExp(`^${search} timed out after ${ms}ms and was stopped\\. \\S[^\\n]*\\.$`));
  assert.ok(!text.includes(root), text);
}

test('with the default budget, fs_grep and fs_glob find every marked file', () => {
  assertListsMarkedFiles(grepMarker());
  assertListsMarkedFiles(globMarked());
});

test('fs_grep out of a 5 ms budget answers the time-out error and no partial list', () => {
  assertTimedOut(withBudget('5', grepMarker), 'grep', 5);
});

test('fs_glob out of a 5 ms budget answers the time-out error and no partial list', () => {
  assertTimedOut(withBudget('5', globMarked), 'glob', 5);
});

test('a budget that is not a positive whole number of ms falls back to 30 s', () => {
  for (const value of ['', '0', '-5', '5.5', '5ms', '0x5']) {
    assertListsMarkedFiles(withBudget(value, grepMarker));
    assertListsMarkedFiles(withBudget(value, globMarked));
  }
});
