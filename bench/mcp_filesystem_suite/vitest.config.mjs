// The official MCP filesystem server's own vitest suite, with the modules fsnative stands in
// for aliased to fsnative's (see run.sh and docs/mcp-filesystem.md).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const npm = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'npm');

// A plain object (what defineConfig returns), so the file needs nothing installed beside it.
export default {
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
    // The server's lib.js, which fsnative's passes most exports through from, is processed as
    // the suite's own source would be, so that the suite's vi.mock('fs/promises') reaches it.
    server: { deps: { inline: [/server-filesystem/] } },
  },
};
