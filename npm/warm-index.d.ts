// Type declarations of fsnative's warm index, re-exported by index.d.ts: the options that
// build and bound it and the snapshot `Sandbox.indexStatus` returns.

/**
 * How a sandbox's warm index is built and bounded (each option optional; the core checks
 * them, naming a bad one `index.maxFiles`, …).
 */
export interface IndexOptions {
  /** The most entries the index holds; past it the index fails and searches walk. Default 1,000,000. */
  maxFiles?: number;
  /** The most memory in bytes; past it files are listed but not read (always searched). Default 512 MiB. */
  maxMemory?: number;
  /** Build the content prefilter (else the file list only). Default `true`. */
  content?: boolean;
  /** Index `/` or a directory holding the home directory (refused otherwise). Default `false`. */
  allowHome?: boolean;
  /**
   * A directory to keep the index in between runs: loaded at start and checked against the
   * tree (what changed meanwhile is read again before the first answer) instead of reading
   * every file; written after the first build, after large changes and on `close()`.
   * `indexStatus().store` says whether it was loaded. Default: none.
   */
  persist?: string;
  /**
   * The most memory in bytes the content cache may hold: the contents of small files that
   * searches read again and again, kept so that they are not read from disk each time (`0`: no
   * cache). Counted apart from `maxMemory`. Default 4 MiB.
   */
  cacheMemory?: number;
}

/**
 * A snapshot of a sandbox's warm index (`Sandbox.indexStatus`).
 * Fields: the core's `fsnative::IndexStatus` in camelCase, which documents each one (`cargo doc -p fsnative`).
 */
export interface IndexStatus {
  state: 'building' | 'ready' | 'failed' | 'closed';
  files: number;
  dirs: number;
  bytes: number;
  memoryBytes: number;
  watching: 'live' | 'partial' | 'off';
  watchedDirs: number;
  unwatchedDirs: number;
  rescans: number;
  contentFiles: number;
  contentPending: number;
  listMs: number | null;
  contentMs: number | null;
  searches: number;
  error: string | null;
  /**
   * With `persist`: how the index started, `{ outcome: 'loaded' }` (from the store, checked
   * against the tree) or `{ outcome: 'rebuilt', reason }` (why the store was not used); null
   * without.
   */
  store: { outcome: 'loaded' } | { outcome: 'rebuilt'; reason: string } | null;
  storeError: string | null;
  storeBytes: number;
  storeChanges: number;
  cacheBytes: number;
  cacheFiles: number;
  cacheHits: number;
}
