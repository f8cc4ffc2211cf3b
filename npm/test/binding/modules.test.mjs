// The package loads both ways: `require('fsnative')` and `import { Sandbox } from 'fsnative'`
// give the same classes.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import fsnative, { AbortError, FsnativeError, InvalidOptionError, Sandbox } from 'fsnative';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));

test('ESM named and default exports are the CommonJS exports', () => {
  const required = createRequire(import.meta.url)('fsnative');
  assert.deepEqual(Object.keys(required).sort(), ['AbortError', 'FsnativeError', 'InvalidOptionError', 'Sandbox']);
  assert.equal(Sandbox, required.Sandbox);
  assert.equal(FsnativeError, required.FsnativeError);
  assert.equal(AbortError, required.AbortError);
  assert.equal(InvalidOptionError, required.InvalidOptionError);
  assert.equal(fsnative, required);
});

test('a CommonJS script and an ES module script both work', () => {
  const script = "new Sandbox(['.']).grepSync({ pattern: 'fsnative', path: 'package.json' }).totalMatches";
  const run = (args) => Number(execFileSync(process.execPath, args, { cwd: PACKAGE_DIR, encoding: 'utf8' }));
  const commonjs = run(['-p', `const { Sandbox } = require('fsnative'); ${script}`]);
  const esm = run(['--input-type=module', '-e', `import { Sandbox } from 'fsnative'; console.log(${script})`]);
  assert.ok(commonjs > 0);
  assert.equal(esm, commonjs);
});
