// Builds of the Node addon side by side: the same glob and grep calls through each, interleaved
// in one process, for a decision about how the addon is built (its TLS model, its size
// settings), not a comparison with peers:
//   node bench/node/addons.mjs [--tree medium] NAME=ADDON.node NAME=ADDON.node ...
// Each build is loaded under npm/'s JavaScript (index.js) in place of native/fsnative.node.
// Prints one line per case and build, and each build's median over the first's.
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import { parseArgs } from 'node:util';

const require = createRequire(import.meta.url);
const NPM = path.join(import.meta.dirname, '..', '..', 'npm');
const NATIVE = require.resolve(path.join(NPM, 'lib', 'native.js'));

const { values, positionals } = parseArgs({ options: { tree: { type: 'string', default: 'medium' } }, allowPositionals: true });
if (positionals.length < 2) throw new Error('usage: addons.mjs [--tree T] NAME=ADDON.node NAME=ADDON.node ...');
const builds = positionals.map((arg) => {
  const split = arg.indexOf('=');
  if (split < 1) throw new Error(`${arg}: expected NAME=ADDON.node`);
  return [arg.slice(0, split), path.resolve(arg.slice(split + 1))];
});

/** npm/index.js with `addon` as its native module: a fresh copy of the package's JavaScript. */
function packageWith(addon) {
  for (const key of Object.keys(require.cache)) if (key.startsWith(NPM + path.sep)) delete require.cache[key];
  const native = new Module(NATIVE);
  Object.assign(native, { filename: NATIVE, loaded: true, exports: require(addon) });
  require.cache[NATIVE] = native;
  return require(NPM);
}

const packages = Object.fromEntries(builds.map(([name, addon]) => [name, packageWith(addon)]));
// measure.mjs loads npm/ itself when imported: it gets the last build's copy, still cached.
const { SCENARIOS, corpus, interleaved, patternsOf, record } = await import('./measure.mjs');

const root = corpus(values.tree);
const sandboxes = Object.fromEntries(Object.entries(packages).map(([name, pkg]) => [name, new pkg.Sandbox([root])]));
const cases = {
  'glob **/*.py': (sandbox) => async () => {
    const { entries } = await sandbox.glob({ pattern: '**/*.py', limit: null, noIgnore: true });
    return [entries.length, entries.length];
  },
  ...Object.fromEntries(
    ['common_limit', 'regex_context', 'case_insensitive'].map((id) => [
      id,
      (sandbox) => async () => {
        const testCase = SCENARIOS[id];
        const result = await sandbox.grep({
          patterns: patternsOf(testCase, values.tree),
          fixedStrings: Boolean(testCase.fixed),
          caseMode: testCase.case_insensitive ? 'insensitive' : 'sensitive',
          context: testCase.context ?? null,
          limit: testCase.limit,
        });
        return [result.files.reduce((sum, file) => sum + file.matches.length, 0), result.files.length];
      },
    ]),
  ),
};

const [first] = builds[0];
for (const [caseId, call] of Object.entries(cases)) {
  const runs = await interleaved(Object.fromEntries(Object.entries(sandboxes).map(([name, sandbox]) => [name, call(sandbox)])), { warmup: 3, reps: 21 });
  const rows = record('addons', values.tree, caseId, caseId, runs, () => []);
  const base = rows.find((row) => row.impl === first).median;
  for (const row of rows.slice(1))
    console.log(`${caseId}: ${row.impl} / ${first} = ${(row.median / base).toFixed(3)} (${row.median.toFixed(2)} vs ${base.toFixed(2)} ms)`);
}
