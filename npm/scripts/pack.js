'use strict';
// Makes the npm release tarballs (the root Makefile's `dist` and `dist-all` targets call it
// through packaging/dist.sh and packaging/dist-all.sh):
//   node npm/scripts/pack.js --addon [PLATFORM=]LIB ... --rust-sources DIR --stage DIR --out DIR
// - for each --addon, the platform package `fsnative-<platform>-<arch>[-<abi>]` carrying the
//   prebuilt addon LIB, with `os`, `cpu` and `libc` fields so npm installs it only where it fits.
//   PLATFORM is `<platform>-<arch>[-gnu|-musl]` as Node names them (`linux-arm64-musl`,
//   `win32-x64-gnu`: on Windows `-gnu` names MinGW, the toolchain, and is required); a bare
//   LIB is this machine's addon;
// - the main package `fsnative`, which lists every platform package in `optionalDependencies`
//   and carries the Rust sources in DIR (as rust/) for scripts/build.js where none fits;
// - `fsnative-mcp-filesystem`, the bin that runs the official MCP filesystem server on fsnative,
//   depending on fsnative and on the server, so that `npx -y fsnative-mcp-filesystem DIR` needs
//   nothing installed.
// Each carries the repository's LICENSE-MIT and LICENSE-APACHE.
// Not part of the published package.

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { parseArgs } = require('node:util');
const { platformPackage } = require('../lib/platform');

const PACKAGE_DIR = path.join(__dirname, '..');
const LICENSES = ['LICENSE-MIT', 'LICENSE-APACHE'];
const SERVER_BIN = 'bin/fsnative-mcp-filesystem.js';

function main() {
  const { values } = parseArgs({
    options: {
      addon: { type: 'string', multiple: true },
      'rust-sources': { type: 'string' },
      stage: { type: 'string' },
      out: { type: 'string' },
    },
  });
  for (const name of ['addon', 'rust-sources', 'stage', 'out']) {
    if (!values[name]) throw new Error(`--${name} is required`);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
  const addons = values.addon.map(parseAddon);
  const platformDirs = addons.map(({ machine }) => path.join(values.stage, `npm-${platformPackage(machine)}`));
  const mainDir = path.join(values.stage, 'npm-main');
  const serverDir = path.join(values.stage, 'npm-mcp-filesystem');
  const packageDirs = [...platformDirs, mainDir, serverDir];
  for (const dir of packageDirs) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(dir, { recursive: true });
  }
  const platforms = addons.map(({ machine, file }, i) => stagePlatformPackage(manifest, machine, file, platformDirs[i]));
  stageMainPackage(manifest, platforms, values['rust-sources'], mainDir);
  stageServerPackage(manifest, serverDir);
  for (const dir of packageDirs) {
    for (const license of LICENSES) fs.copyFileSync(path.join(PACKAGE_DIR, '..', license), path.join(dir, license));
  }
  fs.mkdirSync(values.out, { recursive: true });
  for (const dir of packageDirs) {
    execFileSync('npm', ['pack', '--silent', '--pack-destination', path.resolve(values.out)], { cwd: dir, stdio: 'inherit' });
  }
}

/**
 * One --addon value, `[PLATFORM=]LIB`: `{ machine, file }`, where `machine` is what
 * lib/platform.js names a package by (this machine's without PLATFORM).
 */
function parseAddon(value) {
  const split = value.indexOf('=');
  if (split < 0) return { machine: { platform: process.platform, arch: process.arch }, file: value };
  const [platform, arch, abi, ...rest] = value.slice(0, split).split('-');
  const abis = { linux: ['gnu', 'musl'], win32: ['gnu'] }[platform];
  if (!platform || !arch || rest.length > 0 || (abis ? !abis.includes(abi) : abi !== undefined)) {
    throw new Error(
      `--addon ${value}: the platform is <platform>-<arch>, with -gnu or -musl on linux, -gnu on win32 and nothing else elsewhere (e.g. linux-arm64-musl, win32-x64-gnu)`,
    );
  }
  return { machine: { platform, arch, musl: abi === 'musl' }, file: value.slice(split + 1) };
}

/** Writes the platform package for `machine` into `dir`; returns its name. */
function stagePlatformPackage(manifest, machine, addon, dir) {
  const name = platformPackage(machine);
  const binary = `fsnative.${name.slice('fsnative-'.length)}.node`;
  fs.copyFileSync(addon, path.join(dir, binary));
  const abi = machine.platform !== 'linux' ? null : machine.musl ? 'musl' : 'glibc';
  writeJson(path.join(dir, 'package.json'), {
    name,
    version: manifest.version,
    description: `The prebuilt native addon of fsnative for ${name.slice('fsnative-'.length)}`,
    license: manifest.license,
    repository: manifest.repository,
    main: binary,
    files: [binary, ...LICENSES],
    os: [machine.platform],
    cpu: [machine.arch],
    ...(abi && { libc: [abi] }),
    engines: manifest.engines,
  });
  fs.writeFileSync(
    path.join(dir, 'README.md'),
    `# ${name}\n\nThe prebuilt native addon of [fsnative](https://www.npmjs.com/package/fsnative) for ` +
      `${machine.platform} ${machine.arch}${abi ? ` (${abi})` : ''}. Install \`fsnative\`, not this package: ` +
      'npm adds it where it fits.\n',
  );
  return name;
}

/**
 * Writes the main package into `dir`: the files `npm pack` would take, the Rust sources, a
 * release manifest whose optionalDependencies are the `platforms` packages.
 */
function stageMainPackage(manifest, platforms, rustSources, dir) {
  for (const entry of [...manifest.files, 'README.md']) {
    fs.cpSync(path.join(PACKAGE_DIR, entry), path.join(dir, entry), { recursive: true });
  }
  fs.cpSync(rustSources, path.join(dir, 'rust'), { recursive: true });
  const { devDependencies, scripts, ...release } = manifest;
  writeJson(path.join(dir, 'package.json'), {
    ...release,
    files: [...manifest.files, 'rust/', ...LICENSES],
    optionalDependencies: Object.fromEntries(platforms.map((name) => [name, manifest.version])),
  });
}

/**
 * Writes `fsnative-mcp-filesystem` into `dir`: the bin, and a manifest that depends on this
 * fsnative and on the server version it is tested with (the devDependency's pin).
 */
function stageServerPackage(manifest, dir) {
  const name = 'fsnative-mcp-filesystem';
  const server = '@modelcontextprotocol/server-filesystem';
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.copyFileSync(path.join(PACKAGE_DIR, SERVER_BIN), path.join(dir, SERVER_BIN));
  writeJson(path.join(dir, 'package.json'), {
    name,
    version: manifest.version,
    description: `The official MCP filesystem server (${server}) on fsnative's native path check and search`,
    license: manifest.license,
    repository: manifest.repository,
    bin: { [name]: SERVER_BIN },
    files: [SERVER_BIN, ...LICENSES],
    engines: manifest.engines,
    dependencies: { fsnative: manifest.version, [server]: manifest.devDependencies[server] },
  });
  fs.writeFileSync(
    path.join(dir, 'README.md'),
    `# ${name}\n\nThe official MCP filesystem server, [${server}](https://www.npmjs.com/package/${server}) ` +
      `${manifest.devDependencies[server]}, run unchanged on [fsnative](https://www.npmjs.com/package/fsnative)'s ` +
      "path check and `search_files`. In an MCP client's configuration:\n\n" +
      `\`\`\`json\n{ "command": "npx", "args": ["-y", "${name}", "/path/to/allowed/dir"] }\n\`\`\`\n\n` +
      'Its flags (`--content-search`, `--gitignore`, `--max-results N`, `--time-budget MS`): `npx -y ' +
      `${name} --help\`.\n`,
  );
}

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

main();
