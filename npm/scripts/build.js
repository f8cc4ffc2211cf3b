'use strict';
// Builds the native addon from Rust sources, for a machine no platform package fits (the
// loader's error names this command) and in a checkout (npm/dev.sh runs it):
//   node <package>/scripts/build.js
// It builds with the local cargo (release, --locked) from the sources the published package
// carries in rust/ or, in a checkout, from the workspace above npm/, and copies the addon to
// native/fsnative.node, where lib/native.js looks first. Nothing is downloaded except the
// crates Cargo.lock pins. The package has no install script: npm 12 runs none by default.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const PACKAGE_DIR = path.join(__dirname, '..');
const PACKAGED_SOURCES = path.join(PACKAGE_DIR, 'rust');
const CHECKOUT_SOURCES = path.join(PACKAGE_DIR, '..');
const ADDON = path.join(PACKAGE_DIR, 'native', 'fsnative.node');
const CRATE = 'fsnative-node';
const LIBRARY_TARGET = 'fsnative_node';

function main() {
  const sources = [PACKAGED_SOURCES, CHECKOUT_SOURCES].find((dir) => fs.existsSync(path.join(dir, 'Cargo.toml')));
  if (!sources) fail(`no Rust sources to build the addon from (looked in ${PACKAGED_SOURCES} and ${CHECKOUT_SOURCES}).`);
  say(`building the addon from the Rust sources in ${sources} (a cold release build takes minutes)`);
  // A build of the published package's sources keeps its target directory only while building.
  const ownTarget = sources === PACKAGED_SOURCES && !process.env.CARGO_TARGET_DIR ? path.join(sources, 'target') : null;
  const built = build(sources, ownTarget);
  fs.mkdirSync(path.dirname(ADDON), { recursive: true });
  // Copy then rename, so a process that has the previous addon loaded keeps a whole file.
  const staging = `${ADDON}.${process.pid}.tmp`;
  fs.copyFileSync(built, staging);
  fs.renameSync(staging, ADDON);
  if (ownTarget) fs.rmSync(ownTarget, { recursive: true, force: true });
  say(`built ${ADDON}`);
}

/** Runs cargo on the workspace in `sources`; returns the path of the library it built. */
function build(sources, targetDir) {
  const cargo = process.env.CARGO || 'cargo';
  const args = ['build', '--release', '--locked', '-p', CRATE, '--manifest-path', path.join(sources, 'Cargo.toml'), '--message-format=json-render-diagnostics'];
  const env = targetDir ? { ...process.env, CARGO_TARGET_DIR: targetDir } : process.env;
  const run = spawnSync(cargo, args, { stdio: ['ignore', 'pipe', 'inherit'], env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.error) fail(`could not run ${cargo} (${run.error.message}): building the addon needs a Rust toolchain (https://rustup.rs).`);
  if (run.status !== 0) fail(`\`${cargo} ${args.join(' ')}\` failed with exit code ${run.status}.`);
  return builtLibrary(run.stdout);
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

function say(line) {
  process.stderr.write(`fsnative: ${line}\n`);
}

function fail(message) {
  say(message);
  process.exit(1);
}

main();
