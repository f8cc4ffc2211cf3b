// A guard for calls into the addon that could hang: the hostile-input tests' own timeout.

/** Generous: each guarded call takes milliseconds to a second; only a hang reaches this. */
export const GUARD_MS = 30_000;

/**
 * `promise`, or a rejection once `ms` pass. A call into the addon that hangs would keep the
 * process alive after the failure, so the guard also ends the process a little later.
 */
export function guarded(promise, what, ms = GUARD_MS) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      setTimeout(() => process.exit(1), 2000).unref();
      reject(new Error(`${what} did not return within ${ms} ms`));
    }, ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
