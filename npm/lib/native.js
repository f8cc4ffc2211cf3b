'use strict';
// Loads the native addon. In order: `native/fsnative.node` (built from Rust sources by
// scripts/install.js, in a checkout or where no prebuilt package fits), then the platform
// package that carries a prebuilt addon for this machine (`fsnative-linux-x64-gnu`, …), which
// npm installs from the main package's optionalDependencies.

const path = require('node:path');
const { platformPackage } = require('./platform');

const SOURCE_BUILD = path.join(__dirname, '..', 'native', 'fsnative.node');

function load() {
  // The platform package's name is worked out only when no source build is there.
  for (const candidate of [() => SOURCE_BUILD, platformPackage]) {
    const name = candidate();
    try {
      return require(name);
    } catch (err) {
      if (err?.code !== 'MODULE_NOT_FOUND' || !String(err.message).includes(name)) throw err;
    }
  }
  throw new Error(
    `fsnative: no native addon for this machine (tried ${SOURCE_BUILD} and ${platformPackage()}). ` +
      `Install the platform package \`${platformPackage()}\` beside fsnative, or reinstall fsnative ` +
      'with a Rust toolchain on PATH so that it builds the addon from the sources it carries.',
  );
}

module.exports = load();
