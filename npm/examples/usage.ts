// The Node API from TypeScript; `npm test` type-checks this file with `tsc --strict` against
// index.d.ts (it is an example to read, and the check that the declarations hold together).
import { AbortError, FsnativeError, type FsPath, type GrepResult, type IndexStatus, Sandbox, type ThesaurusStatus } from 'fsnative';

/** A path for `fs` functions: the string itself, or the raw bytes of a non-UTF-8 name. */
function fsPath(path: FsPath): string | Buffer {
  return typeof path === 'string' ? path : Buffer.from(path.bytes, 'base64');
}

export async function main(root: string): Promise<void> {
  const sandbox = new Sandbox([root]);
  console.log('roots:', sandbox.roots.map(fsPath));

  // A path from an agent: canonical and inside, or an FsnativeError with a stable code.
  try {
    sandbox.validate('../outside', { intent: 'read' });
  } catch (err) {
    if (err instanceof FsnativeError && err.code === 'OUTSIDE_SANDBOX') {
      console.log('refused:', err.message);
    }
  }

  // rg -n -C2 TODO --glob '*.ts', first 100 matches, then the next page.
  const options = { pattern: 'TODO', context: 2, glob: ['*.ts'], limit: 100 } as const;
  const page: GrepResult = await sandbox.grep(options);
  for (const file of page.files) {
    for (const match of file.matches) {
      console.log(`${fsPath(file.relativePath)}:${match.lineNumber}: ${match.text}`);
    }
  }
  if (page.nextCursor !== null) {
    const next = sandbox.grepSync({ ...options, cursor: page.nextCursor });
    console.log('next page:', next.totalMatches, 'matches');
  }

  // The same search as ripgrep prints it, and a search that gives up when asked to.
  process.stdout.write((await sandbox.grepText({ pattern: 'TODO', mode: 'files' }, { pathStyle: 'relative' })).text);
  // The exact bytes rg prints (file names that are not UTF-8 as they are on disk): a Buffer.
  const exact: Buffer = sandbox.grepTextSync({ pattern: 'TODO' }, { format: 'json', encoding: 'buffer' }).text;
  process.stdout.write(exact);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  try {
    await sandbox.grep({ pattern: '\\w+', limit: null, signal: controller.signal });
  } catch (err) {
    if (!(err instanceof AbortError)) throw err;
    console.log('aborted:', err.code);
  }

  // Files by name, newest first.
  const listed = await sandbox.glob({ pattern: '**/*.ts', sort: 'mtime', limit: 5 });
  console.log(
    `${listed.entries.length} of ${listed.total}:`,
    listed.entries.map((entry) => fsPath(entry.path)),
  );

  // Files by a fuzzy, typo-tolerant query, best first, with FFF-style constraints.
  const best = await sandbox.find({ query: 'usge', limit: 5, constraints: '*.ts !node_modules/' });
  for (const entry of best.entries) console.log(entry.score, entry.typos, fsPath(entry.relativePath));

  // A warm index: searches read it instead of walking, with the same answers; closed on leaving.
  const indexed = new Sandbox([root], { index: { maxFiles: 200_000 } });
  try {
    if (await indexed.waitForIndex(30_000)) {
      const status: IndexStatus | null = indexed.indexStatus();
      console.log('indexed:', status?.files, 'files,', status?.memoryBytes, 'bytes');
    }
    console.log((await indexed.grep({ pattern: 'TODO' })).totalMatches, 'matches');
  } finally {
    indexed[Symbol.dispose]();
  }

  // Frecency (an LMDB directory several processes may share; the agent profile) and a
  // thesaurus: recorded files, and every file a grep returns, rank first on request.
  const ranked = new Sandbox([root], {
    frecency: { path: `${root}/../.fsnative-frecency`, profile: 'ai' },
    recordHits: true,
    thesaurus: { auth: 'security', login: 'security' },
    maxBoost: 10,
  });
  ranked.recordAccess('README.md');
  const first = await ranked.grep({ pattern: 'TODO', mode: 'files', sort: 'frecency' });
  console.log(
    first.files.map((file) => fsPath(file.relativePath)),
    ranked.frecencyScore('README.md'),
  );
  const boost: number = ranked.pathBoost('README.md');
  const thesaurus: ThesaurusStatus | null = ranked.thesaurusStatus();
  console.log('boost', boost, 'of', thesaurus?.concepts, 'concepts');
}
