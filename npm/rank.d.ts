// Type declarations of fsnative's ranking signals (frecency and path boost), re-exported by
// index.d.ts: the Sandbox options that attach them and the thesaurus's status.

/**
 * How fast accesses fade and how long they are kept: `'normal'` (half-life 10 days, kept 30)
 * or `'ai'` (half-life 3 days, kept 7). A database keeps the profile it was created with.
 */
export type FrecencyProfile = 'normal' | 'ai';

/**
 * A frecency database: an LMDB directory (created if missing) that several processes may
 * share. `path` left out: the directory the `FSNATIVE_FRECENCY_DB` environment variable names.
 */
export interface FrecencyOptions {
  path?: string;
  /** Default `'normal'`. */
  profile?: FrecencyProfile;
}

/**
 * A thesaurus given in memory: each term (matched ASCII case-insensitively, leftmost-longest,
 * in a path below its root) to the concept it stands for, e.g.
 * `{ auth: 'security', login: 'security' }`; or Terraphim's shape,
 * `{ name, data: { term: { id, nterm, url } } }`, whose `id` is the concept.
 */
export type ThesaurusMapping =
  | { readonly [term: string]: string }
  | {
      readonly name?: string;
      readonly data: { readonly [term: string]: { readonly id?: number | string; readonly nterm?: string; readonly url?: string | null } };
    };

/** The ranking options of the Sandbox constructor. */
export interface RankOptions {
  /**
   * Record accesses in, and rank by, a frecency database: a directory path, `true` (the one
   * `FSNATIVE_FRECENCY_DB` names) or {@link FrecencyOptions}. Default: none.
   */
  frecency?: string | boolean | FrecencyOptions;
  /** Record an access to each file a grep returns (needs `frecency`). Default `false`. */
  recordHits?: boolean;
  /**
   * A thesaurus for path boosts: a JSON file path (either shape of {@link ThesaurusMapping};
   * watched and reloaded 500 ms after it changes, a bad version keeping the last good one) or
   * the mapping itself. Default: none.
   */
  thesaurus?: string | ThesaurusMapping;
  /** The boost per distinct concept a path mentions (needs `thesaurus`). Default 5. */
  boostWeight?: number;
  /** The cap on a path's boost (needs `thesaurus`). Default 30. */
  maxBoost?: number;
}

/**
 * Which frecency database a sandbox keeps (`Sandbox.frecencyStatus`).
 * Fields: the core's `fsnative::FrecencyStatus` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface FrecencyStatus {
  path: string;
  profile: FrecencyProfile;
}

/**
 * A snapshot of a sandbox's thesaurus (`Sandbox.thesaurusStatus`).
 * Fields: the core's `fsnative::BoostStatus` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface ThesaurusStatus {
  path: string | null;
  terms: number;
  concepts: number;
  reloads: number;
  lastError: string | null;
  weightPerTerm: number;
  maxBoost: number;
}
