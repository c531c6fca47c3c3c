// The webhooks-large step's floor: a bare DuckDB process (memory_limit 256MB and 2 threads, the receiver's)
// storing the rows of the step's 2,000 large bodies in a table of chatapi_webhook_events's shape, in the
// receiver's batches (bodies adding up to MAX_BYTES, one transaction each), with DuckDB's appender and the
// receiver's load settings, then a CHECKPOINT. The bodies are built batch by batch, never all at once.
// Usage: insert-large-json.js TARGET.duckdb MAX_BYTES; prints {rows, batches, wallMs} as JSON.
import { DuckDBInstance } from '@duckdb/node-api';
import { LARGE_BODY_COUNT, largeWebhookObject } from '../large-webhook-bodies.js';
import { appendLargeRows, CREATE_LARGE_EVENTS_TABLE, RECEIVER_LOAD_OPTIONS } from '../large-webhook-rows.js';

const [target, maxBytesArgument] = process.argv.slice(2);
const maxBytes = Number(maxBytesArgument);
if (!target || !Number.isInteger(maxBytes) || maxBytes < 1) {
  process.stderr.write('usage: insert-large-json.js TARGET.duckdb MAX_BYTES\n');
  process.exit(2);
}

// the receiver's settings while it loads (src/sources/webhooks/load-duckdb-settings.ts): DuckDB's defaults peak higher
const instance = await DuckDBInstance.create(target, RECEIVER_LOAD_OPTIONS);
const connection = await instance.connect();
await connection.run(CREATE_LARGE_EVENTS_TABLE);

type Row = ReturnType<typeof largeWebhookObject>;
const appendBatch = (batch: readonly Row[]) => appendLargeRows(connection, batch);

const started = performance.now();
let batch: Row[] = [];
let batchBytes = 0;
let batches = 0;
for (let i = 0; i < LARGE_BODY_COUNT; i++) {
  const object = largeWebhookObject(i, 'bench');
  const bytes = Buffer.byteLength(JSON.stringify([object]));
  if (batch.length > 0 && batchBytes + bytes > maxBytes) {
    await appendBatch(batch);
    batches++;
    batch = [];
    batchBytes = 0;
  }
  batch.push(object);
  batchBytes += bytes;
}
if (batch.length > 0) {
  await appendBatch(batch);
  batches++;
}
await connection.run('CHECKPOINT');
connection.closeSync();
instance.closeSync();
process.stdout.write(
  `${JSON.stringify({ rows: LARGE_BODY_COUNT, batches, wallMs: performance.now() - started })}\n`,
);
