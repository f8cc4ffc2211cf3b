// Times `await sandbox.grep({ pattern, limit: null })` next to spawning `rg -n PATTERN DIR`
// from Node and collecting its stdout, alternating in one process; prints medians.
// Not a test. Usage: node bench/node/grep-vs-rg.mjs DIR [REPETITIONS] [PATTERN]
// (e.g. DIR = a copy of the CPython standard library without site-packages).

import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

import { Sandbox } from '../../npm/index.mjs';

const [dir, repetitionsText = '9', pattern = 'def test_'] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node bench/node/grep-vs-rg.mjs DIR [REPETITIONS] [PATTERN]');
  process.exit(2);
}
const repetitions = Number(repetitionsText);
const sandbox = new Sandbox([dir]);
const root = sandbox.roots[0];

/** Runs `rg -n PATTERN root` and resolves with its stdout. */
function ripgrep() {
  return new Promise((resolve, reject) => {
    const child = spawn('rg', ['-n', pattern, root], { stdio: ['ignore', 'pipe', 'inherit'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 || code === 1 ? resolve(Buffer.concat(chunks).toString()) : reject(new Error(`rg exited with ${code}`))));
  });
}

const runs = {
  'sandbox.grep (objects)': async () => (await sandbox.grep({ pattern, limit: null })).totalMatches,
  'sandbox.grepText (rg -n text)': async () => countLines((await sandbox.grepText({ pattern, limit: null })).text),
  'spawn rg -n, collect stdout': async () => countLines(await ripgrep()),
};

function countLines(text) {
  let lines = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}

const times = Object.fromEntries(Object.keys(runs).map((name) => [name, []]));
const found = {};
for (const run of Object.values(runs)) await run(); // warm the page cache and the JIT
for (let i = 0; i < repetitions; i++) {
  for (const [name, run] of Object.entries(runs)) {
    const started = performance.now();
    found[name] = await run();
    times[name].push(performance.now() - started);
  }
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
console.log(`pattern ${JSON.stringify(pattern)} in ${root}, ${repetitions} repetitions, medians:`);
for (const [name, values] of Object.entries(times)) {
  console.log(`  ${name.padEnd(32)} ${median(values).toFixed(1).padStart(8)} ms   (${found[name]} matching lines)`);
}
