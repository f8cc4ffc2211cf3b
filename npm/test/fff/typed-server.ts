// Type-checked by `npm test` (tsc -p test/fff, strict): fsnative/fff against the real McpServer
// of @modelcontextprotocol/sdk, which `register` takes as it is.

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { Sandbox } from 'fsnative';
import type { GrepArgs, MultiGrepArgs, ToolResult } from 'fsnative/fff';
import { FffTools, GREP_LIMIT, main } from 'fsnative/fff';

const tools = new FffTools(new Sandbox(['.']));
tools.register(new McpServer({ name: 'typed', version: '1.0.0' }));
tools.register(new McpServer({ name: 'typed', version: '1.0.0' }), { prefix: 'terraphim_' });

const grep: GrepArgs = { query: 'TODO', limit: GREP_LIMIT, output_mode: 'files' };
const multi: MultiGrepArgs = { patterns: ['a', 'b'], constraints: '*.rs', cursor: 'abc' };
const lines: Promise<string[]>[] = [tools.grep(grep), tools.multiGrep(multi), tools.findFiles({ query: 'main' })];
const failed: ToolResult = { content: [{ type: 'text', text: 'INVALID_CURSOR: …' }], isError: true };
const started: Promise<void> = main(['--prefix', 'x_', '.']);

export { failed, lines, started };
