'use strict';
// Checks of the arguments that JavaScript alone can judge, before they reach the addon.
// Option names and values are judged by the core (see bindings/node/src/options.rs); this
// only makes sure the options object survives JSON.stringify without losing anything.

const { codedTypeError } = require('./errors');

/** `roots` as the addon takes them: an array of strings or Buffers. */
function rootsArgument(roots) {
  if (!Array.isArray(roots)) {
    throw typeError('roots', 'an array of strings or Buffers', roots);
  }
  roots.forEach((root, index) => pathArgument(root, `roots[${index}]`));
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
 * Splits `signal` off an async call's options; the rest go to the addon.
 * @returns {{ signal: AbortSignal | undefined, rest: object | undefined }}
 */
function splitSignal(options) {
  if (!isOptionsObject(options)) {
    return { signal: undefined, rest: options };
  }
  const { signal, ...rest } = options;
  if (signal !== undefined && !(signal instanceof AbortSignal)) {
    throw typeError('signal', 'an AbortSignal', signal, 'option');
  }
  return { signal, rest };
}

/**
 * The JSON text of an options object for the addon. `undefined` values are left out (the
 * option keeps its default); values JSON would change or drop are refused, naming the option.
 */
function optionsJson(options, name = 'options') {
  if (options === undefined) {
    return '{}';
  }
  if (!isOptionsObject(options)) {
    throw typeError(name, 'an object', options);
  }
  let option = '';
  // How deep each object or array lies: JSON.stringify itself would overflow the stack (a
  // RangeError) on a value nested thousands deep before the core could refuse it.
  const levels = new WeakMap();
  try {
    return JSON.stringify(options, check);
  } catch (err) {
    if (err instanceof TypeError && err.code === undefined) {
      // A value that contains itself.
      throw codedTypeError('ERR_INVALID_ARG_VALUE', `The "${option}" option cannot be converted to JSON: ${err.message.split('\n')[0]}`);
    }
    throw err;
  }

  function check(key, value) {
    if (this === options) {
      option = key;
    }
    const level = (levels.get(this) ?? 0) + 1;
    if (key !== '') {
      checkJsonValue(this[key], option);
      if (level > MAX_NESTING) {
        throw codedTypeError('ERR_INVALID_ARG_VALUE', `The "${option}" option is nested more than ${MAX_NESTING} levels deep`);
      }
    }
    if (typeof value === 'object' && value !== null) {
      levels.set(value, level);
    }
    return value;
  }
}

/** Options hold strings or lists of strings; anything nested this deep is not one. */
const MAX_NESTING = 16;

function checkJsonValue(value, option) {
  const what = typeof value;
  const lossless =
    value === null ||
    value === undefined ||
    (what === 'string' && value.isWellFormed()) ||
    what === 'boolean' ||
    (what === 'number' && Number.isFinite(value)) ||
    Array.isArray(value) ||
    (what === 'object' && [Object.prototype, null].includes(Object.getPrototypeOf(value)));
  if (!lossless) {
    throw typeError(option, 'a string (without lone surrogates), a finite number, a boolean, null or an array of these', value, 'option');
  }
}

function isOptionsObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeError(name, expected, actual, kind = 'argument') {
  return codedTypeError('ERR_INVALID_ARG_TYPE', `The "${name}" ${kind} must be ${expected}; got ${describe(actual)}`);
}

function describe(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an instance of ${value.constructor?.name ?? 'Object'}`;
  if (typeof value === 'function') return 'a function';
  return `type ${typeof value} (${String(value).slice(0, 40)})`;
}

module.exports = { rootsArgument, pathArgument, splitSignal, optionsJson };
