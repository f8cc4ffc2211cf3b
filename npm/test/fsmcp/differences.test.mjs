// The documented differences between fsnative/fsmcp and fsMCP's rg and node-glob paths, each
// shown against its oracle, so the list in docs/drop-ins.md stays true.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fsGlob, fsGrep, GREP_TOTAL_CAP } from 'fsnative/fsmcp';
import { globSync } from 'glob';
import { makeTree, removeTree } from '../support/tree.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

let rg;
let root;
const ctx = () => ({ allowedDirs: [root] });
const text = (result) => result.content[0].text;

before(() => {
  rg = execFileSync(path.join(here, 'install-oracle.sh'), { encoding: 'utf8' }).trim();
  root = makeTree({
    '.gitignore': 'ignored.txt\n',
    'ignored.txt': 'TODO ignored\n',
    'data.bin': 'TODO\0binary\n',
    'sub/a.ts': 'TODO a\n',
    '.env': 'TODO=1\n',
    '.config/app.ts': 'TODO config\n',
    'many.txt': 'hit\n'.repeat(GREP_TOTAL_CAP + 5),
  });
  fs.symlinkSync(path.join(root, 'sub'), path.join(root, 'linked'));
});

after(() => removeTree(root));

/** rg's stdout for an argv, as fsMCP would return it. */
function rgText(...argv) {
  const run = spawnSync(rg, ['--no-config', ...argv], { encoding: 'utf8' });
  return run.status === 1 ? 'No matches found.' : run.stdout.trimEnd();
}

const nodeGlob = (pattern) => globSync(pattern, { cwd: root, absolute: true, nodir: true }).sort();

test('.gitignore applies without a .git dir (rg needs one, or --no-require-git)', () => {
  assert.equal(text(fsGrep({ pattern: 'TODO ignored' }, ctx())), 'No matches found.');
  assert.equal(rgText('-l', '--', 'TODO ignored', root), path.join(root, 'ignored.txt'));
});

test('a binary file named as the path is skipped (rg says "binary file matches")', () => {
  const file = path.join(root, 'data.bin');
  assert.equal(text(fsGrep({ pattern: 'TODO', output_mode: 'content', path: file }, ctx())), 'No matches found.');
  assert.match(rgText('-n', '--', 'TODO', file), /^binary file matches/);
});

test('a path through a symlink is reported at its real location', () => {
  const linked = path.join(root, 'linked');
  assert.equal(text(fsGrep({ pattern: 'TODO', path: linked }, ctx())), path.join(root, 'sub/a.ts'));
  assert.equal(rgText('-l', '--', 'TODO', linked), path.join(linked, 'a.ts'));
});

test(`fs_grep returns at most ${GREP_TOTAL_CAP} match records and says so (rg has no total cap)`, () => {
  const file = path.join(root, 'many.txt');
  const lines = text(fsGrep({ pattern: 'hit', output_mode: 'content', path: file }, ctx())).split('\n');
  assert.equal(lines.length, GREP_TOTAL_CAP + 2);
  assert.match(lines.at(-1), new RegExp(`^\\(output cut at ${GREP_TOTAL_CAP} results`));
  assert.equal(rgText('-n', '--', 'hit', file).split('\n').length, GREP_TOTAL_CAP + 5);
});

test("error texts carry fsnative's message where fsMCP passes on rg's stderr", () => {
  const missing = path.join(root, 'missing');
  assert.match(text(fsGrep({ pattern: 'x', path: missing }, ctx())), /^grep error: .*missing/);
  assert.match(spawnSync(rg, ['-l', '--', 'x', missing], { encoding: 'utf8' }).stderr, /^rg: .*No such file or directory/);
});

test('dot-named patterns list nothing: hidden files are never matched (node-glob matches an explicit dot)', () => {
  for (const pattern of ['.env', '**/.env', '.config/*']) {
    assert.equal(text(fsGlob({ pattern }, ctx())), '', pattern);
    assert.notDeepEqual(nodeGlob(pattern), [], pattern);
  }
});

test('a glob does not go through a symlinked directory (node-glob does for a named segment)', () => {
  assert.equal(text(fsGlob({ pattern: 'linked/*' }, ctx())), '');
  assert.deepEqual(nodeGlob('linked/*'), [path.join(root, 'linked/a.ts')]);
});

test('glob patterns are relative: "..", absolute patterns and extglobs match nothing', () => {
  for (const pattern of ['sub/../sub/a.ts', `${root}/sub/*.ts`, '+(sub)/*.ts', '[[:alpha:]]ub/a.ts']) {
    assert.equal(text(fsGlob({ pattern }, ctx())), '', pattern);
    assert.deepEqual(nodeGlob(pattern), [path.join(root, 'sub/a.ts')], pattern);
  }
});

test('a leading "!" makes a pattern an exclusion (node-glob reads "!(…)" as an extglob)', () => {
  const listed = text(fsGlob({ pattern: '!(*.txt)' }, ctx())).split('\n');
  assert.ok(listed.includes(path.join(root, 'many.txt')));
  assert.ok(!nodeGlob('!(*.txt)').includes(path.join(root, 'many.txt')));
});
