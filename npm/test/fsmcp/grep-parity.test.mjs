// fs_grep against the answer fsMCP's rg path gives: for each query, the argv fsMCP builds is run
// through ripgrep 15.1.0 (from PyPI, see install-oracle.sh) and its stdout, trimmed at the end,
// must equal the handler's text. The oracle adds `--sort path` (fsnative's order; rg's own
// parallel order is not deterministic) and the fixture has a `.git` dir so rg reads .gitignore.

import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fsGrep } from 'fsnative/fsmcp';
import { makeTree, removeTree } from '../support/tree.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

const guideLines = Array.from({ length: 40 }, (_, i) => ([3, 5, 20, 38].includes(i + 1) ? `step ${i + 1}: TODO` : `step ${i + 1}`));

const PROJECT_FILES = {
  '.git/HEAD': 'ref: refs/heads/main\n',
  '.gitignore': 'ignored/\n*.log\n',
  'README.md': '# Demo\nTODO: write docs\nSee src/main.rs\n',
  'src/main.rs': 'fn main() {\n    // TODO: parse args\n    println!("hello");\n}\n\nfn helper() {\n    // FIXME later\n}\n',
  'src/lib.rs': 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n// TODO: tests\n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture's text is TypeScript source
  'src/util/helpers.ts': 'export function greet(name: string) {\n  return `hello ${name}`;\n}\n// TODO tidy\n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the fixture's text is JavaScript source
  'src/util/helpers.js': 'function greet(name) {\n  return `hello ${name}`;\n}\n// TODO tidy\n',
  'web/app.ts': "import { greet } from '../src/util/helpers';\nconsole.log(greet('world'));\n",
  'web/app.test.ts': "test('greet', () => {});\n// TODO: more\n",
  'docs/guide.md': guideLines.join('\n') + '\n',
  'notes.txt': Array.from({ length: 12 }, (_, i) => `foo ${i + 1}\n`).join(''),
  'ignored/skip.txt': 'TODO ignored\n',
  'debug.log': 'TODO log\n',
  '.hidden/secret.txt': 'TODO hidden\n',
  '.env': 'TODO=1\n',
  'data.bin': 'TODO\0binary\n',
  'unicode.txt': 'héllo wörld\nTODO ünïcode\n',
  'space name.txt': 'TODO with space\n',
  '-dash.md': '-v flag\n--help\n',
  'crlf.txt': 'TODO crlf\r\nnext\r\n',
  'noeol.txt': 'last TODO',
  'blank.txt': 'one\n\ntwo\n\n\nthree\n',
};

const OTHER_FILES = {
  'lib/extra.py': 'def f():\n    # TODO python\n    pass\n',
  'extra.txt': 'hello TODO\n',
};

let rg;
let project;
let other;

before(() => {
  rg = execFileSync(path.join(here, 'install-oracle.sh'), { encoding: 'utf8' }).trim();
  project = makeTree(PROJECT_FILES);
  other = makeTree(OTHER_FILES);
});

after(() => {
  removeTree(project);
  removeTree(other);
});

/** The argv fsMCP's rg path builds for these arguments, plus the oracle's `--sort path`. */
function fsmcpArgv(args, searchPaths) {
  const mode = args.output_mode ?? 'files_with_matches';
  const argv = ['--no-config', '--sort', 'path'];
  argv.push(mode === 'files_with_matches' ? '-l' : mode === 'count' ? '-c' : '-n');
  if (mode === 'content' && args.context !== undefined) argv.push('-C', String(args.context));
  if (args.glob) argv.push('--glob', args.glob);
  if (args.type) argv.push('--type', args.type);
  if (args.head_limit) argv.push('--max-count', String(args.head_limit));
  argv.push('--', args.pattern, ...searchPaths);
  return argv;
}

/** What fsMCP returns for rg's answer: stdout trimmed at the end, or "No matches found." on exit 1. */
function oracleText(args, allowedDirs) {
  const searchPaths = args.path === undefined ? allowedDirs : [args.path];
  const run = spawnSync(rg, fsmcpArgv(args, searchPaths), { encoding: 'utf8', cwd: project });
  if (run.status === 1) return 'No matches found.';
  assert.equal(run.status, 0, `rg failed: ${run.stderr}`);
  return run.stdout.trimEnd();
}

/** Each query: the fs_grep arguments (paths relative to the project tree) and the roots. */
const QUERIES = [
  ['default mode lists files', { pattern: 'TODO' }],
  ['count mode', { pattern: 'TODO', output_mode: 'count' }],
  ['content mode', { pattern: 'TODO', output_mode: 'content' }],
  ['content with context 1', { pattern: 'TODO', output_mode: 'content', context: 1 }],
  ['content with context 0', { pattern: 'TODO', output_mode: 'content', context: 0 }],
  ['context merging groups in one file', { pattern: 'TODO', output_mode: 'content', context: 2, path: 'docs' }],
  ['context on a single file has no path prefix', { pattern: 'TODO', output_mode: 'content', context: 3, path: 'docs/guide.md' }],
  ['context is ignored outside content mode', { pattern: 'TODO', output_mode: 'count', context: 3 }],
  ['head_limit caps matching lines per file', { pattern: 'foo', output_mode: 'content', head_limit: 3 }],
  ['head_limit caps counts per file', { pattern: 'foo|TODO', output_mode: 'count', head_limit: 5 }],
  ['head_limit in files mode', { pattern: 'TODO', head_limit: 1 }],
  ['head_limit with context', { pattern: 'foo', output_mode: 'content', head_limit: 2, context: 1 }],
  ['head_limit 0 is no limit', { pattern: 'foo', output_mode: 'count', head_limit: 0 }],
  ['glob by extension', { pattern: 'TODO', output_mode: 'content', glob: '*.rs' }],
  ['negated glob', { pattern: 'TODO', glob: '!*.md' }],
  ['glob with a directory', { pattern: 'TODO', output_mode: 'count', glob: 'src/**' }],
  ['glob with alternatives', { pattern: 'TODO', output_mode: 'content', glob: '*.{ts,js}' }],
  ['type rust', { pattern: 'TODO', output_mode: 'content', type: 'rust' }],
  ['type ts', { pattern: 'TODO', type: 'ts' }],
  ['type md', { pattern: 'TODO', output_mode: 'count', type: 'md' }],
  ['glob, type, head_limit and context together', { pattern: 'TODO|hello', output_mode: 'content', glob: 'src/**', type: 'ts', head_limit: 1, context: 1 }],
  ['a sub-directory', { pattern: 'TODO', output_mode: 'content', path: 'src' }],
  ['a single file, files mode', { pattern: 'TODO', path: 'src/main.rs' }],
  ['a single file, count mode', { pattern: 'TODO', output_mode: 'count', path: 'src/main.rs' }],
  ['a single file, content with context', { pattern: 'TODO', output_mode: 'content', context: 2, path: 'src/main.rs' }],
  ['a file name with a space', { pattern: 'TODO', output_mode: 'content', path: 'space name.txt' }],
  ['no match', { pattern: 'zzz_nothing_matches', output_mode: 'content' }],
  ['no match in files mode', { pattern: 'zzz_nothing_matches' }],
  ['regex with a class and a group', { pattern: 'fn \\w+\\(', output_mode: 'content' }],
  ['inline case-insensitive flag', { pattern: '(?i)todo', output_mode: 'count' }],
  ['a pattern starting with a dash', { pattern: '^-', output_mode: 'content' }],
  ['a pattern that looks like a flag', { pattern: '--help', output_mode: 'content' }],
  ['non-ASCII text', { pattern: 'héllo|ünïcode', output_mode: 'content' }],
  ['CRLF lines', { pattern: 'crlf', output_mode: 'content', context: 1 }],
  ['a last line without a newline', { pattern: 'last', output_mode: 'content' }],
  ['empty lines', { pattern: '^$', output_mode: 'count' }],
  ['empty lines with context', { pattern: '^$', output_mode: 'content', context: 1, path: 'blank.txt' }],
  ['word boundaries', { pattern: '\\bTODO\\b', path: 'docs' }],
  ['regex operators', { pattern: 'a \\+ b', output_mode: 'content' }],
  ['path "." searches every allowed dir', { pattern: 'TODO', output_mode: 'count', path: '.' }, 'both'],
  ['two allowed dirs, files mode', { pattern: 'TODO' }, 'both'],
  ['two allowed dirs, content with context', { pattern: 'TODO', output_mode: 'content', context: 1 }, 'both'],
  ['two allowed dirs, type filter', { pattern: 'TODO', output_mode: 'content', type: 'py' }, 'both'],
];

for (const [name, query, roots] of QUERIES) {
  test(`fs_grep parity: ${name}`, () => {
    const allowedDirs = roots === 'both' ? [project, other] : [project];
    const args = { ...query };
    if (args.path !== undefined && args.path !== '.') args.path = path.join(project, args.path);
    const oracleArgs = args.path === '.' ? { ...args, path: undefined } : args;
    const result = fsGrep(args, { allowedDirs });
    assert.equal(result.isError, undefined, result.content[0].text);
    assert.equal(result.content[0].text, oracleText(oracleArgs, allowedDirs));
  });
}

test('the parity suite covers at least 30 queries', () => {
  assert.ok(QUERIES.length >= 30);
});
