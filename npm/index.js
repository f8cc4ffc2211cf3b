'use strict';
// fsnative for Node.js: sandboxed path validation, grep, glob and find on the native Rust core.
// The types, option names and defaults are documented once, in index.d.ts.

const { deprecate } = require('node:util');
const native = require('./lib/native');
const { FsnativeError, InvalidOptionError, AbortError, fromNative } = require('./lib/errors');
const { cancelTokenFor, abortErrorFor } = require('./lib/abort');
const { OPTIONS_OF, rootsArgument, pathArgument, splitSignal, splitEncoding, optionsJson, syncOptionsJson, typeError } = require('./lib/arguments');
const { grepResult } = require('./lib/transfer');

/** `Symbol.dispose` (Node 20 may lack it: Node's own polyfill is the registered symbol). */
const DISPOSE = Symbol.dispose ?? Symbol.for('nodejs.dispose');

/** One or more root directories, and every path, grep and glob kept inside them. */
class Sandbox {
  #native;
  #roots;

  constructor(roots, options) {
    const rootPaths = rootsArgument(roots);
    const json = optionsJson(options, OPTIONS_OF.Sandbox);
    this.#native = callNative(() => new native.Sandbox(rootPaths, json));
    this.#roots = Object.freeze(this.#native.roots);
  }

  /** The canonical roots. */
  get roots() {
    return this.#roots;
  }

  validate(path, options) {
    const checkedPath = pathArgument(path);
    const json = optionsJson(options, OPTIONS_OF.validate);
    return callNative(() => this.#native.validate(checkedPath, json));
  }

  async grep(options) {
    return grepResult(await runCancellable(options, OPTIONS_OF.grep, (json, token) => this.#native.grep(json, token)));
  }

  grepSync(options) {
    const json = syncOptionsJson(options, OPTIONS_OF.grep);
    return grepResult(callNative(() => this.#native.grepSync(json)));
  }

  async grepText(options, format) {
    const { asBytes, rest } = splitEncoding(format);
    const formatJson = optionsJson(rest, OPTIONS_OF.render, 'format');
    return grepText(await runCancellable(options, OPTIONS_OF.grep, (json, token) => this.#native.grepText(json, formatJson, asBytes, token)));
  }

  grepTextSync(options, format) {
    const json = syncOptionsJson(options, OPTIONS_OF.grep);
    const { asBytes, rest } = splitEncoding(format);
    const formatJson = optionsJson(rest, OPTIONS_OF.render, 'format');
    return grepText(callNative(() => this.#native.grepTextSync(json, formatJson, asBytes)));
  }

  async glob(options) {
    return globResult(JSON.parse(await runCancellable(options, OPTIONS_OF.glob, (json, token) => this.#native.glob(json, token))));
  }

  globSync(options) {
    const json = syncOptionsJson(options, OPTIONS_OF.glob);
    return globResult(JSON.parse(callNative(() => this.#native.globSync(json))));
  }

  /** Records an access to `path` (validated first) in the sandbox's frecency database. */
  recordAccess(path) {
    const checkedPath = pathArgument(path);
    callNative(() => this.#native.recordAccess(checkedPath));
  }

  /** The frecency score of `path` (validated first); 0 when it was never recorded. */
  frecencyScore(path) {
    const checkedPath = pathArgument(path);
    return callNative(() => this.#native.frecencyScore(checkedPath));
  }

  /** The thesaurus boost of `path` (validated first). */
  pathBoost(path) {
    const checkedPath = pathArgument(path);
    return callNative(() => this.#native.pathBoost(checkedPath));
  }

  /** The frecency database's path and profile, or null without one. */
  frecencyStatus() {
    const json = callNative(() => this.#native.frecencyStatus());
    return json === null ? null : JSON.parse(json);
  }

  /** The thesaurus's status, or null without a thesaurus. */
  thesaurusStatus() {
    const json = callNative(() => this.#native.thesaurusStatus());
    return json === null ? null : JSON.parse(json);
  }

  async find(options) {
    return JSON.parse(await runCancellable(options, OPTIONS_OF.find, (json, token) => this.#native.find(json, token)));
  }

  /** Finds as `find` does and renders the result in `format` (`{ format: 'fff', query, path }`). */
  async findText(options, format) {
    const formatJson = optionsJson(format, OPTIONS_OF.render_find, 'format');
    return JSON.parse(await runCancellable(options, OPTIONS_OF.find, (json, token) => this.#native.findText(json, formatJson, token)));
  }

  findSync(options) {
    const json = syncOptionsJson(options, OPTIONS_OF.find);
    return JSON.parse(callNative(() => this.#native.findSync(json)));
  }

  /**
   * One call of the FFF drop-in's `tool` (`'find_files'`, `'grep'`, `'multi_grep'`) with
   * Terraphim's `args`; resolves with its text, one line per MCP text block. `fsnative/fff`
   * calls it: the core holds the tools' defaults and limits.
   */
  async fffTool(tool, args) {
    if (typeof tool !== 'string') throw typeError('tool', 'a string', tool);
    return JSON.parse(await runCancellable(args, OPTIONS_OF.fff_tool, (json, token) => this.#native.fffTool(tool, json, token)));
  }

  /** The warm index's status, or null without an index. */
  indexStatus() {
    const json = callNative(() => this.#native.indexStatus());
    return json === null ? null : JSON.parse(json);
  }

  /** Resolves true once the index is ready and has read every file (within `timeoutMs`). */
  async waitForIndex(timeoutMs) {
    if (timeoutMs !== undefined && timeoutMs !== null && typeof timeoutMs !== 'number') {
      throw typeError('timeoutMs', 'a number', timeoutMs);
    }
    const waiting = callNative(() => this.#native.waitForIndex(timeoutMs ?? undefined));
    try {
      return await waiting;
    } catch (err) {
      throw fromNative(err);
    }
  }

  /** Stops the index and frees its memory; searches walk from then on. */
  close() {
    callNative(() => this.#native.close());
  }

  /** `using sb = new Sandbox(roots, { index: true })` closes it at the end of the block. */
  [DISPOSE]() {
    this.close();
  }
}

/** The former name of `validate`, kept for callers of 0.1.0. */
Sandbox.prototype.validatePath = deprecate(
  function validatePath(path, options) {
    return this.validate(path, options);
  },
  'Sandbox.validatePath() is deprecated: use Sandbox.validate(), its name in every language',
  'FSNATIVE_DEP_VALIDATE_PATH',
);

/** `grepText`'s answer from its JSON: `text` as a Buffer when it came as `{ bytes: base64 }`. */
function grepText(json) {
  const answer = JSON.parse(json);
  if (typeof answer.text === 'object') answer.text = Buffer.from(answer.text.bytes, 'base64');
  return answer;
}

/**
 * Rebuilds a glob result's entries from the columns the addon sends (bindings/node/src/output.rs,
 * `glob_json`); a result with a non-UTF-8 name comes entry by entry already.
 */
function globResult(raw) {
  if (raw.entries) return raw;
  const { bases, baseOf, relative, dirs, ...rest } = raw;
  const entries = new Array(relative.length);
  for (let i = 0; i < relative.length; i++) {
    const base = bases[baseOf ? baseOf[i] : 0];
    entries[i] = { path: `${base}/${relative[i]}`, relativePath: relative[i], isDir: dirs.charCodeAt(i) === 49 };
  }
  return { entries, ...rest };
}

/** Runs a synchronous call into the addon (arguments already checked), rethrowing its errors as the documented ones. */
function callNative(call) {
  try {
    return call();
  } catch (err) {
    throw fromNative(err);
  }
}

/**
 * Starts an async call into the addon with the options' `signal` wired to a native cancel
 * token. Once the signal aborts, the call rejects with an AbortError; the core stops soon
 * after (it checks the token between files and lines).
 */
async function runCancellable(options, operation, start) {
  const { signal, rest } = splitSignal(options, operation);
  const json = optionsJson(rest, operation);
  if (signal?.aborted) {
    throw abortErrorFor(signal);
  }
  const cancellation = signal && cancelTokenFor(signal);
  let output;
  try {
    output = await start(json, cancellation?.token ?? null);
  } catch (err) {
    if (!signal?.aborted) {
      throw fromNative(err);
    }
  } finally {
    cancellation?.release();
  }
  // A cancelled search resolves with what it found so far: reject it all the same.
  if (signal?.aborted) {
    throw abortErrorFor(signal);
  }
  return output;
}

module.exports = { Sandbox, FsnativeError, InvalidOptionError, AbortError };
