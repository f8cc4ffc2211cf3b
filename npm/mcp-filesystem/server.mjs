// fsnative-mcp-filesystem: runs the official MCP filesystem server, unchanged, with its path
// check and search_files on fsnative (module customization hooks), plus opt-in flags.
import fs from 'node:fs';
import { createRequire, register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ENV } from './settings.mjs';

/** Server versions this wrapper has been tested with (tests, vectors, the server's suite). */
export const SUPPORTED_SERVER_VERSIONS = ['2026.8.31'];
export const SERVER_PACKAGE = '@modelcontextprotocol/server-filesystem';

const USAGE = `Usage: fsnative-mcp-filesystem [options] [allowed-directory] [additional-directories...]
The official MCP filesystem server (${SERVER_PACKAGE}) on fsnative's native path check and search.
Options (none changes a tool unless given):
  --content-search        add the search_file_contents tool (regex content search, rg -n output)
  --gitignore             search_files leaves out what .gitignore files exclude, and .git
  --max-results N         search_files returns at most N paths, then a line saying it stopped
                          (default 10000; 0: no cap)
  --time-budget MS        search_files answers after MS milliseconds with what it found, marked
                          partial (default 30000; 0: no budget)
  --help                  this text`;

/** Splits fsnative's flags from the server's arguments; throws on a bad value. */
export function parseArguments(argv) {
  const flags = { contentSearch: false, gitignore: false, maxResults: null, timeBudgetMs: null, help: false };
  const rest = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const number = (name) => {
      const text = argv[++i];
      if (text === undefined || !/^\d+$/.test(text)) throw new Error(`${name} takes a whole number (0: none), not ${JSON.stringify(text ?? '')}`);
      return text;
    };
    if (arg === '--content-search') flags.contentSearch = true;
    else if (arg === '--gitignore') flags.gitignore = true;
    else if (arg === '--max-results') flags.maxResults = number(arg);
    else if (arg === '--time-budget') flags.timeBudgetMs = number(arg);
    else if (arg === '--help' || arg === '-h') flags.help = true;
    else if (arg === '--') {
      rest.push(...argv.slice(i + 1));
      break;
    } else rest.push(arg);
  }
  return { flags, directories: rest };
}

/**
 * The installed server's directory, as resolved from `from` (a file URL or path), checked
 * against the tested versions.
 */
export function locateServer(from = import.meta.url) {
  const require = createRequire(from);
  let manifest;
  try {
    manifest = require.resolve(`${SERVER_PACKAGE}/package.json`);
  } catch {
    throw new Error(
      `${SERVER_PACKAGE} is not installed; run \`npx -y fsnative-mcp-filesystem\`, which brings it, or install version ` +
        `${SUPPORTED_SERVER_VERSIONS.join(' or ')} beside fsnative (npm install ${SERVER_PACKAGE}@${SUPPORTED_SERVER_VERSIONS.at(-1)})`,
    );
  }
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  if (!SUPPORTED_SERVER_VERSIONS.includes(version)) {
    throw new Error(
      `${SERVER_PACKAGE} ${version} is not supported by this fsnative: it has been tested with ${SUPPORTED_SERVER_VERSIONS.join(', ')} only (npm install ${SERVER_PACKAGE}@${SUPPORTED_SERVER_VERSIONS.at(-1)})`,
    );
  }
  return path.dirname(manifest);
}

/**
 * Starts the server with `argv` (the arguments after the program's name), the server package
 * resolved from `from` (the bin's own file, so that its package's dependency is found).
 */
export async function main(argv = process.argv.slice(2), from = import.meta.url) {
  const { flags, directories } = parseArguments(argv);
  if (flags.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const serverDir = locateServer(from);
  if (flags.gitignore) process.env[ENV.gitignore] = '1';
  if (flags.maxResults !== null) process.env[ENV.maxResults] = flags.maxResults;
  if (flags.timeBudgetMs !== null) process.env[ENV.timeBudgetMs] = flags.timeBudgetMs;
  const here = (file) => new URL(file, import.meta.url).href;
  const replacements = { './lib.js': here('./lib.mjs'), './path-validation.js': here('./path-validation.mjs') };
  if (flags.contentSearch) {
    replacements['@modelcontextprotocol/sdk/server/mcp.js'] = { url: here('./content-search.mjs'), with: ['zod'] };
  }
  const serverDist = pathToFileURL(path.join(serverDir, 'dist') + path.sep).href;
  register(here('./hooks.mjs'), { data: { serverDist, replacements } });
  // The server reads its directories from process.argv.
  const index = path.join(serverDir, 'dist', 'index.js');
  process.argv = [process.argv[0], index, ...directories];
  await import(pathToFileURL(index).href);
}
