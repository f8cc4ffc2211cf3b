// Runs every shared conformance vector in tests/vectors/ through the Node API, twice: once on
// a plain sandbox, once (`name [index]`) on a sandbox with a warm index, ready before the
// operation runs; the expected results are the same. It mirrors the Rust runner
// (crates/fsnative/tests/vectors.rs); the format is in tests/README.md. Vector arguments are
// snake_case and results are compared in snake_case, converted with the addon's own
// key-naming functions.

import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

import { FsnativeError, Sandbox } from 'fsnative';
import native from '../lib/native.js';

import { isPathWithinAllowedDirectories } from '../mcp-filesystem/path-validation.mjs';
import { makesSymlinks } from './support/system.mjs';

/** An FFF tool's `next_cursor: TOKEN` line as the vectors read it (the token names the fixture). */
const FFF_CURSOR = 'next_cursor: CURSOR';
const VECTORS_DIR = fileURLToPath(new URL('../../tests/vectors/', import.meta.url));
const RUNNING_AS_ROOT = process.geteuid?.() === 0; // no uid on Windows
/** This system's name in a vector's `only_on`: `linux`, `macos` or `windows`. */
const THIS_OS = { darwin: 'macos', win32: 'windows' }[process.platform] ?? process.platform;
/** How long index mode waits for a vector's index (a tiny tree's takes milliseconds). */
const INDEX_READY_TIMEOUT_MS = 60_000;

/** This run's counts, written to $FSNATIVE_VECTOR_COUNTS/node.json when that is set (make test
 * compares the three runners' counts: tests/compare-vector-counts.py). */
const counts = { passed: 0, skipped: 0, failed: 0 };

for (const file of fs
  .readdirSync(VECTORS_DIR)
  .filter((name) => name.endsWith('.json'))
  .sort()) {
  const doc = JSON.parse(fs.readFileSync(path.join(VECTORS_DIR, file), 'utf8'));
  const trees = doc.trees ?? {};
  for (const vector of doc.vectors) {
    const skip = skippedHere(vector, trees);
    if (skip) counts.skipped += 2;
    test(vector.name, { skip }, () => counted(runVector(vector, trees, false)));
    test(`${vector.name} [index]`, { skip }, () => counted(runVector(vector, trees, true)));
  }
}

after(() => {
  const dir = process.env.FSNATIVE_VECTOR_COUNTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'node.json'), JSON.stringify(counts));
});

/** Counts the case whose run is `pending` as passed or failed. */
async function counted(pending) {
  try {
    await pending;
    counts.passed += 1;
  } catch (err) {
    counts.failed += 1;
    throw err;
  }
}

/** Why this runner skips `vector` here, or false. */
function skippedHere(vector, trees) {
  if (Array.isArray(vector.only_on) && !vector.only_on.includes(THIS_OS)) return `runs only on ${vector.only_on.join(', ')}`;
  const tree = typeof vector.tree === 'string' ? trees[vector.tree] : vector.tree;
  const entries = isObject(tree) ? Object.values(tree).filter(isObject) : [];
  if (entries.some((entry) => 'symlink' in entry) && !makesSymlinks()) return 'its tree holds a symlink, which this system does not make';
  if (process.env.FSNATIVE_UNDER_WINE && typeof vector.not_under_wine === 'string') return `not run under Wine: ${vector.not_under_wine}`;
  if (THIS_OS === 'windows') {
    if (entries.some((entry) => 'fifo' in entry)) return 'its tree holds a FIFO, which Windows cannot make';
    if (entries.some((entry) => 'mode' in entry)) return 'its tree sets permission bits (mode), which Windows does not have';
    const keys = isObject(tree) ? Object.keys(tree) : [];
    const notUtf8 = keys.find((key) => !isUtf8(decodeKey(key)));
    if (notUtf8) return `its tree holds ${JSON.stringify(notUtf8)}, a name that is not UTF-8, which Windows cannot make`;
    const lower = new Map();
    for (const key of keys) {
      const other = lower.get(key.toLowerCase());
      if (other !== undefined && other !== key) {
        return `its tree holds ${JSON.stringify(other)} and ${JSON.stringify(key)}, names equal but for case, which Windows keeps as one`;
      }
      lower.set(key.toLowerCase(), key);
    }
  }
  const refused = THIS_OS === 'windows' && isObject(tree) && Object.keys(tree).find((key) => key.split('/').some(windowsRefuses));
  if (refused) return `its tree holds ${JSON.stringify(refused)}, a name Windows cannot make`;
  const asRoot = RUNNING_AS_ROOT && Array.isArray(vector.skip_if) && vector.skip_if.includes('root');
  return asRoot && 'permission bits do not apply to root';
}

/** Windows makes no file of this name: one with `<>:"|?*` or a control character, one that ends
 * with a dot or a space, or a device's (`CON`, `nul.txt`, `COM1`). */
function windowsRefuses(name) {
  const stem = name.split('.')[0].replace(/ +$/, '').toUpperCase();
  return (
    [...name].some((c) => '<>:"|?*'.includes(c) || c.charCodeAt(0) < 0x20) ||
    (/[. ]$/.test(name) && name !== '.' && name !== '..') ||
    ['CON', 'PRN', 'AUX', 'NUL', 'CONIN$', 'CONOUT$'].includes(stem) ||
    /^(COM|LPT)[0-9]$/.test(stem)
  );
}

async function runVector(vector, trees, indexed) {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-vector-')));
  try {
    const tree = typeof vector.tree === 'string' ? trees[vector.tree] : (vector.tree ?? {});
    assert.ok(tree, `unknown tree ${vector.tree}`);
    buildTree(base, tree);
    const args = substitute(vector.args ?? {}, base);
    const outcome = await execute(vector, base, args, indexed);
    compareOutcome(vector, outcome, base);
  } finally {
    removeFixture(base);
  }
}

/**
 * Runs the vector's operation: `{ value }` or `{ code, path }` (an error code and the path it
 * names). `indexed`: on a sandbox with a warm index, ready first, and closed after.
 */
async function execute(vector, base, args, indexed) {
  const roots = Array.isArray(vector.roots) ? vector.roots.map((root) => fixturePath(base, typeof root === 'string' ? root : '')) : [`${base}/root`];
  // The sandbox's own options: top-level names in camelCase (a thesaurus's terms stay as given).
  const given = substitute(vector.sandbox_options ?? {}, base);
  const options = Object.fromEntries(Object.entries(given).map(([key, value]) => [native.snakeToCamel(key), value]));
  return outcomeOf(async () => {
    // A vector's own index options stand in both modes.
    const sandbox = new Sandbox(roots, indexed ? { index: true, ...options } : options);
    try {
      if (indexed) {
        const ready = await sandbox.waitForIndex(INDEX_READY_TIMEOUT_MS);
        assert.ok(ready, `the index is not ready: ${JSON.stringify(sandbox.indexStatus())}`);
      }
      for (const recorded of vector.record ?? []) {
        sandbox.recordAccess(recorded);
      }
      return await operation(vector, sandbox, args);
    } finally {
      sandbox.close();
    }
  });
}

/** The vector's operation on `sandbox`. */
async function operation(vector, sandbox, args) {
  switch (vector.op) {
    case 'sandbox':
      return { roots: sandbox.roots };
    case 'path_within':
      return { within: isPathWithinAllowedDirectories(args.path, args.dirs) };
    case 'validate': {
      const target = typeof args.path === 'string' ? args.path : '';
      const intent = args.intent === 'write' ? 'write' : 'read';
      return { path: sandbox.validate(target, { intent }) };
    }
    case 'fff_tool': {
      // The package's entry, which fsnative/fff's methods call with their arguments.
      const lines = (await sandbox.fffTool(args.tool, args.arguments)).split('\n').slice(0, -1);
      return { lines: lines.map((line) => (line.startsWith('next_cursor: ') ? FFF_CURSOR : line)) };
    }
    case 'glob':
      return sandbox.glob(camelCaseKeys(args));
    case 'find': {
      const { render, ...request } = args;
      if (render === undefined) return sandbox.find(camelCaseKeys(request));
      const { text } = await sandbox.findText(camelCaseKeys(request), camelCaseKeys(render));
      return { text };
    }
    case 'grep':
      return grep(sandbox, args);
    case 'record_access':
      sandbox.recordAccess(args.path);
      return {};
    case 'frecency_score':
      return { score: sandbox.frecencyScore(args.path) };
    case 'path_boost':
      return { boost: sandbox.pathBoost(args.path) };
    default:
      throw new Error(`unknown op ${vector.op}`);
  }
}

/** A grep vector, with the runner's own `render`, `pages` and `cursor_from` keys. */
async function grep(sandbox, args) {
  assert.ok(isObject(args), 'grep args must be an object');
  const { render, pages, cursor_from: cursorFrom, ...request } = args;
  const options = camelCaseKeys(request);
  if (cursorFrom !== undefined) {
    const first = await sandbox.grep(camelCaseKeys(cursorFrom));
    options.cursor = first.nextCursor;
  }
  if (pages === true) {
    const all = [];
    for (;;) {
      const result = await sandbox.grep(options);
      all.push(result);
      if (result.nextCursor === null || all.length >= 100) break;
      options.cursor = result.nextCursor;
    }
    return { pages: all };
  }
  if (render === undefined) {
    return sandbox.grep(options);
  }
  const { text } = await sandbox.grepText(options, camelCaseKeys(render));
  if (render.format === 'json') {
    return { messages: lines(text).map(parseOrNull) };
  }
  return { text };
}

/** `{ value }`, or `{ code, path }` for an fsnative error (INVALID_OPTION included); another TypeError is an unusable vector. */
async function outcomeOf(run) {
  try {
    return { value: await run() };
  } catch (err) {
    if (err instanceof FsnativeError) return { code: err.code, path: err.path, message: err.message };
    if (err instanceof TypeError) return { code: `BAD_VECTOR: ${err.message}` };
    throw err;
  }
}

/** `value` with the fixture directory written `$T` in every string (see `asFixtureText`). */
function fixtureRelative(value, base) {
  if (typeof value === 'string') return asFixtureText(value, base);
  if (Array.isArray(value)) return value.map((item) => fixtureRelative(item, base));
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [asFixtureText(k, base), fixtureRelative(v, base)]));
  return value;
}

/** `text` with the fixture directory written `$T`; on Windows a path that held it then has `/`
 * between its names, as the vectors spell them. */
function asFixtureText(text, base) {
  if (!text.includes(base)) return text;
  const replaced = text.split(base).join('$T');
  return THIS_OS === 'windows' ? replaced.replaceAll('\\', '/') : replaced;
}

function compareOutcome(vector, outcome, base) {
  const expectedError = vector.expect_error;
  if (expectedError !== undefined) {
    assert.ok('code' in outcome, `expected error ${expectedError}, got ${JSON.stringify(outcome.value)}`);
    assert.equal(outcome.code, expectedError, `expected error ${expectedError}, got error ${outcome.code}`);
    if (vector.expect_error_path !== undefined) {
      const errorPath = outcome.path === undefined ? undefined : asFixtureText(outcome.path.toString(), base);
      assert.equal(errorPath, vector.expect_error_path, 'error path');
    }
    return;
  }
  assert.ok(!('code' in outcome), `unexpected error ${outcome.code} ${outcome.message ?? ''}`);
  assert.ok('expect' in vector, 'vector has neither expect nor expect_error');
  const actual = fixtureRelative(snakeCaseKeys(outcome.value), base);
  const text = JSON.stringify(actual);
  const mismatch = subsetMismatch(vector.expect, actual, '');
  assert.ok(mismatch === null, `${mismatch}\nactual: ${text}`);
}

/**
 * Where `expected` is not contained in `actual` (objects: listed keys; arrays: same length,
 * element-wise; scalars: equal), or null.
 */
function subsetMismatch(expected, actual, at) {
  if (isObject(expected) && isObject(actual)) {
    for (const [key, value] of Object.entries(expected)) {
      const here = `${at}/${key}`;
      if (!Object.hasOwn(actual, key)) return `${here}: missing`;
      const mismatch = subsetMismatch(value, actual[key], here);
      if (mismatch !== null) return mismatch;
    }
    return null;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (expected.length !== actual.length) {
      return `${at}: expected ${expected.length} items, got ${actual.length}`;
    }
    for (let i = 0; i < expected.length; i++) {
      const mismatch = subsetMismatch(expected[i], actual[i], `${at}/${i}`);
      if (mismatch !== null) return mismatch;
    }
    return null;
  }
  if (isDeepStrictEqual(expected, actual)) return null;
  return `${at}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`;
}

/** Keys renamed for the Node API (snake_case → camelCase), at every depth. */
function camelCaseKeys(value) {
  return renameKeys(value, native.snakeToCamel);
}

/** Keys renamed back to the vectors' naming (camelCase → snake_case), at every depth. */
function snakeCaseKeys(value) {
  return renameKeys(value, native.camelToSnake);
}

function renameKeys(value, rename) {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, rename));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), renameKeys(item, rename)]));
}

function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Lines as Rust's `str::lines` gives them: split at `\n`, no empty last line, `\r` dropped. */
function lines(text) {
  const parts = text.split('\n');
  if (parts.at(-1) === '') parts.pop();
  return parts.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

function parseOrNull(line) {
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

function fixturePath(base, text) {
  // A `file:` URI root: given as written, with `$T` replaced wherever it is.
  if (text.startsWith('file:')) return text.split('$T').join(base);
  if (text.startsWith('$T')) return `${base}${text.slice(2)}`;
  if (text.startsWith('/')) return text;
  return `${base}/${text}`;
}

/** Replaces `$T` and `$HOME` in every string of `value`. */
function substitute(value, base) {
  if (typeof value === 'string') return substituteString(value, base);
  if (Array.isArray(value)) return value.map((item) => substitute(item, base));
  if (isObject(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, substitute(item, base)]));
  }
  return value;
}

function substituteString(text, base) {
  const home = process.env.HOME ?? '';
  const replaced = text === '$T' || text.startsWith('$T/') ? `${base}${text.slice(2)}` : text;
  return replaced === '$HOME' || replaced.startsWith('$HOME/') ? `${home}${replaced.slice(5)}` : replaced;
}

/**
 * Creates a tree's entries in key order (byte order, as the Rust runner's sorted map),
 * then its symlinks, then mtimes, then modes. Paths are Buffers: keys may hold `\xNN` bytes.
 */
function buildTree(base, tree) {
  const links = [];
  const mtimes = [];
  const modes = [];
  const keys = Object.keys(tree).sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  for (const key of keys) {
    const entry = tree[key];
    const target = Buffer.concat([Buffer.from(`${base}/`), decodeKey(key)]);
    makeDirectories(target.subarray(0, target.lastIndexOf('/')));
    if (typeof entry === 'string') {
      fs.writeFileSync(target, entry);
      continue;
    }
    assert.ok(isObject(entry), `${key}: unknown tree entry ${JSON.stringify(entry)}`);
    if (typeof entry.text === 'string') {
      fs.writeFileSync(target, entry.text);
    } else if (typeof entry.hex === 'string') {
      fs.writeFileSync(target, decodeHex(entry.hex));
    } else if ('dir' in entry) {
      makeDirectories(target);
    } else if (typeof entry.symlink === 'string') {
      links.push([target, substituteString(entry.symlink, base)]);
    } else if ('fifo' in entry) {
      execFileSync('mkfifo', ['-m', '644', target.toString()]);
    } else {
      assert.fail(`${key}: unknown tree entry ${JSON.stringify(entry)}`);
    }
    if (Number.isInteger(entry.mtime)) mtimes.push([target, entry.mtime]);
    if (typeof entry.mode === 'string') modes.push([target, parseOctal(entry.mode, key)]);
  }
  for (const [link, linkTarget] of links) fs.symlinkSync(linkTarget, link);
  for (const [file, mtime] of mtimes) fs.lutimesSync(file, mtime, mtime);
  for (const [file, mode] of modes) fs.chmodSync(file, mode);
}

/** `mkdir -p`, one component at a time (some trees are 1000 levels deep). */
function makeDirectories(dir) {
  for (let end = dir.indexOf('/', 1); end !== -1 || dir.length > 0; end = dir.indexOf('/', end + 1)) {
    const prefix = end === -1 ? dir : dir.subarray(0, end);
    try {
      fs.mkdirSync(prefix);
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
    }
    if (end === -1) break;
  }
}

/** A tree key's bytes: each `\xNN` escape becomes the byte NN. */
function decodeKey(key) {
  const bytes = Buffer.from(key);
  const out = [];
  for (let i = 0; i < bytes.length; i++) {
    const hex = bytes.subarray(i + 2, i + 4).toString('latin1');
    if (bytes[i] === 0x5c && bytes[i + 1] === 0x78 && /^[0-9a-fA-F]{2}$/.test(hex)) {
      out.push(parseInt(hex, 16));
      i += 3;
    } else {
      out.push(bytes[i]);
    }
  }
  return Buffer.from(out);
}

function decodeHex(hex) {
  const clean = hex.replace(/\s/g, '');
  assert.match(clean, /^([0-9a-fA-F]{2})*$/, `hex: invalid ${hex}`);
  return Buffer.from(clean, 'hex');
}

function parseOctal(mode, key) {
  assert.match(mode, /^[0-7]+$/, `${key}: mode ${mode}`);
  return parseInt(mode, 8);
}

/**
 * Makes every directory of the fixture writable again (after chmod vectors) and removes it.
 * Entries are examined with lstat: a symlink's target, possibly outside, is never touched.
 */
function removeFixture(base) {
  const pending = [base];
  while (pending.length > 0) {
    const dir = pending.pop();
    fs.chmodSync(dir, 0o755);
    for (const entry of fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })) {
      if (entry.isDirectory()) pending.push(Buffer.concat([Buffer.from(dir), Buffer.from('/'), entry.name]));
    }
  }
  fs.rmSync(base, { recursive: true, force: true });
}
