// The release tarballs `make dist` writes, for tests that install them the way a user would.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const PACKAGE_DIR = path.join(import.meta.dirname, '..', '..');
const REPO = path.join(PACKAGE_DIR, '..');
const { version } = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));

/**
 * The environment additions of the tests that build the addon from the packed Rust sources
 * (packaging/source-build-env.json says why: an unoptimised release build).
 */
export const SOURCE_BUILD_ENV = JSON.parse(fs.readFileSync(path.join(REPO, 'packaging', 'source-build-env.json'), 'utf8')).env;

/** The platform package this machine installs (lib/platform.js decides it). */
export const { platformPackage } = (await import('../../lib/platform.js')).default;

/**
 * A clean copy of the dist directory (env FSNATIVE_DIST, default <repo>/dist) in a new temp
 * dir with no repository beside it: `{ root, main, platform, server }`, the tarballs' paths in
 * it (`server`: fsnative-mcp-filesystem's). Throws when `make dist` has not made them.
 */
export function copyDist() {
  const source = process.env.FSNATIVE_DIST ?? path.join(REPO, 'dist');
  const names = {
    main: `fsnative-${version}.tgz`,
    platform: `${platformPackage()}-${version}.tgz`,
    server: `fsnative-mcp-filesystem-${version}.tgz`,
  };
  for (const name of Object.values(names)) {
    if (!fs.existsSync(path.join(source, name))) {
      throw new Error(`${path.join(source, name)} is missing: run \`make dist\` first`);
    }
  }
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-dist-')));
  fs.cpSync(source, path.join(root, 'dist'), { recursive: true });
  return { root, ...Object.fromEntries(Object.entries(names).map(([key, name]) => [key, path.join(root, 'dist', name)])) };
}

/** A new npm project `name` in `root`: its directory. */
export function makeProject(root, name, extra = {}) {
  const dir = path.join(root, name);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name, version: '1.0.0', private: true, ...extra }, null, 2));
  return dir;
}

/**
 * `npm install` in `dir` from the local registry cache only, with install scripts in the
 * foreground so their output is in the result: `{ status, output }`.
 */
export function npmInstall(dir, specs, env = process.env) {
  const run = spawnSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--foreground-scripts', ...specs], {
    cwd: dir,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** `env` with no cargo: every PATH entry holding a `cargo` program left out, and `CARGO` unset. */
export function withoutCargo(env = process.env) {
  const entries = (env.PATH ?? '').split(path.delimiter).filter((dir) => dir && !fs.existsSync(path.join(dir, 'cargo')));
  const { CARGO, ...rest } = env;
  return { ...rest, PATH: entries.join(path.delimiter) };
}
