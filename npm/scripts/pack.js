'use strict';
// Makes the npm release tarballs (the root Makefile's `dist` target calls it through dist.sh):
//   node npm/scripts/pack.js --addon LIB --rust-sources DIR --stage DIR --out DIR
// - the platform package `fsnative-<platform>-<arch>[-<abi>]` for this machine, carrying the
//   prebuilt addon LIB, with `os`, `cpu` and `libc` fields so npm installs it only where it fits;
// - the main package `fsnative`, which lists that package in `optionalDependencies` and carries
//   the Rust sources in DIR (as rust/) for a source build where no platform package fits.
// Not part of the published package.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { platformPackage } = require('../lib/platform');

const PACKAGE_DIR = path.join(__dirname, '..');

function main() {
  const { values } = parseArgs({
    options: {
      addon: { type: 'string' },
      'rust-sources': { type: 'string' },
      stage: { type: 'string' },
      out: { type: 'string' },
    },
  });
  for (const name of ['addon', 'rust-sources', 'stage', 'out']) {
    if (!values[name]) throw new Error(`--${name} is required`);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
  const platformDir = path.join(values.stage, 'npm-platform');
  const mainDir = path.join(values.stage, 'npm-main');
  for (const dir of [platformDir, mainDir]) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  }
  const platform = stagePlatformPackage(manifest, values.addon, platformDir);
  stageMainPackage(manifest, platform, values['rust-sources'], mainDir);
  fs.mkdirSync(values.out, { recursive: true });
  for (const dir of [platformDir, mainDir]) {
    execFileSync('npm', ['pack', '--silent', '--pack-destination', path.resolve(values.out)], { cwd: dir, stdio: 'inherit' });
  }
}

/** Writes the platform package into `dir`; returns its name. */
function stagePlatformPackage(manifest, addon, dir) {
  const name = platformPackage();
  const binary = `fsnative.${name.slice('fsnative-'.length)}.node`;
  fs.copyFileSync(addon, path.join(dir, binary));
  const abi = name.endsWith('-gnu') ? 'glibc' : name.endsWith('-musl') ? 'musl' : null;
  writeJson(path.join(dir, 'package.json'), {
    name,
    version: manifest.version,
    description: `The prebuilt native addon of fsnative for ${name.slice('fsnative-'.length)}`,
    license: manifest.license,
    repository: manifest.repository,
    main: binary,
    files: [binary],
    os: [process.platform],
    cpu: [process.arch],
    ...(abi && { libc: [abi] }),
    engines: manifest.engines,
  });
  fs.writeFileSync(
    path.join(dir, 'README.md'),
    `# ${name}\n\nThe prebuilt native addon of [fsnative](https://www.npmjs.com/package/fsnative) for ` +
      `${process.platform} ${process.arch}${abi ? ` (${abi})` : ''}. Install \`fsnative\`, not this package: ` +
      'npm adds it where it fits.\n',
  );
  return name;
}

/** Writes the main package into `dir`: the files `npm pack` would take, the Rust sources, a release manifest. */
function stageMainPackage(manifest, platform, rustSources, dir) {
  for (const entry of [...manifest.files, 'README.md']) {
    fs.cpSync(path.join(PACKAGE_DIR, entry), path.join(dir, entry), { recursive: true });
  }
  fs.cpSync(rustSources, path.join(dir, 'rust'), { recursive: true });
  const { devDependencies, scripts, ...release } = manifest;
  writeJson(path.join(dir, 'package.json'), {
    ...release,
    files: [...manifest.files, 'rust/'],
    scripts: { install: scripts.install },
    optionalDependencies: { [platform]: manifest.version },
  });
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

main();
