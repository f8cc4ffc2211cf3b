// examples/mcp-server.mjs driven by the official MCP SDK client over stdio: initialize,
// tools/list, tools/call of both tools. The server runs with a PATH that holds no `rg`.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { GLOB_TOOL, GREP_TOOL } from 'fsnative/fsmcp';
import { makeTree, removeTree } from '../support/tree.mjs';

const serverScript = fileURLToPath(new URL('../../examples/mcp-server.mjs', import.meta.url));

let root;
let emptyPath;
let client;

before(async () => {
  root = makeTree({ 'src/a.ts': 'const x = 1; // TODO\n', 'src/b.ts': 'nothing here\n', 'notes.md': 'TODO: ship\n' });
  emptyPath = fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-no-rg-'));
  client = new Client({ name: 'fsmcp-example-test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [serverScript, '--allowed-dir', root],
    env: { PATH: emptyPath },
    stderr: 'pipe',
  });
  await client.connect(transport);
});

after(async () => {
  await client?.close();
  removeTree(root);
  fs.rmSync(emptyPath, { recursive: true, force: true });
});

test('the server PATH has no rg', () => {
  assert.deepEqual(fs.readdirSync(emptyPath), []);
});

test('initialize: the server names itself and offers tools', () => {
  assert.equal(client.getServerVersion()?.name, 'fsnative-fsmcp-example');
  assert.ok(client.getServerCapabilities()?.tools);
});

test('tools/list gives both tools with their schemas and annotations', async () => {
  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  assert.deepEqual(Object.keys(byName).sort(), ['fs_glob', 'fs_grep']);
  assert.deepEqual(byName.fs_grep.inputSchema, GREP_TOOL.inputSchema);
  assert.deepEqual(byName.fs_glob.inputSchema, GLOB_TOOL.inputSchema);
  assert.deepEqual(byName.fs_grep.annotations, GREP_TOOL.annotations);
  assert.deepEqual(byName.fs_glob.annotations, GLOB_TOOL.annotations);
});

test('tools/call fs_grep returns rg -n output', async () => {
  const result = await client.callTool({ name: 'fs_grep', arguments: { pattern: 'TODO', output_mode: 'content' } });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.content, [{ type: 'text', text: `${root}/notes.md:1:TODO: ship\n${root}/src/a.ts:1:const x = 1; // TODO` }]);
});

test('tools/call fs_glob returns absolute paths', async () => {
  const result = await client.callTool({ name: 'fs_glob', arguments: { pattern: '**/*.ts' } });
  assert.equal(result.isError, undefined);
  assert.deepEqual(result.content[0].text.split('\n').sort(), [`${root}/src/a.ts`, `${root}/src/b.ts`]);
});

test('tools/call reports a refused path as a tool error', async () => {
  const result = await client.callTool({ name: 'fs_grep', arguments: { pattern: 'root', path: '/etc' } });
  assert.equal(result.isError, true);
  assert.equal(result.content[0].text, 'path /etc is outside allowed directories');
});
