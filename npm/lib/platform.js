'use strict';
// The name of the platform package whose prebuilt addon fits this machine, napi-rs style:
// `fsnative-<platform>-<arch>[-<abi>]`, e.g. `fsnative-linux-x64-gnu`.

const fs = require('node:fs');

/** The C library ABI suffix: `gnu` or `musl` on Linux, none elsewhere. */
function abi() {
  if (process.platform !== 'linux') return '';
  return isMusl() ? '-musl' : '-gnu';
}

/**
 * Whether the C library is musl: musl's `ldd` is a script that names it (one small read);
 * without `ldd`, the process report says whether glibc is loaded (about 5 ms, so second).
 */
function isMusl() {
  try {
    return fs.readFileSync('/usr/bin/ldd', 'latin1').includes('musl');
  } catch {
    return !process.report?.getReport?.().header?.glibcVersionRuntime;
  }
}

/** The platform package for this machine. */
function platformPackage() {
  return `fsnative-${process.platform}-${process.arch}${abi()}`;
}

module.exports = { platformPackage };
