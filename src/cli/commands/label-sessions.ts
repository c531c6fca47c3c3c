// `reporter-etl label-sessions`: the analyst picks sessions with SQL on the warehouse and the platform gets a
// session label on them (bulk labeling in batches). Dry run unless --apply; idempotent; every applied batch
// is recorded in label_writes before its request and settled after; the query runs in a read-only sandbox.
// The same factory builds `label-messages` (see label-messages.ts).

import { CLUSTER_ID, clusterMessagesQuery } from '../../analysis/unhandled/unhandled-sql.js';
import { loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { connectProject } from '../../manage/connect-project.js';
import { formatTable } from '../../manage/format-table.js';
import { checkTargetQuery, type LabelTarget } from '../../manage/select-label-targets.js';
import { useQuerySandboxAt } from '../../manage/use-query-sandbox.js';
import { configuredWarehouse, useWarehouseAt } from '../../manage/use-warehouse.js';
import { DEFAULT_BATCH_SIZE, type LabelWriteSummary, writeLabels } from '../../manage/write-labels.js';
import { intOption, parseCommandArgs, sqlOrSqlFile } from '../args.js';
import type { Command, CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireWarehouse } from '../require-warehouse.js';
import { sqlTimeLimit, sqlTimeoutHelp } from '../sql-time-limit.js';

const TEXT = {
  session: {
    name: 'label-sessions',
    noun: 'sessions',
    column: 'session_id',
    table: 'sessions',
    example: `select session_id from sessions
                   where channel_type = 'telegram' and question_count >= 20`,
    exampleFlat: "select session_id from sessions where channel_type = 'telegram' and question_count >= 20",
    label: 'Жалоба 😡',
    extraOptions: '',
    columns: ['session_id', 'start_time', 'channel_type', 'client_id', 'question_count', 'first_question'],
    times: ['start_time'],
    labelsTable: 'session_labels',
    filterSql: 'sessions/filter (SESSION_ID and SESSION_START_TIME, with labels)',
  },
  message: {
    name: 'label-messages',
    noun: 'messages',
    column: 'question_id',
    table: 'messages',
    example: `select question_id from messages
                   where nlp_class = '/CatchAll' and confidence < 0.2`,
    exampleFlat: "select question_id from messages where nlp_class = '/CatchAll' and confidence < 0.2",
    label: 'Неверно',
    extraOptions: `
  --group NAME         the label's group (message label names are unique only within a group;
                       needed when several groups have a label of that name)
  --cluster ID         instead of --sql: the messages of a cluster of unhandled questions (an id as
                       \`reporter-etl unhandled\` prints it, u-<12 hex digits>), in the latest run holding it`,
    columns: ['question_id', 'session_id', 'timestamp', 'question', 'nlp_class'],
    times: ['timestamp'],
    labelsTable: 'message_labels',
    filterSql: 'messages/filter (SESSION_ID, MESSAGE_TIME and LOG_LABELS)',
  },
} as const;

function helpOf(target: LabelTarget): string {
  const t = TEXT[target];
  return `reporter-etl ${t.name} --label NAME --sql "SELECT ${t.column} FROM ${t.table} WHERE ..." [--apply]

Puts a ${target} label on the ${t.noun} that a SQL query picks from the warehouse: you choose rows with
the full power of SQL over the synced data, the tool writes the label back to the platform.

  1. The query runs on the warehouse (REPORTER_DATA_DIR/warehouse.duckdb), opened read-only in a sandbox:
     it reads the warehouse's tables only (no files, URLs or extensions: read_csv, COPY, ATTACH, INSTALL
     are refused). It must be one SELECT returning a text column named ${t.column}; other columns are
     ignored. Anything else is refused before any request to the platform (exit 2), and so is an unknown
     label.
  2. ${t.noun[0]!.toUpperCase()}${t.noun.slice(1)} the warehouse already shows with the label are skipped; ids the warehouse does not know
     (or of another project) are skipped and reported.
  3. Each batch is checked on the platform first, with one read (${t.filterSql}): what already
     carries the label is not sent again${target === 'session' ? ', and sessions the platform does not know are skipped' : ''}.
  4. Without --apply (a dry run) nothing is written: it prints how many ${t.noun} would get the label
     and a sample of them. With --apply the rest is sent with bulk labeling (comparisonType CONTAINS:
     the label is added, the ${target}'s other labels stay), one request per batch, and every batch is
     recorded in the warehouse table label_writes (what, when, how many, result): as 'sending' before its
     request, then settled as 'success' or 'failed'.

The warehouse is opened only for each step (the query, the record of each batch), never while the
platform is asked, so a scheduled sync can run meanwhile.

Running it again changes nothing: the check of step 3 (and, after a sync, step 2) skips what is done.
A batch the platform refuses stops the run (exit 1, or 75 when the API was unavailable); it is recorded
as failed, and running the command again finishes the job. A batch sent but not settled (the warehouse
was locked meanwhile, or the run was killed) stays 'sending': the error names it, and the next run lists
it as unsettled (it may or may not have been applied; its platform check skips what was labelled).

The warehouse shows the new labels (table ${t.labelsTable}) after the next sync of their time range.
An incremental sync re-reads REPORTER_LOOKBACK_HOURS (48) before its watermark: for older ${t.noun} the
command prints the exact \`reporter-etl sync --from ... --to ...\` to run.

Options:
  --label NAME         the label to put, by name as the platform shows it (reporter-etl labels list)${t.extraOptions}
  --sql QUERY          the SELECT choosing the ${t.noun} (or --sql-file PATH)
  --sql-file PATH      read the query from a file
${sqlTimeoutHelp('--sql-timeout', 23)}
  --apply              write (default: dry run, nothing is written)
  --batch-size N       ids per bulk-labeling request (default ${DEFAULT_BATCH_SIZE})
  --sample N           rows shown (default 10)
  --project NAME       the configured project (needed when REPORTER_CONFIG lists several)
  --json               print the summary as JSON on stdout (logs stay on stderr)

Exit codes: 0 done (or dry run), 1 failed (a batch was refused), 2 bad input (query, label, options,
configuration; the query ran out of its time limit or of REPORTER_DUCKDB_MEMORY_LIMIT), 75 try again
later (API unavailable, the warehouse is locked by another process, or a writer needed it while the query
ran).

Examples:
  reporter-etl ${t.name} --label '${t.label}' \\
      --sql "${t.example}"
  reporter-etl ${t.name} --label '${t.label}' --sql-file picked.sql --apply
  duckdb data/warehouse.duckdb "select * from label_writes order by started_at desc"
`;
}

function printSummary(target: LabelTarget, s: LabelWriteSummary, io: CommandIo): void {
  const t = TEXT[target];
  const label = `${target} label ${JSON.stringify(s.label.name)}${s.label.group ? ` of group ${JSON.stringify(s.label.group)}` : ''} (id ${s.label.id})`;
  io.out(
    `${t.name}: ${s.dryRun ? 'dry run, nothing written' : `applied (label_writes run_id ${s.runId})`}; project ${s.project}, ${label}`,
  );
  const rows: [string, number, string][] = [
    [`${t.noun} selected by the query`, s.selected, ''],
    [
      'not in the warehouse (skipped)',
      s.unknown,
      s.unknown > 0 ? `e.g. ${s.unknownSample.slice(0, 3).join(', ')}` : '',
    ],
    ['already labelled in the warehouse', s.alreadyLabelledInWarehouse, ''],
    ['already labelled on the platform', s.alreadyLabelledOnPlatform, ''],
  ];
  if (target === 'session') rows.push(['not found on the platform (skipped)', s.missingOnPlatform, '']);
  const batches = s.batches.filter((b) => b.written > 0).length;
  rows.push(
    s.dryRun
      ? [`to write`, s.toWrite, `in ${batches} batch${batches === 1 ? '' : 'es'}`]
      : [`written`, s.written, `in ${batches} batch${batches === 1 ? '' : 'es'}`],
  );
  const width = Math.max(...rows.map((r) => r[0].length));
  const digits = Math.max(...rows.map((r) => String(r[1]).length));
  for (const [what, n, note] of rows)
    io.out(`  ${what.padEnd(width)}  ${String(n).padStart(digits)}${note ? `  ${note}` : ''}`.trimEnd());
  if (s.unsettled.length > 0) {
    io.out(
      `Unsettled batches of earlier runs (label_writes status 'sending'): they may or may not have been applied; the platform check of this run skips what they labelled:`,
    );
    for (const u of s.unsettled.slice(0, 10))
      io.out(
        `  run_id ${u.runId} batch ${u.batch} of ${u.batches}: ${u.ids} ${t.noun}, label ${JSON.stringify(u.label)}, sent ${u.startedAt}`,
      );
    if (s.unsettled.length > 10) io.out(`  and ${s.unsettled.length - 10} more`);
  }
  if (s.sample.length > 0) {
    io.out(s.dryRun ? `Sample of the ${t.noun} to label:` : `Sample of the ${t.noun} labelled:`);
    for (const line of formatTable(s.sample, { columns: t.columns, times: t.times })) io.out(line);
  }
  if (s.dryRun) {
    if (s.toWrite > 0) io.out('Nothing was written. Run again with --apply to write.');
    else io.out('Nothing to write: every selected row already carries the label.');
  } else if (s.sync) {
    io.out(
      s.sync.coveredByNextSync
        ? `The warehouse shows the labels after the next \`reporter-etl sync\`.`
        : `These ${t.noun} are older than the next incremental sync re-reads: to see the labels in the warehouse run\n  reporter-etl sync --from ${s.sync.from} --to ${s.sync.to}`,
    );
  } else io.out('Nothing to write: every selected row already carries the label.');
}

/** --sql / --sql-file, or (label-messages) the SELECT of a cluster's messages for --cluster ID. */
function targetQuery(values: { sql?: string; 'sql-file'?: string; cluster?: string }): string {
  if (values.cluster === undefined) return sqlOrSqlFile(values, 'the SELECT choosing the rows to label');
  if (values.sql !== undefined || values['sql-file'] !== undefined)
    throw new UsageError('--cluster picks the messages itself: give --cluster or --sql/--sql-file, not both');
  if (!CLUSTER_ID.test(values.cluster))
    throw new UsageError(
      `--cluster expects a cluster id as reporter-etl unhandled prints it (u- and 12 hex digits), got ${JSON.stringify(values.cluster)}`,
    );
  return clusterMessagesQuery(values.cluster);
}

export function createLabelWriteCommand(target: LabelTarget): Command {
  const t = TEXT[target];
  return {
    name: t.name,
    help: helpOf(target),
    async run(argv, io) {
      const { values } = parseCommandArgs(
        argv,
        {
          label: { type: 'string' },
          ...(target === 'message'
            ? { group: { type: 'string' as const }, cluster: { type: 'string' as const } }
            : {}),
          sql: { type: 'string' },
          'sql-file': { type: 'string' },
          'sql-timeout': { type: 'string' },
          apply: { type: 'boolean' },
          'batch-size': { type: 'string' },
          sample: { type: 'string' },
          project: { type: 'string' },
          json: { type: 'boolean' },
        },
        { refuse: `: quote the query, --sql "${t.exampleFlat}"` },
      );
      if (values.label === undefined || values.label.trim() === '')
        throw new UsageError(`--label is required: the ${target} label to put (reporter-etl labels list)`);
      const query = targetQuery({ ...values, cluster: (values as { cluster?: string }).cluster });
      const batchSize = intOption(values['batch-size'], 'batch-size', DEFAULT_BATCH_SIZE, 1);
      if (batchSize > 5000) throw new UsageError(`--batch-size expects at most 5000, got ${batchSize}`);
      const sampleSize = intOption(values.sample, 'sample', 10, 0);
      const group = (values as { group?: string }).group;

      const config = loadConfig();
      const log = createCommandLogger(config);
      requireWarehouse(config, t.name);
      // the warehouse is used per operation: no lock is held while the platform is asked; a dry run only reads
      const where = configuredWarehouse(config, values.apply ? 'write' : 'read', log);
      const useWarehouse = useWarehouseAt(where);
      // the analyst's query runs only in the read-only sandbox (no files, URLs, extensions, writes)
      const useSandbox = useQuerySandboxAt({
        ...where,
        timeLimit: sqlTimeLimit(values['sql-timeout'], '--sql-timeout', config),
      });
      // the query is checked before anything talks to the platform (the warehouse first: it is migrated)
      await useWarehouse(async () => undefined);
      await useSandbox((s) => checkTargetQuery(s, query, target));
      const connection = await connectProject(config, { project: values.project, log });
      let summary: LabelWriteSummary;
      try {
        summary = await writeLabels(
          {
            http: connection.http,
            useWarehouse,
            useSandbox,
            project: connection.project,
            log,
            pageSize: config.pageSize,
            lookbackMs: config.lookbackMs,
          },
          { target, label: values.label, group, query, apply: values.apply === true, batchSize, sampleSize },
        );
      } finally {
        await connection.close();
      }
      if (values.json) io.out(JSON.stringify(summary, null, 2));
      else printSummary(target, summary, io);
      return EXIT.ok;
    },
  };
}

export const labelSessionsCommand: Command = createLabelWriteCommand('session');
