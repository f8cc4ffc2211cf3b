// Measures what turning a grep result into JavaScript objects costs next to the search
// itself: a generated tree whose files give 100k matching lines, `limit: null`. Not a test.
// Usage: node bench/conversion.mjs [MATCHES] [REPETITIONS]
//
// The addon returns one camelCase JSON text built in Rust and the package parses it once.
// Building the objects field by field through N-API instead (napi-rs' serde serializer) was
// measured at about twice the cost of this path (~290 ms against ~135 ms for 100k matches)
// and was dropped; see the README.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

import { Sandbox } from 'fsnative';
import native from '../lib/native.js';

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
  const samples = { search: [], serialize: [], parse: [], call: [], count: [] };
  let found = 0;
  let megabytes = 0;
  for (let i = 0; i <= repetitions; i++) {
    let started = performance.now();
    const json = addon.grepSync(request);
    const nativeCall = performance.now() - started;
    started = performance.now();
    const result = JSON.parse(json);
    const parse = performance.now() - started;
    started = performance.now();
    sandbox.grepSync({ pattern: 'kappa', limit: null });
    const call = performance.now() - started;
    started = performance.now();
    sandbox.grepSync({ pattern: 'kappa', limit: null, mode: 'count' });
    const count = performance.now() - started;
    if (i === 0) continue; // warm-up
    found = result.totalMatches;
    megabytes = json.length / 1e6;
    samples.search.push(result.stats.elapsedMs);
    samples.serialize.push(nativeCall - result.stats.elapsedMs);
    samples.parse.push(parse);
    samples.call.push(call);
    samples.count.push(count);
  }
  const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(1);
  console.log(`${found} matches (${megabytes.toFixed(1)} MB of JSON), ${repetitions} repetitions, medians in ms:`);
  console.log(`  search in the core (stats.elapsedMs)          ${median(samples.search)}`);
  console.log(`  + JSON serialization in Rust and JS string     ${median(samples.serialize)}`);
  console.log(`  + JSON.parse into objects                      ${median(samples.parse)}`);
  console.log(`  = sandbox.grepSync, end to end                 ${median(samples.call)}`);
  console.log(`  the same search in count mode (no records)     ${median(samples.count)}`);
}
