'use strict';
// The error classes of the package, and how errors from the addon become them.

/** The code the addon gives errors about options (Node's own code for such TypeErrors). */
const INVALID_OPTION = 'ERR_INVALID_ARG_VALUE';

/** A failure reported by the fsnative core; `code` is its stable code. */
class FsnativeError extends Error {
  constructor(code, message, options) {
    super(message, options);
    this.code = code;
  }
}

/** The rejection of a call whose `signal` was aborted, shaped like Node's own AbortError. */
class AbortError extends Error {
  constructor(message = 'The operation was aborted', options = undefined) {
    super(message, options);
    this.code = 'ABORT_ERR';
  }
}

for (const ErrorClass of [FsnativeError, AbortError]) {
  Object.defineProperty(ErrorClass.prototype, 'name', { value: ErrorClass.name, configurable: true, writable: true });
}

/** The error the addon threw or rejected with, as the package's documented error. */
function fromNative(err) {
  if (!(err instanceof Error) || typeof err.code !== 'string') {
    return err;
  }
  if (err.code === INVALID_OPTION) {
    return codedTypeError(INVALID_OPTION, err.message);
  }
  return new FsnativeError(err.code, err.message);
}

/** A TypeError with a Node-style `code`. */
function codedTypeError(code, message) {
  const err = new TypeError(message);
  err.code = code;
  return err;
}

module.exports = { FsnativeError, AbortError, fromNative, codedTypeError };
