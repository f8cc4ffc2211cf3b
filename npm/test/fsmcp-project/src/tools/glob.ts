// Stand-in of fsMCP's fs_glob: node-glob's matches under `path`, newest first.

import { statSync } from 'node:fs';
import { globSync } from 'glob';
import { ToolRegistry } from '../registry';
import { textResult } from '../types';

export function registerGlob(registry: ToolRegistry): void {
  registry.register(
    {
      name: 'fs_glob',
      description: 'Find files by glob pattern',
      inputSchema: {
        type: 'object',
        properties: { pattern: { type: 'string' }, path: { type: 'string' } },
        required: ['pattern'],
      },
      annotations: { readOnlyHint: true },
      category: 'File System',
    },
    (args) => {
      const found = globSync(String(args.pattern), { cwd: String(args.path), absolute: true, nodir: true });
      const newestFirst = found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
      return textResult(newestFirst.join('\n'));
    },
  );
}
