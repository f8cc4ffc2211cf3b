'use strict';
// fsnative for Node.js: sandboxed path validation, grep, glob and find on the native Rust core.
// The types, option names and defaults are documented once, in index.d.ts.

const native = require('./lib/native');
const { FsnativeError, InvalidOptionError, AbortError, fromNative } = require('./lib/errors');
const { cancelTokenFor, abortErrorFor } = require('./lib/abort');
const { rootsArgument, pathArgument, splitSignal, splitEncoding, optionsJson, syncOptionsJson, typeError } = require('./lib/arguments');
const { grepResult } = require('./lib/transfer');

/** `Symbol.dispose` (Node 20 may lack it: Node's own polyfill is the registered symbol). */
const DISPOSE = Symbol.dispose ?? Symbol.for('nodejs.dispose');

/** One or more root directories, and every path, grep and glob kept inside them. */
class Sandbox {
  #native;
  #roots;

  constructor(roots, options) {
    const rootPaths = rootsArgument(roots);
    const json = optionsJson(options, 'Sandbox');
    this.#native = callNative(() => new native.Sandbox(rootPaths, json));
    this.#roots = Object.freeze(this.#native.roots);
  }

  /** The canonical roots. */
  get roots() {
    return this.#roots;
  }

  validatePath(path, options) {
    const checkedPath = pathArgument(path);
    const json = optionsJson(options, 'validate_path');
    return callNative(() => this.#native.validatePath(checkedPath, json));
  }

  async grep(options) {
    return grepResult(await runCancellable(options, 'grep', (json, token) => this.#native.grep(json, token)));
  }

  grepSync(options) {
    const json = syncOptionsJson(options, 'grep');
    return grepResult(callNative(() => this.#native.grepSync(json)));
  }

  async grepText(options, format) {
    const { asBytes, rest } = splitEncoding(format);
    const formatJson = optionsJson(rest, 'render', 'format');
    return grepText(await runCancellable(options, 'grep', (json, token) => this.#native.grepText(json, formatJson, asBytes, token)));
  }

  grepTextSync(options, format) {
    const json = syncOptionsJson(options, 'grep');
    const { asBytes, rest } = splitEncoding(format);
    const formatJson = optionsJson(rest, 'render', 'format');
    return grepText(callNative(() => this.#native.grepTextSync(json, formatJson, asBytes)));
  }

  async glob(options) {
    return globResult(JSON.parse(await runCancellable(options, 'glob', (json, token) => this.#native.glob(json, token))));
  }

  globSync(options) {
    const json = syncOptionsJson(options, 'glob');
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
    return JSON.parse(await runCancellable(options, 'find', (json, token) => this.#native.find(json, token)));
  }

  /** Finds as `find` does and renders the result in `format` (`{ format: 'fff', query, path }`). */
  async findText(options, format) {
    const formatJson = optionsJson(format, 'render', 'format');
    return JSON.parse(await runCancellable(options, 'find', (json, token) => this.#native.findText(json, formatJson, token)));
  }

  findSync(options) {
    const json = syncOptionsJson(options, 'find');
    return JSON.parse(callNative(() => this.#native.findSync(json)));
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
