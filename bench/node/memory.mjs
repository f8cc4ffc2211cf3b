// The Node half of bench/memory.py: one grep matching every line, limit 100, in this fresh
// process; prints the peak resident memory it added over the baseline after loading fsnative.
import { corpus, fsnative } from './measure.mjs';

const sandbox = new fsnative.Sandbox([corpus(process.argv[2])]);
const baselineKib = process.memoryUsage().rss / 1024;
const result = await sandbox.grep({ pattern: '^', limit: 100 });
const addedMib = (process.resourceUsage().maxRSS - baselineKib) / 1024;
console.log(JSON.stringify({ added_mib: addedMib, matches: result.totalMatches, files: result.files.length }));
