'use strict';
// fsnative/fsmcp: fsMCP's `fs_grep` and `fs_glob` tools on the fsnative core, for fsMCP's tool
// registry. Same names, input schemas, annotations and result texts, and fsMCP's time budget
// (`FSMCP_GREP_TIMEOUT_MS`, 30 s) as the core's deadline; no `rg` process and no node-glob walk.
// The core searches; this module maps arguments and formats results.

const fs = require('node:fs');
const path = require('node:path');
const { Sandbox, FsnativeError } = require('./index.js');
const { pathText } = require('./lib/transfer');

/**
 * Most match records (content mode) or files (files and count modes) one `fs_grep` call
 * returns; fsMCP's rg path has no total cap (its `head_limit` is per file).
 */
const GREP_TOTAL_CAP = 10_000;

/** Most paths one `fs_glob` call lists; a "showing" line then gives the total. */
const GLOB_RESULT_CAP = 1000;

/** fsMCP's time budget of one search, in milliseconds, unless `FSMCP_GREP_TIMEOUT_MS` sets another. */
const DEFAULT_BUDGET_MS = 30_000;

const NO_MATCHES = 'No matches found.';
const NO_ALLOWED_DIRS = 'no allowed directories are configured; every path is refused';
const NO_EXISTING_ALLOWED_DIRS = 'none of the allowed directories exist';

/** fsMCP's `output_mode` values and the core's grep modes they ask for. */
const GREP_MODES = { files_with_matches: 'files', count: 'count', content: 'content' };

/** The `fs_grep` tool definition, as fsMCP registers it. */
const GREP_TOOL = {
  name: 'fs_grep',
  description:
    'Search file contents for a regular expression (ripgrep syntax) inside the allowed directories. ' +
    'output_mode files_with_matches (the default) lists matching files, count gives path:count, ' +
    'content gives path:line:text.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: 'Regular expression to search for' },
      path: { type: 'string', description: 'Absolute file or directory to search (default: every allowed directory)' },
      glob: { type: 'string', description: "Only search files matching this glob (e.g. '*.ts')" },
      type: { type: 'string', description: "Only search files of this ripgrep type (e.g. 'ts', 'py')" },
      output_mode: { type: 'string', description: 'What to return', enum: ['content', 'files_with_matches', 'count'] },
      context: { type: 'integer', description: 'Lines of context before and after each match (content mode)' },
      head_limit: { type: 'integer', description: 'Stop reading a file after this many matching lines' },
    },
    required: ['pattern'],
  },
  annotations: { readOnlyHint: true },
  category: 'File System',
};

/** The `fs_glob` tool definition, as fsMCP registers it. */
const GLOB_TOOL = {
  name: 'fs_glob',
  description: 'List files whose path matches a glob pattern, as absolute paths, newest first, at most 1000.',
  inputSchema: {
    type: 'object',
    properties: {
      pattern: { type: 'string', description: "Glob relative to each searched directory, such as '**/*.ts'" },
      path: { type: 'string', description: 'Absolute directory to search (default: every allowed directory)' },
    },
    required: ['pattern'],
  },
  annotations: { readOnlyHint: true },
  category: 'File System',
};

/** Registers `fs_grep` with an fsMCP tool registry. */
function registerGrep(registry) {
  registry.register(GREP_TOOL, fsGrep);
}

/** Registers `fs_glob` with an fsMCP tool registry. */
function registerGlob(registry) {
  registry.register(GLOB_TOOL, fsGlob);
}

/**
 * The `fs_grep` handler: searches `ctx.allowedDirs` and returns ripgrep's standard output for
 * the argv fsMCP would build (`-l`, `-c` or `-n [-C N]`, `--glob`, `--type`, `--max-count`),
 * or fsMCP's time-out error when the search outlasts its budget.
 */
function fsGrep(args, ctx) {
  const pattern = requiredString(args, 'pattern');
  if (isResult(pattern)) return pattern;
  const outputMode = args.output_mode ?? 'files_with_matches';
  if (!Object.hasOwn(GREP_MODES, outputMode)) {
    return errorResult(`output_mode must be one of ${Object.keys(GREP_MODES).join(', ')}`);
  }
  const scope = searchScope(args, ctx);
  if (isResult(scope)) return scope;

  const mode = GREP_MODES[outputMode];
  const options = {
    pattern,
    path: scope.path,
    glob: nonEmpty(args.glob),
    type: nonEmpty(args.type),
    mode,
    context: mode === 'content' && Number.isInteger(args.context) ? args.context : undefined,
    maxCountPerFile: args.head_limit ? args.head_limit : undefined,
    limit: GREP_TOTAL_CAP,
    timeoutMs: searchBudgetMs(),
  };
  let page;
  try {
    page = scope.sandbox.grepTextSync(options, { format: 'standard', pathStyle: 'absolute' });
  } catch (err) {
    return failure(err, scope.path, (message) => `grep error: ${message}`);
  }
  if (page.truncated === 'timeout') {
    const advice = 'Search a smaller directory or one file, add a glob or type filter, or use a more specific pattern.';
    return timeoutResult('grep', options.timeoutMs, advice);
  }
  const trimmed = page.text.trimEnd();
  if (trimmed === '') return textResult(NO_MATCHES);
  // A sync call cannot be cancelled, so any other cut is the cap.
  if (page.truncated === null) return textResult(trimmed);
  return textResult(`${trimmed}\n\n(output cut at ${GREP_TOTAL_CAP} results; narrow the pattern, path or glob to see the rest)`);
}

/**
 * The `fs_glob` handler: lists the files under `path` (or every allowed dir) that match
 * `pattern`, dotfiles excluded and .gitignore not applied, newest first, at most 1000; a walk
 * that outlasts the time budget answers an error worded like fs_grep's.
 */
function fsGlob(args, ctx) {
  const pattern = requiredString(args, 'pattern');
  if (isResult(pattern)) return pattern;
  const scope = searchScope(args, ctx);
  if (isResult(scope)) return scope;

  const budgetMs = searchBudgetMs();
  let listed;
  try {
    listed = scope.sandbox.globSync({
      pattern,
      path: scope.path,
      noIgnore: true,
      hidden: false,
      kind: 'files',
      sort: 'mtime',
      limit: GLOB_RESULT_CAP,
      timeoutMs: budgetMs,
    });
  } catch (err) {
    if (err instanceof FsnativeError && err.code === 'NOT_A_DIRECTORY') return textResult('');
    if (err instanceof FsnativeError && err.code === 'NOT_FOUND') return errorResult(`directory not found: ${scope.path}`);
    return failure(err, scope.path, (message) => `glob error: ${message}`);
  }
  if (listed.truncated === 'timeout') {
    return timeoutResult('glob', budgetMs, 'Search a smaller directory: give a path deeper inside the tree.');
  }
  const paths = listed.entries.map((entry) => pathText(entry.path)).join('\n');
  const showing = listed.total > listed.entries.length ? `\n\n(showing ${listed.entries.length} of ${listed.total} matches)` : '';
  return textResult(paths + showing);
}

/**
 * The time budget of one search: `FSMCP_GREP_TIMEOUT_MS` (read on every call) when it is a
 * positive whole number of milliseconds in decimal digits, else {@link DEFAULT_BUDGET_MS}.
 */
function searchBudgetMs() {
  const configured = process.env.FSMCP_GREP_TIMEOUT_MS ?? '';
  return /^[1-9][0-9]*$/.test(configured) && Number.isSafeInteger(Number(configured)) ? Number(configured) : DEFAULT_BUDGET_MS;
}

/**
 * Where a call searches: a sandbox of the existing allowed dirs, and the requested `path`
 * (absolute), or `undefined` for every allowed dir when `path` is omitted or ".".
 * Returns an error result when there is nothing the call may search.
 */
function searchScope(args, ctx) {
  const requested = args?.path ?? undefined;
  if (requested !== undefined && typeof requested !== 'string') {
    return errorResult(`path must be a string; received ${JSON.stringify(requested)}`);
  }
  const searchesAllDirs = requested === undefined || requested === '' || requested === '.';
  if (!searchesAllDirs && !path.isAbsolute(requested)) return errorResult('path must be absolute');
  const allowedDirs = ctx?.allowedDirs ?? [];
  if (allowedDirs.length === 0) return errorResult(NO_ALLOWED_DIRS);
  const existingDirs = allowedDirs.filter(isDirectory);
  if (existingDirs.length === 0) {
    return errorResult(searchesAllDirs ? NO_EXISTING_ALLOWED_DIRS : `path ${requested} is outside allowed directories`);
  }
  let sandbox;
  try {
    sandbox = sandboxFor(existingDirs);
  } catch (err) {
    return errorResult(err.message);
  }
  return { sandbox, path: searchesAllDirs ? undefined : requested };
}

let cachedSandbox = { key: '', sandbox: null };

/** The sandbox of these roots, reused while calls keep the same allowed dirs. */
function sandboxFor(roots) {
  const key = JSON.stringify(roots);
  if (cachedSandbox.key !== key) {
    cachedSandbox = { key, sandbox: new Sandbox(roots) };
  }
  return cachedSandbox.sandbox;
}

function isDirectory(dir) {
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** The error result for a failed search: fsMCP's wording for a path outside, `describe` for the rest. */
function failure(err, requestedPath, describe) {
  if (!(err instanceof FsnativeError)) return errorResult(describe(err instanceof Error ? err.message : String(err)));
  if (err.code === 'OUTSIDE_SANDBOX') return errorResult(`path ${requestedPath} is outside allowed directories`);
  return errorResult(describe(err.message));
}

function requiredString(args, name) {
  const value = args?.[name];
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return errorResult(`${name} is required`);
  return errorResult(`${name} must be a string; received ${JSON.stringify(value)}`);
}

/** An optional filter argument: fsMCP leaves out an empty one. */
function nonEmpty(value) {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The answer of a search that ran out of time: an error naming the budget, never what was found
 * by then (a partial list would pose as the whole answer).
 */
function timeoutResult(search, budgetMs, advice) {
  return errorResult(`${search} timed out after ${budgetMs}ms and was stopped. ${advice}`);
}

function isResult(value) {
  return typeof value === 'object' && value !== null && Array.isArray(value.content);
}

function textResult(text) {
  return { content: [{ type: 'text', text }] };
}

function errorResult(text) {
  return { content: [{ type: 'text', text }], isError: true };
}

module.exports = { registerGrep, registerGlob, fsGrep, fsGlob, GREP_TOOL, GLOB_TOOL, GREP_TOTAL_CAP, GLOB_RESULT_CAP };
