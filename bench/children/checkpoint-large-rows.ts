// The webhooks-large step's checkpoint probe: what one checkpoint costs when the table already holds large
// rows. `fill N`: a new TARGET with N rows of the step's large bodies (batches of 20, checkpointed). `append`
// (the measured run): 20 more rows in one transaction, then a CHECKPOINT, with the receiver's settings.
// DuckDB rewrites the table's last row group (122,880 rows) whole at a checkpoint, so this run's peak RSS
// grows with the rows stored before it, not with the 1 MB it adds.
// Usage: checkpoint-large-rows.js TARGET.duckdb fill N | append; prints {rows, wallMs} as JSON.
import { DuckDBInstance } from '@duckdb/node-api';
import { largeWebhookObject } from '../large-webhook-bodies.js';
import { appendLargeRows, CREATE_LARGE_EVENTS_TABLE, RECEIVER_LOAD_OPTIONS } from '../large-webhook-rows.js';

const BATCH_ROWS = 20;
const [target, phase, countArgument] = process.argv.slice(2);
const count = Number(countArgument);
if (!target || !(phase === 'append' || (phase === 'fill' && Number.isInteger(count) && count > 0))) {
  process.stderr.write('usage: checkpoint-large-rows.js TARGET.duckdb fill N | append\n');
  process.exit(2);
}

const objects = (from: number, rows: number) =>
  Array.from({ length: rows }, (_, i) => largeWebhookObject(from + i, 'bench'));

const started = performance.now();
const instance = await DuckDBInstance.create(target, RECEIVER_LOAD_OPTIONS);
const connection = await instance.connect();
if (phase === 'fill') {
  await connection.run(CREATE_LARGE_EVENTS_TABLE);
  for (let from = 0; from < count; from += BATCH_ROWS)
    await appendLargeRows(connection, objects(from, Math.min(BATCH_ROWS, count - from)));
} else {
  const counted = await connection.runAndReadAll('SELECT count(*)::INTEGER FROM chatapi_webhook_events');
  const stored = Number(counted.getRows()[0]?.[0]);
  await appendLargeRows(connection, objects(stored, BATCH_ROWS));
}
await connection.run('CHECKPOINT');
const total = await connection.runAndReadAll('SELECT count(*)::INTEGER FROM chatapi_webhook_events');
connection.closeSync();
instance.closeSync();
process.stdout.write(
  `${JSON.stringify({ rows: Number(total.getRows()[0]?.[0]), wallMs: performance.now() - started })}\n`,
);
