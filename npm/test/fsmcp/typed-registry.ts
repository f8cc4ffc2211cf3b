// Type-checked by `npm test` (tsc -p test/fsmcp, strict): fsnative/fsmcp against fsMCP's own
// types, as the fsMCP-shaped project in test/fsmcp-project declares them. fsMCP's registry is
// taken by registerGrep/registerGlob as it is, and every export fits fsMCP's types.

import type { GrepArgs, ToolContext, ToolResult } from 'fsnative/fsmcp';
import { fsGlob, fsGrep, GLOB_TOOL, GREP_TOOL, registerGlob, registerGrep } from 'fsnative/fsmcp';
import { ToolRegistry } from '../fsmcp-project/src/registry';
import type { ToolContext as FsmcpToolContext, MCPCallResult, MCPTool, ToolHandler } from '../fsmcp-project/src/types';

const registry = new ToolRegistry();
registerGrep(registry);
registerGlob(registry);

const tools: MCPTool[] = [GREP_TOOL, GLOB_TOOL];
const handlers: ToolHandler[] = [fsGrep, fsGlob];

const fsmcpContext: FsmcpToolContext = { allowedDirs: ['/srv/project'] };
const context: ToolContext = fsmcpContext;
const byName: MCPCallResult = registry.call(GREP_TOOL.name, { pattern: 'TODO' }, fsmcpContext);

const args: GrepArgs = { pattern: 'TODO', output_mode: 'count', head_limit: 5 };
const counted: ToolResult = fsGrep(args, context);
const listed: ToolResult = fsGlob({ pattern: '**/*.ts', path: '/srv/project/src' }, context);
const texts: string[] = [counted, listed, byName].map((result) => result.content[0].text);
const failed: boolean = byName.isError === true;

export { failed, handlers, texts, tools };
