// fsnative/fsmcp's registration, fs_glob's answers and both tools' error results, as fsMCP gives them.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { after, before, test } from 'node:test';
import * as fsmcp from 'fsnative/fsmcp';
import { makeTree, removeTree } from '../support/tree.mjs';

const { fsGrep, fsGlob, registerGrep, registerGlob, GLOB_RESULT_CAP } = fsmcp;

let root;

before(() => {
  root = makeTree({
    '.gitignore': 'ignored.ts\n',
    'old.ts': 'TODO old\n',
    'mid.ts': 'TODO mid\n',
    'new.ts': 'TODO new\n',
    'ignored.ts': 'TODO ignored\n',
    '.dot.ts': 'TODO dot\n',
    '.hidden/inner.ts': 'TODO hidden\n',
    'sub/deep.ts': 'TODO deep\n',
    'sub/readme.md': 'nothing\n',
  });
  const seconds = (n) => new Date(Date.UTC(2024, 0, 1, 0, 0, n));
  fs.utimesSync(path.join(root, 'old.ts'), seconds(1), seconds(1));
  fs.utimesSync(path.join(root, 'mid.ts'), seconds(2), seconds(2));
  fs.utimesSync(path.join(root, 'ignored.ts'), seconds(3), seconds(3));
  fs.utimesSync(path.join(root, 'sub/deep.ts'), seconds(4), seconds(4));
  fs.utimesSync(path.join(root, 'new.ts'), seconds(5), seconds(5));
});

after(() => removeTree(root));

const ctx = () => ({ allowedDirs: [root] });
const text = (result) => result.content[0].text;

function errorText(result) {
  assert.equal(result.isError, true, `expected an error, got ${JSON.stringify(result)}`);
  return text(result);
}

test("registerGrep and registerGlob register fsMCP's tool definitions and handlers", () => {
  const registered = [];
  const registry = { register: (tool, handler) => registered.push({ tool, handler }) };
  registerGrep(registry);
  registerGlob(registry);
  assert.deepEqual(
    registered.map((r) => r.tool.name),
    ['fs_grep', 'fs_glob'],
  );
  const [grep, glob] = registered;
  assert.equal(grep.handler, fsGrep);
  assert.equal(glob.handler, fsGlob);
  assert.deepEqual(grep.tool.annotations, { readOnlyHint: true });
  assert.deepEqual(glob.tool.annotations, { readOnlyHint: true });
  assert.equal(grep.tool.category, 'File System');
  assert.equal(glob.tool.category, 'File System');
  const shape = (schema) => Object.fromEntries(Object.entries(schema.properties).map(([name, prop]) => [name, prop.enum ? [prop.type, prop.enum] : prop.type]));
  assert.deepEqual(shape(grep.tool.inputSchema), {
    pattern: 'string',
    path: 'string',
    glob: 'string',
    type: 'string',
    output_mode: ['string', ['content', 'files_with_matches', 'count']],
    context: 'integer',
    head_limit: 'integer',
  });
  assert.deepEqual(grep.tool.inputSchema.required, ['pattern']);
  assert.deepEqual(shape(glob.tool.inputSchema), { pattern: 'string', path: 'string' });
  assert.deepEqual(glob.tool.inputSchema.required, ['pattern']);
});

test('require and import give the same module', () => {
  const required = createRequire(import.meta.url)('fsnative/fsmcp');
  assert.equal(required.fsGrep, fsGrep);
  assert.equal(required.registerGlob, registerGlob);
});

test('fs_glob lists absolute paths newest first, dotfiles left out, .gitignore not applied', () => {
  const result = fsGlob({ pattern: '**/*.ts' }, ctx());
  assert.equal(result.isError, undefined);
  assert.deepEqual(
    text(result).split('\n'),
    ['new.ts', 'sub/deep.ts', 'ignored.ts', 'mid.ts', 'old.ts'].map((p) => path.join(root, p)),
  );
});

test('fs_glob matches a pattern without a slash in the searched directory only', () => {
  assert.equal(text(fsGlob({ pattern: '*.md' }, ctx())), '');
  assert.equal(text(fsGlob({ pattern: '*.md', path: path.join(root, 'sub') }, ctx())), path.join(root, 'sub/readme.md'));
});

test('fs_glob with path "." searches every allowed dir', () => {
  assert.equal(text(fsGlob({ pattern: 'sub/*.ts', path: '.' }, ctx())), path.join(root, 'sub/deep.ts'));
});

test('fs_glob caps the list and says how many matched', () => {
  const many = makeTree(Object.fromEntries(Array.from({ length: GLOB_RESULT_CAP + 5 }, (_, i) => [`f${i}.txt`, ''])));
  try {
    const lines = text(fsGlob({ pattern: '*.txt' }, { allowedDirs: [many] })).split('\n');
    assert.equal(lines.length, GLOB_RESULT_CAP + 2);
    assert.equal(lines[GLOB_RESULT_CAP], '');
    assert.equal(lines[GLOB_RESULT_CAP + 1], `(showing ${GLOB_RESULT_CAP} of ${GLOB_RESULT_CAP + 5} matches)`);
  } finally {
    removeTree(many);
  }
});

test('fs_glob with no match returns empty text', () => {
  const result = fsGlob({ pattern: '**/*.nothing' }, ctx());
  assert.deepEqual(result, { content: [{ type: 'text', text: '' }] });
});

test('nested allowed dirs list each file once', () => {
  const lines = text(fsGlob({ pattern: '**/*.ts' }, { allowedDirs: [path.join(root, 'sub'), root] })).split('\n');
  assert.equal(lines.length, new Set(lines).size);
  assert.equal(lines.length, 5);
});

test('fs_glob error results', () => {
  assert.equal(errorText(fsGlob({ pattern: '*', path: 'sub' }, ctx())), 'path must be absolute');
  assert.equal(errorText(fsGlob({ pattern: '*', path: '/etc' }, ctx())), 'path /etc is outside allowed directories');
  const missing = path.join(root, 'missing');
  assert.equal(errorText(fsGlob({ pattern: '*', path: missing }, ctx())), `directory not found: ${missing}`);
  assert.match(errorText(fsGlob({ pattern: 'a[', path: root }, ctx())), /^glob error: /);
  assert.equal(errorText(fsGlob({}, ctx())), 'pattern is required');
});

test('fs_grep error results', () => {
  assert.equal(errorText(fsGrep({ pattern: 'TODO', path: 'sub' }, ctx())), 'path must be absolute');
  assert.equal(errorText(fsGrep({ pattern: 'TODO', path: '/etc' }, ctx())), 'path /etc is outside allowed directories');
  assert.match(errorText(fsGrep({ pattern: 'TODO', path: path.join(root, 'missing') }, ctx())), /^grep error: /);
  assert.match(errorText(fsGrep({ pattern: '(' }, ctx())), /^grep error: .*regex parse error/s);
  assert.match(errorText(fsGrep({ pattern: 'TODO', type: 'no-such-type' }, ctx())), /^grep error: .*no-such-type/);
  assert.equal(errorText(fsGrep({}, ctx())), 'pattern is required');
  assert.equal(errorText(fsGrep({ pattern: 7 }, ctx())), 'pattern must be a string; received 7');
  assert.match(errorText(fsGrep({ pattern: 'x', output_mode: 'lines' }, ctx())), /^output_mode must be one of /);
});

test('a symlink out of the allowed dir is refused by name', () => {
  const link = path.join(root, 'escape');
  fs.symlinkSync('/etc', link);
  try {
    assert.equal(errorText(fsGrep({ pattern: 'root', path: link }, ctx())), `path ${link} is outside allowed directories`);
    assert.equal(errorText(fsGlob({ pattern: '*', path: link }, ctx())), `path ${link} is outside allowed directories`);
  } finally {
    fs.unlinkSync(link);
  }
});

test('no allowed dirs, or none that exist, refuse the call', () => {
  for (const handler of [fsGrep, fsGlob]) {
    assert.match(errorText(handler({ pattern: 'x' }, { allowedDirs: [] })), /^no allowed directories/);
    assert.equal(errorText(handler({ pattern: 'x' }, { allowedDirs: [path.join(root, 'missing')] })), 'none of the allowed directories exist');
    assert.equal(
      errorText(handler({ pattern: 'x', path: root }, { allowedDirs: [path.join(root, 'missing')] })),
      `path ${root} is outside allowed directories`,
    );
  }
});

test('a prefix sibling of an allowed dir is outside', () => {
  const sibling = `${root}-sibling`;
  fs.mkdirSync(sibling);
  try {
    assert.equal(errorText(fsGrep({ pattern: 'x', path: sibling }, ctx())), `path ${sibling} is outside allowed directories`);
  } finally {
    fs.rmdirSync(sibling);
  }
});

test('fs_grep applies .gitignore even without a .git dir', () => {
  assert.equal(text(fsGrep({ pattern: 'TODO ignored' }, ctx())), 'No matches found.');
});
