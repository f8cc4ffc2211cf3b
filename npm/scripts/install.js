'use strict';
// The package's `install` script. Where npm installed the platform package with a prebuilt
// addon for this machine (an optionalDependency of the published package), it does nothing.
// Otherwise it builds the addon with the local cargo (release, --locked) from the Rust sources
// the published package carries in rust/ or, in a checkout, from the workspace above npm/, and
// copies it to native/fsnative.node, where lib/native.js looks first. Nothing is downloaded
// except the crates Cargo.lock pins.
//
// npm hides an install script's output unless it runs with --foreground-scripts, so cargo's
// progress goes to the terminal (/dev/tty) when there is one: a cold build takes a minute or
// two and should not look like a hang.

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { platformPackage } = require('../lib/platform');

const PACKAGE_DIR = path.join(__dirname, '..');
const PACKAGED_SOURCES = path.join(PACKAGE_DIR, 'rust');
const CHECKOUT_SOURCES = path.join(PACKAGE_DIR, '..');
const ADDON = path.join(PACKAGE_DIR, 'native', 'fsnative.node');
const CRATE = 'fsnative-node';
const LIBRARY_TARGET = 'fsnative_node';

function main() {
  if (prebuiltInstalled()) return;
  const sources = [PACKAGED_SOURCES, CHECKOUT_SOURCES].find((dir) => fs.existsSync(path.join(dir, 'Cargo.toml')));
  if (!sources) {
    fail(`no prebuilt addon for this machine (${platformPackage()} is not installed) and no Rust sources to build one from.`);
  }
  const progress = progressStream();
  const say = (line) => fs.writeSync(progress === 'inherit' ? 2 : progress, `fsnative: ${line}\n`);
  if (sources === PACKAGED_SOURCES) {
    say(`no prebuilt addon for this machine (${platformPackage()}); building it from the Rust sources in ${sources} (a cold release build takes a minute or two on 2 cores)`);
  }
  // A source build of the published package keeps its target directory only while building.
  const ownTarget = sources === PACKAGED_SOURCES && !process.env.CARGO_TARGET_DIR ? path.join(sources, 'target') : null;
  const built = build(sources, progress, ownTarget);
  fs.mkdirSync(path.dirname(ADDON), { recursive: true });
  // Copy then rename, so a process that has the previous addon loaded keeps a whole file.
  const staging = `${ADDON}.${process.pid}.tmp`;
  fs.copyFileSync(built, staging);
  fs.renameSync(staging, ADDON);
  if (ownTarget) fs.rmSync(ownTarget, { recursive: true, force: true });
  say(`built ${path.relative(PACKAGE_DIR, ADDON)}`);
}

/** Whether npm installed the platform package that fits this machine. */
function prebuiltInstalled() {
  try {
    require.resolve(`${platformPackage()}/package.json`, { paths: [PACKAGE_DIR] });
    return true;
  } catch {
    return false;
  }
}

/** Runs cargo on the workspace in `sources`; returns the path of the library it built. */
function build(sources, progress, targetDir) {
  const cargo = process.env.CARGO || 'cargo';
  const args = ['build', '--release', '--locked', '-p', CRATE, '--manifest-path', path.join(sources, 'Cargo.toml'), '--message-format=json-render-diagnostics'];
  const env = targetDir ? { ...process.env, CARGO_TARGET_DIR: targetDir } : process.env;
  const run = spawnSync(cargo, args, { stdio: ['ignore', 'pipe', progress], env, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (run.error) {
    fail(`could not run ${cargo} (${run.error.message}): building the addon from source needs a Rust toolchain (https://rustup.rs), or install the prebuilt ${platformPackage()} package.`);
  }
  if (run.status !== 0) {
    fail(`\`${cargo} ${args.join(' ')}\` failed with exit code ${run.status}.`);
  }
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

/**
 * Where cargo's progress goes: stderr when someone sees it (a terminal, or npm's
 * --foreground-scripts), else the terminal npm runs in, if there is one.
 */
function progressStream() {
  if (process.stderr.isTTY || process.env.npm_config_foreground_scripts === 'true') return 'inherit';
  try {
    return fs.openSync('/dev/tty', 'w');
  } catch {
    return 'inherit';
  }
}

function fail(message) {
  console.error(`fsnative: ${message}`);
  process.exit(1);
}

main();
