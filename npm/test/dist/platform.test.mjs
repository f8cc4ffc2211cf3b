// The platform package the loader and the install script look for, for each platform, CPU and
// C library that `make dist-all` builds a package for, and the musl detection, all without
// spawning anything (lib/platform.js reads /usr/bin/ldd or the process report).

import assert from 'node:assert/strict';
import { test } from 'node:test';

import platformModule from '../../lib/platform.js';

const { isMusl, platformPackage } = platformModule;

test('each Linux platform package is named by CPU and C library', () => {
  const cases = [
    [{ platform: 'linux', arch: 'x64', musl: false }, 'fsnative-linux-x64-gnu'],
    [{ platform: 'linux', arch: 'x64', musl: true }, 'fsnative-linux-x64-musl'],
    [{ platform: 'linux', arch: 'arm64', musl: false }, 'fsnative-linux-arm64-gnu'],
    [{ platform: 'linux', arch: 'arm64', musl: true }, 'fsnative-linux-arm64-musl'],
  ];
  for (const [machine, name] of cases) assert.equal(platformPackage(machine), name, JSON.stringify(machine));
});

test('outside Linux the name has no C library part', () => {
  assert.equal(platformPackage({ platform: 'darwin', arch: 'arm64' }), 'fsnative-darwin-arm64');
  assert.equal(platformPackage({ platform: 'win32', arch: 'x64', musl: true }), 'fsnative-win32-x64');
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
