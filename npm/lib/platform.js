'use strict';
// The name of the platform package whose prebuilt addon fits a machine, napi-rs style:
// `fsnative-<platform>-<arch>[-<abi>]`, e.g. `fsnative-linux-x64-gnu`, `fsnative-linux-arm64-musl`,
// `fsnative-darwin-arm64` or `fsnative-win32-x64-gnu` (on Windows the addon is built with MinGW,
// whose C runtime it links statically: `gnu` names the toolchain, as in napi-rs's own names).

const fs = require('node:fs');

/**
 * Whether this machine's C library is musl, without spawning anything: musl's `ldd` is a script
 * that names it (one small read); without `ldd`, the process report says whether glibc is
 * loaded (about 5 ms, so second). Both sources can be replaced (the tests do).
 */
function isMusl(readLdd = () => fs.readFileSync('/usr/bin/ldd', 'latin1'), report = () => process.report?.getReport?.()) {
  try {
    return readLdd().includes('musl');
  } catch {
    return !report()?.header?.glibcVersionRuntime;
  }
}

/**
 * The platform package for `platform` (Node's `process.platform`), `arch` (`process.arch`) and,
 * on Linux, the C library (`musl` true or false); this machine's when called with no argument.
 * Only Linux reads anything (the C library); elsewhere the name follows from the two strings.
 */
function platformPackage({ platform = process.platform, arch = process.arch, musl } = {}) {
  if (platform === 'win32') return `fsnative-${platform}-${arch}-gnu`;
  if (platform !== 'linux') return `fsnative-${platform}-${arch}`;
  return `fsnative-${platform}-${arch}-${(musl ?? isMusl()) ? 'musl' : 'gnu'}`;
}

module.exports = { isMusl, platformPackage };
