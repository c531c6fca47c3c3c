// The webhooks-large step's floor: a bare DuckDB process (memory_limit 256MB and 2 threads, the receiver's)
// storing the rows of the step's 2,000 large bodies in a table of chatapi_webhook_events's shape, in the
// receiver's batches (bodies adding up to MAX_BYTES, one transaction each), with DuckDB's appender and the
// receiver's load settings, then a CHECKPOINT. The bodies are built batch by batch, never all at once.
// Usage: insert-large-json.js TARGET.duckdb MAX_BYTES; prints {rows, batches, wallMs} as JSON.
import { DuckDBInstance, DuckDBTimestampTZValue } from '@duckdb/node-api';
import { LARGE_BODY_COUNT, largeWebhookObject } from '../large-webhook-bodies.js';

const [target, maxBytesArgument] = process.argv.slice(2);
const maxBytes = Number(maxBytesArgument);
if (!target || !Number.isInteger(maxBytes) || maxBytes < 1) {
  process.stderr.write('usage: insert-large-json.js TARGET.duckdb MAX_BYTES\n');
  process.exit(2);
}

// the receiver's settings while it loads (src/webhooks/load-duckdb-settings.ts): DuckDB's defaults peak higher
const instance = await DuckDBInstance.create(target, {
  memory_limit: '256MB',
  threads: '2',
  checkpoint_threshold: '256MiB',
  allocator_flush_threshold: '1MiB',
  allocator_bulk_deallocation_flush_threshold: '1MiB',
});
const connection = await instance.connect();
await connection.run(`CREATE TABLE chatapi_webhook_events (
  question_id VARCHAR NOT NULL, channel VARCHAR, client_id VARCHAR NOT NULL, "timestamp" TIMESTAMPTZ,
  received_at TIMESTAMPTZ NOT NULL, nlp_class VARCHAR, confidence DOUBLE, answer VARCHAR, block_form BOOLEAN,
  data JSON)`);

type Row = ReturnType<typeof largeWebhookObject>;
const receivedAt = new DuckDBTimestampTZValue(BigInt(Date.now()) * 1000n);

async function appendBatch(batch: readonly Row[]): Promise<void> {
  await connection.run('BEGIN');
  const appender = await connection.createAppender('chatapi_webhook_events');
  for (const object of batch) {
    const data = object['data'] as { nlpClass: string; confidence: number; answer: string };
    appender.appendVarchar(String(object['questionId']));
    appender.appendNull();
    appender.appendVarchar(String(object['clientId']));
    appender.appendNull();
    appender.appendTimestampTZ(receivedAt);
    appender.appendVarchar(data.nlpClass);
    appender.appendDouble(data.confidence);
    appender.appendVarchar(data.answer);
    appender.appendBoolean(false);
    appender.appendVarchar(JSON.stringify(data));
    appender.endRow();
  }
  appender.closeSync();
  await connection.run('COMMIT');
}

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
