'use strict';
// AbortSignals to native cancel tokens. However many calls share a signal, it gets one
// listener (no MaxListenersExceededWarning for 1,000 calls), removed once the last call ends.

const native = require('./native');
const { AbortError } = require('./errors');

/** signal → { tokens: Set of the running calls' tokens, cancelAll: its abort listener } */
const watchedSignals = new WeakMap();

/**
 * A native cancel token that `signal` cancels, and `release`, to call when the call ends.
 * @returns {{ token: object, release: () => void }}
 */
function cancelTokenFor(signal) {
  let watch = watchedSignals.get(signal);
  if (watch === undefined) {
    const tokens = new Set();
    watch = {
      tokens,
      cancelAll: () => {
        for (const token of tokens) token.cancel();
      },
    };
    watchedSignals.set(signal, watch);
    signal.addEventListener('abort', watch.cancelAll, { once: true });
  }
  const token = new native.CancelToken();
  watch.tokens.add(token);
  const release = () => {
    watch.tokens.delete(token);
    if (watch.tokens.size === 0) {
      signal.removeEventListener('abort', watch.cancelAll);
      watchedSignals.delete(signal);
    }
  };
  return { token, release };
}

/** The rejection of a call whose signal aborted. */
function abortErrorFor(signal) {
  return new AbortError(undefined, { cause: signal.reason });
}

module.exports = { cancelTokenFor, abortErrorFor };
