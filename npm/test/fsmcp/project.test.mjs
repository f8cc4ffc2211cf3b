// The fsMCP migration of docs/drop-ins.md, step by step, on a copy of a minimal fsMCP-shaped
// TypeScript project (test/fsmcp-project: fsMCP's types and registry, stand-ins of its two
// search tools).
// The copy compiles as it is; then the page's import diff is applied, the two tools and the
// `glob` dependency removed, fsnative installed from the release tarballs (FSNATIVE_DIST,
// default <repo>/dist, made by `make dist`), and it must compile under `tsc --strict` and answer
// fs_grep and fs_glob through fsnative. Every install is offline, from the npm cache that
// `npm ci` in npm/ fills.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { platformPackage } from '../../lib/platform.js';
import { makeTree, removeTree } from '../support/tree.mjs';

const packageDir = fileURLToPath(new URL('../..', import.meta.url));
const repoDir = path.dirname(packageDir);
const template = path.join(packageDir, 'test/fsmcp-project');
const { version } = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
const distDir = path.resolve(process.env.FSNATIVE_DIST ?? path.join(repoDir, 'dist'));
const tarballs = [`fsnative-${version}.tgz`, `${platformPackage()}-${version}.tgz`].map((name) => path.join(distDir, name));

let project;
let searched;

before(() => {
  project = fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-fsmcp-project-'));
  fs.cpSync(template, project, { recursive: true });
  searched = makeTree({ 'src/a.ts': 'export const a = 1; // TODO: rename\n', 'src/b.ts': 'export const b = 2;\n', 'notes.md': 'no todo here\n' });
  for (const tarball of tarballs) {
    assert.ok(fs.existsSync(tarball), `${tarball} is missing: run \`make dist\` (or set FSNATIVE_DIST to the directory holding it)`);
  }
});

after(() => {
  fs.rmSync(project, { recursive: true, force: true });
  removeTree(searched);
});

/** Runs a command in the project; fails with its output unless it exits 0. */
function run(command, ...args) {
  const result = spawnSync(command, args, { cwd: project, encoding: 'utf8' });
  assert.equal(result.status, 0, `${command} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
}

const projectFile = (relative) => path.join(project, relative);
const projectRequire = () => createRequire(projectFile('package.json'));
const tsc = () => run(projectFile('node_modules/.bin/tsc'), '-p', '.');

/** The first ```diff block of the fsMCP section of docs/drop-ins.md. */
function migrationDiff() {
  const page = fs.readFileSync(path.join(repoDir, 'docs', 'drop-ins.md'), 'utf8');
  const section = page.split('\n## fsMCP (Node): `fsnative/fsmcp`\n')[1]?.split('\n## ')[0];
  assert.ok(section, 'docs/drop-ins.md has no "## fsMCP (Node): `fsnative/fsmcp`" section');
  const diff = section.match(/^```diff\n([\s\S]*?)^```$/m)?.[1];
  assert.ok(diff, 'the fsMCP section of docs/drop-ins.md has no ```diff block');
  return diff;
}

/**
 * `source` with `diff` applied: its "-" and " " lines must stand together, in order, in
 * `source` (leading and trailing spaces aside); they give way to its " " and "+" lines.
 */
function applyDiff(source, diff) {
  const hunk = diff.split('\n').filter((line) => line !== '');
  const content = (line) => line.slice(1).trim();
  const oldLines = hunk.filter((line) => !line.startsWith('+')).map(content);
  const newLines = hunk.filter((line) => !line.startsWith('-')).map(content);
  const lines = source.split('\n');
  const at = lines.findIndex((_, i) => oldLines.every((expected, j) => lines[i + j]?.trim() === expected));
  assert.ok(oldLines.length > 0 && at !== -1, `the migration's diff does not apply to src/index.ts:\n${diff}\nsrc/index.ts:\n${source}`);
  lines.splice(at, oldLines.length, ...newLines);
  return lines.join('\n');
}

test('the fsMCP-shaped project compiles with its own grep and glob tools', () => {
  run('npm', 'ci', '--offline', '--no-audit', '--no-fund');
  tsc();
  assert.ok(fs.existsSync(projectFile('dist/tools/grep.js')));
});

test('the documented migration: import diff, two files and `glob` removed, fsnative installed, tsc --strict passes', () => {
  const index = projectFile('src/index.ts');
  fs.writeFileSync(index, applyDiff(fs.readFileSync(index, 'utf8'), migrationDiff()));
  fs.rmSync(projectFile('src/tools/grep.ts'));
  fs.rmSync(projectFile('src/tools/glob.ts'));
  const manifest = JSON.parse(fs.readFileSync(projectFile('package.json'), 'utf8'));
  delete manifest.dependencies.glob;
  fs.writeFileSync(projectFile('package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  // The first test's output goes, so that what is left is this compile's.
  fs.rmSync(projectFile('dist'), { recursive: true });

  run('npm', 'install', '--offline', '--no-audit', '--no-fund', ...tarballs);
  assert.equal(fs.existsSync(projectFile('node_modules/glob')), false, 'npm install left glob installed');
  const installed = projectFile('node_modules/fsnative/');
  assert.ok(projectRequire().resolve('fsnative/fsmcp').startsWith(installed), `fsnative/fsmcp does not resolve inside ${installed}`);
  tsc();
  assert.deepEqual(fs.readdirSync(projectFile('dist')).sort(), ['index.js', 'registry.js', 'types.js']);
});

/** The migrated registry's answer to one call of `tool` on the searched tree. */
function call(tool, args) {
  const { registry } = projectRequire()(projectFile('dist/index.js'));
  return registry.call(tool, args, { allowedDirs: [searched] });
}

test('fs_grep through the migrated registry lists the matching file', () => {
  const result = call('fs_grep', { pattern: 'TODO', path: searched });
  assert.deepEqual(result, { content: [{ type: 'text', text: path.join(searched, 'src/a.ts') }] });
});

test('fs_glob through the migrated registry lists the matching files', () => {
  const result = call('fs_glob', { pattern: '**/*.ts', path: searched });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.content[0].text.split('\n').sort(), [path.join(searched, 'src/a.ts'), path.join(searched, 'src/b.ts')]);
});
