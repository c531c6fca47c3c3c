// The statistics step's first child: the synthetic warehouse of N messages (bench/synthetic-warehouse.ts),
// taken from the cache folder when it was built before, else built there. Its own process, so that the
// build's memory is not counted in the statistics' peak RSS.
// Usage: build-synthetic.js CACHE_DIR MESSAGES; prints {built, path, project, from, to, counts, seconds} as JSON.
import { mkdirSync } from 'node:fs';
import { cachedSyntheticWarehouse } from '../synthetic-warehouse.js';

const [cacheDir, messagesText] = process.argv.slice(2);
if (!cacheDir || !messagesText) {
  process.stderr.write('usage: build-synthetic.js CACHE_DIR MESSAGES\n');
  process.exit(2);
}
mkdirSync(cacheDir, { recursive: true });
const started = performance.now();
const synthetic = await cachedSyntheticWarehouse(cacheDir, {
  messages: Number(messagesText),
  onStep: (table, seconds) => process.stderr.write(`synthetic: ${table} in ${seconds.toFixed(1)} s\n`),
});
process.stdout.write(
  `${JSON.stringify({ ...synthetic, wallSeconds: (performance.now() - started) / 1000 })}\n`,
);
