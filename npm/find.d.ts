// Type declarations of fsnative's fuzzy find, re-exported by index.d.ts: the options of
// `Sandbox.find` and the ranked files it answers with.

import type { FsPath, Truncation } from './index';

/** A fuzzy path search. Each option has its default when left out or `undefined`. */
export interface FindOptions {
  /**
   * What to look for: whitespace-separated parts, each matched fuzzily (typos allowed) against
   * the path relative to `path`; all must match. Case is ignored unless the query holds an
   * upper-case letter. Required.
   */
  query: string;
  /** The directory to search, validated (a relative one resolves against the first root). Default: every root. */
  path?: string | null;
  /** Cap on entries returned (`total` still counts all); `null` for no cap. Default `20`. */
  limit?: number | null;
  /** FFF-style file constraints (`'*.rs !test/ src/ type:rust'`), on paths relative to `path`. Default `null`: none. */
  constraints?: string | null;
  /** Stop after this many milliseconds and return what was ranked, flagged `'timeout'`. Default `null`: no deadline. */
  timeoutMs?: number | null;
}

/**
 * One file a find ranked. `score` is the sum of the additive parts (`fuzzy`, `filenameBonus`,
 * `exactBonus`, `pathBoost`, `frecency`).
 * Fields: the core's `fsnative::FindEntry` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface FindEntry {
  /** Absolute path: the canonical base joined with `relativePath`. */
  path: FsPath;
  relativePath: FsPath;
  score: number;
  fuzzy: number;
  filenameBonus: number;
  exactBonus: number;
  pathBoost: number;
  frecency: number;
  typos: number;
}

/**
 * Counters of what a find did.
 * Fields: the core's `fsnative::FindStats` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface FindStats {
  candidates: number;
  indexed: boolean;
  elapsedMs: number;
}

/**
 * The answer to a find.
 * Fields: the core's `fsnative::FindResult` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface FindResult {
  entries: FindEntry[];
  total: number;
  truncated: Truncation | null;
  stats: FindStats;
}
