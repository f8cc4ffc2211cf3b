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
  const expected = [
    ['a.txt', [2]],
    ['sub/b.md', [1, 3]],
  ];
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
  // No install script, so npm 11.16+ has none to list as unapproved.
  assert.doesNotMatch(install.output, /install-scripts|allowScripts/, install.output);
  assert.ok(fs.existsSync(path.join(dir, 'node_modules', platformPackage(), 'package.json')));
  assert.ok(!fs.existsSync(path.join(dir, 'node_modules', 'fsnative', 'native')), 'nothing was built from source');
  assertSearches(dir, env);
});

/** Loads fsnative in the project `dir`: the error's message, which must be thrown. */
function loadError(dir, env) {
  const run = spawnSync(process.execPath, ['-e', "require('fsnative')"], { cwd: dir, env, encoding: 'utf8' });
  assert.notEqual(run.status, 0, 'fsnative loaded with no addon');
  return run.stderr;
}

/** The command the loader's error names, run with the shell as a user would paste it. */
function runNamedCommand(dir, message, env) {
  const match = message.match(/run:\n {2}(node .*scripts\/build\.js")\n/);
  assert.ok(match, `the error names no build command:\n${message}`);
  assert.equal(match[1], `node ${JSON.stringify(path.join(dir, 'node_modules', 'fsnative', 'scripts', 'build.js'))}`);
  const run = spawnSync('/bin/sh', ['-c', match[1]], { cwd: dir, env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

test('the main tarball alone installs with no script; loading it names the build command, which without cargo says what is missing', () => {
  const env = withoutCargo();
  const dir = makeProject(dist.root, 'no-toolchain');
  const install = npmInstall(dir, [dist.main], env);
  assert.equal(install.status, 0, install.output);
  assert.doesNotMatch(install.output, /install-scripts|scripts\/build/, 'npm ran or listed no install script');
  const message = loadError(dir, env);
  assert.match(message, new RegExp(`the platform package ${platformPackage()} is not installed`));
  const build = runNamedCommand(dir, message, env);
  assert.equal(build.status, 1, build.output);
  assert.match(build.output, /could not run cargo .*building the addon needs a Rust toolchain/);
  assert.ok(!fs.existsSync(path.join(dir, 'node_modules', 'fsnative', 'native')));
});

test("the build command the loader names builds the addon from the tarball's Rust sources, with cargo's progress", () => {
  const dir = makeProject(dist.root, 'source-build');
  const install = npmInstall(dir, [dist.main], withoutCargo());
  assert.equal(install.status, 0, install.output);
  // Cargo's own choice of target directory, inside the package: a cold build from nothing.
  const { CARGO_TARGET_DIR, ...env } = process.env;
  const build = runNamedCommand(dir, loadError(dir, env), { ...env, ...SOURCE_BUILD_ENV });
  assert.equal(build.status, 0, build.output);
  const sources = path.join(dir, 'node_modules', 'fsnative', 'rust');
  assert.ok(build.output.includes(`building the addon from the Rust sources in ${sources}`), build.output);
  assert.ok(build.output.includes('Compiling fsnative v') && build.output.includes(`(${sources}/crates/fsnative)`), build.output);
  assert.ok(!fs.existsSync(path.join(dir, 'node_modules', platformPackage())));
  assert.ok(!fs.existsSync(path.join(sources, 'target')), 'the build directory is removed once the addon is copied');
  assertSearches(dir, withoutCargo());
});
