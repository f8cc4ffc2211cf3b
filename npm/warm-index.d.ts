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

/** A snapshot of a sandbox's warm index (`Sandbox.indexStatus`). */
export interface IndexStatus {
  /** `'building'` (searches walk meanwhile), `'ready'`, `'failed'` (see `error`; searches walk) or `'closed'`. */
  state: 'building' | 'ready' | 'failed' | 'closed';
  /** Files listed. */
  files: number;
  /** Directories listed. */
  dirs: number;
  /** Bytes of the files read into the content prefilter. */
  bytes: number;
  /** Memory the index holds, in bytes (the content cache included). */
  memoryBytes: number;
  /** `'live'` (every directory watched), `'partial'` (some listed again before every search) or `'off'`. */
  watching: 'live' | 'partial' | 'off';
  /** Directories watched. */
  watchedDirs: number;
  /** Directories that could not be watched. */
  unwatchedDirs: number;
  /** Times the whole tree was listed again because the kernel dropped events. */
  rescans: number;
  /** Files whose content the prefilter knows. */
  contentFiles: number;
  /** Files waiting to be read (new or changed); they are searched meanwhile. */
  contentPending: number;
  /** Milliseconds it took to list the roots, once done. */
  listMs: number | null;
  /** Milliseconds from the start until every file was first read, once done. */
  contentMs: number | null;
  /** Searches (grep and glob) answered from the index so far. */
  searches: number;
  /** Why the index failed, or null. */
  error: string | null;
  /**
   * With `persist`: how the index started, `{ outcome: 'loaded' }` (from the store, checked
   * against the tree) or `{ outcome: 'rebuilt', reason }` (why the store was not used); null
   * without.
   */
  store: { outcome: 'loaded' } | { outcome: 'rebuilt'; reason: string } | null;
  /** Why the last write of the store failed (the store on disk is the one before), or null. */
  storeError: string | null;
  /** Size in bytes of the store last loaded or written. */
  storeBytes: number;
  /** Files and directories the check at load found changed while no index watched them. */
  storeChanges: number;
  /** Bytes of file contents the content cache holds. */
  cacheBytes: number;
  /** Files the content cache holds. */
  cacheFiles: number;
  /** Files searched from the content cache instead of read from disk, so far. */
  cacheHits: number;
}
