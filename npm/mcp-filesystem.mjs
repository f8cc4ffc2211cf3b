// fsnative/mcp-filesystem: the official MCP filesystem server's lib.js and path-validation.js
// exports, with the path check and search_files' walk in fsnative's native core.
export * from './mcp-filesystem/lib.mjs';
export { isPathWithinAllowedDirectories } from './mcp-filesystem/path-validation.mjs';
