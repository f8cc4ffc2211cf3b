'use strict';
// The error classes of the package, and how errors from the addon become them.

/**
 * A failure reported by the fsnative core; `code` is its stable code. `option` names the option
 * an `INVALID_OPTION` error is about, `path` the path an error about a file or path names (a
 * string, or a Buffer of raw bytes when it is not UTF-8).
 */
class FsnativeError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.code = code;
  }

  /** An InvalidOptionError is an FsnativeError too (it extends TypeError). */
  static [Symbol.hasInstance](value) {
    return Function.prototype[Symbol.hasInstance].call(this, value) || (this === FsnativeError && value instanceof InvalidOptionError);
  }
}

/**
 * An unknown option, or an option value of the wrong type or out of range (`code`
 * `'INVALID_OPTION'`): an FsnativeError, and a TypeError as Node's own argument checks throw.
 */
class InvalidOptionError extends TypeError {
  constructor(message, option, options) {
    super(message, options);
    this.code = 'INVALID_OPTION';
    this.option = option;
  }
}

/** The rejection of a call whose `signal` was aborted, shaped like Node's own AbortError. */
class AbortError extends Error {
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options);
    this.code = 'ABORT_ERR';
  }
}

for (const ErrorClass of [FsnativeError, InvalidOptionError, AbortError]) {
  Object.defineProperty(ErrorClass.prototype, 'name', { value: ErrorClass.name, configurable: true, writable: true });
}

/** The error the addon threw or rejected with, as the package's documented error. */
function fromNative(err) {
  if (!(err instanceof Error) || typeof err.code !== 'string') {
    return err;
  }
  if (err.code === 'INVALID_OPTION') {
    return new InvalidOptionError(err.message, err.option);
  }
  const error = new FsnativeError(err.code, err.message);
  if (err.path !== undefined) error.path = err.path;
  return error;
}

/** A TypeError with a Node-style `code`, for arguments that are not options. */
function codedTypeError(code, message) {
  const err = new TypeError(message);
  err.code = code;
  return err;
}

module.exports = { FsnativeError, InvalidOptionError, AbortError, fromNative, codedTypeError };
