// Type-checked by `npm test` (tsc -p test/fsmcp): fsnative/fsmcp used from TypeScript with a
// registry typed like fsMCP's.

import { fsGlob, fsGrep, GREP_TOOL, registerGlob, registerGrep } from 'fsnative/fsmcp';
import type { ToolContext, ToolDefinition, ToolHandler, ToolRegistry, ToolResult } from 'fsnative/fsmcp';

class MapRegistry implements ToolRegistry {
  readonly tools = new Map<string, { tool: ToolDefinition; handler: ToolHandler }>();

  register(tool: ToolDefinition, handler: ToolHandler): void {
    this.tools.set(tool.name, { tool, handler });
  }

  call(name: string, args: Record<string, unknown>, ctx: ToolContext): ToolResult {
    const registered = this.tools.get(name);
    if (!registered) return { content: [{ type: 'text', text: `unknown tool: ${name}` }], isError: true };
    return registered.handler(args, ctx);
  }
}

const registry = new MapRegistry();
registerGrep(registry);
registerGlob(registry);

const ctx: ToolContext = { allowedDirs: ['/srv/project'] };
const files: ToolResult = fsGrep({ pattern: 'TODO', output_mode: 'count', head_limit: 5 }, ctx);
const listed: ToolResult = fsGlob({ pattern: '**/*.ts', path: '/srv/project/src' }, ctx);
const byName: ToolResult = registry.call(GREP_TOOL.name, { pattern: 'TODO' }, ctx);
const texts: string[] = [files, listed, byName].map((result) => result.content[0].text);
const failed: boolean = byName.isError === true;
export { texts, failed };
