// The webhook receiver's own table (migration 010): the Chat API's pushed payloads, once per question_id.
// Not exported (no project column). The Prompter's pushed answers are the Prompter's tables
// (src/sources/prompter/tables.ts), loaded by this receiver.
import type { TableSpec } from '../../warehouse/table-spec.js';

export const WEBHOOKS_TABLES: readonly TableSpec[] = [
  { name: 'chatapi_webhook_events', key: ['question_id'], write: 'replace-by-key', exported: false },
];
