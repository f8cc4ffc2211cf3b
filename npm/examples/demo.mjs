// The main-job demo from Node: validates, greps, globs and fuzzy-finds a real tree through the package,
// like crates/fsnative/examples/demo.rs does from Rust.
// `node examples/demo.mjs [DIR]` (default: the current directory); `./npm/dev.sh demo DIR`.

import { performance } from 'node:perf_hooks';

import { FsnativeError, Sandbox } from 'fsnative';

const sandbox = new Sandbox([process.argv[2] ?? '.']);
console.log(`sandbox root: ${sandbox.roots[0]}`);

/** Runs `work`, returning its result and how long it took in milliseconds. */
async function timed(work) {
  const started = performance.now();
  const result = await work();
  return [result, (performance.now() - started).toFixed(1)];
}

console.log('\n== validatePath: honest paths pass, escapes are refused');
for (const [path, intent] of [
  ['.', 'read'],
  ['new/file.txt', 'write'],
  ['../outside', 'read'],
  ['/etc/passwd', 'read'],
]) {
  try {
    console.log(`  ${path.padEnd(14)} ${intent}: ok -> ${sandbox.validate(path, { intent })}`);
  } catch (err) {
    if (!(err instanceof FsnativeError)) throw err;
    console.log(`  ${path.padEnd(14)} ${intent}: ${err.code}`);
  }
}

console.log("\n== grep 'def test_' (first 5 matches, 1 line of context), as rg prints it:");
const [page, textMs] = await timed(() => sandbox.grepText({ pattern: 'def test_', limit: 5, context: 1 }, { pathStyle: 'relative' }));
process.stdout.write(page.text);
console.log(`  -> ${textMs} ms`);

console.log("\n== grep 'def test_' over the whole tree as typed objects (limit: null):");
const [found, foundMs] = await timed(() => sandbox.grep({ pattern: 'def test_', limit: null }));
const first = found.files[0]?.matches[0];
console.log(`  ${found.totalMatches} matches in ${found.files.length} files, e.g. ${found.files[0]?.relativePath}:${first?.lineNumber}: ${first?.text.trim()}`);
console.log(`  -> ${foundMs} ms (search ${found.stats.elapsedMs.toFixed(1)} ms), event loop free meanwhile`);

console.log("\n== grep 'TODO|FIXME' over the whole tree, count mode:");
const [counted, countedMs] = await timed(() => sandbox.grep({ pattern: 'TODO|FIXME', mode: 'count', limit: null }));
console.log(
  `  ${counted.totalMatches} matching lines in ${counted.files.length} files; ` +
    `${counted.stats.filesSearched} files searched, ${counted.stats.skippedBinary} binary skipped, ${countedMs} ms`,
);

console.log('\n== the same search, aborted after 1 ms:');
const [outcome, abortedMs] = await timed(() =>
  sandbox.grep({ pattern: 'TODO|FIXME', limit: null, signal: AbortSignal.timeout(1) }).then(
    (result) => `finished first (${result.totalMatches} matches)`,
    (err) => `${err.name} (${err.code})`,
  ),
);
console.log(`  ${outcome}, ${abortedMs} ms`);

console.log("\n== glob '**/*.{rs,py,ts}', newest first (first 5):");
const [listed, listedMs] = await timed(() => sandbox.glob({ pattern: '**/*.{rs,py,ts}', sort: 'mtime', limit: 5 }));
for (const entry of listed.entries) console.log(`  ${entry.relativePath}`);
console.log(`  -> ${listed.entries.length} of ${listed.total} matches shown, ${listedMs} ms`);

console.log("\n== find 'jsn decodr' (letters left out), best 5:");
const [best, bestMs] = await timed(() => sandbox.find({ query: 'jsn decodr', limit: 5 }));
for (const entry of best.entries) console.log(`  ${String(entry.score).padStart(4)}  ${entry.relativePath} (typos ${entry.typos})`);
console.log(`  -> ${best.entries.length} of ${best.total} matches shown, ${bestMs} ms`);
