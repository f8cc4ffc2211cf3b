'use strict';
// The package's `install` script: builds the addon from this checkout's Rust sources with
// the local cargo (release, --locked) and copies it to native/fsnative.node, where
// lib/native.js loads it. Nothing is downloaded except crates that Cargo.lock pins.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const PACKAGE_DIR = path.join(__dirname, '..');
const MANIFEST = path.join(PACKAGE_DIR, '..', 'Cargo.toml');
const ADDON = path.join(PACKAGE_DIR, 'native', 'fsnative.node');
const CRATE = 'fsnative-node';
const LIBRARY_TARGET = 'fsnative_node';

function main() {
  if (!fs.existsSync(MANIFEST)) {
    fail(`${MANIFEST} not found: the addon is built from a checkout of the fsnative repository, so install the package from its npm/ directory there.`);
  }
  const cargo = process.env.CARGO || 'cargo';
  const args = ['build', '--release', '--locked', '-p', CRATE, '--manifest-path', MANIFEST, '--message-format=json-render-diagnostics'];
  const build = spawnSync(cargo, args, { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (build.error) {
    fail(`could not run ${cargo} (${build.error.message}); a Rust toolchain is needed to build the addon.`);
  }
  if (build.status !== 0) {
    fail(`\`${cargo} ${args.join(' ')}\` failed with exit code ${build.status}.`);
  }
  const built = builtLibrary(build.stdout);
  fs.mkdirSync(path.dirname(ADDON), { recursive: true });
  // Copy then rename, so a process that has the previous addon loaded keeps a whole file.
  const staging = `${ADDON}.${process.pid}.tmp`;
  fs.copyFileSync(built, staging);
  fs.renameSync(staging, ADDON);
  console.log(`fsnative: built ${path.relative(PACKAGE_DIR, ADDON)} from ${built}`);
}

/** The shared library cargo reports having built for the crate. */
function builtLibrary(messages) {
  for (const line of messages.split('\n')) {
    if (!line.startsWith('{')) continue;
    const message = JSON.parse(line);
    if (message.reason === 'compiler-artifact' && message.target.name === LIBRARY_TARGET) {
      const library = message.filenames.find((file) => /\.(so|dylib)$/.test(file));
      if (library) return library;
    }
  }
  fail('cargo did not report the built fsnative-node library.');
}

function fail(message) {
  console.error(`fsnative: ${message}`);
  process.exit(1);
}

main();
