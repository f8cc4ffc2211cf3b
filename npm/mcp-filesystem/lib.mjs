// Stands in for the official MCP filesystem server's dist/lib.js: every export of the
// server's own module, with the allowed directories mirrored into an fsnative Sandbox and
// searchFilesWithValidation answered by one native walk (the core's glob, minimatch syntax).
import fs from 'node:fs/promises';
import path from 'node:path';
import * as server from '@modelcontextprotocol/server-filesystem/dist/lib.js';
import fsnative from '../index.js';
import { searchSettings } from './settings.mjs';

export * from '@modelcontextprotocol/server-filesystem/dist/lib.js';

let allowed = [];
/** The sandbox over `allowed`, built when first needed. */
let sandbox = null;

/** Sets the allowed directories (the server's module keeps them too, for its other tools). */
export function setAllowedDirectories(directories) {
  server.setAllowedDirectories(directories);
  allowed = [...directories];
  sandbox = null;
}

/** A copy of the allowed directories. */
export function getAllowedDirectories() {
  return [...allowed];
}

/** The server's own validatePath, whose textual check is fsnative's (path-validation). */
export const validatePath = server.validatePath;

/** A sandbox over the allowed directories that still exist, or null when none does. */
export async function currentSandbox() {
  if (sandbox && sandbox.roots.length === allowed.length) {
    return sandbox;
  }
  const existing = [];
  for (const dir of allowed) {
    const stat = await fs.stat(dir).catch(() => null);
    if (stat?.isDirectory()) existing.push(dir);
  }
  if (existing.length === 0) return null;
  const built = new fsnative.Sandbox(existing);
  if (existing.length === allowed.length) sandbox = built;
  return built;
}

/**
 * The paths below `rootPath` whose path relative to it matches `pattern` (minimatch,
 * `dot: true`), leaving out and not entering those that match an exclude pattern; each as
 * `path.join(rootPath, relative)`. The server's signature; the walk is native, in path order.
 * With a result cap or a time budget (see settings.mjs), a cut answer ends with a line saying so.
 */
export async function searchFilesWithValidation(rootPath, pattern, _allowedDirectories, options = {}) {
  const { excludePatterns = [] } = options;
  const settings = searchSettings();
  const box = await currentSandbox();
  let result;
  try {
    if (!box) throw new Error('no allowed directory exists');
    result = await box.glob({
      path: rootPath,
      pattern,
      syntax: 'minimatch',
      exclude: excludePatterns,
      kind: 'all',
      hidden: true,
      noIgnore: !settings.gitignore,
      gitDir: !settings.gitignore,
      limit: settings.maxResults,
      timeoutMs: settings.timeBudgetMs,
    });
  } catch (error) {
    // The server reads the root first and fails with Node's own error; a root it can read
    // but that lies outside the sandbox lists nothing there.
    await fs.readdir(rootPath);
    if (error?.code === 'OUTSIDE_SANDBOX' || !box) return [];
    throw error;
  }
  // path.join(rootPath, relative) without normalising each of the (clean) relative paths again:
  // on answers of 10,000 paths that took a third of the call.
  const prefix = path.join(rootPath, path.sep);
  const found = result.entries.map((entry) => prefix + entry.relativePath);
  if (result.truncated === 'limit') {
    found.push(`[search_files stopped at ${found.length} of ${result.total} matches (result cap); narrow the pattern or add excludePatterns]`);
  } else if (result.truncated) {
    found.push(`[search_files stopped after ${settings.timeBudgetMs} ms (time budget) with ${found.length} matches so far; the answer is partial]`);
  }
  return found;
}
