// Shared pieces of the Node benchmark scripts; the same settings and record format as
// bench/measure.py (interleaved rounds, warm-up first, medians in the report).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const BENCH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SMOKE = process.env.BENCH_SMOKE === '1';
const WARMUP = SMOKE ? 1 : 2;
const REPS = SMOKE ? 2 : 10;
const RAW = path.join(BENCH, 'results', SMOKE ? 'raw-smoke' : 'raw');
export const SCENARIOS = JSON.parse(fs.readFileSync(path.join(BENCH, 'scenarios.json'), 'utf8'));
export const RG = process.env.BENCH_RG || path.join(BENCH, '.venv', 'bin', 'rg');
// fsnative as built in the repository's npm/ (npm ci there builds native/fsnative.node).
export const fsnative = createRequire(import.meta.url)(path.join(BENCH, '..', 'npm'));

/** The corpora to run on: only the small one in a smoke run, and only those named in BENCH_TREES (space- or comma-separated) when it is set. */
const ONLY_TREES = (process.env.BENCH_TREES ?? '').split(/[\s,]+/).filter(Boolean);
export const trees = (...wanted) => wanted.filter((t) => (t === 'small' || !SMOKE) && (ONLY_TREES.length === 0 || ONLY_TREES.includes(t)));
export const corpus = (tree) => path.join(BENCH, 'corpora', tree);

/** A case's patterns for a tree, always as a list. */
export function patternsOf(testCase, tree) {
  let patterns = testCase.patterns;
  if (!Array.isArray(patterns) && typeof patterns === 'object') patterns = patterns[tree];
  return typeof patterns === 'string' ? [patterns] : [...patterns];
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Each order of `names` that starts with a different one, in turn. */
const rotations = (names) => names.map((_, shift) => [...names.slice(shift), ...names.slice(0, shift)]);

/**
 * Times each async implementation (returning [matches, files]) in turn within every round:
 * `warmup` rounds (not kept), then enough rounds for `reps` samples each. Round r runs them
 * in `orders[r % orders.length]` (by default the starting one rotates), each `block` times in
 * a row before the next takes its turn.
 */
export async function interleaved(impls, { warmup = WARMUP, reps = REPS, orders = rotations(Object.keys(impls)), block = 1 } = {}) {
  const names = Object.keys(impls);
  const runs = Object.fromEntries(names.map((name) => [name, { samples: [] }]));
  const rounds = Math.ceil(warmup / block) + Math.ceil(reps / block);
  for (let round = 0; round < rounds; round++) {
    for (const name of orders[round % orders.length]) {
      for (let call = 0; call < block; call++) {
        const start = process.hrtime.bigint();
        const [matches, files] = await impls[name]();
        const elapsedMs = Number(process.hrtime.bigint() - start) / 1e6;
        if (round >= Math.ceil(warmup / block)) runs[name].samples.push(Math.round(elapsedMs * 1000) / 1000);
        Object.assign(runs[name], { matches, files });
      }
    }
  }
  return runs;
}

/** Report rows, as bench/measure.py's `record`. */
export function record(suite, tree, caseId, title, runs, baselinesOf, notes = {}, unit = 'ms') {
  return Object.entries(runs).map(([name, run]) => {
    const row = {
      suite,
      tree,
      case: caseId,
      title,
      impl: name,
      baselines: baselinesOf(name),
      median: median(run.samples),
      unit,
      ...run,
      note: notes[name] || '',
    };
    console.error(
      `${suite.padEnd(12)} ${tree.padEnd(6)} ${caseId.padEnd(16)} ${name.padEnd(28)} ${row.median.toFixed(2).padStart(10)} ${unit}  ${run.matches} matches in ${run.files} files`,
    );
    return row;
  });
}

export function save(suite, rows) {
  fs.mkdirSync(RAW, { recursive: true });
  fs.writeFileSync(path.join(RAW, `${suite}.json`), JSON.stringify(rows, null, 1));
}
