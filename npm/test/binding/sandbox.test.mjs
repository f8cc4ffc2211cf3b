// The Sandbox constructor, roots and validate: canonical answers, error classes and codes.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, test } from 'node:test';

import { FsnativeError, Sandbox } from 'fsnative';
import { nonUtf8NamesSkip, onWindows, symlinksSkip } from '../support/system.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';

const root = makeTree({ 'src/a.ts': 'export {};\n', 'file.txt': 'x\n' });
if (!symlinksSkip()) {
  fs.symlinkSync('loop-b', path.join(root, 'loop-a'));
  fs.symlinkSync('loop-a', path.join(root, 'loop-b'));
}
after(() => removeTree(root));

/** Asserts that `run` throws an FsnativeError with `code`. */
function assertCode(run, code) {
  assert.throws(run, (err) => {
    assert.ok(err instanceof FsnativeError, `expected an FsnativeError, got ${err}`);
    assert.ok(err instanceof Error);
    assert.equal(err.name, 'FsnativeError');
    assert.equal(err.code, code);
    assert.ok(err.message.length > 0);
    return true;
  });
}

/** Asserts that `run` throws a TypeError (an argument's, or an InvalidOptionError) whose message names `option`. */
function assertTypeError(run, option) {
  assert.throws(run, (err) => {
    assert.ok(err instanceof TypeError, `expected a TypeError, got ${err}`);
    assert.match(err.code, /^(ERR_INVALID_ARG_(TYPE|VALUE)|INVALID_OPTION)$/);
    assert.ok(err.message.includes(option), `"${err.message}" does not name ${option}`);
    return true;
  });
}

describe('new Sandbox', () => {
  test('canonicalises the roots and freezes them', () => {
    const sandbox = new Sandbox([path.join(root, 'src', '..')]);
    assert.deepEqual(sandbox.roots, [root]);
    assert.ok(Object.isFrozen(sandbox.roots));
  });

  test('accepts a root as a Buffer', () => {
    assert.deepEqual(new Sandbox([Buffer.from(root)]).roots, [root]);
  });

  test('refuses roots that are missing, not directories, or absent', () => {
    assertCode(() => new Sandbox([path.join(root, 'missing')]), 'NOT_FOUND');
    assertCode(() => new Sandbox([path.join(root, 'file.txt')]), 'NOT_A_DIRECTORY');
    assertCode(() => new Sandbox([]), 'INVALID_ARGUMENT');
  });

  test('throws TypeError for roots of the wrong type', () => {
    assertTypeError(() => new Sandbox(root), 'roots');
    assertTypeError(() => new Sandbox([root, 7]), 'roots[1]');
    assertTypeError(() => new Sandbox(['\ud800']), 'roots[0]');
  });
});

describe('validate', () => {
  const sandbox = new Sandbox([root]);

  test('returns the canonical absolute path, resolving relative paths against the first root', () => {
    assert.equal(sandbox.validate('src/a.ts'), path.join(root, 'src/a.ts'));
    assert.equal(sandbox.validate('./src/../file.txt', { intent: 'read' }), path.join(root, 'file.txt'));
  });

  test('admits a missing path for writing only', () => {
    assert.equal(sandbox.validate('src/new.ts', { intent: 'write' }), path.join(root, 'src/new.ts'));
    assertCode(() => sandbox.validate('src/new.ts'), 'NOT_FOUND');
  });

  test('gives each refusal its code', () => {
    assertCode(() => sandbox.validate('../outside'), 'OUTSIDE_SANDBOX');
    assertCode(() => sandbox.validate(onWindows ? 'C:\\Windows\\win.ini' : '/etc/passwd'), 'OUTSIDE_SANDBOX');
    assertCode(() => sandbox.validate(''), 'INVALID_PATH');
    assertCode(() => sandbox.validate('a\0b'), 'INVALID_PATH');
    assertCode(() => sandbox.validate('file.txt/inner', { intent: 'write' }), 'NOT_A_DIRECTORY');
  });

  test('refuses a symlink loop with its code', { skip: symlinksSkip() }, () => {
    assertCode(() => sandbox.validate('loop-a'), 'SYMLINK_LOOP');
  });

  test('keeps a non-UTF-8 name: Buffer in, { bytes } out', { skip: nonUtf8NamesSkip }, () => {
    const name = Buffer.from([0x62, 0x61, 0x64, 0xff]);
    const file = Buffer.concat([Buffer.from(`${root}/`), name]);
    fs.writeFileSync(file, 'x');
    const resolved = sandbox.validate(file);
    assert.deepEqual(resolved, { bytes: file.toString('base64') });
    assert.deepEqual(Buffer.from(resolved.bytes, 'base64'), file);
  });

  test('throws TypeError for arguments it cannot use, naming them', () => {
    assertTypeError(() => sandbox.validate(42), 'path');
    assertTypeError(() => sandbox.validate('src\ud800'), 'path');
    assertTypeError(() => sandbox.validate('src', 'read'), 'options');
    assertTypeError(() => sandbox.validate('src', { intent: 'delete' }), 'intent');
    assertTypeError(() => sandbox.validate('src', { mode: 'read' }), 'mode');
  });
});

test('validatePath, the former name of validate, still answers and warns once (DeprecationWarning)', async () => {
  const heard = [];
  const listen = (warning) => heard.push(warning);
  process.on('warning', listen);
  try {
    const sandbox = new Sandbox([root]);
    assert.equal(sandbox.validatePath('file.txt'), sandbox.validate('file.txt'));
    assert.equal(sandbox.validatePath('src/a.ts', { intent: 'read' }), path.join(root, 'src', 'a.ts'));
    assertCode(() => sandbox.validatePath('../outside'), 'OUTSIDE_SANDBOX');
    await new Promise((resolve) => setImmediate(resolve)); // warnings are emitted on the next tick
  } finally {
    process.off('warning', listen);
  }
  const ours = heard.filter((warning) => warning.code === 'FSNATIVE_DEP_VALIDATE_PATH');
  assert.equal(ours.length, 1);
  assert.equal(ours[0].name, 'DeprecationWarning');
  assert.match(ours[0].message, /use Sandbox\.validate\(\)/);
});

test("fffTool takes Terraphim's tools and arguments only, in the core's words", async () => {
  const sandbox = new Sandbox([root]);
  await assert.rejects(sandbox.fffTool('search', {}), (err) => err.code === 'INVALID_ARGUMENT' && /find_files, grep and multi_grep$/.test(err.message));
  await assert.rejects(sandbox.fffTool('grep', { query: 'x', constraints: '*.rs' }), (err) => {
    assert.equal(err.code, 'INVALID_OPTION');
    assert.equal(err.option, 'constraints');
    assert.equal(err.message, 'unknown grep argument `constraints`');
    return true;
  });
  await assert.rejects(sandbox.fffTool('grep', { query: 'x', limit: 10n }), { code: 'INVALID_OPTION', message: 'fffTool option `limit` cannot be a bigint' });
  assert.match(await sandbox.fffTool('grep', { query: 'export' }), /^Found 1 match across 1 file .*\nsrc\/a\.ts:1:export \{\};\n$/);
});
