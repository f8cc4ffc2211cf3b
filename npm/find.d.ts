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
 */
export interface FindEntry {
  /** Absolute path: the canonical base joined with `relativePath`. */
  path: FsPath;
  /** Path relative to the directory searched (`/`-separated): what the query was matched against. */
  relativePath: FsPath;
  /** The rank: the sum of the parts. Higher is better. */
  score: number;
  /** The fuzzy match of the query on the relative path (typos allowed), summed over its parts. */
  fuzzy: number;
  /** The query (after its last `/`) matched inside the file name: up to a sixth of `fuzzy`, at most 30. */
  filenameBonus: number;
  /** The query (after its last `/`) is the file name (2/5 of `fuzzy`) or the name without its extension (1/4). */
  exactBonus: number;
  /** The thesaurus concepts the path (relative to its root) mentions, times `boostWeight`, at most `maxBoost`; 0 without a thesaurus. */
  pathBoost: number;
  /** The file's frecency in points (4 per unit, rounded); 0 without a frecency database. */
  frecency: number;
  /** Query characters the best alignment left unmatched or matched to another one. */
  typos: number;
}

/** Counters of what a find did. */
export interface FindStats {
  /** Files the query was matched against (after `path` and constraints). */
  candidates: number;
  /** The files came from the warm index (else from a walk). */
  indexed: boolean;
  /** Wall-clock time of the call in milliseconds. */
  elapsedMs: number;
}

/** The answer to a find. */
export interface FindResult {
  /** The best matches, best first, at most `limit`; ties go to the shorter path, then path order. */
  entries: FindEntry[];
  /** How many files matched in all, also past the limit. */
  total: number;
  /** Set when `entries` holds fewer than `total`, or the search stopped early. */
  truncated: Truncation | null;
  /** What the search did. */
  stats: FindStats;
}
