// Type declarations of fsnative/fff: the FFF search tools of Terraphim's MCP server
// (`find_files`, `grep`, `multi_grep`) on the fsnative core.
//
// Each tool answers as Terraphim's does, one line per text block: a `Found …` header, then
// `rel:line:text` lines (`rel` relative to `path`), or one path per file with
// `output_mode: 'files'`, and last `next_cursor: TOKEN` when there is more. Grep searches
// plain text, smart case, skips files over `MAX_FILESIZE` bytes, reports at most
// `MATCHES_PER_FILE` lines per file and cuts lines at `MAX_LINE_BYTES` bytes (the limits below,
// the core's). Where it differs from Terraphim on purpose:
// - a page never loses matches: the cursor (URL-safe base64 without padding, as Terraphim's)
//   is the core's own and goes on from the match a page stopped at, also inside a file;
// - a cursor that does not decode, or that belongs to other arguments, is an error
//   (`INVALID_CURSOR`), not a silent restart from the first file (an empty cursor is none);
// - `path` outside the sandbox is refused (`OUTSIDE_SANDBOX`), as are links leading out;
// - with `output_mode: 'files'`, `limit` counts files;
// - files come most used first when the sandbox keeps frecency, ties in path order; in path
//   order when it does not (Terraphim: frecency, then modification time).

import type { Sandbox } from './index.js';

/** `find_files`' arguments, as Terraphim names them. */
export type FindFilesArgs = {
  /** A fuzzy search string (typos allowed). */
  query: string;
  /** The directory to search, inside the sandbox. Default `'.'`: the sandbox's first directory. */
  path?: string;
  /** Most paths listed. Default {@link FIND_LIMIT} (20). */
  limit?: number;
};

/** What `grep` and `multi_grep` share, as Terraphim names them. */
export type GrepPageArgs = {
  /** The directory (or file) to search, inside the sandbox. Default `'.'`: the sandbox's first directory. */
  path?: string;
  /** Most matching lines (files, with `output_mode: 'files'`) in one page. Default {@link GREP_LIMIT} (50). */
  limit?: number;
  /** `'content'` (the default): `rel:line:text` lines; `'files'`: the files' paths. */
  output_mode?: 'content' | 'files';
  /** The `next_cursor` of the previous page of the same call (only `limit` may change). */
  cursor?: string;
};

/** `grep`'s arguments. */
export type GrepArgs = GrepPageArgs & {
  /** The text to find (not a regex); smart case. */
  query: string;
};

/** `multi_grep`'s arguments. */
export type MultiGrepArgs = GrepPageArgs & {
  /** Texts to find (not regexes); a line matches when any does. Smart case over all of them. */
  patterns: string[];
  /** FFF's file constraints (`*.rs !test/ src/ type:rust`). Default `''`: every file. */
  constraints?: string;
};

/** One text block per line of an answer; `isError` with the error's text (`CODE: message`) when the call failed. */
export type ToolResult = {
  content: { type: 'text'; text: string }[];
  isError?: true;
};

/** What `register` uses of an `McpServer` of `@modelcontextprotocol/sdk`. */
export type McpServerLike = {
  // The SDK's signature is generic over zod schemas; `never` lets any McpServer's fit.
  registerTool(name: string, config: never, handler: never): unknown;
};

/** Terraphim's three FFF tools over one sandbox: call them, or `register` them on an MCP server. */
export class FffTools {
  constructor(sandbox: Sandbox);
  /** The sandbox every path and search stays in. */
  readonly sandbox: Sandbox;
  /** Fuzzy path search, best first: `Found N files matching 'q' (searched M files under 'p')`, then `score  path` lines. */
  findFiles(args: FindFilesArgs): Promise<string[]>;
  /** `Found N matches across F files (searched M files under 'p')`, the lines or files, then `next_cursor: …` if there is more. */
  grep(args: GrepArgs): Promise<string[]>;
  /** As {@link grep}, with `for patterns ["a", "b"]` in the header. */
  multiGrep(args: MultiGrepArgs): Promise<string[]>;
  /**
   * Registers `find_files`, `grep` and `multi_grep` (each name after `prefix`; Terraphim's own
   * server calls them `terraphim_find_files` and so on) on an `McpServer`, with Terraphim's
   * parameters. The core's errors answer `isError` results. Needs `zod`, as the SDK does.
   * `log`, when given, hears of each call in one line (tool, lines or error code, time).
   */
  register(server: McpServerLike, options?: { prefix?: string; log?: (line: string) => void }): void;
}

/**
 * The `fsnative-fff-mcp` command: an MCP server over stdio with the three tools, for the
 * directories in `argv` (default: the current directory); `--frecency DIR` keeps frecency (AI
 * profile) in that database, recording the files grep returns, `--thesaurus FILE` boosts
 * `find_files` paths by its concepts, `--index` keeps a warm index, `--prefix P` goes before the
 * tool names, `--verbose` logs each call on stderr (silent otherwise). The server names itself
 * `fsnative-fff-mcp`, with fsnative's version. Needs `@modelcontextprotocol/sdk`.
 */
export function main(argv?: string[]): Promise<void>;

// The limits below are the core's (render::fff::tools, whose docs give their values), read
// from the addon at load.
/** Paths `find_files` lists by default. */
export const FIND_LIMIT: number;
/** Matching lines (or files) in a grep page by default. */
export const GREP_LIMIT: number;
/** Files larger than this many bytes are not searched. */
export const MAX_FILESIZE: number;
/** Matching lines reported per file at most. */
export const MATCHES_PER_FILE: number;
/** Lines are cut to this many bytes, at a character boundary. */
export const MAX_LINE_BYTES: number;
