// Type declarations of fsnative's text output, re-exported by index.d.ts: the formats of
// `Sandbox.grepText` and `Sandbox.findText` (ripgrep's and the FFF tools') and their answers.

/// <reference types="node" />

import type { FindStats } from './find';
import type { GrepStats, Truncation } from './index';

/**
 * The answer of {@link Sandbox.grepText}: ripgrep's output for one page of a grep, as a string
 * or, with `encoding: 'buffer'`, as the exact bytes `rg` prints.
 */
export interface GrepText<Text extends string | Buffer = string> {
  /**
   * What `rg` prints for this page (ends with a newline; empty when nothing matched). As a
   * string, file names and lines that are not UTF-8 read with U+FFFD; as a Buffer they are the
   * bytes on disk, as `rg` prints them.
   */
  text: Text;
  /** Set when the page stopped early (as in {@link GrepResult}); `nextCursor` continues it. */
  truncated: Truncation | null;
  /** Pass back as `cursor` with the same options to get the next page. */
  nextCursor: string | null;
  /** Matching lines (content and count modes) or files (files mode) in this page. */
  totalMatches: number;
  /** What the search did. */
  stats: GrepStats;
}

/** How paths are printed by {@link Sandbox.grepText}. */
export type PathStyle =
  /** Canonical absolute paths (as `rg PATTERN /abs/dir` prints them). */
  | 'absolute'
  /** Paths relative to their root (as `rg PATTERN` run inside the root prints them). */
  | 'relative';

/** ripgrep's standard (non-TTY) output: `-n`, `-l`, `-c`, `-C` as the search's mode asks. */
export interface StandardFormat {
  /** Default `'standard'`. */
  format?: 'standard';
  /** Default `'absolute'`. */
  pathStyle?: PathStyle;
  /**
   * Print the path on each line (`-H`/`-I`). Default `null`: as ripgrep decides, a path
   * unless the search was of a single file.
   */
  withFilename?: boolean | null;
  /** Group matches under a path heading, files separated by a blank line (`--heading`). Default `false`. */
  heading?: boolean;
  /** Print line numbers (`-n`). Default `true`. */
  lineNumber?: boolean;
}

/** `rg --json` lines (timings print as zero). */
export interface JsonFormat {
  format: 'json';
  /** Default `'absolute'`. */
  pathStyle?: PathStyle;
}

/**
 * The text of Terraphim's FFF `grep` and `multi_grep` tools (what `fsnative/fff` prints): a
 * `Found …` header, then `path:line:text` lines (file paths only in files and count modes),
 * then `next_cursor: TOKEN` when there is more; each line ends with a newline.
 */
export interface FffGrepFormat {
  format: 'fff';
  /** The tool's `path` argument as given, quoted in the header. Default `'.'`. */
  path?: string;
  /** What `path` resolved to; files print relative to it (by name when it is the file). Default: absolute paths. */
  base?: string | null;
  /** `multi_grep`'s patterns, listed in its header; omit for `grep`. */
  patterns?: string | string[] | null;
}

/** A grep output format: ripgrep's, or the FFF tools'. */
export type TextFormat = StandardFormat | JsonFormat | FffGrepFormat;

/**
 * The text of Terraphim's FFF `find_files` tool: a `Found …` header, then `score  path` lines,
 * each line ending with a newline.
 */
export interface FffFindFormat {
  format?: 'fff';
  /** The query, quoted in the header. */
  query: string;
  /** The tool's `path` argument as given, quoted in the header. Default `'.'`. */
  path?: string;
}

/** The answer of {@link Sandbox.findText}. */
export interface FindText {
  /** The rendered result. */
  text: string;
  /** How many files matched in all, also past the limit. */
  total: number;
  /** Why the entries stopped early, or null. */
  truncated: Truncation | null;
  /** What the search did. */
  stats: FindStats;
}

/** How {@link GrepText.text} comes back: a string (the default), or the exact bytes. */
export interface TextEncoding<Encoding extends 'utf8' | 'buffer'> {
  encoding: Encoding;
}
