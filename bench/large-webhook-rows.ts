// The rows of the large webhook bodies in a bare DuckDB table of chatapi_webhook_events's shape, appended as
// the receiver stores them (one transaction per batch, DuckDB's appender): shared by the webhooks-large
// step's floor (children/insert-large-json) and its checkpoint probe (children/checkpoint-large-rows).
import { type DuckDBConnection, DuckDBTimestampTZValue } from '@duckdb/node-api';
import type { largeWebhookObject } from './large-webhook-bodies.js';

/** DuckDB's settings in the receiver's process while it loads (src/sources/webhooks/load-duckdb-settings.ts). */
export const RECEIVER_LOAD_OPTIONS = {
  memory_limit: '256MB',
  threads: '2',
  checkpoint_threshold: '256MiB',
  allocator_flush_threshold: '1MiB',
  allocator_bulk_deallocation_flush_threshold: '1MiB',
};

export const CREATE_LARGE_EVENTS_TABLE = `CREATE TABLE chatapi_webhook_events (
  question_id VARCHAR NOT NULL, channel VARCHAR, client_id VARCHAR NOT NULL, "timestamp" TIMESTAMPTZ,
  received_at TIMESTAMPTZ NOT NULL, nlp_class VARCHAR, confidence DOUBLE, answer VARCHAR, block_form BOOLEAN,
  data JSON)`;

type LargeObject = ReturnType<typeof largeWebhookObject>;

/** Appends the rows of `batch` in one transaction. */
export async function appendLargeRows(
  connection: DuckDBConnection,
  batch: readonly LargeObject[],
): Promise<void> {
  const receivedAt = new DuckDBTimestampTZValue(BigInt(Date.now()) * 1000n);
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
