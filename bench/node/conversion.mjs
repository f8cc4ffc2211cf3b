// Measures what turning a grep result into JavaScript objects costs next to the search
// itself: a generated tree whose files give 100k matching lines, `limit: null`. Not a test.
// Usage: node bench/node/conversion.mjs [MATCHES] [REPETITIONS]
//
// The addon packs the result (one string of all paths and lines, a Float64Array of numbers,
// the JSON of the rest; bindings/node/src/transfer.rs) and lib/transfer.js builds the objects.
// For comparison it also times the previous path, the result's camelCase JSON built in Rust
// and parsed with one JSON.parse (which the addon still makes for the tests, grepJsonSync).
// Building the objects field by field through N-API (napi-rs' serde serializer) was measured
// at about twice the cost of that JSON path and dropped earlier; see docs/api.md.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { Sandbox } from '../../npm/index.mjs';
import native from '../../npm/lib/native.js';
import { grepResult } from '../../npm/lib/transfer.js';

const [matchesText = '100000', repetitionsText = '7'] = process.argv.slice(2);
const matches = Number(matchesText);
const repetitions = Number(repetitionsText);
const LINES_PER_FILE = 500;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-conversion-'));
try {
  const body = Array.from({ length: LINES_PER_FILE }, (_, i) => `line ${i} alpha beta gamma delta kappa\n`).join('');
  for (let file = 0; file * LINES_PER_FILE < matches; file++) {
    fs.mkdirSync(path.join(dir, `d${file % 20}`), { recursive: true });
    fs.writeFileSync(path.join(dir, `d${file % 20}`, `f${file}.txt`), body);
  }
  measure(dir);
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}

function measure(root) {
  const request = JSON.stringify({ pattern: 'kappa', limit: null });
  const addon = new native.Sandbox([root]);
  const sandbox = new Sandbox([root]);
  const samples = { search: [], pack: [], build: [], call: [], json: [], parse: [], count: [] };
  let found = 0;
  let megabytes = 0;
  for (let i = 0; i <= repetitions; i++) {
    let started = performance.now();
    const packed = addon.grepSync(request);
    const nativeCall = performance.now() - started;
    started = performance.now();
    const result = grepResult(packed);
    const build = performance.now() - started;
    started = performance.now();
    const json = addon.grepJsonSync(request);
    const jsonCall = performance.now() - started;
    started = performance.now();
    const parsed = JSON.parse(json);
    const parse = performance.now() - started;
    started = performance.now();
    sandbox.grepSync({ pattern: 'kappa', limit: null });
    const call = performance.now() - started;
    started = performance.now();
    sandbox.grepSync({ pattern: 'kappa', limit: null, mode: 'count' });
    const count = performance.now() - started;
    if (i === 0) continue; // warm-up
    found = result.totalMatches;
    megabytes = (packed.text.length + packed.numbers.byteLength) / 1e6;
    samples.search.push(result.stats.elapsedMs);
    samples.pack.push(nativeCall - result.stats.elapsedMs);
    samples.build.push(build);
    samples.call.push(call);
    samples.json.push(jsonCall - parsed.stats.elapsedMs);
    samples.parse.push(parse);
    samples.count.push(count);
  }
  const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(1);
  console.log(`${found} matches (${megabytes.toFixed(1)} MB packed), ${repetitions} repetitions, medians in ms:`);
  console.log(`  search in the core (stats.elapsedMs)          ${median(samples.search)}`);
  console.log(`  + packing in Rust, string and typed array      ${median(samples.pack)}`);
  console.log(`  + building the objects (lib/transfer.js)       ${median(samples.build)}`);
  console.log(`  = sandbox.grepSync, end to end                 ${median(samples.call)}`);
  console.log(`  the same search in count mode (no records)     ${median(samples.count)}`);
  console.log('  the previous path, for comparison:');
  console.log(`    JSON serialization in Rust and JS string     ${median(samples.json)}`);
  console.log(`    JSON.parse into objects                      ${median(samples.parse)}`);
}
