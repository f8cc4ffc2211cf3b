'use strict';
// fsnative/fff: the FFF search tools of Terraphim's MCP server (`find_files`, `grep`,
// `multi_grep`) on the fsnative core, with Terraphim's parameter names, defaults and text. The
// core holds every rule of them (render::fff::tools: the mapping of the arguments, the limits,
// the descriptions) and prints the answers; this module registers the tools and splits the text
// into lines. How it differs on purpose is in fff.d.ts and docs/drop-ins.md, "FFF / Terraphim".

const { parseArgs } = require('node:util');
const { Sandbox } = require('./index.js');
const native = require('./lib/native');

/** The tools (names, descriptions, arguments) and limits, from the core (`render::fff::tools`). */
const CATALOG = JSON.parse(native.fffCatalog());
const {
  findLimit: FIND_LIMIT,
  grepLimit: GREP_LIMIT,
  maxFilesize: MAX_FILESIZE,
  matchesPerFile: MATCHES_PER_FILE,
  maxLineBytes: MAX_LINE_BYTES,
} = CATALOG.limits;

/**
 * Terraphim's three FFF tools over one sandbox: call them, or `register` them on an MCP server.
 * Each takes Terraphim's arguments and resolves with the lines of its answer; the core maps the
 * arguments, searches and prints (files most used first when the sandbox keeps frecency).
 */
class FffTools {
  /** @param {Sandbox} sandbox the sandbox every path and search stays in */
  constructor(sandbox) {
    this.sandbox = sandbox;
  }

  /** Fuzzy file path search, best first: a `Found N files matching …` header, then `score  path` lines. */
  async findFiles(args) {
    return this.#call('find_files', args);
  }

  /** Lines holding `query` (plain text, smart case); `cursor` continues a page. */
  async grep(args) {
    return this.#call('grep', args);
  }

  /** Lines holding any of `patterns` (plain text, smart case over all) in the files `constraints` admits. */
  async multiGrep(args) {
    return this.#call('multi_grep', args);
  }

  /**
   * Registers `find_files`, `grep` and `multi_grep` (each name after `prefix`; Terraphim's own
   * server calls them `terraphim_find_files` and so on) on an `McpServer` of
   * `@modelcontextprotocol/sdk`, with Terraphim's parameters. Needs `zod`, as the SDK does.
   * `log`, when given, is called with one line per call (tool, lines or error code, time).
   */
  register(server, { prefix = '', log } = {}) {
    const { z } = require('zod');
    for (const tool of CATALOG.tools) {
      const inputSchema = Object.fromEntries(tool.arguments.map((argument) => [argument.name, schema(z, argument)]));
      const config = { description: tool.description, inputSchema, annotations: { readOnlyHint: true } };
      server.registerTool(prefix + tool.name, config, (args) => answer(prefix + tool.name, () => this.#call(tool.name, args), log));
    }
  }

  /** One call of `tool` in the core, as one line per MCP text block. */
  async #call(tool, args) {
    const text = await this.sandbox.fffTool(tool, args ?? {});
    return text.split('\n').slice(0, -1);
  }
}

/** The zod schema of a tool's argument as the core describes it. */
function schema(z, { kind, choices, required, description }) {
  const types = { string: () => z.string(), integer: () => z.number().int(), strings: () => z.array(z.string()), choice: () => z.enum(choices) };
  const type = types[kind]();
  return (required ? type : type.optional()).describe(description);
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
