// Type declarations of fsnative/fsmcp: fsMCP's `fs_grep` and `fs_glob` tools on the fsnative core.
//
// These fit fsMCP's own types as they are, under `tsc --strict`: what fsnative hands out (tool
// definitions, handlers, results) is assignable to fsMCP's `MCPTool`, `ToolHandler` and
// `MCPCallResult`, and what it takes (a `ToolContext`, the `ToolRegistry` class) accepts
// fsMCP's. The object shapes are type aliases, not interfaces, because only an alias is
// assignable to fsMCP's `inputSchema: Record<string, unknown>`.

/** One property of a tool's input schema (JSON Schema). */
export type SchemaProperty = {
  type: 'string' | 'integer';
  description: string;
  enum?: string[];
};

/** A tool's input schema: a JSON Schema object. Fits fsMCP's `inputSchema: Record<string, unknown>`. */
export type InputSchema = {
  type: 'object';
  properties: Record<string, SchemaProperty>;
  required: string[];
};

/** A tool definition as fsMCP's registry takes it. Fits fsMCP's `MCPTool`. */
export type ToolDefinition = {
  name: string;
  description: string;
  inputSchema: InputSchema;
  annotations: { readOnlyHint: boolean };
  category: string;
};

/**
 * What a tool call returns: one text block, with `isError: true` when the call failed.
 * Fits fsMCP's `MCPCallResult`.
 */
export type ToolResult = {
  content: [{ type: 'text'; text: string }];
  isError?: true;
};

/**
 * The per-call context: `allowedDirs` is the sandbox (an empty list refuses every path).
 * fsMCP's `ToolContext` fits it.
 */
export type ToolContext = {
  allowedDirs: readonly string[];
};

/**
 * A tool handler: synchronous, as fsMCP's `ToolRegistry.call` returns its result directly; it
 * never throws. Fits fsMCP's `ToolHandler`.
 */
export type ToolHandler = (args: Record<string, unknown>, ctx: ToolContext) => ToolResult;

/** What `registerGrep` and `registerGlob` use of a registry. fsMCP's `ToolRegistry` fits it. */
export type ToolRegistry = {
  register: (tool: ToolDefinition, handler: ToolHandler) => void;
};

/** `fs_grep`'s arguments, as its `inputSchema` declares them. */
export type GrepArgs = {
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
};

/** `fs_glob`'s arguments, as its `inputSchema` declares them. */
export type GlobArgs = {
  /** A glob pattern relative to each searched directory (`**`, `{a,b}`, `[…]`). Required. */
  pattern: string;
  /** An absolute directory; omitted or `"."`: every allowed dir. */
  path?: string;
};

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
 * whitespace trimmed; `No matches found.` when nothing matches. A search that outlasts its
 * time budget (`FSMCP_GREP_TIMEOUT_MS`, else 30 000 ms) answers the error
 * `grep timed out after {ms}ms and was stopped. …`, never what it found by then.
 */
export function fsGrep(args: GrepArgs | Record<string, unknown>, ctx: ToolContext): ToolResult;

/**
 * The `fs_glob` handler: absolute paths of matching files, newest first, at most
 * {@link GLOB_RESULT_CAP}; empty text when nothing matches. Bounded like {@link fsGrep}:
 * `glob timed out after {ms}ms and was stopped. …`.
 */
export function fsGlob(args: GlobArgs | Record<string, unknown>, ctx: ToolContext): ToolResult;
