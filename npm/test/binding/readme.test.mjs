// The README's Node example works as written: it is extracted from README.md and run as an ES
// module in a project where `npm install fsnative` has run. The script lives in the package
// directory, so `import 'fsnative'` resolves to this package as it would from node_modules;
// its working directory is a project of its own whose package.json depends on fsnative.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('../..', import.meta.url));
const REPO_DIR = path.join(PACKAGE_DIR, '..');

test("the README's Node example runs and prints real results", () => {
  const readme = fs.readFileSync(path.join(REPO_DIR, 'README.md'), 'utf8');
  const blocks = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.equal(blocks.length, 1, 'README.md has one js example');
  const script = path.join(PACKAGE_DIR, `.readme-example-${process.pid}.mjs`);
  const project = fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-readme-'));
  const { version } = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
  const manifest = { name: 'first-use', version: '1.0.0', dependencies: { fsnative: `^${version}` } };
  fs.writeFileSync(path.join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.writeFileSync(script, blocks[0]);
  try {
    const output = execFileSync(process.execPath, [script], { cwd: project, encoding: 'utf8' });
    const lines = output.split('\n');
    assert.equal(lines[0], path.join(fs.realpathSync(project), 'package.json'));
    assert.ok(lines.includes('OUTSIDE_SANDBOX'), output);
    assert.match(output, /^package\.json:\d+: +"fsnative": /m);
    assert.match(output, /^package\.json:1$/m);
    assert.match(output, /^\[ 'package\.json' \] of 1$/m);
    assert.match(output, /^\d+ package\.json$/m);
  } finally {
    fs.rmSync(script, { force: true });
    fs.rmSync(project, { recursive: true, force: true });
  }
});
