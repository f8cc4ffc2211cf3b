// search_files through MCP stdio, as clients call it: the official server
// (@modelcontextprotocol/server-filesystem, node dist/index.js DIR) against
// fsnative-mcp-filesystem (the same server on fsnative), in the same run, on a 20,001-file tree
// (5,000 files under node_modules) and on the 100k tree (bench/corpora/large). Each server is
// started fresh per tree; the first search_files after start is timed apart, then each query
// runs `--reps` times (median). Both must return the same set of paths. fsnative runs with
// --max-results 0 --time-budget 0 so that its answers are whole, like the server's.
// Run: node bench/mcp_filesystem_bench.mjs [--reps N] [--out bench/results/mcp-filesystem.md]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const repo = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const require = createRequire(path.join(repo, 'npm', 'package.json'));
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const serverPackage = path.dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json'));
const SERVERS = {
  official: [path.join(serverPackage, 'dist', 'index.js')],
  fsnative: [path.join(repo, 'npm', 'bin', 'fsnative-mcp-filesystem.js'), '--max-results', '0', '--time-budget', '0'],
};
const args = process.argv.slice(2);
const option = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const REPS = Number(option('--reps', '5'));
const OUT = path.resolve(option('--out', path.join(repo, 'bench', 'results', 'mcp-filesystem.md')));

/** The 20,001-file tree: 15,001 files in a source tree (one unique needle), 5,000 under node_modules. */
function build20k(root) {
  if (fs.existsSync(path.join(root, '.complete'))) return root;
  fs.rmSync(root, { recursive: true, force: true });
  const exts = ['py', 'js', 'md', 'py'];
  const write = (rel) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), 'x\n');
  };
  for (let i = 0; i < 15_000; i++) write(`src/pkg${i % 30}/mod${Math.floor(i / 30) % 10}/file${i}.${exts[i % 4]}`);
  write('src/pkg7/mod3/unique_needle_target.py');
  for (let i = 0; i < 5_000; i++) write(`node_modules/dep${i % 50}/lib/f${i}.${exts[i % 4]}`);
  fs.writeFileSync(path.join(root, '.complete'), '');
  return root;
}

const QUERIES = [
  { pattern: '**/*.py' },
  { pattern: '**/unique_needle_target.py' },
  { pattern: '**/*.py', excludePatterns: ['node_modules'] },
  { pattern: '**/*.py', excludePatterns: ['**/node_modules'] },
  { pattern: 'unique_needle_target.py' },
];

async function start(name, root) {
  const [script, ...flags] = SERVERS[name];
  const transport = new StdioClientTransport({ command: process.execPath, args: [script, ...flags, root], stderr: 'ignore' });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  const began = performance.now();
  await client.connect(transport);
  return { client, startMs: performance.now() - began };
}

async function search(client, root, query) {
  const began = performance.now();
  const result = await client.callTool({ name: 'search_files', arguments: { path: root, ...query } }, undefined, { timeout: 600_000 });
  const ms = performance.now() - began;
  const text = result.content[0].text;
  const paths = text === 'No matches found' ? [] : text.split('\n');
  return { ms, paths };
}

/**
 * The same queries through fsnative/mcp-filesystem's searchFilesWithValidation in this process
 * (the walk, the match and the server's lines, without MCP and stdio): median ms per query.
 */
async function timeInProcess(root) {
  process.env.FSNATIVE_MCPFS_MAX_RESULTS = '0';
  process.env.FSNATIVE_MCPFS_TIME_BUDGET_MS = '0';
  const lib = await import(path.join(repo, 'npm', 'mcp-filesystem', 'lib.mjs'));
  lib.setAllowedDirectories([root]);
  const medians = [];
  for (const { pattern, excludePatterns = [] } of QUERIES) {
    const times = [];
    for (let r = 0; r < REPS; r++) {
      const began = performance.now();
      (await lib.searchFilesWithValidation(root, pattern, [root], { excludePatterns })).join('\n');
      times.push(performance.now() - began);
    }
    medians.push(median(times));
  }
  return medians;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function measureTree(label, root) {
  const rows = [];
  const first = {};
  const answers = {};
  for (const name of Object.keys(SERVERS)) {
    const { client, startMs } = await start(name, root);
    const firstCall = await search(client, root, QUERIES[0]);
    first[name] = { startMs, firstMs: firstCall.ms };
    answers[name] = [];
    for (const [q, query] of QUERIES.entries()) {
      const times = [];
      let paths = [];
      for (let r = 0; r < REPS; r++) ({ ms: times[r], paths } = await search(client, root, query));
      answers[name][q] = { median: median(times), min: Math.min(...times), max: Math.max(...times), paths: paths.sort() };
    }
    await client.close();
  }
  const inProcess = await timeInProcess(root);
  for (const [q, query] of QUERIES.entries()) {
    const [a, b] = [answers.official[q], answers.fsnative[q]];
    const same = JSON.stringify(a.paths) === JSON.stringify(b.paths);
    if (!same) throw new Error(`${label} ${JSON.stringify(query)}: the answers differ (${a.paths.length} vs ${b.paths.length})`);
    rows.push({ query, official: a, fsnative: b, inProcess: inProcess[q], results: a.paths.length });
  }
  return { label, rows, first };
}

function report(trees) {
  const fmt = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
  const lines = [
    '# search_files through MCP stdio: the official server against fsnative-mcp-filesystem',
    '',
    `Measured ${new Date().toISOString().slice(0, 10)} on this machine (${os.cpus().length} cores, ${os.cpus()[0]?.model ?? ''}), Node ${process.version},`,
    `@modelcontextprotocol/server-filesystem ${JSON.parse(fs.readFileSync(path.join(serverPackage, 'package.json'), 'utf8')).version}; both servers over stdio through the SDK's client, in the same run.`,
    `Each query ${REPS} times per server (median, min-max); the answers were checked to be the same set of paths.`,
    'Command: `node bench/mcp_filesystem_bench.mjs` (after `cd npm && npm ci`).',
    "The last column is fsnative's searchFilesWithValidation called in the bench's own process (median):",
    'the walk, the match and the lines, without MCP and stdio; the rest of the fsnative column is the transport.',
    '',
  ];
  for (const tree of trees) {
    lines.push(`## ${tree.label}`, '', '| query | results | official | fsnative | faster | fsnative in process |', '|---|---:|---:|---:|---:|---:|');
    for (const row of tree.rows) {
      const q = `\`${row.query.pattern}\`${row.query.excludePatterns ? `, exclude \`${row.query.excludePatterns.join(', ')}\`` : ''}`;
      const cell = (m) => `${fmt(m.median)} (${fmt(m.min)}-${fmt(m.max)})`;
      lines.push(
        `| ${q} | ${row.results} | ${cell(row.official)} | ${cell(row.fsnative)} | ${(row.official.median / row.fsnative.median).toFixed(1)}x | ${fmt(row.inProcess)} |`,
      );
    }
    const f = tree.first;
    lines.push(
      '',
      `Start (spawn to initialized): official ${fmt(f.official.startMs)}, fsnative ${fmt(f.fsnative.startMs)}. ` +
        `First \`**/*.py\` after start: official ${fmt(f.official.firstMs)}, fsnative ${fmt(f.fsnative.firstMs)} ` +
        `(${(f.official.firstMs / f.fsnative.firstMs).toFixed(1)}x).`,
      '',
    );
  }
  return lines.join('\n');
}

const corpora = path.join(repo, 'bench', 'corpora');
const small = build20k(path.join(corpora, 'mcp20k'));
const trees = [await measureTree('20,001 files (5,000 under node_modules)', small)];
if (!args.includes('--no-large')) {
  execFileSync('python3', [path.join(repo, 'bench', 'corpora.py'), 'large'], { stdio: 'inherit' });
  trees.push(await measureTree('the 100k tree (bench/corpora/large)', path.join(corpora, 'large')));
}
const text = report(trees);
fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, text + '\n');
console.log(text);
