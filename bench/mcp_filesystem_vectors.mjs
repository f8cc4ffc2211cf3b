// Generates tests/vectors/path_check.json: the official MCP filesystem server's
// isPathWithinAllowedDirectories (its dist/path-validation.js) on each case below, the CVE
// classes of its path check (CVE-2025-53110's prefix siblings among them) and the textual
// sandbox attacks; and tests/vectors/search_files.json: the official MCP filesystem server's search_files
// (searchFilesWithValidation of @modelcontextprotocol/server-filesystem, installed in npm/ as a
// devDependency) run on a messy tree for every pattern and exclude set below; its answers,
// put in fsnative's walk order, are the expected results of the core's glob with minimatch
// syntax. Run: `node bench/mcp_filesystem_vectors.mjs` (after `cd npm && npm ci`).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(path.join(repo, 'npm', 'package.json'));
const serverDir = path.dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json'));
const lib = await import(pathToFileURL(path.join(serverDir, 'dist', 'lib.js')).href);
const check = await import(pathToFileURL(path.join(serverDir, 'dist', 'path-validation.js')).href);

/** [path, allowed directories]: the server's check decides each. */
export const pathCases = [
  // Prefix siblings (CVE-2025-53110) and the root itself, spelled several ways.
  ...[
    '/allowed_evil',
    '/allowed2',
    '/allowed.bak',
    '/allowed-old',
    '/allowed (copy)',
    '/allowedx/y',
    '/allowed',
    '/allowed/',
    '/allowed//',
    '/allowed/.',
    '/allowed/sub',
    '/allowed//sub//x/',
    '/ALLOWED/x',
  ].map((p) => [p, ['/allowed']]),
  ['/allowed/x', ['/allowed/']],
  ['/allowed/x', ['/allowed//']],
  ['/allowed_evil', ['/allowed/']],
  ['/home/user/project2/x', ['/home/user/project']],
  ['/home/user/project/x', ['/home/user/project/../project']],
  // Dot-dot that leaves, and dot-dot that stays.
  ['/allowed/../other/x', ['/allowed']],
  ['/allowed/a/../../other', ['/allowed']],
  ['/allowed/a/../b', ['/allowed']],
  ['/allowed/../allowed/x', ['/allowed']],
  ['/allowed/../../../../etc/passwd', ['/allowed']],
  // Names that only contain dots, and no decoding.
  ['/allowed/..test', ['/allowed']],
  ['/allowed/te..st', ['/allowed']],
  ['/allowed/...', ['/allowed']],
  ['/allowed/%2e%2e/x', ['/allowed']],
  ['/allowed/..%2f..%2fetc', ['/allowed']],
  ['/allowed/...x/..', ['/allowed']],
  // Absolute paths outside.
  ['/', ['/allowed']],
  ['/etc/passwd', ['/allowed']],
  ['/home/other/.ssh/id_rsa', ['/home/user']],
  // The filesystem root as an allowed directory.
  ['/', ['/']],
  ['/etc/passwd', ['/']],
  ['/a/../..', ['/']],
  // Several allowed directories.
  ['/b/x', ['/a', '/b']],
  ['/c/x', ['/a', '/b']],
  ['/a', ['/a/b']],
  ['/a/b/c', ['/a/b', '/a']],
  // NUL bytes and empty strings.
  ['/allowed/x\u0000y', ['/allowed']],
  ['/allowed/x', ['/allow\u0000ed']],
  ['', ['/allowed']],
  ['/allowed/x', ['']],
  ['/allowed/x', []],
  ['/allowed/x', ['', '/allowed']],
  // Relative paths are taken from the working directory: under `/` they are always inside.
  ['a/b', ['/']],
  ['../../x', ['/']],
  ['.', ['/']],
  ['a/b', ['/nonexistent-fsnative-root']],
  // Characters a shell or URL would treat specially stay literal.
  ['/allowed/~/x', ['/allowed']],
  ['/allowed/x y/z', ['/allowed']],
  ['/allowed/ü/x', ['/allowed']],
  ['/allowedü', ['/allowed']],
  ['/allowed\\x', ['/allowed']],
  ['/allowed\n/x', ['/allowed']],
];

/** The tree, in the shared vectors' format. */
export const tree = {
  'root/a.py': 'a\n',
  'root/.env': 'X=1\n',
  'root/.gitignore': '*.log\nbuild/\n',
  'root/.git/HEAD': 'ref: refs/heads/main\n',
  'root/.hidden/x.py': 'x\n',
  'root/x.log': 'log\n',
  'root/build/out.js': 'o\n',
  'root/src/main.py': 'm\n',
  'root/src/util/helper.js': 'h\n',
  'root/src/util/.cache/c.py': 'c\n',
  'root/src/node_modules/lib/deep.py': 'd\n',
  'root/node_modules/pkg/index.js': 'i\n',
  'root/node_modules/pkg/node_modules/inner/i.py': 'i\n',
  'root/pkg/a/node_modules/x/y.py': 'y\n',
  'root/with space/file name.txt': 's\n',
  'root/ünïcødé/日本.py': 'u\n',
  'root/br[ack]et.py': 'b\n',
  'root/cur{ly}.js': 'c\n',
  'root/q?mark.txt': 'q\n',
  'root/a(b)c.md': 'p\n',
  'root/empty': { dir: true },
  'root/link_dir': { symlink: 'src' },
  'root/link_file': { symlink: 'a.py' },
  'root/src/link_up': { symlink: '../pkg' },
  'root/link_out': { symlink: '../outside' },
  'root/link_out_file.py': { symlink: '../outside/secret.py' },
  'root/dangling.py': { symlink: 'missing.py' },
  'root/dangling_out.py': { symlink: '../outside/missing.py' },
  'root/loop': { symlink: 'loop' },
  'outside/secret.py': 'SECRET\n',
  'outside/inner/o.py': 'o\n',
};

export const patterns = [
  '**/*.py',
  '*.py',
  '**/*.js',
  '*',
  '**',
  '**/*',
  'src/**',
  'src/*',
  'src/**/*.py',
  '**/node_modules/**',
  'node_modules',
  '**/node_modules',
  '**/.*',
  '.*',
  '**/*.{py,js}',
  '{src,pkg}/**',
  '**/[a-c]*',
  '**/[!a-c]*',
  '**/?.py',
  '**/*[[]*',
  '**/cur{ly}*',
  '**/*\\{ly\\}*',
  '**/q\\?mark.txt',
  '**/q?mark.txt',
  '**/with space/*',
  '**/ünïcødé/**',
  '**/日本.py',
  '**/@(main|helper).*',
  '**/+(a).py',
  '**/!(a).py',
  '**/*(x).py',
  '**/?(a).py',
  '!**/*.py',
  '#comment',
  '',
  'a.py',
  'link_*',
  '**/link_*',
  'src/../a.py',
  '**/.git/**',
  'br[ack]et.py',
  'br\\[ack\\]et.py',
  '**/a(b)c.md',
  '**/{01..3}*',
  '**/[[:alpha:]]*.py',
  'src//*.py',
  '**/**/*.py',
  '*/*/*',
  // Walk escapes: no pattern leads the walk out of the root.
  '../*',
  '**/../..',
  '{a.py,../outside/*}',
  '/etc/*',
  '../outside/**',
  'link_out/**',
];

export const excludeSets = [[], ['node_modules'], ['**/node_modules'], ['**/node_modules/**', '**/.*'], ['src', '**/util', 'with space', '*.log']];

/**
 * The exclude sets the shared vectors use (indexes into excludeSets): fewer than the Node
 * parity test runs, to keep the three runners fast; each vector builds its own tree.
 */
const VECTOR_EXCLUDE_SETS = [0, 3, 4];

function build(dir) {
  const links = [];
  for (const [rel, entry] of Object.entries(tree)) {
    const full = path.join(dir, rel);
    if (typeof entry === 'object' && entry.symlink) {
      links.push([full, entry.symlink]);
      continue;
    }
    if (typeof entry === 'object' && entry.dir) {
      fs.mkdirSync(full, { recursive: true });
      continue;
    }
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, entry);
  }
  for (const [full, target] of links) fs.symlinkSync(target, full);
}

/** Relative paths in fsnative's walk order: each directory's names by their bytes, depth first. */
export function walkOrder(paths) {
  const key = (p) => p.split('/').map((name) => Buffer.from(name));
  return [...paths].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) {
      const c = Buffer.compare(x[i], y[i]);
      if (c !== 0) return c;
    }
    return x.length - y.length;
  });
}

async function main() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcpfs-vectors-')));
  build(dir);
  const root = path.join(dir, 'root');
  lib.setAllowedDirectories([root]);
  const vectors = [];
  for (const [p, pattern] of patterns.entries()) {
    for (const e of VECTOR_EXCLUDE_SETS) {
      const exclude = excludeSets[e];
      const found = await lib.searchFilesWithValidation(root, pattern, [root], { excludePatterns: exclude });
      const relative = walkOrder(found.map((f) => path.relative(root, f)));
      vectors.push({
        name: `search_files/p${p}-x${e}`,
        description: `search_files ${JSON.stringify(pattern)} excluding ${JSON.stringify(exclude)}`,
        tree: 'messy',
        op: 'glob',
        args: {
          paths: '$T/root',
          patterns: pattern,
          exclude,
          syntax: 'minimatch',
          kind: 'all',
          hidden: true,
          no_ignore: true,
          git_dir: true,
          limit: null,
        },
        expect: { entries: relative.map((r) => ({ relative_path: r })), total: relative.length },
      });
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
  const checks = pathCases.map(([p, dirs], i) => ({
    name: `path_check/${i}`,
    description: `isPathWithinAllowedDirectories(${JSON.stringify(p)}, ${JSON.stringify(dirs)})`,
    tree: 'none',
    op: 'path_within',
    args: { path: p, dirs },
    // The expectation is the server's on POSIX, where a backslash is part of a name; on Windows
    // it separates names, so such a case runs on Linux and macOS only.
    ...([p, ...dirs].some((text) => text.includes('\\')) && { only_on: ['linux', 'macos'] }),
    expect: { within: check.isPathWithinAllowedDirectories(p, dirs) },
  }));
  fs.writeFileSync(
    path.join(repo, 'tests', 'vectors', 'path_check.json'),
    JSON.stringify({ trees: { none: { root: { dir: true } } }, vectors: checks }, null, 1) + '\n',
  );
  const out = { trees: { messy: tree }, vectors };
  fs.writeFileSync(path.join(repo, 'tests', 'vectors', 'search_files.json'), JSON.stringify(out, null, 1) + '\n');
  console.log(`${vectors.length} search_files vectors, ${checks.length} path_check vectors`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
