// Types of fsnative/mcp-filesystem: the official MCP filesystem server's lib.js and
// path-validation.js exports (@modelcontextprotocol/server-filesystem 2026.8.31), with the path
// check and search_files' walk in fsnative's core. Every other export is the server's own.
export * from '@modelcontextprotocol/server-filesystem/dist/lib.js';

/**
 * Whether `absolutePath` is one of `allowedDirectories` or lies below one, by their text alone:
 * synchronous, no filesystem access. `.` and `..` are resolved, repeated and trailing
 * separators dropped, and a directory must be followed by a separator (`/a` does not hold
 * `/a_evil`). Non-strings, empty strings and NUL bytes never match.
 */
export function isPathWithinAllowedDirectories(absolutePath: string, allowedDirectories: string[]): boolean;

/** Sets the directories every path must lie in (the server's other tools see them too). */
export function setAllowedDirectories(directories: string[]): void;

/** A copy of the allowed directories. */
export function getAllowedDirectories(): string[];

/**
 * The server's validatePath: `~` expanded, a relative path resolved against the allowed
 * directories, the text checked, then its real path; the resolved path, or an
 * "Access denied - …" error.
 */
export function validatePath(requestedPath: string): Promise<string>;

/** Options of {@link searchFilesWithValidation}. */
export interface SearchOptions {
  /** minimatch patterns (`dot: true`) on paths relative to `rootPath`: matches are left out, matching directories not entered. */
  excludePatterns?: string[];
}

/**
 * Every entry below `rootPath` whose path relative to it matches `pattern` (minimatch,
 * `dot: true`), as `path.join(rootPath, relative)`, in path order. Links are listed when they
 * resolve inside the allowed directories and never entered. With a result cap or time budget
 * (`FSNATIVE_MCPFS_MAX_RESULTS`, `FSNATIVE_MCPFS_TIME_BUDGET_MS`), a cut answer ends with a
 * line in `[…]` saying so.
 */
export function searchFilesWithValidation(
  rootPath: string,
  pattern: string,
  allowedDirectories: string[],
  options?: SearchOptions,
): Promise<string[]>;
