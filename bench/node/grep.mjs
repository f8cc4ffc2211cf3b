// Grep from Node: fsnative's async grep vs spawning `rg --json` and parsing its events
// (what Node MCP filesystem servers do).
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { corpus, fsnative, interleaved, patternsOf, RG, record, SCENARIOS, save, trees } from './measure.mjs';

const CASES = ['rare_literal', 'common_limit', 'regex_context', 'case_insensitive', 'files_mode', 'multi_pattern'];

function fsnativeGrep(sandbox, testCase, tree) {
  const options = {
    patterns: patternsOf(testCase, tree),
    fixedStrings: Boolean(testCase.fixed),
    caseMode: testCase.case_insensitive ? 'insensitive' : 'sensitive',
    context: testCase.context ?? null,
    mode: testCase.mode ?? 'content',
    limit: testCase.limit,
  };
  return async () => {
    const result = await sandbox.grep(options);
    // What a tool does with the answer: one record per match.
    const records = result.files.flatMap((file) => file.matches.map((m) => [file.path, m.lineNumber, m.text]));
    return [options.mode === 'content' ? records.length : result.files.length, result.files.length];
  };
}

function rgSubprocess(testCase, tree) {
  const filesMode = testCase.mode === 'files';
  const args = ['--no-require-git', filesMode ? '-l' : '--json'];
  if (testCase.fixed) args.push('-F');
  if (testCase.case_insensitive) args.push('-i');
  if (testCase.context) args.push('-C', String(testCase.context));
  for (const pattern of patternsOf(testCase, tree)) args.push('-e', pattern);
  args.push(corpus(tree));
  const limit = testCase.limit;
  return async () => {
    const child = spawn(RG, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => child.on('close', resolve));
    const records = [];
    const files = new Set();
    for await (const line of readline.createInterface({ input: child.stdout })) {
      if (filesMode) {
        files.add(line);
        continue;
      }
      const event = JSON.parse(line);
      if (event.type !== 'match') continue;
      const { data } = event;
      records.push([data.path.text, data.line_number, data.lines.text]);
      files.add(data.path.text);
      if (limit !== null && records.length >= limit) {
        child.kill();
        break;
      }
    }
    await exited;
    return [filesMode ? files.size : records.length, files.size];
  };
}

const rows = [];
for (const tree of trees('small', 'medium')) {
  const sandbox = new fsnative.Sandbox([corpus(tree)]);
  for (const caseId of CASES) {
    const testCase = SCENARIOS[caseId];
    const runs = await interleaved({
      'fsnative (async)': fsnativeGrep(sandbox, testCase, tree),
      'rg --json subprocess': rgSubprocess(testCase, tree),
    });
    rows.push(
      ...record(
        'grep-node',
        tree,
        caseId,
        testCase.title,
        runs,
        (name) => (name === 'fsnative (async)' ? [] : ['fsnative (async)']),
        testCase.limit === null ? {} : { 'rg --json subprocess': "stops reading and kills rg at the limit; rg's first N are in walk order, not path order" },
      ),
    );
  }
}
save('grep-node', rows);
