// fsMCP's ToolRegistry: tools by name; a call returns its handler's result, and a handler that
// throws becomes an error result.

import { errorResult, MCPCallResult, MCPTool, ToolContext, ToolHandler } from './types';

export class ToolRegistry {
  private readonly tools = new Map<string, { tool: MCPTool; handler: ToolHandler }>();

  register(tool: MCPTool, handler: ToolHandler): void {
    this.tools.set(tool.name, { tool, handler });
  }

  call(name: string, args: Record<string, unknown>, ctx: ToolContext): MCPCallResult {
    const registered = this.tools.get(name);
    if (!registered) return errorResult(`unknown tool: ${name}`);
    try {
      return registered.handler(args, ctx);
    } catch (err) {
      return errorResult(err instanceof Error ? err.message : String(err));
    }
  }
}
