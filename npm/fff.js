'use strict';
// fsnative/fff: the FFF search tools of Terraphim's MCP server (`find_files`, `grep`,
// `multi_grep`) on the fsnative core, with Terraphim's parameter names, defaults and text. The
// core searches and pages; this module maps Terraphim's parameters onto the core's options and
// prints the core's answers as Terraphim prints its own. How it differs on purpose is in
// fff.d.ts and docs/drop-ins.md, "FFF / Terraphim".

const { parseArgs } = require('node:util');
const { Sandbox } = require('./index.js');
const { pathText } = require('./lib/transfer');

/** Paths `find_files` lists unless `limit` says otherwise, as Terraphim's. */
const FIND_LIMIT = 20;
/** Matching lines (files, with `output_mode: 'files'`) in one grep page unless `limit` says otherwise. */
const GREP_LIMIT = 50;
/** Files larger than this many bytes are not searched, as in Terraphim. */
const MAX_FILESIZE = 10 * 1024 * 1024;
/** Matching lines reported per file at most, as in Terraphim. */
const MATCHES_PER_FILE = 200;
/** A longer line is cut to this many bytes (at a character boundary), as in Terraphim. */
const MAX_LINE_BYTES = 512;

/** The tools' descriptions for an MCP client. */
const DESCRIPTIONS = {
  find_files: 'Fuzzy file path search (typos allowed): the paths under `path` that best match the query, best first, each with its score.',
  grep:
    'Search file contents for a plain-text string (smart case: case-insensitive unless it has an upper-case letter). ' +
    'Lines come as path:line:text, at most 200 per file, cut at 512 bytes; files over 10 MiB are skipped. ' +
    'When there is more, the last line is `next_cursor: TOKEN`: call again with the same arguments and cursor=TOKEN ' +
    'for the next page (no match is skipped).',
  multi_grep:
    'Search file contents for lines matching ANY of several plain-text patterns (OR logic) in one pass; faster than ' +
    'separate grep calls. `constraints` limits the files searched. Output, limits and cursor pagination as in grep.',
};

/**
 * Terraphim's three FFF tools over one sandbox: call them, or `register` them on an MCP server.
 * Files come most used first (the core's `sort: 'frecency'`) when the sandbox keeps frecency,
 * else in path order.
 */
class FffTools {
  /** @param {Sandbox} sandbox the sandbox every path and search stays in */
  constructor(sandbox) {
    this.sandbox = sandbox;
    this.fileOrder = fileOrder(sandbox);
  }

  /** Fuzzy file path search, best first: a `Found N files matching …` header, then `score  path` lines. */
  async findFiles({ query, path: where = '.', limit = FIND_LIMIT }) {
    const { text } = await this.sandbox.findText({ query, path: where, limit }, { format: 'fff', query, path: where });
    return lines(text);
  }

  /** Lines holding `query` (plain text, smart case); `cursor` continues a page. */
  async grep({ query, ...rest }) {
    return this.#search([query], rest, null);
  }

  /** Lines holding any of `patterns` (plain text, smart case over all) in the files `constraints` admits. */
  async multiGrep({ patterns, ...rest }) {
    return this.#search(patterns, rest, patterns ?? []);
  }

  /**
   * Registers `find_files`, `grep` and `multi_grep` (each name after `prefix`; Terraphim's own
   * server calls them `terraphim_find_files` and so on) on an `McpServer` of
   * `@modelcontextprotocol/sdk`, with Terraphim's parameters. Needs `zod`, as the SDK does.
   * `log`, when given, is called with one line per call (tool, lines or error code, time).
   */
  register(server, { prefix = '', log } = {}) {
    const { z } = require('zod');
    const where = z.string().optional().describe('Directory to search (defaults to current directory)');
    const limit = z.number().int().optional().describe(`Maximum number of matches to return (default ${GREP_LIMIT})`);
    const outputMode = z.enum(['content', 'files']).optional().describe("Return 'content' (file:line:text, default) or 'files' (unique file paths only)");
    const cursor = z.string().optional().describe("Pagination cursor from a previous result's next_cursor field");
    const schemas = {
      find_files: {
        query: z.string().describe('Fuzzy search string'),
        path: where,
        limit: z.number().int().optional().describe(`Maximum number of results (default ${FIND_LIMIT})`),
      },
      grep: { query: z.string().describe('Search pattern (plain text)'), path: where, limit, output_mode: outputMode, cursor },
      multi_grep: {
        patterns: z.array(z.string()).describe('Patterns to match (OR logic). Include all naming conventions: snake_case, PascalCase, camelCase.'),
        path: where,
        constraints: z.string().optional().describe("File constraints (e.g. '*.rs !test/')"),
        limit,
        output_mode: outputMode,
        cursor,
      },
    };
    const methods = { find_files: 'findFiles', grep: 'grep', multi_grep: 'multiGrep' };
    for (const [name, inputSchema] of Object.entries(schemas)) {
      const config = { description: DESCRIPTIONS[name], inputSchema, annotations: { readOnlyHint: true } };
      server.registerTool(prefix + name, config, (args) => answer(prefix + name, () => this[methods[name]](args), log));
    }
  }

  /** One page of the core's grep with Terraphim's options, as Terraphim's lines (`listed`: multi_grep's patterns). */
  async #search(patterns, { path: where = '.', constraints = '', limit = GREP_LIMIT, output_mode = 'content', cursor }, listed) {
    const base = pathText(this.sandbox.validatePath(where, { intent: 'read' }));
    const options = {
      patterns,
      path: where,
      fixedStrings: true,
      caseMode: 'smart',
      maxFilesize: MAX_FILESIZE,
      maxCountPerFile: MATCHES_PER_FILE,
      maxColumns: MAX_LINE_BYTES,
      mode: output_mode === 'files' ? 'count' : 'content',
      sort: this.fileOrder,
      limit,
      cursor: cursor || null, // an empty cursor, as some clients send for none: the first page
      constraints: constraints || null,
    };
    const { text } = await this.sandbox.grepText(options, { format: 'fff', path: where, base, patterns: listed });
    return lines(text);
  }
}

/** The core's FFF text as one line per MCP text block. */
function lines(text) {
  return text.split('\n').slice(0, -1);
}

/**
 * Terraphim's order of files: most used first where the sandbox keeps frecency (the core
 * refuses that order without it), else path order.
 */
function fileOrder(sandbox) {
  return sandbox.frecencyStatus() === null ? 'path' : 'frecency';
}

/**
 * A tool's MCP result: one text block per line, or the error (`CODE: message` for the core's);
 * `log` (if any) hears of it in one line.
 */
async function answer(tool, lines, log) {
  const started = Date.now();
  const took = () => `in ${Date.now() - started} ms`;
  try {
    const content = (await lines()).map((text) => ({ type: 'text', text }));
    log?.(`${tool}: ${content.length} ${content.length === 1 ? 'line' : 'lines'} ${took()}`);
    return { content };
  } catch (err) {
    log?.(`${tool}: ${err.code ?? 'error'} ${took()}`);
    return { content: [{ type: 'text', text: err.code ? `${err.code}: ${err.message}` : String(err.message ?? err) }], isError: true };
  }
}

/**
 * The `fsnative-fff-mcp` command: an MCP server over stdio with the three tools, for the
 * directories in `argv` (default: the current directory); `--frecency DIR` keeps frecency (AI
 * profile) in that database, recording the files grep returns, `--thesaurus FILE` boosts
 * `find_files` paths by its concepts, `--index` keeps a warm index, `--prefix P` goes before the
 * tool names, `--verbose` logs each call on stderr (which is otherwise silent). Needs
 * `@modelcontextprotocol/sdk`.
 */
async function main(argv = process.argv.slice(2)) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      frecency: { type: 'string' },
      thesaurus: { type: 'string' },
      index: { type: 'boolean', default: false },
      prefix: { type: 'string', default: '' },
      verbose: { type: 'boolean', default: false },
    },
  });
  let sdk;
  try {
    sdk = { ...require('@modelcontextprotocol/sdk/server/mcp.js'), ...require('@modelcontextprotocol/sdk/server/stdio.js') };
  } catch (err) {
    throw new Error(`fsnative-fff-mcp needs the MCP SDK: npm install @modelcontextprotocol/sdk (${err.message})`);
  }
  const { McpServer, StdioServerTransport } = sdk;
  const server = new McpServer({ name: 'fsnative-fff-mcp', version: require('./package.json').version });
  const sandbox = new Sandbox(positionals.length > 0 ? positionals : [process.cwd()], {
    index: values.index,
    frecency: values.frecency ? { path: values.frecency, profile: 'ai' } : undefined,
    recordHits: values.frecency !== undefined,
    thesaurus: values.thesaurus,
  });
  const log = values.verbose ? (line) => process.stderr.write(`fsnative-fff-mcp: ${line}\n`) : undefined;
  new FffTools(sandbox).register(server, { prefix: values.prefix, log });
  await server.connect(new StdioServerTransport());
}

module.exports = { FffTools, main, FIND_LIMIT, GREP_LIMIT, MAX_FILESIZE, MATCHES_PER_FILE, MAX_LINE_BYTES };
