// A generated messy tree for the search_files parity tests: the same every run (a seeded
// generator), small enough to search 240 times in a second or two, with every kind of entry
// the server's walk treats specially.
import fs from 'node:fs';
import path from 'node:path';

/** A deterministic pseudo-random generator (mulberry32). */
function random(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const NAMES = ['src', 'lib', 'node_modules', '.cache', 'with space', 'ünï', '日本', 'br[a]ck', 'cu{r}ly', 'q?m', 'a(b)', '.git', 'build', 'pkg'];
const FILES = ['index.js', 'main.py', '.env', 'README.md', 'x.log', 'data.json', 'ä.py', 'a b.txt', '[x].py', '{y}.js', 'z?.txt', '.hidden.py'];

/**
 * Builds the tree in `dir` (its `root` is the search root, `outside` lies beside it) and
 * returns the root.
 */
export function buildMessyTree(dir, seed = 23) {
  const next = random(seed);
  const pick = (list) => list[Math.floor(next() * list.length)];
  const root = path.join(dir, 'root');
  const dirs = [root];
  for (let i = 0; i < 40; i++) {
    const parent = pick(dirs);
    const child = path.join(parent, pick(NAMES));
    fs.mkdirSync(child, { recursive: true });
    if (!dirs.includes(child)) dirs.push(child);
  }
  for (const d of dirs) {
    for (let i = 0; i < 4; i++) fs.writeFileSync(path.join(d, pick(FILES)), 'x\n');
  }
  fs.writeFileSync(path.join(root, '.gitignore'), '*.log\nbuild/\n');
  fs.mkdirSync(path.join(dir, 'outside', 'sub'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'outside', 'secret.py'), 'SECRET\n');
  const link = (target, at) => fs.symlinkSync(target, path.join(root, at));
  link('src', 'link_in_dir');
  link(path.relative(root, pick(dirs.slice(1))) || '.', 'link_in_random');
  link('../outside', 'link_out_dir');
  link('../outside/secret.py', 'link_out.py');
  link('missing.py', 'dangling.py');
  link('../outside/missing.py', 'dangling_out.py');
  link('self', 'self');
  fs.mkdirSync(path.join(root, 'deep', 'a', 'b', 'node_modules', 'c'), { recursive: true });
  fs.writeFileSync(path.join(root, 'deep', 'a', 'b', 'node_modules', 'c', 'main.py'), 'x\n');
  fs.symlinkSync('../../../../outside', path.join(root, 'deep', 'a', 'b', 'up_out'));
  return root;
}
