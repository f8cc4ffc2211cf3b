// The official MCP filesystem server's own vitest suite, with the modules fsnative stands in
// for aliased to fsnative's (see run.sh and docs/mcp-filesystem.md).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const npm = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'npm');

export default defineConfig({
  resolve: {
    alias: [
      { find: /^\.\.\/path-validation\.js$/, replacement: path.join(npm, 'mcp-filesystem', 'path-validation.mjs') },
      { find: /^\.\.\/lib\.js$/, replacement: path.join(npm, 'mcp-filesystem', 'lib.mjs') },
    ],
  },
  test: {
    globals: true,
    environment: 'node',
    include: ['**/__tests__/**/*.test.ts'],
  },
});
