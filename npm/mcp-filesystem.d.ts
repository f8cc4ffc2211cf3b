// Types of fsnative/mcp-filesystem: the official MCP filesystem server's lib.js and
// path-validation.js exports (@modelcontextprotocol/server-filesystem 2026.8.31), with the path
// check and search_files' walk in fsnative's core. Every other export is the server's own
// (the server ships no types; those below are its functions' as it documents them).

/** `bytes` as the server prints sizes (`1.50 KB`). */
export function formatSize(bytes: number): string;
/** `\r\n` turned into `\n`. */
export function normalizeLineEndings(text: string): string;
/** A unified diff of two texts, as edit_file shows it. */
export function createUnifiedDiff(originalContent: string, newContent: string, filepath?: string): string;
/** What get_file_info reports. */
export interface FileInfo {
  size: number;
  created: Date;
  modified: Date;
  accessed: Date;
  isDirectory: boolean;
  isFile: boolean;
  permissions: string;
}
export function getFileStats(filePath: string): Promise<FileInfo>;
export function readFileContent(filePath: string, encoding?: string): Promise<string>;
/** Writes with exclusive create, or through a temporary file and a rename. */
export function writeFileContent(filePath: string, content: string): Promise<void>;
/** Moves, refusing an existing destination. */
export function moveFile(sourcePath: string, destinationPath: string): Promise<void>;
/** One edit of edit_file. */
export interface FileEdit {
  oldText: string;
  newText: string;
}
/** Applies `edits` (or only shows them with `dryRun`); returns the diff. */
export function applyFileEdits(filePath: string, edits: FileEdit[], dryRun?: boolean): Promise<string>;
export function tailFile(filePath: string, numLines: number): Promise<string>;
export function headFile(filePath: string, numLines: number): Promise<string>;

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
export function searchFilesWithValidation(rootPath: string, pattern: string, allowedDirectories: string[], options?: SearchOptions): Promise<string[]>;
