// What the system under the tests can make, and whether it is Wine: a test that needs what this
// system cannot make is skipped with the reason (node:test's `skip`), never passed unrun.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Windows: paths take `\`, names are UTF-16. */
export const onWindows = process.platform === 'win32';

/** Why a file whose name is not UTF-8 cannot be made here, or false. */
export const nonUtf8NamesSkip = onWindows && 'Windows names are UTF-16: no file here has a name that is not UTF-8';

/** Whether this system makes symlinks (Wine 8 makes none; nor does Windows without the right
 * to): tried once, in a scratch directory. */
export function makesSymlinks() {
  if (symlinksMade === undefined) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fsnative-symlink-probe-'));
    try {
      fs.writeFileSync(path.join(dir, 'target'), '');
      fs.symlinkSync('target', path.join(dir, 'link'));
      symlinksMade = fs.lstatSync(path.join(dir, 'link')).isSymbolicLink();
    } catch {
      symlinksMade = false;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  return symlinksMade;
}
let symlinksMade;

/** Why a test that makes symlinks cannot run here, or false. */
export function symlinksSkip() {
  return !makesSymlinks() && 'this system makes no symlinks (Wine 8.0 makes none; Windows needs the right to)';
}

/** Whether this is Windows as Wine emulates it: Wine's own ntdll.dll says "Wine builtin DLL" in
 * its DOS header (at 0x40), where Windows' says "This program cannot be run in DOS mode". */
export function underWine() {
  if (!onWindows) return false;
  try {
    const ntdll = path.join(process.env.SystemRoot ?? 'C:\\windows', 'system32', 'ntdll.dll');
    const header = Buffer.alloc(0x50);
    const fd = fs.openSync(ntdll, 'r');
    try {
      fs.readSync(fd, header, 0, header.length, 0);
    } finally {
      fs.closeSync(fd);
    }
    return header.subarray(0x40, 0x50).toString('latin1') === 'Wine builtin DLL';
  } catch {
    return false;
  }
}

/** Why a test cannot run under Wine (`gap`: the Wine behaviour, and the probe that shows it), or
 * false where this is not Wine. */
export function wineSkip(gap) {
  return underWine() && `not run under Wine: ${gap}`;
}

/** The Wine gaps the API tests meet, each shown by a probe in packaging/windows/. */
export const WINE_GAPS = {
  lmdbView:
    "the frecency store: LMDB reserves a view larger than its file, which Wine 8.0 refuses (STATUS_INVALID_VIEW_SIZE, read as 'Access denied'; packaging/windows/view-probe.c)",
  lateChangeRecords:
    "a change's ReadDirectoryChangesW record reaches the watcher after the call that made it returned (Wine's server reads inotify in its own time; packaging/windows/watch-probe.c)",
};
