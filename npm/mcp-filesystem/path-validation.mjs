// Stands in for the official MCP filesystem server's dist/path-validation.js: the same
// export, with the check itself in fsnative's core (`is_path_within`).
import { createRequire } from 'node:module';

const native = createRequire(import.meta.url)('../lib/native');

/**
 * Whether `absolutePath` is one of `allowedDirectories` or lies below one, by their text alone
 * (synchronous, no filesystem access); the server's signature and answers.
 */
export function isPathWithinAllowedDirectories(absolutePath, allowedDirectories) {
  if (typeof absolutePath !== 'string' || !Array.isArray(allowedDirectories)) {
    return false;
  }
  // A directory that is not a string never matches; the core treats '' so.
  const dirs = allowedDirectories.map((dir) => (typeof dir === 'string' ? dir : ''));
  return native.isPathWithin(absolutePath, dirs);
}
