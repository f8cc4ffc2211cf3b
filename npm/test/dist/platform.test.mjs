// The platform package the loader and the install script look for, for each platform, CPU and
// C library that `make dist-all` builds a package for, and the musl detection, all without
// spawning anything (lib/platform.js reads /usr/bin/ldd or the process report; on macOS nothing);
// and the package manifests scripts/pack.js writes for them.

import assert from 'node:assert/strict';
import childProcess, { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

import platformModule from '../../lib/platform.js';

const { isMusl, platformPackage } = platformModule;
const PACK = fileURLToPath(new URL('../../scripts/pack.js', import.meta.url));

test('each Linux platform package is named by CPU and C library', () => {
  const cases = [
    [{ platform: 'linux', arch: 'x64', musl: false }, 'fsnative-linux-x64-gnu'],
    [{ platform: 'linux', arch: 'x64', musl: true }, 'fsnative-linux-x64-musl'],
    [{ platform: 'linux', arch: 'arm64', musl: false }, 'fsnative-linux-arm64-gnu'],
    [{ platform: 'linux', arch: 'arm64', musl: true }, 'fsnative-linux-arm64-musl'],
  ];
  for (const [machine, name] of cases) assert.equal(platformPackage(machine), name, JSON.stringify(machine));
});

test('outside Linux the name has no C library part; on Windows it names the MinGW build', () => {
  assert.equal(platformPackage({ platform: 'darwin', arch: 'arm64' }), 'fsnative-darwin-arm64');
  assert.equal(platformPackage({ platform: 'win32', arch: 'x64', musl: true }), 'fsnative-win32-x64-gnu');
  assert.equal(platformPackage({ platform: 'win32', arch: 'arm64' }), 'fsnative-win32-arm64-gnu');
});

test("musl is told by the ldd script's text", () => {
  const noReport = () => assert.fail('the process report is the fallback only');
  const muslLdd = '#!/bin/sh\nexec /lib/ld-musl-x86_64.so.1 --list -- "$@"\n';
  const glibcLdd = '#!/bin/bash\n# This file is part of the GNU C Library.\nTEXTDOMAIN=libc\nRTLDLIST="/lib64/ld-linux-x86-64.so.2"\n';
  assert.equal(
    isMusl(() => muslLdd, noReport),
    true,
  );
  assert.equal(
    isMusl(() => glibcLdd, noReport),
    false,
  );
});

test('without ldd, the process report tells: glibc when it names a glibc version', () => {
  const missing = () => {
    throw Object.assign(new Error('ENOENT: no such file or directory'), { code: 'ENOENT' });
  };
  assert.equal(
    isMusl(missing, () => ({ header: { glibcVersionRuntime: '2.36' } })),
    false,
  );
  assert.equal(
    isMusl(missing, () => ({ header: {} })),
    true,
  );
  assert.equal(
    isMusl(missing, () => undefined),
    true,
  );
});

test("this machine's package follows its own C library", () => {
  const musl = isMusl();
  assert.equal(platformPackage(), platformPackage({ platform: process.platform, arch: process.arch, musl }));
});

test('each macOS platform package is named by CPU alone, as make dist-all packs it', () => {
  assert.equal(platformPackage({ platform: 'darwin', arch: 'arm64' }), 'fsnative-darwin-arm64');
  assert.equal(platformPackage({ platform: 'darwin', arch: 'x64' }), 'fsnative-darwin-x64');
});

/**
 * Calls platformPackage() as lib/native.js does (no argument) with `process.platform` set to
 * `platform` and `process.arch` to each of `arches`; every way to start a process, read a file
 * or take the process report fails the test if called. Returns the names given.
 */
function namesWithoutSpawning(t, platform, arches) {
  const forbidden = (name) => () => assert.fail(`${name} was called`);
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
    t.mock.method(childProcess, name, forbidden(`child_process.${name}`));
  }
  t.mock.method(fs, 'readFileSync', forbidden('fs.readFileSync'));
  t.mock.method(process.report, 'getReport', forbidden('process.report.getReport'));
  const real = { platform: process.platform, arch: process.arch };
  try {
    return arches.map((arch) => {
      Object.defineProperty(process, 'platform', { value: platform, configurable: true });
      Object.defineProperty(process, 'arch', { value: arch, configurable: true });
      return platformPackage();
    });
  } finally {
    Object.defineProperty(process, 'platform', { value: real.platform, configurable: true });
    Object.defineProperty(process, 'arch', { value: real.arch, configurable: true });
  }
}

test('on a Mac the loader names its package without spawning or reading anything', (t) => {
  assert.deepEqual(namesWithoutSpawning(t, 'darwin', ['arm64', 'x64']), ['fsnative-darwin-arm64', 'fsnative-darwin-x64']);
});

test('on Windows the loader names the MinGW package without spawning or reading anything', (t) => {
  assert.deepEqual(namesWithoutSpawning(t, 'win32', ['x64', 'arm64']), ['fsnative-win32-x64-gnu', 'fsnative-win32-arm64-gnu']);
});

test('pack.js gives each platform package its os, cpu and (on Linux) libc, and the main package lists them all', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-pack-'));
  try {
    const rust = path.join(dir, 'rust');
    fs.mkdirSync(rust);
    fs.writeFileSync(path.join(rust, 'Cargo.toml'), '[workspace]\n');
    const addons = ['darwin-arm64', 'darwin-x64', 'linux-arm64-musl', 'win32-x64-gnu'].flatMap((platform) => {
      fs.writeFileSync(path.join(dir, `${platform}.node`), platform);
      return ['--addon', `${platform}=${path.join(dir, `${platform}.node`)}`];
    });
    const stage = path.join(dir, 'stage');
    execFileSync(process.execPath, [PACK, ...addons, '--rust-sources', rust, '--stage', stage, '--out', path.join(dir, 'out')], { stdio: 'pipe' });
    const manifest = (name) => JSON.parse(fs.readFileSync(path.join(stage, name, 'package.json'), 'utf8'));
    const { version } = manifest('npm-main');
    assert.deepEqual(manifest('npm-main').optionalDependencies, {
      'fsnative-darwin-arm64': version,
      'fsnative-darwin-x64': version,
      'fsnative-linux-arm64-musl': version,
      'fsnative-win32-x64-gnu': version,
    });
    // Checked field by field: the packages may carry more files (licenses) and pack.js more
    // packages than these.
    for (const [platform, system, cpu] of [
      ['darwin-arm64', 'darwin', 'arm64'],
      ['darwin-x64', 'darwin', 'x64'],
      ['win32-x64-gnu', 'win32', 'x64'],
    ]) {
      const { name, main, files, os: systems, cpu: cpus, libc } = manifest(`npm-fsnative-${platform}`);
      assert.deepEqual(
        { name, main, systems, cpus, libc },
        {
          name: `fsnative-${platform}`,
          main: `fsnative.${platform}.node`,
          systems: [system],
          cpus: [cpu],
          libc: undefined,
        },
      );
      assert.ok(files.includes(main), `${name}: files ${files} lack ${main}`);
    }
    assert.deepEqual(manifest('npm-fsnative-linux-arm64-musl').libc, ['musl']);
    const packed = fs.readdirSync(path.join(dir, 'out'));
    for (const name of ['fsnative', 'fsnative-darwin-arm64', 'fsnative-darwin-x64', 'fsnative-linux-arm64-musl', 'fsnative-win32-x64-gnu']) {
      assert.ok(packed.includes(`${name}-${version}.tgz`), `${name}-${version}.tgz not in ${packed}`);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
