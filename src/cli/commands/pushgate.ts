// `reporter-etl pushgate send`: fires the Pushgate pushbacks of the rows a SQL query picks from the warehouse
// (dry run unless --apply; batches; idempotent by eventId; every push recorded in pushgate_sends). The query
// runs in the read-only sandbox, as label-sessions' does.
import { loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { formatTable } from '../../manage/format-table.js';
import {
  DEFAULT_PUSH_BATCH_SIZE,
  type SendPushbacksSummary,
  sendPushbacks,
} from '../../manage/send-pushbacks.js';
import { useQuerySandboxAt } from '../../manage/use-query-sandbox.js';
import { configuredWarehouse, useWarehouseAt } from '../../manage/use-warehouse.js';
import { intOption, parseCommandArgs, sqlOrSqlFile } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireWarehouse } from '../require-warehouse.js';
import { sqlTimeLimit, sqlTimeoutHelp } from '../sql-time-limit.js';

const HELP = `reporter-etl pushgate send --sql "SELECT pushback_id, ... FROM ..." [--apply]

Fires Pushgate pushbacks: an event into the dialogs a SQL query picks from the warehouse, e.g. the
sessions whose bot stored its pushback id in sessionData ($analytics.setSessionData). The bot's script
then writes to the person or channel.

  1. The query runs on the warehouse in a read-only sandbox (its tables only: no files, URLs or
     extensions). It must be one SELECT returning a text column pushback_id; an optional column event
     names the event; every other column goes into the push's data.
  2. Each row is one push, POST <base>/pushgate/push_<pushback_id> with the JSON body
     {"eventId", "event"?, "data": {<the other columns>}}. eventId is a hash of the pushback id, the
     event, the data (and --key): rows that repeat are pushed once, and a row an earlier run sent is not
     sent again (rerunning changes nothing; a new --key sends again).
  3. Without --apply (a dry run) nothing is sent: it prints how many pushes would go and a sample.
     With --apply they go in batches; every push is recorded in the warehouse table pushgate_sends as
     'sending' before its request and settled as 'sent' or 'failed' after. A push left 'sending' (the
     run was killed) is sent again by the next run, with the same eventId.

Pushgate answers at REPORTER_PUSHGATE_BASE_URL (else the base of REPORTER_PUSHGATE_URL, else
REPORTER_BASE_URL). 429, 5xx and network faults are retried (REPORTER_RETRIES); an unknown or deleted
pushback (404) is recorded as failed and the others go on. Pushback ids are secrets: the output and the
logs show their first 4 characters only.

Options:
  --sql QUERY        the SELECT choosing the pushes (or --sql-file PATH)
  --sql-file PATH    read the query from a file
${sqlTimeoutHelp('--sql-timeout', 21)}
  --apply            send (default: dry run, nothing is sent)
  --batch-size N     pushes per batch (default ${DEFAULT_PUSH_BATCH_SIZE})
  --key TEXT         part of every eventId: the same rows with a new key are sent again
  --sample N         pushes shown (default 10)
  --json             print the summary as JSON on stdout

Exit codes: 0 done (or dry run), 1 some pushes failed (recorded; run again to retry them), 2 bad input
(query, options, no warehouse; the query ran out of its time limit or of REPORTER_DUCKDB_MEMORY_LIMIT),
75 the warehouse is locked by another process, or a writer needed it while the query ran.

Examples:
  reporter-etl pushgate send --sql "select d.value as pushback_id, 'survey' as event, s.client_id
      from session_data d join sessions s using (project, session_id)
      where d.key = 'pushbackId' and s.start_time > now() - interval 1 day"
  reporter-etl pushgate send --sql-file survey.sql --apply
  reporter-etl sql "select status, count(*) from pushgate_sends group by all"
`;

function printSummary(s: SendPushbacksSummary, io: CommandIo): void {
  io.out(
    `pushgate send: ${s.dryRun ? 'dry run, nothing sent' : `applied (pushgate_sends run_id ${s.runId})`}`,
  );
  const rows: [string, number][] = [
    ['rows selected by the query', s.selected],
    ['repeated rows (pushed once)', s.duplicates],
    ['already sent by an earlier run', s.alreadySent],
    ['unsettled by an earlier run (sent again)', s.unsettled],
    [
      s.dryRun ? `to send in ${s.batches} batch(es)` : `sent in ${s.batches} batch(es)`,
      s.dryRun ? s.toSend : s.sent,
    ],
  ];
  if (!s.dryRun) rows.push(['failed (recorded)', s.failed.length]);
  const width = Math.max(...rows.map((r) => r[0].length));
  for (const [what, n] of rows) io.out(`  ${what.padEnd(width)}  ${n}`);
  for (const f of s.failed.slice(0, 10))
    io.out(`  failed: pushback ${f.pushbackId} (event ${f.eventId}): ${f.error}`);
  if (s.sample.length > 0) {
    io.out(s.dryRun ? 'Sample of the pushes to send:' : 'Sample of the pushes sent:');
    for (const line of formatTable(s.sample as unknown as Record<string, unknown>[], {
      columns: ['pushback', 'eventId', 'event', 'data'],
    }))
      io.out(line);
  }
  if (s.dryRun)
    io.out(s.toSend > 0 ? 'Nothing was sent. Run again with --apply to send.' : 'Nothing to send.');
}

export const pushgateCommand: Command = {
  name: 'pushgate',
  help: HELP,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'send')
      throw new UsageError(
        `pushgate: expected the subcommand send (reporter-etl pushgate send --help), got ${sub ?? 'none'}`,
      );
    const { values } = parseCommandArgs(
      rest,
      {
        sql: { type: 'string' },
        'sql-file': { type: 'string' },
        'sql-timeout': { type: 'string' },
        apply: { type: 'boolean' },
        'batch-size': { type: 'string' },
        key: { type: 'string' },
        sample: { type: 'string' },
        json: { type: 'boolean' },
      },
      {
        refuse: `: quote the query, --sql "select value as pushback_id from session_data where key = 'pushbackId'"`,
      },
    );
    const query = sqlOrSqlFile(values, 'the SELECT choosing the pushes');
    const batchSize = intOption(values['batch-size'], 'batch-size', DEFAULT_PUSH_BATCH_SIZE, 1);
    const sampleSize = intOption(values.sample, 'sample', 10, 0);
    const config = loadConfig(process.env, { requireToken: false });
    const log = createCommandLogger(config);
    requireWarehouse(config, 'pushgate');
    const where = configuredWarehouse(config, values.apply ? 'write' : 'read', log);
    const useWarehouse = useWarehouseAt(where);
    // migrated first (pushgate_sends), then the analyst's query in the read-only sandbox
    await useWarehouse(async () => undefined);
    const summary = await sendPushbacks(
      {
        useWarehouse,
        useSandbox: useQuerySandboxAt({
          ...where,
          timeLimit: sqlTimeLimit(values['sql-timeout'], '--sql-timeout', config),
        }),
        baseUrl: config.pushgate.baseUrl,
        baseUrlSetting: config.pushgate.baseUrlSetting,
        log,
        timeoutMs: config.timeoutMs,
        retries: config.retries,
        concurrency: config.concurrency,
      },
      { query, apply: values.apply === true, batchSize, key: values.key, sampleSize },
    );
    if (values.json) io.out(JSON.stringify(summary, null, 2));
    else printSummary(summary, io);
    return summary.failed.length > 0 ? EXIT.failed : EXIT.ok;
  },
};
