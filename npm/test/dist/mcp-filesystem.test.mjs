// `npx -y fsnative-mcp-filesystem DIR`, as an MCP client's config runs it, with nothing installed:
// `npm exec` in an empty directory of the package's tarball from a clean copy of dist/, with
// fsnative and its platform package from the same dist/ (they are on no registry yet), and the
// official server at the version the package pins (npm/package-lock.json's) with its own
// dependencies from npm's cache or the npm registry, then MCP over stdio: initialize, tool calls.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { copyDist, withoutCargo } from '../support/dist.mjs';
import { makeTree, removeTree } from '../support/tree.mjs';

let dist;
let tree;

before(() => {
  dist = copyDist();
  tree = makeTree({ 'a.txt': 'one\n', 'sub/b.md': 'two\n', 'sub/c.md': 'three\n' });
});

after(() => {
  // npm exec installs into its cache's _npx/<hash>; drop the ones made from this copy of dist/.
  const cache = spawnSync('npm', ['config', 'get', 'cache'], { encoding: 'utf8' }).stdout.trim();
  const npx = path.join(cache, '_npx');
  for (const entry of fs.existsSync(npx) ? fs.readdirSync(npx) : []) {
    const manifest = path.join(npx, entry, 'package.json');
    if (fs.existsSync(manifest) && fs.readFileSync(manifest, 'utf8').includes(dist.root)) {
      fs.rmSync(path.join(npx, entry), { recursive: true, force: true });
    }
  }
  removeTree(dist.root);
  removeTree(tree);
});

test('npx -y fsnative-mcp-filesystem DIR installs what it needs, starts, and answers MCP over stdio', async () => {
  const empty = path.join(dist.root, 'empty');
  fs.mkdirSync(empty);
  const packages = [dist.server, dist.main, dist.platform].map((file) => `--package=${file}`);
  const args = ['exec', '--yes', '--prefer-offline', '--no-audit', '--no-fund', ...packages, '--', 'fsnative-mcp-filesystem', '--max-results', '1', tree];
  const transport = new StdioClientTransport({ command: 'npm', args, cwd: empty, env: withoutCargo(), stderr: 'pipe' });
  let stderr = '';
  transport.stderr.on('data', (chunk) => (stderr += chunk));
  const client = new Client({ name: 'fsnative-dist-test', version: '1.0.0' });
  try {
    await client.connect(transport).catch((err) => assert.fail(`${err.message}; its stderr:\n${stderr}`));
    assert.equal(client.getServerVersion().name, 'secure-filesystem-server');
    const { tools } = await client.listTools();
    assert.ok(
      tools.some((tool) => tool.name === 'search_files'),
      JSON.stringify(tools.map((tool) => tool.name)),
    );
    const allowed = await client.callTool({ name: 'list_allowed_directories', arguments: {} });
    assert.equal(allowed.content[0].text, `Allowed directories:\n${tree}`);
    // --max-results is fsnative's flag: the cap's line shows that fsnative's search_files answered.
    const found = await client.callTool({ name: 'search_files', arguments: { path: tree, pattern: '**/*.md' } });
    const [first, cap, ...rest] = found.content[0].text.split('\n');
    assert.deepEqual([first, rest], [path.join(tree, 'sub', 'b.md'), []]);
    assert.match(cap, /^\[search_files stopped at 1 of 2 matches \(result cap\)/);
  } finally {
    await client.close();
  }
  // Nothing was installed in the directory it ran in.
  assert.deepEqual(fs.readdirSync(empty), []);
});
