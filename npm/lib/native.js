'use strict';
// Loads the native addon that `npm install` built from this checkout's Rust sources
// (scripts/build-addon.js puts it here).

const path = require('node:path');

const ADDON_PATH = path.join(__dirname, '..', 'native', 'fsnative.node');

function load() {
  try {
    return require(ADDON_PATH);
  } catch (err) {
    if (err && err.code === 'MODULE_NOT_FOUND') {
      throw new Error(
        `fsnative: the native addon is missing (${ADDON_PATH}). It is built from source when the ` +
          'package is installed: run `npm install` in the package directory (Rust and cargo are needed).',
        { cause: err },
      );
    }
    throw err;
  }
}

module.exports = load();
