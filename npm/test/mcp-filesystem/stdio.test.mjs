// fsnative-mcp-filesystem against the official server, both over stdio through the SDK's own
// client: the same tools and schemas, the same answers and error texts, MCP roots, a root
// deleted mid-session, the opt-in flags and the version check.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { buildMessyTree } from './messy-tree.mjs';

const require = createRequire(import.meta.url);
const BIN = fileURLToPath(new URL('../../bin/fsnative-mcp-filesystem.js', import.meta.url));
const SERVER = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json')), 'dist', 'index.js');

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpfs-stdio-')));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const root = buildMessyTree(dir);

/** A connected client of `script` with `args`; with `roots`, the client offers those roots. */
async function connect(script, args, roots = null) {
  const transport = new StdioClientTransport({ command: process.execPath, args: [script, ...args], stderr: 'pipe' });
  const client = new Client({ name: 'fsnative-test', version: '1.0.0' }, { capabilities: roots ? { roots: {} } : {} });
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, async () => ({ roots: roots.map((r) => ({ uri: `file://${r}` })) }));
  }
  await client.connect(transport);
  return client;
}

/** The text of a tool call's answer, and whether it is an error. */
async function call(client, name, args) {
  const result = await client.callTool({ name, arguments: args });
  return { isError: Boolean(result.isError), text: result.content.map((c) => c.text).join('\n') };
}

const sortedLines = (text) => text.split('\n').sort();

test("the tool list and every schema are the server's own", async () => {
  const [theirs, ours] = await Promise.all([connect(SERVER, [root]), connect(BIN, [root])]);
  try {
    const [a, b] = await Promise.all([theirs.listTools(), ours.listTools()]);
    assert.deepEqual(b, a);
    assert.equal(a.tools.length, 14);
  } finally {
    await Promise.all([theirs.close(), ours.close()]);
  }
});

test('search_files answers as the server does, and bad inputs get its error texts', async () => {
  const [theirs, ours] = await Promise.all([connect(SERVER, [root]), connect(BIN, [root])]);
  try {
    const cases = [
      { path: root, pattern: '**/*.py' },
      { path: root, pattern: '**/*.py', excludePatterns: ['**/node_modules'] },
      { path: root, pattern: 'node_modules' },
      { path: '.', pattern: '*' },
      { path: path.join(root, 'src'), pattern: '**' },
      { path: path.join(dir, 'outside'), pattern: '**' },
      { path: `${root}_evil`, pattern: '**' },
      { path: path.join(root, '..', 'outside'), pattern: '*' },
      { path: path.join(root, 'link_out_dir'), pattern: '**' },
      { path: path.join(root, 'missing'), pattern: '**' },
      { path: path.join(root, '.gitignore'), pattern: '**' },
      { path: root, pattern: '' },
      { path: root, pattern: '#x' },
      { path: root, pattern: '!**/*.py', excludePatterns: ['**/*.js', '**/node_modules/**'] },
      { path: 'C:\\Users', pattern: '*' },
      { path: `${root}\u0000`, pattern: '*' },
      { path: root },
      { path: root, pattern: 3 },
      { path: root, pattern: '*', excludePatterns: 'node_modules' },
    ];
    for (const args of cases) {
      const [a, b] = await Promise.all([call(theirs, 'search_files', args), call(ours, 'search_files', args)]);
      assert.equal(b.isError, a.isError, JSON.stringify(args));
      assert.deepEqual(sortedLines(b.text), sortedLines(a.text), JSON.stringify(args));
    }
  } finally {
    await Promise.all([theirs.close(), ours.close()]);
  }
});

test('MCP roots replace the command line directories, as in the server', async () => {
  const src = path.join(root, 'src');
  const client = await connect(BIN, [], [src]);
  try {
    // The server asks for the roots once initialized, while the client may already call.
    let listed;
    for (let i = 0; i < 100; i++) {
      listed = await call(client, 'list_allowed_directories', {});
      if (listed.text.includes(src)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.match(listed.text, new RegExp(src.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
    const found = await call(client, 'search_files', { path: src, pattern: '*' });
    assert.equal(found.isError, false);
    const outside = await call(client, 'search_files', { path: root, pattern: '*' });
    assert.equal(outside.isError, true);
    assert.match(outside.text, /Access denied - path outside allowed directories/);
  } finally {
    await client.close();
  }
});

test("a root deleted mid-session gives the server's error, never a crash", async () => {
  const scratch = (name) => {
    const d = path.join(dir, name);
    fs.mkdirSync(path.join(d, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(d, 'sub', 'a.py'), 'x\n');
    return d;
  };
  const [one, two] = [scratch('gone1'), scratch('gone2')];
  const [theirs, ours] = await Promise.all([connect(SERVER, [one]), connect(BIN, [two])]);
  try {
    assert.equal((await call(ours, 'search_files', { path: two, pattern: '**/*.py' })).isError, false);
    fs.rmSync(one, { recursive: true });
    fs.rmSync(two, { recursive: true });
    const a = await call(theirs, 'search_files', { path: one, pattern: '**' });
    const b = await call(ours, 'search_files', { path: two, pattern: '**' });
    assert.equal(b.isError, true);
    assert.equal(b.text, a.text.replaceAll(one, two));
    assert.equal((await call(ours, 'list_allowed_directories', {})).isError, false);
  } finally {
    await Promise.all([theirs.close(), ours.close()]);
  }
});

test('--content-search adds one tool, answering as rg -n prints, a page at a time', async () => {
  const client = await connect(BIN, ['--content-search', root]);
  try {
    const { tools } = await client.listTools();
    assert.equal(tools.length, 15);
    assert.ok(tools.some((t) => t.name === 'search_file_contents'));
    const page = await call(client, 'search_file_contents', { path: root, pattern: 'x', limit: 2 });
    assert.equal(page.isError, false);
    const lines = page.text.split('\n');
    assert.match(lines[0], /^\/.+:1:x$/);
    const cursor = /cursor "([^"]+)"/.exec(page.text)?.[1];
    assert.ok(cursor, page.text);
    const more = await call(client, 'search_file_contents', { path: root, pattern: 'x', limit: 2, cursor });
    assert.notEqual(more.text.split('\n')[0], lines[0]);
    const outside = await call(client, 'search_file_contents', { path: path.join(dir, 'outside'), pattern: 'SECRET' });
    assert.equal(outside.isError, true);
    assert.match(outside.text, /Access denied/);
    const none = await call(client, 'search_file_contents', { path: root, pattern: 'SECRET' });
    assert.equal(none.text, 'No matches found');
  } finally {
    await client.close();
  }
});

test('--gitignore and --max-results change search_files as documented', async () => {
  const client = await connect(BIN, ['--gitignore', '--max-results', '3', root]);
  try {
    const all = await call(client, 'search_files', { path: root, pattern: '**' });
    const lines = all.text.split('\n');
    assert.equal(lines.length, 4);
    assert.match(lines[3], /^\[search_files stopped at 3 of \d+ matches \(result cap\)/);
    const logs = await call(client, 'search_files', { path: root, pattern: '**/*.log' });
    assert.equal(logs.text, 'No matches found');
  } finally {
    await client.close();
  }
});

test('an unsupported server version is refused at start', () => {
  const fake = fs.mkdtempSync(path.join(dir, 'fake-'));
  const pkg = path.join(fake, 'node_modules', '@modelcontextprotocol', 'server-filesystem');
  fs.mkdirSync(path.join(pkg, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: '@modelcontextprotocol/server-filesystem', version: '2025.1.1' }));
  const script = path.join(fake, 'start.mjs');
  const serverModule = new URL('../../mcp-filesystem/server.mjs', import.meta.url).href;
  fs.writeFileSync(script, `import { locateServer } from ${JSON.stringify(serverModule)};\nlocateServer(import.meta.url);\n`);
  const run = spawnSync(process.execPath, [script], { encoding: 'utf8' });
  assert.notEqual(run.status, 0);
  assert.match(run.stderr, /server-filesystem 2025\.1\.1 is not supported by this fsnative: it has been tested with 2026\.8\.31 only/);
});
