'use strict';
// Checks of what JavaScript alone can judge, before it reaches the addon: the roots and path
// arguments, the options object as an object, its `signal`, and values with no JSON form.
// Option names and values are judged by the core (`fsnative::options`), which words every
// complaint; a value JSON cannot carry is refused in its words too (`native.unconvertible`).

const native = require('./native');
const { InvalidOptionError, codedTypeError, fromNative } = require('./errors');

/**
 * The calls whose options are converted here, by the core's names (`OPTIONS_OF.grep`,
 * `OPTIONS_OF.Sandbox`, …): what `optionsJson` and `native.unconvertible` take, read from the
 * core (`OptionsOf`) so that no name is spelled twice.
 */
const OPTIONS_OF = Object.freeze(Object.fromEntries(native.optionsOf().map((name) => [name, name])));

/** `roots` as the addon takes them: an array of strings or Buffers. */
function rootsArgument(roots) {
  if (!Array.isArray(roots)) {
    throw typeError('roots', 'an array of strings or Buffers', roots);
  }
  roots.forEach((root, index) => {
    pathArgument(root, `roots[${index}]`);
  });
  return roots;
}

/** A path as the addon takes it: a string, or a Buffer of raw bytes for non-UTF-8 names. */
function pathArgument(path, name = 'path') {
  if (Buffer.isBuffer(path)) {
    return path;
  }
  if (typeof path !== 'string') {
    throw typeError(name, 'a string or a Buffer', path);
  }
  if (!path.isWellFormed()) {
    throw codedTypeError('ERR_INVALID_ARG_VALUE', `The "${name}" argument contains a lone surrogate; pass a Buffer for a name that is not UTF-8`);
  }
  return path;
}

/**
 * Splits `signal` off the options of an async `operation` (`OPTIONS_OF.grep`, `.glob`, `.find`);
 * the rest go to the addon.
 * @returns {{ signal: AbortSignal | undefined, rest: object | undefined }}
 */
function splitSignal(options, operation) {
  if (!isOptionsObject(options)) {
    return { signal: undefined, rest: options };
  }
  const { signal, ...rest } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw new InvalidOptionError(`${operation} option \`signal\` must be an AbortSignal, not ${describe(signal)}`, 'signal');
  }
  return { signal, rest };
}

/** The options of a synchronous call, which cannot be interrupted and so takes no `signal`. */
function syncOptionsJson(options, operation) {
  if (options?.signal !== undefined) {
    throw new InvalidOptionError(`${operation} option \`signal\` is for the async methods; a synchronous call cannot be interrupted`, 'signal');
  }
  return optionsJson(options, operation);
}

/**
 * The JSON text of the options of `operation` (one of `OPTIONS_OF`) for the addon. `undefined` values are left out (the option keeps its
 * default); a value JSON would change or drop is refused with the core's INVALID_OPTION error.
 */
function optionsJson(options, operation, name = 'options') {
  if (options === undefined) {
    return '{}';
  }
  if (!isOptionsObject(options)) {
    throw typeError(name, 'an object', options);
  }
  let option = '';
  // How deep each object or array lies (the options object at -1): JSON.stringify itself would
  // overflow the stack on a value nested thousands deep.
  const depths = new WeakMap([[options, -1]]);
  try {
    return JSON.stringify(options, check);
  } catch (err) {
    if (err instanceof TypeError && err.code === undefined) {
      throw unconvertible(operation, option, 'a value that contains itself');
    }
    throw err;
  }

  function check(key, value) {
    const depth = depths.get(this) + 1;
    if (Number.isNaN(depth)) {
      // The wrapper JSON.stringify starts from; `value` is not `options` when its toJSON replaced it.
      if (value !== options) throw typeError(name, 'an object', options);
      return value;
    }
    if (this === options) {
      option = key;
    }
    const got = key.isWellFormed() ? unconvertibleKind(this[key], depth) : 'named with a lone surrogate';
    if (got !== null) {
      throw unconvertible(operation, option.toWellFormed(), got);
    }
    if (typeof value === 'object' && value !== null) {
      depths.set(value, depth);
    }
    return value;
  }
}

/** How a value with no JSON form (at `depth`, 0 for an option's own value) is described, or null. */
function unconvertibleKind(value, depth) {
  if (depth > native.MAX_VALUE_DEPTH) return `arrays nested more than ${native.MAX_VALUE_DEPTH} deep`;
  const what = typeof value;
  if (what === 'string') return value.isWellFormed() ? null : 'a string with a lone surrogate';
  if (what === 'number') return Number.isFinite(value) ? null : `${value}, not finite`;
  if (what !== 'object') return what === 'undefined' || what === 'boolean' ? null : `a ${what}`;
  return value === null || Array.isArray(value) || [Object.prototype, null].includes(Object.getPrototypeOf(value)) ? null : describe(value);
}

/** The core's INVALID_OPTION error for a value of `option` with no JSON form. */
function unconvertible(operation, option, got) {
  try {
    native.unconvertible(operation, option, got);
  } catch (err) {
    return fromNative(err);
  }
}

function isOptionsObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeError(name, expected, actual) {
  return codedTypeError('ERR_INVALID_ARG_TYPE', `The "${name}" argument must be ${expected}; got ${describe(actual)}`);
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const what = typeof value;
  if (what === 'object') return `an instance of ${value.constructor?.name ?? 'Object'}`;
  if (what === 'string') return JSON.stringify(value.slice(0, 40));
  return what === 'number' || what === 'boolean' ? String(value) : `a ${what}`;
}

/**
 * Splits `encoding` off `grepText`'s format: how its `text` comes back, `'utf8'` (the default: a
 * string, where bytes that are not UTF-8 read as U+FFFD) or `'buffer'` (the exact bytes rg
 * prints). The rest of the format goes to the core.
 * @returns {{ asBytes: boolean, rest: unknown }}
 */
function splitEncoding(format) {
  if (format === null || typeof format !== 'object' || !Object.hasOwn(format, 'encoding')) {
    return { asBytes: false, rest: format };
  }
  const { encoding, ...rest } = format;
  if (encoding !== undefined && encoding !== 'utf8' && encoding !== 'buffer') {
    throw new InvalidOptionError(`render option \`encoding\` must be 'utf8' or 'buffer', not ${describe(encoding)}`, 'encoding');
  }
  return { asBytes: encoding === 'buffer', rest };
}

module.exports = { OPTIONS_OF, rootsArgument, pathArgument, splitSignal, splitEncoding, optionsJson, syncOptionsJson, typeError };
