'use strict';
// Loads the native addon. In order: `native/fsnative.node` (built from Rust sources by
// scripts/build.js, in a checkout or where no prebuilt package fits), then the platform
// package that carries a prebuilt addon for this machine (`fsnative-linux-x64-gnu`, …), which
// npm installs from the main package's optionalDependencies.

const path = require('node:path');
const { platformPackage } = require('./platform');

const SOURCE_BUILD = path.join(__dirname, '..', 'native', 'fsnative.node');
/** The one command that builds the addon from the Rust sources this package carries. */
const BUILD_COMMAND = `node ${JSON.stringify(path.join(__dirname, '..', 'scripts', 'build.js'))}`;

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
    `fsnative: no native addon for this machine: the platform package ${platformPackage()} is not ` +
      `installed (npm adds it beside fsnative where one is published for this machine), and ${SOURCE_BUILD} ` +
      'has not been built. To build it from the Rust sources fsnative carries (needs cargo, ' +
      `https://rustup.rs), run:\n  ${BUILD_COMMAND}`,
  );
}

module.exports = load();
