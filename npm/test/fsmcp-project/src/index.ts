// The server's tool registry, with fsMCP's two search tools.

import { ToolRegistry } from './registry';
import { registerGrep } from './tools/grep';
import { registerGlob } from './tools/glob';

export const registry = new ToolRegistry();
registerGrep(registry);
registerGlob(registry);
