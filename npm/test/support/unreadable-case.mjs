// The unreadable-directory case of hostile.test.mjs, as a module of its own: the test imports it
// to run the case as this user, and copies it, with the package's runtime files, into a
// directory that the user `nobody` can reach, to run it there in a child process. The child so
// needs nothing from the checkout, which may sit where nobody cannot read (under a home of mode
// 0700, say). Run as a script, it builds the case under the directory named by its first
// argument and prints the outcome as one line of JSON.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { Sandbox } from 'fsnative';

/**
 * The files of the installed package that loading it needs (no types, no sources); `native`
 * only where the addon was built from source (else it is the platform package's).
 */
export const PACKAGE_RUNTIME = ['package.json', 'index.js', 'index.mjs', 'lib', 'native'];

/**
 * Greps, globs and validates a tree whose `locked` directory and `unreadable.txt` file have
 * mode 0, built under `base`; returns what the three calls gave.
 */
export async function unreadableDirectoryCase(base) {
  const root = path.join(base, 'root');
  fs.mkdirSync(path.join(root, 'locked'), { recursive: true });
  fs.writeFileSync(path.join(root, 'a.txt'), 'needle\n');
  fs.writeFileSync(path.join(root, 'locked', 'secret.txt'), 'needle\n');
  fs.writeFileSync(path.join(root, 'unreadable.txt'), 'needle\n');
  fs.chmodSync(path.join(root, 'unreadable.txt'), 0);
  fs.chmodSync(path.join(root, 'locked'), 0);
  try {
    const sandbox = new Sandbox([root]);
    const grep = await sandbox.grep({ pattern: 'needle' });
    const glob = await sandbox.glob({ pattern: '**' });
    let validate;
    try {
      validate = sandbox.validate('locked/secret.txt');
    } catch (err) {
      validate = err.code;
    }
    return { grep, glob, validate };
  } finally {
    fs.chmodSync(path.join(root, 'locked'), 0o755);
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === fs.realpathSync(process.argv[1])) {
  process.stdout.write(`${JSON.stringify(await unreadableDirectoryCase(process.argv[2]))}\n`);
}
