// Type declarations of fsnative/fsmcp: fsMCP's `fs_grep` and `fs_glob` tools on the fsnative core.

/** A JSON Schema object, as a tool's `inputSchema`. */
export interface JsonSchema {
  type: 'object';
  properties: Record<string, { type: string; description: string; enum?: string[] }>;
  required: string[];
}

/** A tool definition as fsMCP's registry takes it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: { readOnlyHint?: boolean; openWorldHint?: boolean };
  category: string;
}

/** What a tool call returns: one text block, with `isError: true` when the call failed. */
export interface ToolResult {
  content: Array<{ type: 'text'; text: string }>;
  isError?: true;
}

/** The per-call context: `allowedDirs` is the sandbox (an empty list refuses every path). */
export interface ToolContext {
  allowedDirs: readonly string[];
}

/** A tool handler: synchronous, as fsMCP's registry calls it; it never throws. */
export type ToolHandler = (args: Record<string, unknown>, ctx: ToolContext) => ToolResult;

/** fsMCP's tool registry interface (`ToolRegistry.register`). */
export interface ToolRegistry {
  register(tool: ToolDefinition, handler: ToolHandler): void;
}

/** `fs_grep`'s arguments, as its `inputSchema` declares them. */
export interface GrepArgs {
  /** A regular expression (ripgrep syntax). Required. */
  pattern: string;
  /** An absolute file or directory; omitted or `"."`: every allowed dir. */
  path?: string;
  /** One ripgrep `--glob` filter. */
  glob?: string;
  /** One ripgrep file type (`--type`). */
  type?: string;
  /** Default `'files_with_matches'` (`rg -l`); `'count'` is `rg -c`, `'content'` is `rg -n`. */
  output_mode?: 'content' | 'files_with_matches' | 'count';
  /** Lines of context around each match (`rg -C`), content mode only. */
  context?: number;
  /** Matching lines read per file (`rg --max-count`); 0 or omitted: no limit. */
  head_limit?: number;
}

/** `fs_glob`'s arguments, as its `inputSchema` declares them. */
export interface GlobArgs {
  /** A glob pattern relative to each searched directory (`**`, `{a,b}`, `[…]`). Required. */
  pattern: string;
  /** An absolute directory; omitted or `"."`: every allowed dir. */
  path?: string;
}

/** The `fs_grep` tool definition: name, description, input schema, annotations, category. */
export const GREP_TOOL: ToolDefinition;

/** The `fs_glob` tool definition: name, description, input schema, annotations, category. */
export const GLOB_TOOL: ToolDefinition;

/** Most match records (content mode) or files (files and count modes) one `fs_grep` call returns. */
export const GREP_TOTAL_CAP: number;

/** Most paths one `fs_glob` call lists before its "(showing N of M matches)" line. */
export const GLOB_RESULT_CAP: number;

/** Registers `fs_grep` with an fsMCP tool registry. */
export function registerGrep(registry: ToolRegistry): void;

/** Registers `fs_glob` with an fsMCP tool registry. */
export function registerGlob(registry: ToolRegistry): void;

/**
 * The `fs_grep` handler: ripgrep's standard output for the argv fsMCP builds, trailing
 * whitespace trimmed; `No matches found.` when nothing matches.
 */
export function fsGrep(args: GrepArgs | Record<string, unknown>, ctx: ToolContext): ToolResult;

/**
 * The `fs_glob` handler: absolute paths of matching files, newest first, at most
 * {@link GLOB_RESULT_CAP}; empty text when nothing matches.
 */
export function fsGlob(args: GlobArgs | Record<string, unknown>, ctx: ToolContext): ToolResult;
