// Stand-in of fsMCP's fs_grep: runs `rg -l` on the path or the allowed dirs.

import { spawnSync } from 'node:child_process';
import { ToolRegistry } from '../registry';
import { errorResult, searchTool, textResult } from '../types';

export function registerGrep(registry: ToolRegistry): void {
  registry.register(searchTool('fs_grep', 'Search file contents with ripgrep'), (args, ctx) => {
    const paths = typeof args.path === 'string' ? [args.path] : ctx.allowedDirs;
    const rg = spawnSync('rg', ['-l', '--', String(args.pattern), ...paths], { encoding: 'utf8' });
    if (rg.status === 1) return textResult('No matches found.');
    if (rg.status !== 0) return errorResult(`grep error: ${rg.stderr}`);
    return textResult(rg.stdout.trimEnd());
  });
}
