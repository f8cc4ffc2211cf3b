// Glob from Node: fsnative vs fast-glob, tinyglobby and glob. None of the peers reads
// .gitignore or lists hidden files by default, so fsnative runs with `noIgnore: true` to
// list the same files; its default (gitignore-aware) run is shown for reference. The peers do
// not sort; fsnative's walk yields path order, so its (default) sorted result costs nothing extra.
import fg from 'fast-glob';
import { glob } from 'glob';
import { glob as tinyglobby } from 'tinyglobby';
import { corpus, fsnative, interleaved, record, save, trees } from './measure.mjs';

const PATTERN = '**/*.py';
const counted = (listing) => async () => {
  const paths = await listing();
  return [paths.length, paths.length];
};

const rows = [];
for (const tree of trees('small', 'medium', 'large')) {
  const cwd = corpus(tree);
  const sandbox = new fsnative.Sandbox([cwd]);
  const fsnativeGlob = (options) => counted(async () => (await sandbox.glob({ pattern: PATTERN, limit: null, ...options })).entries.map((e) => e.path));
  const runs = await interleaved({
    'fsnative (noIgnore)': fsnativeGlob({ noIgnore: true }),
    'fsnative (default: .gitignore)': fsnativeGlob({}),
    'fast-glob': counted(() => fg(PATTERN, { cwd })),
    tinyglobby: counted(() => tinyglobby([PATTERN], { cwd })),
    glob: counted(() => glob(PATTERN, { cwd, nodir: true })),
  });
  rows.push(
    ...record('glob-node', tree, 'py_files', `\`${PATTERN}\``, runs, (name) => (name.startsWith('fsnative') ? [] : ['fsnative (noIgnore)']), {
      'fsnative (default: .gitignore)': 'skips ignored directories: fewer files, shown for reference',
    }),
  );
}
save('glob-node', rows);
