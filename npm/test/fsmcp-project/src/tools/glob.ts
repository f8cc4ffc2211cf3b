// Stand-in of fsMCP's fs_glob: node-glob's matches under `path`, newest first.

import { statSync } from 'node:fs';
import { globSync } from 'glob';
import { ToolRegistry } from '../registry';
import { searchTool, textResult } from '../types';

export function registerGlob(registry: ToolRegistry): void {
  registry.register(searchTool('fs_glob', 'Find files by glob pattern'), (args) => {
    const found = globSync(String(args.pattern), { cwd: String(args.path), absolute: true, nodir: true });
    const newestFirst = found.sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
    return textResult(newestFirst.join('\n'));
  });
}
