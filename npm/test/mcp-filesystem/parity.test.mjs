// search_files parity: fsnative's searchFilesWithValidation against the real server's (the
// same process, the same generated messy tree), 48 patterns x 5 exclude sets from
// bench/mcp_filesystem_vectors.mjs. The same set of paths must come back; the order differs
// (the server's is readdir order, fsnative's path order), so both are sorted.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';

import * as server from '@modelcontextprotocol/server-filesystem/dist/lib.js';
import * as ours from 'fsnative/mcp-filesystem';
import { excludeSets, patterns } from '../../../bench/mcp_filesystem_vectors.mjs';
import { buildMessyTree } from './messy-tree.mjs';

const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpfs-parity-')));
after(() => fs.rmSync(dir, { recursive: true, force: true }));
const root = buildMessyTree(dir);

test("search_files returns the server's paths for every pattern and exclude set", async () => {
  assert.ok(patterns.length >= 40 && excludeSets.length >= 5);
  ours.setAllowedDirectories([root]);
  let compared = 0;
  let nonEmpty = 0;
  for (const pattern of patterns) {
    for (const excludePatterns of excludeSets) {
      server.setAllowedDirectories([root]);
      const expected = (await server.searchFilesWithValidation(root, pattern, [root], { excludePatterns })).sort();
      const actual = (await ours.searchFilesWithValidation(root, pattern, [root], { excludePatterns })).sort();
      assert.deepEqual(actual, expected, `pattern ${JSON.stringify(pattern)}, excludes ${JSON.stringify(excludePatterns)}`);
      compared++;
      if (expected.length > 0) nonEmpty++;
    }
  }
  assert.equal(compared, patterns.length * excludeSets.length);
  assert.ok(nonEmpty > compared / 2, `most cases find something (${nonEmpty} of ${compared})`);
});

test('nothing outside the root is ever listed', async () => {
  ours.setAllowedDirectories([root]);
  const everything = await ours.searchFilesWithValidation(root, '**', [root]);
  assert.ok(everything.length > 50);
  for (const found of everything) {
    assert.ok(fs.realpathSync(found).startsWith(root + path.sep), found);
  }
  assert.ok(!everything.some((f) => /dangling|link_out|up_out|self$/.test(f)));
});

test('a search from a subdirectory, and one from outside the allowed directories', async () => {
  ours.setAllowedDirectories([root]);
  server.setAllowedDirectories([root]);
  const sub = path.join(root, 'deep');
  const expected = (await server.searchFilesWithValidation(sub, '**/*.py', [root])).sort();
  assert.deepEqual((await ours.searchFilesWithValidation(sub, '**/*.py', [root])).sort(), expected);
  const outside = path.join(dir, 'outside');
  assert.deepEqual(await ours.searchFilesWithValidation(outside, '**', [root]), await server.searchFilesWithValidation(outside, '**', [root]));
  const missing = path.join(root, 'missing');
  const theirs = await server.searchFilesWithValidation(missing, '**', [root]).catch((e) => e.message);
  assert.equal(await ours.searchFilesWithValidation(missing, '**', [root]).catch((e) => e.message), theirs);
});
