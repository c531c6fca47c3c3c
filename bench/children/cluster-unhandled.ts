// The unhandled-questions step's child. `build`: a warehouse of MESSAGES catch-all messages in the 30 days
// before 2026-11-01 (and a quarter as many in the 30 days before those), texts from the emulator's generator
// of unhandled questions (hidden topics with paraphrases, typos, numbers; one-off noise), 4 messages a
// session, 3 sessions a client, one message in 40 a transfer to an agent. `cluster`: one computeUnhandled
// run over the 30 days (the measured work: read, cluster, store). `floor`: the same period's distinct texts
// with their counts read into memory and nothing else (the query computeUnhandled starts with).
// Usage: cluster-unhandled.js build|cluster|floor WAREHOUSE.duckdb [MESSAGES]; prints JSON.

import { once } from 'node:events';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { computeUnhandled } from '../../src/analysis/unhandled/compute-unhandled.js';
import { TEXT_KEY_SHIFT } from '../../src/analysis/unhandled/text-keys.js';
import { SELECT_QUESTION_COUNTS } from '../../src/analysis/unhandled/unhandled-sql.js';
import { unhandledQuestion } from '../../src/emulator/unhandled-topics.js';
import { openWarehouse } from '../../src/warehouse/open-warehouse.js';

const DAY = 86_400_000;
const TO = Date.parse('2026-11-01T00:00:00Z');
const FROM = TO - 30 * DAY;
const SEED = 42;

const [mode, path, messagesText = '1000000'] = process.argv.slice(2);
if (!path || !['build', 'cluster', 'floor'].includes(mode ?? '')) {
  process.stderr.write('usage: cluster-unhandled.js build|cluster|floor WAREHOUSE.duckdb [MESSAGES]\n');
  process.exit(2);
}

/** Writes the messages as CSV (n, epoch ms, text) and loads them with DuckDB's CSV reader. */
async function build(messages: number): Promise<Record<string, number>> {
  mkdirSync(dirname(path!), { recursive: true });
  const csv = join(dirname(path!), 'unhandled-messages.csv');
  const out = createWriteStream(csv);
  const total = messages + Math.floor(messages / 4);
  for (let n = 0; n < total; n++) {
    const at =
      n < messages ? FROM + Math.floor((n / messages) * 30 * DAY) : FROM - 30 * DAY + (n - messages) * 10_000;
    const text = unhandledQuestion(SEED, Math.floor(n / 4), n % 4).text.replaceAll('"', '""');
    if (!out.write(`${n},${at},"${text}"\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  const warehouse = await openWarehouse({ path: path! });
  const source = `read_csv('${csv}', header = false, columns = {'n': 'BIGINT', 'ms': 'BIGINT', 'text': 'VARCHAR'})`;
  const channels = "['telegram', 'chatwidget', 'viber', 'vk']";
  await warehouse.execute([
    {
      sql: `INSERT INTO messages (project, question_id, session_id, "timestamp", question, nlp_class, is_transfer, is_livechat, channel_type, synced_at)
        SELECT 'bench', 'q' || n, 's' || (n // 4), make_timestamptz(ms * 1000), text, '/CatchAll', n % 40 = 3, false,
          ${channels}[1 + (n // 4) % 4], now() FROM ${source}`,
    },
    {
      sql: `INSERT INTO sessions (project, session_id, channel_type, client_id, start_time, synced_at)
        SELECT 'bench', 's' || (n // 4), ${channels}[1 + (n // 4) % 4], 'c' || (n // 12), make_timestamptz(min(ms) * 1000), now()
        FROM ${source} GROUP BY n // 4, n // 12`,
    },
  ]);
  const rows = await warehouse.query('SELECT count(*)::BIGINT AS n FROM messages');
  await warehouse.close();
  rmSync(csv);
  return { messages: Number(rows[0]!['n']) };
}

const started = performance.now();
let result: Record<string, unknown>;
if (mode === 'build') result = await build(Number(messagesText));
else {
  const warehouse = await openWarehouse({ path });
  const query = { project: 'bench', catchAllClass: '/CatchAll', from: FROM, to: TO };
  if (mode === 'cluster') {
    const run = await computeUnhandled(warehouse, query, new Date(TO));
    result = { unrecognised: run.unrecognised, clustered: run.clustered, clusters: run.clusters.length };
  } else {
    const rows = await warehouse.query(SELECT_QUESTION_COUNTS, {
      project: 'bench',
      channel: '',
      class: '/CatchAll',
      previous_from: new Date(FROM - 30 * DAY),
      from: new Date(FROM),
      to: new Date(TO),
      key_shift: TEXT_KEY_SHIFT,
    });
    result = { texts: rows.length };
  }
  await warehouse.close();
}
process.stdout.write(`${JSON.stringify({ ...result, seconds: (performance.now() - started) / 1000 })}\n`);
