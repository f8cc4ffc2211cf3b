'use strict';
// The name of the platform package whose prebuilt addon fits this machine, napi-rs style:
// `fsnative-<platform>-<arch>[-<abi>]`, e.g. `fsnative-linux-x64-gnu`.

/** The C library ABI suffix: `gnu` or `musl` on Linux, none elsewhere. */
function abi() {
  if (process.platform !== 'linux') return '';
  const header = process.report?.getReport?.().header;
  return header?.glibcVersionRuntime ? '-gnu' : '-musl';
}

/** The platform package for this machine. */
function platformPackage() {
  return `fsnative-${process.platform}-${process.arch}${abi()}`;
}

module.exports = { platformPackage };
