// A minimal MCP stdio server with fsMCP's `fs_grep` and `fs_glob` tools on fsnative, no `rg`:
//   node examples/mcp-server.mjs --allowed-dir DIR [--allowed-dir DIR ...]
// The tools register through a registry shaped like fsMCP's (`register(tool, handler)`), so
// these two calls are all an fsMCP server changes; the MCP plumbing is the official SDK's
// (`npm install @modelcontextprotocol/sdk`).

import { parseArgs } from 'node:util';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { registerGlob, registerGrep } from 'fsnative/fsmcp';

const { values } = parseArgs({ options: { 'allowed-dir': { type: 'string', multiple: true, default: [] } } });
const context = { allowedDirs: values['allowed-dir'] };

/** Tool definitions and handlers by name, filled the way fsMCP's ToolRegistry is. */
const tools = new Map();
const registry = { register: (tool, handler) => tools.set(tool.name, { tool, handler }) };
registerGrep(registry);
registerGlob(registry);

const server = new Server({ name: 'fsnative-fsmcp-example', version: '0.1.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, () => ({
  tools: [...tools.values()].map(({ tool: { name, description, inputSchema, annotations } }) => ({ name, description, inputSchema, annotations })),
}));

server.setRequestHandler(CallToolRequestSchema, ({ params }) => {
  const registered = tools.get(params.name);
  if (!registered) return { content: [{ type: 'text', text: `unknown tool: ${params.name}` }], isError: true };
  return registered.handler(params.arguments ?? {}, context);
});

await server.connect(new StdioServerTransport());
