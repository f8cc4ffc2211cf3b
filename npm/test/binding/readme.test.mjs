// The README's Node example works when pasted: it is extracted from README.md and run as an
// ES module (inside the package directory, so `import 'fsnative'` resolves to this package)
// with the repository as its working directory.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
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
  fs.writeFileSync(script, blocks[0]);
  try {
    const output = execFileSync(process.execPath, [script], { cwd: REPO_DIR, encoding: 'utf8' });
    assert.match(output, /^OUTSIDE_SANDBOX$/m);
    assert.match(output, /^README\.md:\d+: /m);
    assert.match(output, /^README\.md:\d+$/m);
  } finally {
    fs.rmSync(script, { force: true });
  }
});
