'use strict';
// Loads the native addon. In order: `native/fsnative.node` (built from Rust sources by
// scripts/install.js, in a checkout or where no prebuilt package fits), then the platform
// package that carries a prebuilt addon for this machine (`fsnative-linux-x64-gnu`, …), which
// npm installs from the main package's optionalDependencies.

const path = require('node:path');
const { platformPackage } = require('./platform');

const SOURCE_BUILD = path.join(__dirname, '..', 'native', 'fsnative.node');

function load() {
  const attempts = [];
  for (const candidate of [SOURCE_BUILD, platformPackage()]) {
    try {
      return require(candidate);
    } catch (err) {
      if (err?.code !== 'MODULE_NOT_FOUND' || !String(err.message).includes(candidate)) throw err;
      attempts.push(candidate);
    }
  }
  throw new Error(
    `fsnative: no native addon for this machine (tried ${attempts.join(' and ')}). ` +
      `Install the platform package \`${platformPackage()}\` beside fsnative, or reinstall fsnative ` +
      'with a Rust toolchain on PATH so that it builds the addon from the sources it carries.',
  );
}

module.exports = load();
