// Type declarations of fsnative for Node.js. Option names, defaults and result shapes are
// documented here and in the files re-exported below (find, rank, text, warm-index), nowhere else in
// the package; the native core (`fsnative::options`) checks every option and holds every default.

/// <reference types="node" />

import type { FindOptions, FindResult } from './find';

export type { FindEntry, FindOptions, FindResult, FindStats } from './find';

import type { FrecencyStatus, RankOptions, ThesaurusStatus } from './rank';

export type { FrecencyOptions, FrecencyProfile, FrecencyStatus, RankOptions, ThesaurusMapping, ThesaurusStatus } from './rank';

import type { FffFindFormat, FindText, GrepText, TextEncoding, TextFormat } from './text';

export type { FffFindFormat, FffGrepFormat, FindText, GrepText, JsonFormat, PathStyle, StandardFormat, TextEncoding, TextFormat } from './text';

import type { IndexOptions, IndexStatus } from './warm-index';

export type { IndexOptions, IndexStatus } from './warm-index';

/**
 * A path as fsnative returns it: a string, or `{ bytes }` when the name is not valid UTF-8
 * (a string would have to rewrite it). `Buffer.from(p.bytes, 'base64')` gives a Buffer that
 * every `fs` function accepts.
 */
export type FsPath = string | NonUtf8Path;

/** A path whose name is not valid UTF-8. */
export interface NonUtf8Path {
  /** The path's raw bytes, base64-encoded. */
  bytes: string;
}

/**
 * A path given to fsnative: a string, or a Buffer of raw bytes for a name that is not UTF-8.
 * A string with a lone surrogate is refused with a `TypeError` (`ERR_INVALID_ARG_VALUE`).
 */
export type PathInput = string | Buffer;

/** The stable codes of {@link FsnativeError}. */
export type ErrorCode =
  /** The path (or a symlink in it) resolves outside every root. */
  | 'OUTSIDE_SANDBOX'
  /** The path or a root does not exist (only said for paths inside). */
  | 'NOT_FOUND'
  /** A root or a glob base is not a directory, or a file is used as one. */
  | 'NOT_A_DIRECTORY'
  /** Empty path, NUL byte, or a name too long for the system. */
  | 'INVALID_PATH'
  /** More than 40 symlinks while resolving, or a loop. */
  | 'SYMLINK_LOOP'
  /** The system refused access while resolving. */
  | 'PERMISSION_DENIED'
  /** A regex does not parse. */
  | 'INVALID_PATTERN'
  /** Patterns over 64 KiB, nesting over 128, or a compiled program over 16 MiB. */
  | 'PATTERN_TOO_LARGE'
  /** A glob filter or glob pattern does not parse. */
  | 'INVALID_GLOB'
  /** A cursor is malformed or belongs to another request. */
  | 'INVALID_CURSOR'
  /** No pattern, no root, an unknown file type. */
  | 'INVALID_ARGUMENT'
  /**
   * An unknown option, or an option value of the wrong type, out of range or with no JSON form
   * (always an {@link InvalidOptionError}, whose `option` names it).
   */
  | 'INVALID_OPTION'
  /** Any other I/O failure. */
  | 'IO'
  /** A bug in fsnative (a panic caught at the boundary); please report it. */
  | 'INTERNAL';

/**
 * A failure reported by the fsnative core. Options the core cannot use (unknown names, wrong
 * types or values) are {@link InvalidOptionError}s, which are `FsnativeError`s (by
 * `instanceof`) and `TypeError`s.
 */
export class FsnativeError extends Error {
  constructor(code: ErrorCode, message: string, options?: ErrorOptions);
  /** What went wrong, as a stable code. */
  readonly code: ErrorCode;
  readonly name: 'FsnativeError' | 'InvalidOptionError';
  /** The option an `INVALID_OPTION` error is about, as the caller spelled it. */
  readonly option?: string;
  /**
   * The path an error about a file or path names (`NOT_FOUND`, `NOT_A_DIRECTORY`,
   * `PERMISSION_DENIED`, `SYMLINK_LOOP`, `IO`, `INVALID_PATH`): a string, or a Buffer of its
   * bytes when it is not UTF-8. An `OUTSIDE_SANDBOX` error carries the path as the caller gave
   * it, never what it resolved to. Absent when no path is involved.
   */
  readonly path?: string | Buffer;
}

/**
 * An unknown option, or an option value of the wrong type, out of range or with no JSON form:
 * `code` `'INVALID_OPTION'` (the code Python's `InvalidOptionError` has), `option` its name as
 * the caller spelled it, and a message in the core's words that says what the option accepts
 * (``grep option `limit` must be a non-negative integer, not -1``). A `TypeError`, as Node's
 * own argument checks throw, and an {@link FsnativeError} (`instanceof` says so).
 */
export class InvalidOptionError extends TypeError {
  constructor(message: string, option: string, options?: ErrorOptions);
  readonly code: 'INVALID_OPTION';
  readonly name: 'InvalidOptionError';
  readonly option: string;
}

/**
 * How an async call rejects once its `signal` aborts, like Node's own APIs: `name`
 * `'AbortError'`, `code` `'ABORT_ERR'`, `cause` the signal's `reason`.
 */
export class AbortError extends Error {
  /** `message` defaults to `'The operation was aborted'`. */
  constructor(message?: string, options?: ErrorOptions);
  readonly code: 'ABORT_ERR';
  readonly name: 'AbortError';
}

/** What a validated path will be used for. */
export type Intent =
  /** The path must exist. */
  | 'read'
  /** The path may not exist yet; its nearest existing ancestor must be inside. */
  | 'write';

/** Options of {@link Sandbox.validate}. */
export interface ValidateOptions {
  /** Default `'read'`. */
  intent?: Intent;
}

/** Letter case comparison: `'smart'` is insensitive unless a pattern has an upper-case letter (`rg -S`). */
export type CaseMode = 'sensitive' | 'insensitive' | 'smart';

/**
 * What a grep reports: every matching line (`'content'`), only the files that match
 * (`'files'`, `rg -l`), or the number of matching lines per file (`'count'`, `rg -c`).
 */
export type OutputMode = 'content' | 'files' | 'count';

/**
 * Result order: by path, component by component in byte order (`rg --sort path`); by
 * modification time, newest first, ties by path; by frecency, highest first, ties by path
 * (needs a sandbox with `frecency`); or `'none'`: no order promised (today the walks yield
 * path order at no extra cost).
 */
export type SortOrder = 'path' | 'mtime' | 'frecency' | 'none';

/** Which entries a glob yields. */
export type EntryKind = 'files' | 'dirs' | 'all';

/** One string or a list of strings. */
export type OneOrMany = string | readonly string[];

/** Options shared by the async methods. */
export interface Cancellable {
  /**
   * Aborting it stops the running call, which then rejects with an {@link AbortError}.
   * Only the async methods take it.
   */
  signal?: AbortSignal;
}

/**
 * A content search. Each option has its default when left out or `undefined`.
 * `pattern`/`patterns`, `path`/`paths`, `glob`/`globs` and `type`/`types` are two names of
 * one option: give at most one of each pair.
 */
export interface GrepOptions {
  /** One or more patterns; a line matches if any of them matches. Required. */
  pattern?: OneOrMany;
  /** Same as `pattern`. */
  patterns?: OneOrMany;
  /** Treat patterns as literal strings, not regular expressions. Default `false`. */
  fixedStrings?: boolean;
  /** Case sensitivity. Default `'sensitive'`. */
  caseMode?: CaseMode;
  /** Only match at word boundaries (`rg -w`). Default `false`. */
  word?: boolean;
  /** Let patterns match across lines (`rg -U`); `.` still stops at a newline. Default `false`. */
  multiline?: boolean;
  /** Report the lines that do not match. Default `false`. */
  invert?: boolean;
  /**
   * Files or directories to search, validated by the sandbox (relative ones resolve against
   * the first root). Default: every root.
   */
  path?: OneOrMany;
  /** Same as `path`. */
  paths?: OneOrMany;
  /** ripgrep `--glob` filters, matched relative to the root; a leading `!` excludes. Default none. */
  glob?: OneOrMany;
  /** Same as `glob`. */
  globs?: OneOrMany;
  /** ripgrep file type names to include (`py`, `rust`, `ts`, …). Default: all files. */
  type?: OneOrMany;
  /** Same as `type`. */
  types?: OneOrMany;
  /** ripgrep file type names to exclude. Default none. */
  typesNot?: OneOrMany;
  /**
   * FFF-style file constraints (`'*.rs !test/ src/ type:rust'`), tested on each file's path
   * relative to the search path it was found under. Default `null`: none.
   */
  constraints?: string | null;
  /** Visit hidden files and directories (names starting with `.`); `.git` never. Default `false`. */
  hidden?: boolean;
  /** Follow symlinks whose target resolves inside the sandbox. Default `false`. */
  followLinks?: boolean;
  /** Do not read `.gitignore`, `.ignore`, `.rgignore` or `.git/info/exclude`. Default `false`. */
  noIgnore?: boolean;
  /** Descend at most this many levels below each search path (0: the path itself). Default `null`: no limit. */
  maxDepth?: number | null;
  /** Skip files larger than this many bytes. Default `null`: no limit. */
  maxFilesize?: number | null;
  /** Search binary files (those with a NUL byte) as text instead of skipping them. Default `false`. */
  searchBinary?: boolean;
  /** What to report. Default `'content'`. */
  mode?: OutputMode;
  /** Lines of context before and after each match (overridden by the next two). Default `null`: none. */
  context?: number | null;
  /** Lines of context before each match. Default: `context`. */
  beforeContext?: number | null;
  /** Lines of context after each match. Default: `context`. */
  afterContext?: number | null;
  /** Stop searching a file after this many matching lines (`rg --max-count`). Default `null`: no limit. */
  maxCountPerFile?: number | null;
  /**
   * Regexes that mark where a section ends (e.g. `'^\\s*def '`): each match then carries
   * `sectionEnd`, the first later line of its file that matches one of them. Default `[]`.
   */
  sectionEndPatterns?: string | string[];
  /**
   * Cap on match records (content mode) or files (files and count modes) in one page;
   * `null` for no cap. Default `1000`.
   */
  limit?: number | null;
  /** Lines longer than this many bytes are cut to it and marked `truncated`. Default `null`: no cap. */
  maxColumns?: number | null;
  /** Result order. Default `'path'`. */
  sort?: SortOrder;
  /** The `nextCursor` of a previous page of the same request. Default `null`: the first page. */
  cursor?: string | null;
  /** Stop after this many milliseconds and return what was found, flagged `'timeout'`. Default `null`: no deadline. */
  timeoutMs?: number | null;
  /** Threads that search at once, at most 256. Default `null`: the number of CPUs. */
  threads?: number | null;
}

/** A file-name search. Each option has its default when left out or `undefined`. */
export interface GlobOptions {
  /**
   * One or more glob patterns relative to each base (`**`, `{a,b}`, `[…]`); a leading `!`
   * excludes. Required.
   */
  pattern?: OneOrMany;
  /** Same as `pattern`. */
  patterns?: OneOrMany;
  /** Base directories, validated (relative ones resolve against the first root). Default: every root. */
  path?: OneOrMany;
  /** Same as `path`. */
  paths?: OneOrMany;
  /**
   * How the patterns are read: `'glob'` (globset's) or `'minimatch'` (with `dot: true`, as the
   * MCP filesystem server's `search_files`; a leading `!` negates). Default `'glob'`.
   */
  syntax?: 'glob' | 'minimatch';
  /**
   * Patterns (in `syntax`) on each entry's path relative to its base: a match is left out, and
   * a matching directory is not entered. Default none.
   */
  exclude?: OneOrMany;
  /** Match names case-insensitively. Default `false`. */
  caseInsensitive?: boolean;
  /**
   * FFF-style file constraints (`'*.rs !test/ src/ type:rust'`), tested on each file's path
   * relative to its base; directories pass them. Default `null`: none.
   */
  constraints?: string | null;
  /** Visit hidden files and directories (names starting with `.`); `.git` only with `gitDir`. Default `false`. */
  hidden?: boolean;
  /** Visit `.git` directories too (with `hidden`). Default `false`. */
  gitDir?: boolean;
  /** Follow symlinks whose target resolves inside the sandbox. Default `false`. */
  followLinks?: boolean;
  /** Do not read `.gitignore`, `.ignore`, `.rgignore` or `.git/info/exclude`. Default `false`. */
  noIgnore?: boolean;
  /** Descend at most this many levels below each base (0: the base itself). Default `null`: no limit. */
  maxDepth?: number | null;
  /** Which entries to yield. Default `'files'`. */
  kind?: EntryKind;
  /** Result order. Default `'path'`. */
  sort?: SortOrder;
  /** Cap on entries returned (`total` still counts all); `null` for no cap. Default `1000`. */
  limit?: number | null;
  /** Stop after this many milliseconds and return what was found, flagged `'timeout'`. Default `null`: no deadline. */
  timeoutMs?: number | null;
}

// Results. Their fields are the core's, in camelCase: what each means is written once, on the
// Rust type (crates/fsnative/src/result.rs and the status types; `cargo doc -p fsnative --open`).
// The interfaces below give each field's JavaScript type, and words only where JavaScript's view
// differs from the core's (`FsPath`, UTF-8 offsets in UTF-16 strings, `null`).

/** Why a result stopped early: the `limit`, the `timeoutMs` deadline, or a cancel. */
export type Truncation = 'limit' | 'timeout' | 'cancelled';

/**
 * One line of context around a match.
 * Fields: the core's `fsnative::ContextLine` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface ContextLine {
  lineNumber: number;
  byteOffset: number;
  text: string;
  truncated: boolean;
}

/**
 * One matching line (in multiline mode, the lines matched together).
 * Fields: the core's `fsnative::Match` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface Match {
  lineNumber: number;
  column: number;
  byteOffset: number;
  text: string;
  truncated: boolean;
  /** `[start, end)` UTF-8 byte ranges of each match within `text` (none when inverted). */
  submatches: Array<[number, number]>;
  sectionEnd: number | null;
  before: ContextLine[];
  after: ContextLine[];
}

/**
 * All that one file contributed to a grep.
 * Fields: the core's `fsnative::FileMatches` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface FileMatches {
  /** Absolute path: the canonical root joined with the walked relative path. */
  path: FsPath;
  relativePath: FsPath;
  count: number;
  matches: Match[];
  bytesSearched: number;
  binaryOffset: number | null;
}

/**
 * Counters of what a grep did.
 * Fields: the core's `fsnative::GrepStats` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface GrepStats {
  filesWalked: number;
  filesSearched: number;
  filesMatched: number;
  skippedBinary: number;
  skippedSpecial: number;
  skippedOutside: number;
  skippedErrors: number;
  bytesSearched: number;
  elapsedMs: number;
}

/**
 * The answer to a grep.
 * Fields: the core's `fsnative::GrepResult` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface GrepResult {
  files: FileMatches[];
  totalMatches: number;
  truncated: Truncation | null;
  nextCursor: string | null;
  mode: OutputMode;
  contextEnabled: boolean;
  singleFile: boolean;
  stats: GrepStats;
}

/**
 * One entry yielded by a glob.
 * Fields: the core's `fsnative::GlobEntry` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface GlobEntry {
  /** Absolute path: the canonical base joined with `relativePath`. */
  path: FsPath;
  relativePath: FsPath;
  isDir: boolean;
}

/**
 * Counters of what a glob did.
 * Fields: the core's `fsnative::GlobStats` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface GlobStats {
  entriesWalked: number;
  skippedSpecial: number;
  skippedOutside: number;
  skippedErrors: number;
  elapsedMs: number;
}

/**
 * The answer to a glob.
 * Fields: the core's `fsnative::GlobResult` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface GlobResult {
  entries: GlobEntry[];
  total: number;
  truncated: Truncation | null;
  stats: GlobStats;
}

/** Options of the {@link Sandbox} constructor: an index, and the ranking signals of {@link RankOptions}. */
export interface SandboxOptions extends RankOptions {
  /**
   * Keep a warm index of the roots: `true` (the defaults) or {@link IndexOptions}. Built on a
   * thread of its own and kept current by inotify; searches it can answer (the walk's default
   * options, path order) read it instead of walking, with the same answers. Default `false`.
   */
  index?: boolean | IndexOptions;
}

/**
 * One or more root directories; every path, grep and glob stays inside them. Nothing outside
 * is read or listed: paths are resolved symlink by symlink before they are admitted.
 *
 * Every method throws (or rejects with) an {@link FsnativeError} for what the core refuses (an
 * {@link InvalidOptionError}, also a `TypeError`, for an option it cannot use) and a
 * `TypeError` for arguments that are not options. The async methods run on the core's own
 * helper threads, four calls at a time (later ones wait their turn), not on libuv's pool.
 */
export class Sandbox {
  /**
   * Validates each root (it must exist and be a directory) and canonicalises it; with
   * `{ index: true }` starts a warm index of the roots; opens a frecency database and loads
   * a thesaurus when asked.
   * @throws {FsnativeError} `NOT_FOUND`, `NOT_A_DIRECTORY`, `INVALID_ARGUMENT` (no root), …
   * @throws {InvalidOptionError} for an option it cannot use, and (`option` `'index'`) for a
   * root that is `/` or holds the home directory unless `allowHome` is set.
   */
  constructor(roots: readonly PathInput[], options?: SandboxOptions);

  /** The canonical roots, in the order given (exact duplicates once). */
  readonly roots: readonly FsPath[];

  /**
   * The canonical absolute path `path` names, if it lies inside a root. Relative paths
   * resolve against the first root; `~` and `~/x` expand to the current home.
   * @throws {FsnativeError} `OUTSIDE_SANDBOX`, `NOT_FOUND`, `INVALID_PATH`, `SYMLINK_LOOP`, …
   */
  validate(path: PathInput, options?: ValidateOptions): FsPath;

  /** @deprecated The former name of {@link Sandbox.validate} (its name in every language); warns once. */
  validatePath(path: PathInput, options?: ValidateOptions): FsPath;

  /**
   * One call of the FFF drop-in's `tool` with Terraphim's arguments; resolves with its text,
   * one line per MCP text block. `fsnative/fff` calls it; the core holds the tools' defaults
   * and limits.
   */
  fffTool(tool: 'find_files' | 'grep' | 'multi_grep', args: Record<string, unknown> & Cancellable): Promise<string>;

  /** Searches file contents, like `rg`. */
  grep(options: GrepOptions & Cancellable): Promise<GrepResult>;

  /** {@link Sandbox.grep}, blocking the calling thread. */
  grepSync(options: GrepOptions): GrepResult;

  /**
   * Searches file contents and returns the answer as ripgrep prints it, byte for byte (for
   * tools that used to spawn `rg`), with the page's truncation and cursor. `format` defaults
   * to `{ format: 'standard' }`.
   */
  grepText(options: GrepOptions & Cancellable, format: TextFormat & TextEncoding<'buffer'>): Promise<GrepText<Buffer>>;
  grepText(options: GrepOptions & Cancellable, format?: TextFormat & Partial<TextEncoding<'utf8'>>): Promise<GrepText>;

  /** {@link Sandbox.grepText}, blocking the calling thread. */
  grepTextSync(options: GrepOptions, format: TextFormat & TextEncoding<'buffer'>): GrepText<Buffer>;
  grepTextSync(options: GrepOptions, format?: TextFormat & Partial<TextEncoding<'utf8'>>): GrepText;

  /** Lists entries whose path matches glob patterns. */
  glob(options: GlobOptions & Cancellable): Promise<GlobResult>;

  /** {@link Sandbox.glob}, blocking the calling thread. */
  globSync(options: GlobOptions): GlobResult;

  /**
   * Records an access to `path` (validated: inside, existing; a link as its target) in the
   * frecency database. Throws `OUTSIDE_SANDBOX`, …, `INVALID_ARGUMENT` without `frecency`.
   */
  recordAccess(path: PathInput): void;
  /** The frecency score of `path` (validated as by {@link Sandbox.recordAccess}); 0 if never recorded. */
  frecencyScore(path: PathInput): number;
  /** `min(concepts × boostWeight, maxBoost)` for the thesaurus concepts `path` (validated) mentions below its root. */
  pathBoost(path: PathInput): number;

  /** The frecency database's path and profile, or `null` without one (`sort: 'frecency'` is then refused). */
  frecencyStatus(): FrecencyStatus | null;

  /** The thesaurus's state, or `null` without a thesaurus. */
  thesaurusStatus(): ThesaurusStatus | null;

  /** Fuzzy-finds files by path, typo-tolerant, best first. */
  find(options: FindOptions & Cancellable): Promise<FindResult>;

  /** {@link Sandbox.find}, blocking the calling thread. */
  findSync(options: FindOptions): FindResult;

  /** Finds as {@link Sandbox.find} does and returns the result rendered in `format`. */
  findText(options: FindOptions & Cancellable, format: FffFindFormat): Promise<FindText>;

  /** The warm index's state, or `null` without an index. */
  indexStatus(): IndexStatus | null;

  /**
   * Resolves `true` once the index is ready and has read every file, within `timeoutMs`
   * (default: no limit); `false` at once without an index, or when it failed or was closed.
   * Waits on a thread of its own. Rejects with `INVALID_ARGUMENT` for a negative timeout.
   */
  waitForIndex(timeoutMs?: number): Promise<boolean>;

  /**
   * Stops the index (its thread and watcher) and frees its memory; searches still answer,
   * walking. Closing twice, or without an index, does nothing.
   */
  close(): void;

  /** {@link Sandbox.close}: `using sb = new Sandbox(roots, { index: true })` closes on leaving the block. */
  [Symbol.dispose](): void;
}
