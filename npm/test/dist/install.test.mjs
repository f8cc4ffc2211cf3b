// The release tarballs install outside the checkout, as a new user installs them: in a fresh npm
// project in a temp dir, from a clean copy of dist/, with no repository beside it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { copyDist, makeProject, npmInstall, platformPackage, SOURCE_BUILD_ENV, withoutCargo } from '../support/dist.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';

/** Greps the tree named by argv[2] through `require`, and through fsnative/fsmcp's `fs_grep`. */
const REQUIRE_CHECK = `
const { Sandbox } = require('fsnative');
const { fsGrep } = require('fsnative/fsmcp');
const dir = process.argv[2];
const found = new Sandbox([dir]).grepSync({ pattern: 'needle' });
const tool = fsGrep({ pattern: 'needle', output_mode: 'count' }, { allowedDirs: [dir] });
console.log(JSON.stringify({ files: found.files.map((f) => [f.relativePath, f.matches.map((m) => m.lineNumber)]), tool: tool.content[0].text }));
`;

/** The same search through `import`, asynchronously, and through fsnative/fff's `grep`. */
const IMPORT_CHECK = `
import { Sandbox } from 'fsnative';
import { FffTools } from 'fsnative/fff';
const found = await new Sandbox([process.argv[2]]).grep({ pattern: 'needle' });
const fff = await new FffTools(new Sandbox([process.argv[2]])).grep({ query: 'needle' });
console.log(JSON.stringify({ files: found.files.map((f) => [f.relativePath, f.matches.map((m) => m.lineNumber)]), fff }));
`;

let dist;
let tree;

before(() => {
  dist = copyDist();
  tree = makeTree({ 'a.txt': 'one\nneedle here\n', 'sub/b.md': 'needle\nno\nneedle again\n', 'c.txt': 'nothing\n' });
});

after(() => {
  removeTree(dist.root);
  removeTree(tree);
});

/** Runs both checks in the project `dir` and asserts they found the tree's matches. */
function assertSearches(dir, env) {
  fs.writeFileSync(path.join(dir, 'check.cjs'), REQUIRE_CHECK);
  fs.writeFileSync(path.join(dir, 'check.mjs'), IMPORT_CHECK);
  const expected = [['a.txt', [2]], ['sub/b.md', [1, 3]]];
  for (const script of ['check.cjs', 'check.mjs']) {
    const run = spawnSync(process.execPath, [script, tree], { cwd: dir, env, encoding: 'utf8' });
    assert.equal(run.status, 0, `${script} failed:\n${run.stderr}`);
    const answer = JSON.parse(run.stdout);
    assert.deepEqual(answer.files, expected, script);
    if (script === 'check.cjs') assert.equal(answer.tool, `${tree}/a.txt:1\n${tree}/sub/b.md:2`);
    else {
      const found = "Found 3 matches across 2 files (searched 3 files under '.')";
      assert.deepEqual(answer.fff, [found, 'a.txt:2:needle here', 'sub/b.md:1:needle', 'sub/b.md:3:needle again']);
    }
  }
  // The bin is installed; without the MCP SDK (an optional peer) it names the fix.
  const server = spawnSync(path.join(dir, 'node_modules', '.bin', 'fsnative-fff-mcp'), [tree], { cwd: dir, env, encoding: 'utf8' });
  assert.equal(server.status, 1);
  assert.match(server.stderr, /^fsnative-fff-mcp needs the MCP SDK: npm install @modelcontextprotocol\/sdk/);
}

test('the main and platform tarballs install with no cargo on PATH; require and import both grep', () => {
  const env = withoutCargo();
  assert.equal(spawnSync('cargo', ['--version'], { env }).error?.code, 'ENOENT', 'cargo must not be reachable');
  const dir = makeProject(dist.root, 'prebuilt');
  const install = npmInstall(dir, [dist.main, dist.platform], env);
  assert.equal(install.status, 0, install.output);
  assert.ok(fs.existsSync(path.join(dir, 'node_modules', platformPackage(), 'package.json')));
  assert.ok(!fs.existsSync(path.join(dir, 'node_modules', 'fsnative', 'native')), 'nothing was built from source');
  assertSearches(dir, env);
});

test('the main tarball alone, with no cargo, fails and says what is missing', () => {
  const dir = makeProject(dist.root, 'no-toolchain');
  const install = npmInstall(dir, [dist.main], withoutCargo());
  assert.notEqual(install.status, 0);
  assert.match(install.output, new RegExp(`no prebuilt addon for this machine \\(${platformPackage()}\\)`));
  assert.match(install.output, /building the addon from source needs a Rust toolchain/);
});

test('the main tarball alone builds the addon from the Rust sources it carries, with cargo progress shown', () => {
  const dir = makeProject(dist.root, 'source-build');
  // Cargo's own choice of target directory, inside the package: a cold build from nothing.
  const { CARGO_TARGET_DIR, ...env } = process.env;
  const install = npmInstall(dir, [dist.main], { ...env, ...SOURCE_BUILD_ENV });
  assert.equal(install.status, 0, install.output);
  const sources = path.join(dir, 'node_modules', 'fsnative', 'rust');
  assert.ok(install.output.includes(`building it from the Rust sources in ${sources}`), install.output);
  assert.ok(install.output.includes(`Compiling fsnative v`) && install.output.includes(`(${sources}/crates/fsnative)`), install.output);
  assert.ok(!fs.existsSync(path.join(dir, 'node_modules', platformPackage())));
  assert.ok(!fs.existsSync(path.join(sources, 'target')), 'the build directory is removed once the addon is copied');
  assertSearches(dir, withoutCargo());
});
