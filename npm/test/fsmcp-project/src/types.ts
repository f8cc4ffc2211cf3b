// fsMCP's tool types (its src/types.ts), declared exactly as fsMCP declares them, and the
// definition its two search tools share.

/** A tool as the registry lists it. */
export interface MCPTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean };
  category?: string;
}

/** What a tool call returns. */
export type MCPCallResult = { content: { type: string; text: string }[]; isError?: boolean };

/** Per-call context: the directories the call may touch. */
export interface ToolContext {
  allowedDirs: string[];
}

/** A tool's handler: synchronous, the registry returns its result as it is. */
export type ToolHandler = (args: Record<string, unknown>, ctx: ToolContext) => MCPCallResult;

export function textResult(text: string): MCPCallResult {
  return { content: [{ type: 'text', text }] };
}

export function errorResult(text: string): MCPCallResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** A read-only File System tool that takes a `pattern` and, optionally, a `path`. */
export function searchTool(name: string, description: string): MCPTool {
  return {
    name,
    description,
    inputSchema: {
      type: 'object',
      properties: { pattern: { type: 'string' }, path: { type: 'string' } },
      required: ['pattern'],
    },
    annotations: { readOnlyHint: true },
    category: 'File System',
  };
}
