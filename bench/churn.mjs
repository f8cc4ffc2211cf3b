// The Node searchers of bench/churn.py (issue #26, item 1); churn.py starts this child and
// owns the scenario (the tree, the operations, the queries). Protocol, one JSON object a line:
//   stdin:  {"type": "start", "root", "queries": [[kind, options], ...], "searchers"}
//           {"type": "churn", "epoch"}     an operation is to begin (once acknowledged)
//           {"type": "finished", "epoch"}  it ended (the walk's answers are being computed)
//           {"type": "settled", "epoch", "expected": {kind: digest}}   it finished: answers begun
//                                          from now on are checked
//           {"type": "stop"}
//   stdout: {"type": "ready"}, {"type": "churning", "epoch"} for each "churn", for each answer {"type": "answer", "searcher", "kind",
//           "epoch", "settled" (begun and ended in the same settled epoch), "overlap" (an
//           operation ran during some of it), "ms", "digest" (if settled), "lines" (the
//           answer whole, if its digest is not the expected one)},
//           {"type": "memory", "rss", "index_bytes"} now and then, and {"type": "done"}.
// The searchers share one indexed Sandbox; their calls are async, so they run at once on the
// core's helper threads (four calls at a time), the way a Node server's handlers would.

import { createHash } from 'node:crypto';
import readline from 'node:readline';

import { Sandbox } from '../npm/index.mjs';

const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);

/** The canonical lines of an answer, as churn.py's `lines` writes them. */
export function lines(kind, result) {
  if (kind === 'grep') return result.files.flatMap((file) => file.matches.map((m) => `${file.relativePath}\0${m.lineNumber}\0${m.text}`));
  return result.entries.map((entry) => entry.relativePath);
}

/** Their digest, as churn.py's `digest` computes it. */
export function digest(answer) {
  const hash = createHash('sha256');
  for (const line of answer) hash.update(`${line}\n`);
  return hash.digest('hex');
}

const phase = { epoch: 0, settled: false, churning: false, expected: {} };
let stopping = false;

async function searcher(sandbox, slot, queries) {
  for (let n = 0; !stopping; n += 1) {
    const [kind, options] = queries[(slot + n) % queries.length];
    const { epoch, settled, churning } = phase;
    const began = performance.now();
    const result = await (kind === 'grep' ? sandbox.grep(options) : sandbox.glob(options));
    const ms = performance.now() - began;
    const checked = settled && phase.settled && phase.epoch === epoch;
    const overlap = churning || phase.churning || phase.epoch !== epoch;
    const answer = checked ? lines(kind, result) : null;
    const hash = answer && digest(answer);
    // A stale answer is sent whole, for the report to say what differed.
    const whole = hash && hash !== phase.expected[kind] ? answer : null;
    send({ type: 'answer', searcher: `node-${slot}`, kind, epoch, settled: checked, overlap, ms, digest: hash, lines: whole });
  }
}

async function main() {
  const lines = readline.createInterface({ input: process.stdin });
  let sandbox = null;
  let running = [];
  let sampler = null;
  for await (const line of lines) {
    const message = JSON.parse(line);
    if (message.type === 'start') {
      sandbox = new Sandbox([message.root], { index: true });
      if (!(await sandbox.waitForIndex(300_000))) throw new Error(`the index did not get ready: ${JSON.stringify(sandbox.indexStatus())}`);
      const sample = () => send({ type: 'memory', rss: process.memoryUsage().rss, index_bytes: sandbox.indexStatus()?.memoryBytes ?? 0 });
      sample();
      sampler = setInterval(sample, 200);
      running = Array.from({ length: message.searchers }, (_, slot) => searcher(sandbox, slot, message.queries));
      send({ type: 'ready' });
    } else if (message.type === 'churn') {
      Object.assign(phase, { epoch: message.epoch, settled: false, churning: true });
      // The operation waits for this: an answer that resolves before this line ran was
      // computed before the operation began.
      send({ type: 'churning', epoch: message.epoch });
    } else if (message.type === 'finished') {
      phase.churning = false;
    } else if (message.type === 'settled') {
      Object.assign(phase, { epoch: message.epoch, settled: true, expected: message.expected });
    } else if (message.type === 'stop') {
      stopping = true;
      await Promise.all(running);
      clearInterval(sampler);
      sandbox?.close();
      send({ type: 'done' });
      process.exit(0);
    }
  }
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
