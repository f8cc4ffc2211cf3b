// fs_glob against what fsMCP's glob path answers: node-glob 11 (`globSync(pattern, {cwd,
// absolute: true, nodir: true})` per searched dir), hits whose real path lies outside dropped,
// newest first, 1000 at most with a "showing" line. Every fixture file has its own mtime, so
// the order is fully determined.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fsGlob, GLOB_RESULT_CAP } from 'fsnative/fsmcp';
import { globSync } from 'glob';
import { makeTree, removeTree } from '../support/tree.mjs';

const FILES = [
  'README.md',
  'notes.txt',
  'a.txt',
  'src/a.ts',
  'src/b.ts',
  'src/c.js',
  'src/util/deep.ts',
  'src/util/deeper/x.ts',
  'docs/guide.md',
  'docs/api.MD',
  'ignored.log',
  'build/out.js',
  'node_modules/pkg/index.js',
  'weird name [1].txt',
  '.env',
  '.hidden/secret.ts',
  'src/.local.ts',
];

let project;
let other;

before(() => {
  project = makeTree({ '.gitignore': 'ignored.log\nbuild/\n', ...Object.fromEntries(FILES.map((file) => [file, `${file}\n`])) });
  other = makeTree({ 'extra.ts': 'extra\n', 'more/more.md': 'more\n' });
  fs.symlinkSync(path.join(project, 'src/a.ts'), path.join(project, 'link-inside.ts'));
  fs.symlinkSync(path.join(other, 'extra.ts'), path.join(project, 'link-outside.ts'));
  const stamped = [...FILES, '.gitignore'].map((file) => path.join(project, file)).concat([path.join(other, 'extra.ts'), path.join(other, 'more/more.md')]);
  stamped.forEach((file, i) => {
    const when = new Date(Date.UTC(2024, 0, 1, 0, 0, i));
    fs.utimesSync(file, when, when);
  });
});

after(() => {
  removeTree(project);
  removeTree(other);
});

/** fsMCP's glob answer for these arguments, from node-glob and the facts of its glob tool. */
function oracleText(pattern, searchDirs, allowedDirs) {
  const inside = (file) => {
    const real = fs.realpathSync(file);
    return allowedDirs.some((dir) => real === dir || real.startsWith(dir + path.sep));
  };
  const hits = [...new Set(searchDirs.flatMap((cwd) => globSync(pattern, { cwd, absolute: true, nodir: true })))].filter(inside);
  const newestFirst = hits.map((file) => ({ file, mtime: fs.statSync(file).mtimeMs })).sort((a, b) => b.mtime - a.mtime);
  const listed = newestFirst
    .slice(0, GLOB_RESULT_CAP)
    .map((hit) => hit.file)
    .join('\n');
  return hits.length > GLOB_RESULT_CAP ? `${listed}\n\n(showing ${GLOB_RESULT_CAP} of ${hits.length} matches)` : listed;
}

/** Each query: pattern, the searched dir relative to the project (or undefined), and the roots. */
const QUERIES = [
  ['every file', '**/*'],
  ['top-level files', '*'],
  ['by extension at any depth', '**/*.ts'],
  ['by extension under a directory', 'src/**/*.ts'],
  ['one directory level', 'src/*'],
  ['a directory and everything below it', 'src/**'],
  ['brace alternatives', '*.{md,txt}'],
  ['brace alternatives at any depth', '**/*.{js,ts}'],
  ['a character class', '**/[ab].ts'],
  ['a single-character wildcard', '?.txt'],
  ['case matters', '**/*.md'],
  ['ignored files are listed', '**/*.log'],
  ['ignored directories are listed', 'build/**'],
  ['node_modules is listed', 'node_modules/**/*.js'],
  ['a name with brackets, escaped', 'weird name \\[1\\].txt'],
  ['a literal path', 'docs/guide.md'],
  ['no match', '**/*.nothing'],
  ['dotfiles are left out of **', '**/*.env'],
  ['symlinked files', 'link-*.ts'],
  ['a searched sub-directory', '**/*.ts', 'src'],
  ['a deeper sub-directory', '*', 'src/util'],
  ['two allowed dirs', '**/*.{ts,md}', undefined, 'both'],
  ['path "." searches every allowed dir', '**/*.md', '.', 'both'],
];

for (const [name, pattern, dir, roots] of QUERIES) {
  test(`fs_glob parity: ${name}`, () => {
    const allowedDirs = roots === 'both' ? [project, other] : [project];
    const searched = dir === undefined || dir === '.' ? undefined : path.join(project, dir);
    const result = fsGlob(searched === undefined ? { pattern, path: dir } : { pattern, path: searched }, { allowedDirs });
    assert.equal(result.isError, undefined, result.content[0].text);
    assert.equal(result.content[0].text, oracleText(pattern, searched === undefined ? allowedDirs : [searched], allowedDirs));
  });
}

test('fs_glob parity: over 1000 matches', () => {
  const many = makeTree(Object.fromEntries(Array.from({ length: GLOB_RESULT_CAP + 7 }, (_, i) => [`d${i % 9}/f${i}.txt`, ''])));
  try {
    fs.readdirSync(many, { recursive: true }).forEach((name, i) => {
      const when = new Date(Date.UTC(2024, 0, 1, 0, 0, 0, 0) + i * 1000);
      fs.utimesSync(path.join(many, name), when, when);
    });
    const result = fsGlob({ pattern: '**/*.txt' }, { allowedDirs: [many] });
    assert.equal(result.content[0].text, oracleText('**/*.txt', [many], [many]));
  } finally {
    removeTree(many);
  }
});
