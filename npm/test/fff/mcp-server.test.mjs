// The `fsnative-fff-mcp` bin driven by the official MCP SDK client over stdio: Terraphim's FFF
// tools (find_files, grep, multi_grep) with its parameters, defaults, text and cursor format,
// except that pages never lose matches and a bad cursor is an error.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { makeTree, removeTree } from '../support/tree.mjs';

const bin = fileURLToPath(new URL('../../bin/fsnative-fff-mcp.js', import.meta.url));

/** Lines holding `needle` in many.txt: more than a file reports (200) and than a page holds. */
const MANY = 250;
/** Its 512th byte falls inside an `é`, so the cut keeps 511 bytes. */
const LONG_LINE = `needle${'a'.repeat(505)}${'é'.repeat(10)}`;

let base;
let root;
let client;

/** A client session with the bin run with `args`; `session.stderr()` is what it printed there. */
async function connect(args) {
  const session = new Client({ name: 'fff-test', version: '1.0.0' });
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, ...args], stderr: 'pipe' });
  let printed = '';
  transport.stderr.on('data', (chunk) => {
    printed += chunk;
  });
  await session.connect(transport);
  session.stderr = () => printed;
  return session;
}

before(async () => {
  base = makeTree({
    'project/src/main.rs': 'fn main() {\n    // TODO: parse args\n    let todo = 1;\n}\n',
    'project/src/lib.rs': 'pub fn run() {}\n// Todo: docs\n',
    'project/docs/notes.md': 'TODO list\n- nothing\n',
    'project/tests/test_main.rs': '// TODO test\n',
    'project/long.txt': `${LONG_LINE}\n`,
    'project/many.txt': Array.from({ length: MANY }, (_, i) => `needle ${i + 1}\n`).join(''),
    'project/huge.txt': `needle TODO\n${'z'.repeat(10 * 1024 * 1024)}`, // over 10 MiB: not searched
    // More than find_files lists.
    ...Object.fromEntries(Array.from({ length: 25 }, (_, n) => [`project/gen/file_${String(n).padStart(2, '0')}.txt`, 'generated\n'])),
    'project_evil/secret.txt': 'needle TODO\n',
  });
  root = path.join(base, 'project');
  fs.mkdirSync(path.join(root, 'empty'));
  fs.symlinkSync(path.join(base, 'project_evil'), path.join(root, 'escape'));
  client = await connect([root]);
});

after(async () => {
  await client?.close();
  removeTree(base);
});

/** The text blocks of a successful answer, one per line as Terraphim sends them. */
async function lines(name, args, session = client) {
  const result = await session.callTool({ name, arguments: args });
  assert.equal(result.isError, undefined, JSON.stringify(result));
  return result.content.map((block) => {
    assert.equal(block.type, 'text');
    return block.text;
  });
}

async function error(name, args) {
  const result = await client.callTool({ name, arguments: args });
  assert.equal(result.isError, true, JSON.stringify(result));
  assert.equal(result.content.length, 1);
  return result.content[0].text;
}

/** Every line of every page of a call (headers and cursors left out), and the page count. */
async function pages(name, args) {
  const all = [];
  let cursor;
  for (let count = 1; count < 1000; count += 1) {
    const answer = await lines(name, cursor ? { ...args, cursor } : args);
    assert.match(answer[0], /^Found /);
    const last = answer.at(-1);
    cursor = last.startsWith('next_cursor: ') ? last.slice('next_cursor: '.length) : undefined;
    all.push(...answer.slice(1, cursor ? -1 : undefined));
    if (!cursor) return { lines: all, count };
    assert.match(cursor, /^[A-Za-z0-9_-]+$/); // URL-safe base64, no padding
  }
  throw new Error('more than 1000 pages');
}

test('tools/list gives the three tools with their parameters', async () => {
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  assert.deepEqual(Object.keys(byName).sort(), ['find_files', 'grep', 'multi_grep']);
  const shape = (name) => [Object.keys(byName[name].inputSchema.properties), byName[name].inputSchema.required];
  assert.deepEqual(shape('find_files'), [['query', 'path', 'limit'], ['query']]);
  assert.deepEqual(shape('grep'), [['query', 'path', 'limit', 'output_mode', 'cursor'], ['query']]);
  assert.deepEqual(shape('multi_grep'), [['patterns', 'path', 'constraints', 'limit', 'output_mode', 'cursor'], ['patterns']]);
  assert.deepEqual(byName.grep.inputSchema.properties.output_mode.enum, ['content', 'files']);
  assert.equal(byName.grep.inputSchema.properties.limit.description, 'Maximum number of matches to return (default 50)');
  for (const tool of tools) assert.equal(tool.annotations.readOnlyHint, true);
});

// The lines themselves (header, plurals, relative paths, files mode) are the core's, checked by
// tests/vectors/fff.json in every language; these tests check what the adapter decides.
test('grep maps Terraphim’s options: plain text, smart case, path order, files mode', async () => {
  assert.deepEqual(await lines('grep', { query: 'TODO' }), [
    "Found 3 matches across 3 files (searched 31 files under '.')",
    'docs/notes.md:1:TODO list',
    'src/main.rs:2:    // TODO: parse args',
    'tests/test_main.rs:1:// TODO test',
  ]);
  assert.deepEqual((await lines('grep', { query: 'todo', path: 'src' })).slice(1), [
    'lib.rs:2:// Todo: docs',
    'main.rs:2:    // TODO: parse args',
    'main.rs:3:    let todo = 1;',
  ]);
  assert.deepEqual((await lines('grep', { query: 'TODO', output_mode: 'files' })).slice(1), ['docs/notes.md', 'src/main.rs', 'tests/test_main.rs']);
});

test('grep searches plain text, cuts lines at 512 bytes and reports 200 lines per file', async () => {
  assert.deepEqual(await lines('grep', { query: 'a.*é' }), ["Found 0 matches across 0 files (searched 31 files under '.')"]);
  const [, line] = await lines('grep', { query: 'needleaaa' });
  assert.equal(line, `long.txt:1:${Buffer.from(LONG_LINE).subarray(0, 511).toString()}`);
  const answer = await lines('grep', { query: 'needle ', limit: 1000 });
  assert.equal(answer[0], "Found 200 matches across 1 file (searched 31 files under '.')");
  assert.deepEqual(
    answer.slice(1),
    Array.from({ length: 200 }, (_, i) => `many.txt:${i + 1}:needle ${i + 1}`),
  );
});

test('pages add up to the whole answer, also inside a file', async () => {
  const whole = (await lines('grep', { query: 'needle', limit: 1000 })).slice(1);
  assert.equal(whole.length, 201); // long.txt's line and many.txt's first 200
  for (const limit of [1, 7, 50, 199]) {
    const paged = await pages('grep', { query: 'needle', limit });
    assert.deepEqual(paged.lines, whole, `limit ${limit}`);
    assert.equal(paged.count, Math.ceil(whole.length / limit), `limit ${limit}`); // no empty last page
  }
});

test('pages of files and of multi_grep add up too', async () => {
  const files = { patterns: ['TODO', 'needle'], output_mode: 'files' };
  const whole = (await lines('multi_grep', files)).slice(1);
  assert.deepEqual(whole, ['docs/notes.md', 'long.txt', 'many.txt', 'src/main.rs', 'tests/test_main.rs']);
  assert.deepEqual(await pages('multi_grep', { ...files, limit: 2 }), { lines: whole, count: 3 });
  // "Todo" makes the search case-sensitive: lib.rs's line, and many.txt's 1, 10…19 and 100…199.
  const content = { patterns: ['Todo', 'needle 1'] };
  const all = (await lines('multi_grep', { ...content, limit: 1000 })).slice(1);
  assert.equal(all.length, 112);
  assert.deepEqual(await pages('multi_grep', { ...content, limit: 3 }), { lines: all, count: 38 });
});

test('a cursor that does not decode or fit the arguments is an error', async () => {
  for (const cursor of ['!!not base64!!', 'MTA', 'MTA=']) {
    // "MTA" is Terraphim's cursor for file 10.
    assert.match(await error('grep', { query: 'needle', cursor }), /^INVALID_CURSOR: the cursor is malformed/, cursor);
  }
  const first = await lines('grep', { query: 'needle', limit: 5 });
  assert.deepEqual(await lines('grep', { query: 'needle', limit: 5, cursor: '' }), first); // none
  const cursor = first.at(-1).slice('next_cursor: '.length);
  assert.match(await error('grep', { query: 'TODO', cursor }), /^INVALID_CURSOR: the cursor belongs to a different request/);
  // Only `limit` may change between pages.
  assert.equal((await lines('grep', { query: 'needle', limit: 1, cursor }))[1], 'many.txt:5:needle 5');
});

test('multi_grep ORs its patterns', async () => {
  assert.deepEqual((await lines('multi_grep', { patterns: ['fn main', 'pub "fn"', 'nothing'] })).slice(1), [
    'docs/notes.md:2:- nothing',
    'src/main.rs:1:fn main() {',
  ]);
  assert.match(await error('multi_grep', { patterns: [] }), /^INVALID_ARGUMENT: at least one pattern is required/);
});

test('multi_grep constraints choose the files', async () => {
  assert.deepEqual((await lines('multi_grep', { patterns: ['todo'], constraints: '*.rs !tests/' })).slice(1), [
    'src/lib.rs:2:// Todo: docs',
    'src/main.rs:2:    // TODO: parse args',
    'src/main.rs:3:    let todo = 1;',
  ]);
});

test('paths outside the sandbox are refused', async () => {
  for (const outside of [path.join(base, 'project_evil'), '..', 'escape', '/etc']) {
    for (const [name, args] of [
      ['grep', { query: 'needle' }],
      ['multi_grep', { patterns: ['needle'] }],
    ]) {
      const message = await error(name, { ...args, path: outside });
      assert.ok(message.startsWith(`OUTSIDE_SANDBOX: access denied: ${outside}`), message);
    }
  }
  // The link is not followed while searching either.
  assert.doesNotMatch((await lines('grep', { query: 'needle', limit: 1000 })).join('\n'), /secret/);
});

/** A `find_files` line: the score right-aligned in five columns, two spaces, the path. */
function scored(line) {
  const match = /^( *\d+) {2}(\S+)$/.exec(line);
  assert.ok(match && match[1].length >= 5, line);
  return [Number(match[1]), match[2]];
}

test('find_files lists the best paths first with their scores', async () => {
  const answer = await lines('find_files', { query: 'main.rs' });
  // (The core's count of candidates takes in the link out, which it never lists.)
  assert.match(answer[0], /^Found 2 files matching 'main\.rs' \(searched 3[23] files under '\.'\)$/);
  const found = answer.slice(1).map(scored);
  assert.deepEqual(
    found.map(([, name]) => name),
    ['src/main.rs', 'tests/test_main.rs'],
  );
  assert.ok(found[0][0] > found[1][0]);
  // Typos are forgiven; paths are relative to `path`.
  assert.equal(scored((await lines('find_files', { query: 'mian.rs', path: 'src' }))[1])[1], 'main.rs');
  // 20 paths unless `limit` says otherwise.
  assert.ok((await lines('find_files', { query: 'file' }))[0].startsWith("Found 20 files matching 'file' ("));
  assert.equal((await lines('find_files', { query: 'file', limit: 3 })).length, 4);
  assert.match(await error('find_files', { query: 'secret', path: 'escape' }), /^OUTSIDE_SANDBOX: access denied: escape/);
});

test('with --frecency files come most used first, and --thesaurus boosts found paths', async () => {
  const thesaurus = path.join(base, 'thesaurus.json');
  fs.writeFileSync(thesaurus, JSON.stringify({ tests: 'testing' }));
  const session = await connect(['--frecency', path.join(base, 'frecency'), '--thesaurus', thesaurus, root]);
  try {
    const files = { patterns: ['TODO', 'needle'], output_mode: 'files' };
    // Nothing recorded yet: path order. Each file a page returns counts as an access.
    const inPathOrder = ['docs/notes.md', 'long.txt', 'many.txt', 'src/main.rs', 'tests/test_main.rs'];
    assert.deepEqual((await lines('multi_grep', files, session)).slice(1), inPathOrder);
    await lines('grep', { query: 'TODO' }, session); // three of them once more
    const mostUsedFirst = ['docs/notes.md', 'src/main.rs', 'tests/test_main.rs', 'long.txt', 'many.txt'];
    assert.deepEqual((await lines('multi_grep', files, session)).slice(1), mostUsedFirst);
    // find_files adds frecency (both files alike) and the boost of "tests" (5) to the scores.
    const plain = (await lines('find_files', { query: 'main.rs' })).slice(1).map(scored);
    const ranked = (await lines('find_files', { query: 'main.rs' }, session)).slice(1).map(scored);
    assert.deepEqual(
      ranked.map(([, name]) => name),
      ['src/main.rs', 'tests/test_main.rs'],
    );
    assert.ok(ranked[0][0] > plain[0][0]);
    assert.equal(ranked[1][0] - plain[1][0], ranked[0][0] - plain[0][0] + 5);
  } finally {
    await session.close();
  }
});

test('the server names itself fsnative-fff-mcp with fsnative’s version, and keeps stderr quiet', async () => {
  const { version } = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.deepEqual(client.getServerVersion(), { name: 'fsnative-fff-mcp', version });
  await lines('grep', { query: 'TODO' });
  await error('grep', { query: 'x', path: '..' });
  assert.equal(client.stderr(), '');
});

test('--verbose logs each call on stderr', async () => {
  const session = await connect(['--verbose', root]);
  try {
    await lines('grep', { query: 'TODO' }, session);
    await session.callTool({ name: 'find_files', arguments: { query: 'x', path: '..' } });
    const logged = session.stderr().trim().split('\n');
    assert.equal(logged.length, 2, session.stderr());
    assert.match(logged[0], /^fsnative-fff-mcp: grep: 4 lines in \d+ ms$/);
    assert.match(logged[1], /^fsnative-fff-mcp: find_files: OUTSIDE_SANDBOX in \d+ ms$/);
  } finally {
    await session.close();
  }
});

test('--prefix gives Terraphim’s own tool names', async () => {
  const session = await connect(['--prefix', 'terraphim_', root]);
  try {
    const { tools } = await session.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['terraphim_find_files', 'terraphim_grep', 'terraphim_multi_grep']);
    assert.deepEqual((await lines('terraphim_grep', { query: 'TODO', path: 'tests' }, session)).slice(1), ['test_main.rs:1:// TODO test']);
  } finally {
    await session.close();
  }
});
