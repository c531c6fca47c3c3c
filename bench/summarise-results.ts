// Turns the steps' figures into the rows of the report: ratios first (the machines are shared and noisy,
// ratios of runs side by side travel better than seconds), then absolute figures, then peak RSS, each
// with its target where the issue sets one. A row whose inputs were not measured is left out.
import type { Figure, StepFigures } from './bench-step.js';
import { remoteRows } from './steps/remote.js';
import { sideBySideRows } from './steps/side-by-side.js';
import { WAREHOUSE_MESSAGES, WHOLE_REPORT } from './steps/stats-queries.js';

/** The statistics step's targets other than a statement's 1 s (issue 46); null: no target. */
const STATS_TARGETS: Readonly<Record<string, number | null>> = {
  statsCli: 3,
  summaryReport: 10,
  statsPeakRss: 1000,
  statsCliPeakRss: 1000,
  summaryReportPeakRss: 1000,
  syntheticBuild: null,
  rollupsFill: null,
};

import { SYNC_LEVERS } from './steps/sync-levers.js';

export interface ResultRow {
  group: 'ratio' | 'absolute' | 'rss';
  name: string;
  value: number;
  unit: Figure['unit'];
  /** The target, e.g. "≤ 1.3"; absent where there is none. */
  target?: string;
  /** Whether the target is met at this size; absent without a target. */
  met?: boolean;
  note?: string;
}

type AllFigures = Record<string, StepFigures>;

function value(all: AllFigures, step: string, figure: string): number | undefined {
  const v = all[step]?.[figure]?.value;
  return v === null || v === undefined ? undefined : v;
}

function atMost(name: string, v: number, max: number, unit: Figure['unit'], extra: Partial<ResultRow>) {
  return {
    name,
    value: v,
    unit,
    target: `≤ ${max}${unit === 'ratio' ? '' : ` ${unit}`}`,
    met: v <= max,
    ...extra,
  };
}

/** Requests per 1,000 messages of the full sync (target ≤ 30), and the statuses-per-client lever's. */
function statusReadRows(all: AllFigures): ResultRow[] {
  const rows: ResultRow[] = [];
  const per1000 = value(all, 'full-sync', 'requestsPer1000Messages');
  if (per1000 !== undefined)
    rows.push({
      group: 'ratio',
      ...atMost('requests per 1,000 messages (full sync; lower is better)', per1000, 30, 'per 1000', {}),
    });
  const requests = value(all, 'sync-levers', 'statusReadRequests');
  const messages = value(all, 'sync-levers', 'statusReadMessages');
  const defaults = value(all, 'sync-levers', 'defaultsRequests');
  const defaultMessages = value(all, 'sync-levers', 'defaultsMessages');
  if (requests !== undefined && messages && defaults !== undefined && defaultMessages)
    rows.push({
      group: 'ratio',
      name: 'requests per 1,000 messages, statuses per client ÷ with the messages report tasks',
      value: requests / messages / (defaults / defaultMessages),
      unit: 'ratio',
      note: `levers step: ${((requests / messages) * 1000).toFixed(1)} against ${((defaults / defaultMessages) * 1000).toFixed(1)} per 1,000 (REPORTER_STATUS_READ=by-client)`,
    });
  const byClientWall = value(all, 'sync-levers', 'statusReadSeconds');
  const defaultWall = value(all, 'sync-levers', 'defaultsSeconds');
  if (byClientWall !== undefined && defaultWall)
    rows.push({
      group: 'ratio',
      name: 'full sync with statuses per client ÷ with the messages report tasks (wall time)',
      value: byClientWall / defaultWall,
      unit: 'ratio',
      note: 'levers step, the emulator answering at once: above 1 is what the reports save',
    });
  return rows;
}

export function summariseResults(all: AllFigures, messages: number | undefined): ResultRow[] {
  const rows: ResultRow[] = [];
  const at =
    messages === undefined ? '' : ` (this run: ${Math.round(messages).toLocaleString('en')} messages)`;
  const sync = value(all, 'full-sync', 'seconds');
  const transfer = value(all, 'transfer-floor', 'seconds');
  const load = value(all, 'load-floor', 'seconds');
  const incremental = value(all, 'incremental', 'seconds');
  if (sync !== undefined && transfer !== undefined)
    rows.push({ group: 'ratio', ...atMost('full sync ÷ transfer floor', sync / transfer, 1.3, 'ratio', {}) });
  const cappedSync = value(all, 'full-sync-capped', 'seconds');
  const cappedTransfer = value(all, 'transfer-floor-capped', 'seconds');
  const cap = value(all, 'full-sync-capped', 'maxPageSize');
  if (cappedSync !== undefined && cappedTransfer !== undefined)
    rows.push({
      group: 'ratio',
      ...atMost(
        `full sync ÷ transfer floor, pages capped at ${cap ?? '?'} rows`,
        cappedSync / cappedTransfer,
        1.3,
        'ratio',
        { note: 'the server answers at most that many rows a page, whatever REPORTER_PAGE_SIZE asks' },
      ),
    });
  for (const capped of [false, true]) {
    const syncCpu = value(all, capped ? 'full-sync-capped' : 'full-sync', 'cpuSeconds');
    const floorCpu = value(all, capped ? 'transfer-floor-capped' : 'transfer-floor', 'cpuSeconds');
    if (syncCpu !== undefined && floorCpu !== undefined)
      rows.push({
        group: 'ratio',
        ...atMost(
          `full sync's CPU ÷ transfer floor's CPU${capped ? `, pages capped at ${cap ?? '?'} rows` : ''}`,
          syncCpu / floorCpu,
          4,
          'ratio',
          { note: 'user + system seconds of each process' },
        ),
      });
  }
  // what parsing the bodies and storing the rows cost at least, whoever does them: the CPU no design can shed
  const fullSyncCpu = value(all, 'full-sync', 'cpuSeconds');
  const transferCpu = value(all, 'transfer-floor', 'cpuSeconds');
  const parseCpus = [
    value(all, 'parse-floor', 'cpuSeconds'),
    value(all, 'parse-floor', 'duckdbCpuSeconds'),
  ].filter((v) => v !== undefined);
  const parseCpu = parseCpus.length > 0 ? Math.min(...parseCpus) : undefined;
  const loadCpu = value(all, 'load-floor', 'cpuSeconds');
  if (parseCpu !== undefined && loadCpu !== undefined) {
    if (transferCpu !== undefined)
      rows.push({
        group: 'ratio',
        name: "floors' CPU (transfer with parse, plus load) ÷ transfer floor's CPU",
        value: (parseCpu + loadCpu) / transferCpu,
        unit: 'ratio',
        note: 'the least the CPU ratio above could be: the bodies parsed (the cheaper of V8 and DuckDB) and the rows appended, nothing else',
      });
    if (fullSyncCpu !== undefined)
      rows.push({
        group: 'ratio',
        name: "full sync's CPU ÷ floors' CPU (transfer with parse, plus load)",
        value: fullSyncCpu / (parseCpu + loadCpu),
        unit: 'ratio',
        note: 'what the sync spends beyond moving, parsing and storing: checks, mapping, staging, replacing by key',
      });
    rows.push(...nativeFloorRows(all, parseCpu + loadCpu, fullSyncCpu));
  }
  const leversDefault = value(all, 'sync-levers', 'defaultsCpuSeconds');
  for (const lever of SYNC_LEVERS) {
    const off = value(all, 'sync-levers', `${lever.id}CpuSeconds`);
    if (off !== undefined && leversDefault !== undefined)
      rows.push({
        group: 'ratio',
        name: `full sync's CPU with ${lever.what} ÷ with the defaults`,
        value: off / leversDefault,
        unit: 'ratio',
        note: `the lever, turned off with ${Object.entries(lever.env)
          .map(([k, v]) => `${k}=${v}`)
          .join(' ')}: above 1 is what it saves`,
      });
  }
  rows.push(...statusReadRows(all));
  if (sync !== undefined && transfer !== undefined && load !== undefined)
    rows.push({
      group: 'ratio',
      name: 'full sync ÷ (transfer floor + load floor)',
      value: sync / (transfer + load),
      unit: 'ratio',
      note: 'what the sync costs beyond moving the bytes and storing the rows',
    });
  const incrementalFloor = value(all, 'incremental', 'transferFloorSeconds');
  if (incremental !== undefined && incrementalFloor !== undefined)
    rows.push({
      group: 'ratio',
      name: 'incremental ÷ its transfer floor',
      value: incremental / incrementalFloor,
      unit: 'ratio',
      note: 'the same requests replayed with bare undici',
    });
  if (incremental !== undefined && sync !== undefined)
    rows.push({
      group: 'ratio',
      name: 'incremental ÷ full sync',
      value: incremental / sync,
      unit: 'ratio',
      note: 'nothing changed: it re-reads the look-back only',
    });
  const xlsx = value(all, 'xlsx-export', 'seconds');
  const xlsxFloor = value(all, 'xlsx-export', 'floorSeconds');
  const xlsxRows = value(all, 'xlsx-export', 'rows');
  const rowsAt =
    xlsxRows === undefined ? '' : ` (this run: ${Math.round(xlsxRows).toLocaleString('en')} rows)`;
  if (xlsx !== undefined && xlsxFloor !== undefined)
    rows.push({
      group: 'ratio',
      ...atMost('messages XLSX export ÷ bare exceljs floor', xlsx / xlsxFloor, 1.2, 'ratio', {
        note: 'the same rows and styles, addRow().commit() per row',
      }),
    });

  const withReaders = value(all, 'concurrent-readers', 'syncRatio');
  if (withReaders !== undefined)
    rows.push({
      group: 'ratio',
      ...atMost('full sync beside a stats --json loop ÷ full sync alone', withReaders, 1.1, 'ratio', {
        note: 'another process runs stats --json over and over while the sync runs',
      }),
    });
  const sharing = value(all, 'concurrent-readers', 'sharingRatio');
  if (sharing !== undefined)
    rows.push({
      group: 'ratio',
      ...atMost(
        'full sync beside readers of its warehouse ÷ beside readers of a copy',
        sharing,
        1.1,
        'ratio',
        {
          note: 'what sharing the warehouse costs, with the CPU the readers take from the 2 cores in both',
        },
      ),
    });
  const control = value(all, 'concurrent-readers', 'controlSyncRatio');
  if (control !== undefined)
    rows.push({
      group: 'ratio',
      name: 'full sync beside readers of a copy ÷ full sync alone',
      value: control,
      unit: 'ratio',
      note: 'what sharing 2 cores with the readers costs, nothing else shared',
    });
  const readerP95 = value(all, 'concurrent-readers', 'readerWaitP95');
  if (readerP95 !== undefined)
    rows.push({
      group: 'absolute',
      ...atMost('stats --json beside a full sync: lock wait p95', readerP95, 5, 's', {
        note: 'summed per run, from the waitedMs of its log lines',
      }),
    });

  const webhookRatio = value(all, 'webhooks', 'p99Ratio');
  if (webhookRatio !== undefined)
    rows.push({
      group: 'ratio',
      name: 'webhook receiver p99 ÷ bare HTTP server p99 (500 requests/s)',
      value: webhookRatio,
      unit: 'ratio',
      note: 'the cost of the spool (a write and an fdatasync per burst) and the validation',
    });
  const webhookP99 = value(all, 'webhooks', 'p99Ms');
  if (webhookP99 !== undefined)
    rows.push({
      group: 'absolute',
      ...atMost('webhook receiver at 500 requests/s: latency p99', webhookP99, 50, 'ms', {
        note: 'from the scheduled send to the 200, the request on disk (fdatasync) before it',
      }),
    });
  const webhookSlowP99 = value(all, 'webhooks', 'slowP99Ms');
  if (webhookSlowP99 !== undefined)
    rows.push({
      group: 'absolute',
      ...atMost(
        'webhook receiver at 500 requests/s beside 5,000 slow connections: latency p99',
        webhookSlowP99,
        50,
        'ms',
        { note: 'the same load while connections that send a partial header and hold it are open' },
      ),
    });
  rows.push(...remoteRows((figure) => value(all, 'remote', figure)));
  rows.push(...sideBySideRows((figure) => value(all, 'side-by-side', figure)));
  const absolute: [string, string, string, string?][] = [
    ['full-sync', 'seconds', 'full sync'],
    ['transfer-floor', 'seconds', 'transfer floor'],
    ['load-floor', 'seconds', 'load floor'],
    ['full-sync', 'cpuSeconds', 'CPU seconds of the full sync process (the emulator runs beside it)'],
    ['transfer-floor', 'cpuSeconds', 'CPU seconds of the transfer floor process'],
    ['parse-floor', 'cpuSeconds', 'CPU seconds of the parse floor process (bodies decoded and JSON.parse-d)'],
    ['parse-floor', 'duckdbCpuSeconds', 'CPU seconds of the parse floor process (bodies parsed by DuckDB)'],
    ['load-floor', 'cpuSeconds', 'CPU seconds of the load floor (appending and CHECKPOINT)'],
    [
      'native-floor',
      'cpuSeconds',
      'CPU seconds of the native prototype process (DuckDB parses, checks, maps and inserts the pages)',
    ],
    ['full-sync-capped', 'cpuSeconds', 'CPU seconds of the full sync process, pages capped'],
    ['transfer-floor-capped', 'cpuSeconds', 'CPU seconds of the transfer floor process, pages capped'],
    ['sync-levers', 'defaultsCpuSeconds', 'CPU seconds of the full sync with the defaults (levers step)'],
    ...SYNC_LEVERS.map(
      (l) =>
        ['sync-levers', `${l.id}CpuSeconds`, `CPU seconds of the full sync with ${l.what}`] as [
          string,
          string,
          string,
        ],
    ),
    [
      'full-sync',
      'requestsPer1000IfStatusesPerSession',
      'requests per 1,000 messages had statuses been read per session (messages/by-session, before)',
    ],
    [
      'full-sync',
      'requestsPer1000IfStatusesPerClientPerWindow',
      'requests per 1,000 messages had statuses been read per client and window (by-client, no look-ahead)',
    ],
    ['full-sync', 'requests', 'requests (full sync)'],
    [
      'full-sync',
      'statusRequests',
      'status requests (full sync: messages report tasks; by-client, by-session as fallback)',
    ],
    ['full-sync', 'statusReportRequests', 'requests of the messages report tasks (full sync)'],
    ['full-sync-capped', 'requestsPer1000Messages', 'requests per 1,000 messages (full sync, pages capped)'],
    [
      'full-sync-capped',
      'requestsPer1000IfStatusesPerSession',
      'requests per 1,000 messages had statuses been read per session (pages capped)',
    ],
    ['full-sync', 'messages', 'messages synced'],
    ['full-sync-capped', 'seconds', 'full sync, pages capped'],
    ['transfer-floor-capped', 'seconds', 'transfer floor, pages capped'],
    ['full-sync-capped', 'requests', 'requests (full sync, pages capped)'],
    ['incremental', 'transferFloorSeconds', 'incremental transfer floor'],
    ['incremental', 'requests', 'requests (incremental)'],
    ['incremental', 'messagesReread', 'messages written again (incremental, look-back)'],
    ['incremental', 'wholeSeconds', 'incremental sync, look-back read whole (REPORTER_LOOKBACK_READ=whole)'],
    ['incremental', 'wholeMessagesReread', 'messages written again (incremental, look-back read whole)'],
    ['incremental', 'wholeRequests', 'requests (incremental, look-back read whole)'],
    ['load-floor', 'rowsPerSecond', 'load floor rows per second (all tables)'],
    ['xlsx-export', 'seconds', 'messages XLSX export (reporter-etl report messages)'],
    ['xlsx-export', 'floorSeconds', 'bare exceljs floor (same rows, same styles)'],
    ['xlsx-export', 'rows', 'XLSX rows written (each file)'],
    ['concurrent-readers', 'readerWaitP50', 'stats --json beside a full sync: lock wait p50'],
    ['concurrent-readers', 'readerWaitMax', 'stats --json beside a full sync: lock wait max'],
    ['concurrent-readers', 'readerRuns', 'stats --json runs beside the full sync'],
    ['concurrent-readers', 'syncSeconds', 'full sync beside the stats --json loop'],
    ['concurrent-readers', 'controlSyncSeconds', 'full sync beside a stats --json loop reading a copy'],
    ['concurrent-readers', 'syncCpuRatio', "full sync's CPU seconds beside the readers ÷ alone"],
    ['concurrent-readers', 'readerCpuSeconds', 'CPU seconds of the stats --json runs beside the full sync'],
    ['concurrent-readers', 'readerFailures', 'stats --json runs that gave up waiting (exit 75)'],
    ['exports', 'parquetRowsPerSecond', 'Parquet lake export rows per second (all tables)'],
    ['exports', 'lakeMb', 'Parquet lake size'],
    ['exports', 'warehouseMb', 'warehouse file it was written from'],
    ['exports', 'lakePartitions', 'Parquet lake partitions'],
    ['exports', 'incrementalPartitionsWritten', 'Parquet partitions rewritten after an incremental sync'],
    ['exports', 'incrementalPartitionsUnchanged', 'Parquet partitions left alone after an incremental sync'],
    ['exports', 'clickhouseRowsPerSecond', 'ClickHouse replication rows per second (all tables)'],
    ['webhooks', 'p50Ms', 'webhook receiver at 500 requests/s: latency p50'],
    ['webhooks', 'maxMs', 'webhook receiver at 500 requests/s: latency max'],
    ['webhooks', 'floorP50Ms', 'bare HTTP server (stores nothing), same load: latency p50'],
    ['webhooks', 'floorP99Ms', 'bare HTTP server (stores nothing), same load: latency p99'],
    ['webhooks', 'acknowledged', 'webhook requests answered 200'],
    ['webhooks', 'failures', 'webhook requests not answered 200'],
    ['webhooks', 'slowP50Ms', 'webhook receiver beside 5,000 slow connections: latency p50'],
    ['webhooks', 'slowMaxMs', 'webhook receiver beside 5,000 slow connections: latency max'],
    ['webhooks', 'slowFailures', 'webhook requests beside the slow connections not answered 200'],
    ['webhooks', 'slowHeldMean', 'slow connections open during that load (mean)'],
    ['webhooks', 'slowDropped', 'slow connections the receiver closed during that load'],
    ['webhooks', 'slowAcknowledged', 'webhook requests beside the slow connections answered 200'],
    ['webhooks', 'stored', 'webhook rows in the warehouse after SIGTERM (must equal the 200s of both loads)'],
    ['remote', 'adaptiveSeconds', 'full sync against a remote platform (60 ms, 120 requests/s)'],
    ['remote', 'floorSeconds', 'its floor there (requests answered at the rate limit)'],
    ['remote', 'adaptiveRequests', 'requests (full sync against a remote platform)'],
    ['remote', 'adaptiveConcurrencyReached', 'requests in flight reached (remote, adapting)'],
    ['remote', 'adaptiveThrottled', 'answers 429 (remote, adapting, by the rate limit)'],
    ['remote', 'random429Seconds', 'full sync against a remote platform with 1 % random 429s'],
    ['remote', 'random429Throttled', 'answers 429 (remote, 1 % random 429s and the rate limit)'],
    ['remote', 'fixed4Seconds', 'full sync against a remote platform, a fixed 4 in flight'],
    ['remote', 'nearSeconds', 'the same sync against the emulator near (no latency, no limit)'],
    ['remote', 'adaptiveCpuSeconds', 'CPU of the remote sync process (user + system)'],
    ['remote', 'nearCpuSeconds', 'CPU of the near sync process (user + system)'],
    [
      'remote',
      'variedSeconds',
      "full sync against a remote platform whose report files are not the emulator's",
    ],
    ['remote', 'variedCpuSeconds', 'CPU of that sync process (user + system)'],
    ['remote', 'variedPerClientRequests', 'its statuses requests per client (by-client, by-session)'],
    ['side-by-side', 'carefulSeconds', 'a careful client through the remote proxy (wall)'],
    ['side-by-side', 'carefulRequests', 'requests of the careful client'],
    ['side-by-side', 'syncSeconds', 'reporter-etl sync through the remote proxy (wall)'],
    ['side-by-side', 'syncRequests', 'requests of reporter-etl sync there'],
    ['side-by-side', 'perClientSeconds', 'the same with the messages reports refused (wall)'],
    [
      'side-by-side',
      'perClientRequests',
      'requests of the sync with the reports refused (statuses per client)',
    ],
    ['side-by-side', 'variedSeconds', "the sync there against report files not the emulator's (wall)"],
    ['side-by-side', 'variedPerClientRequests', 'its statuses requests per client (by-client, by-session)'],
  ];
  for (const [step, figure, name] of absolute) {
    const v = value(all, step, figure);
    if (v !== undefined) rows.push({ group: 'absolute', name, value: v, unit: all[step]![figure]!.unit });
  }
  // the target is the run's own time (durationMs of sync --json); the process's wall time adds Node's start-up
  const incrementalInside = value(all, 'incremental', 'syncSeconds');
  if (incremental !== undefined)
    rows.push({
      group: 'absolute',
      ...(incrementalInside === undefined
        ? atMost('incremental sync, nothing changed', incremental, 2, 's', {
            note: `target at 1,000,000 messages${at}`,
          })
        : {
            name: 'incremental sync, nothing changed (the process, wall)',
            value: incremental,
            unit: 's',
            note: 'with Node loading the CLI',
          }),
    });
  if (incrementalInside !== undefined)
    rows.push({
      group: 'absolute',
      ...atMost('incremental sync, nothing changed, inside the process', incrementalInside, 2, 's', {
        note: `durationMs of sync --json; target at 1,000,000 messages${at}`,
      }),
    });
  const statsAt = value(all, 'stats', WAREHOUSE_MESSAGES);
  const statsNote = `${statsAt === undefined ? '' : `${Math.round(statsAt).toLocaleString('en')} messages, `}whole window, best of 3`;
  for (const [name, figure] of Object.entries(all['stats'] ?? {})) {
    if (figure.value === null || name === WAREHOUSE_MESSAGES) continue;
    const note = figure.note ? `${statsNote}; ${figure.note}` : statsNote;
    const target = STATS_TARGETS[name];
    if (name === WHOLE_REPORT)
      rows.push({ group: 'absolute', name: 'stats: the whole report', value: figure.value, unit: 's', note });
    else if (target === null)
      rows.push({ group: 'absolute', name: `stats: ${name}`, value: figure.value, unit: figure.unit, note });
    else
      rows.push({
        group: 'absolute',
        ...atMost(`stats: ${name}`, figure.value, target ?? 1, figure.unit, { note }),
      });
  }

  for (const [step, name] of [
    ['full-sync', 'peak RSS, full sync'],
    ['incremental', 'peak RSS, incremental sync'],
  ] as const) {
    const v = value(all, step, 'peakRssMb');
    if (v !== undefined)
      rows.push({
        group: 'rss',
        ...atMost(name, v, 400, 'MB', { note: `target at 1,000,000 messages${at}` }),
      });
  }
  for (const [figure, name] of [
    ['adaptivePeakRssMb', 'peak RSS, full sync against a remote platform (reads ahead)'],
    ['nearPeakRssMb', 'peak RSS, the same sync near'],
    ['variedPeakRssMb', "peak RSS, the remote sync against report files not the emulator's"],
  ] as const) {
    const v = value(all, 'remote', figure);
    if (v !== undefined) rows.push({ group: 'rss', name, value: v, unit: 'MB' });
  }
  const transferRss = value(all, 'transfer-floor', 'peakRssMb');
  if (transferRss !== undefined)
    rows.push({ group: 'rss', name: 'peak RSS, transfer floor', value: transferRss, unit: 'MB' });
  const exportRss = value(all, 'xlsx-export', 'peakRssMb');
  if (exportRss !== undefined)
    rows.push({
      group: 'rss',
      ...atMost('peak RSS, messages XLSX export', exportRss, 300, 'MB', {
        note: `target at 1,000,000 rows${rowsAt}`,
      }),
    });
  const floorRss = value(all, 'xlsx-export', 'floorPeakRssMb');
  if (floorRss !== undefined)
    rows.push({ group: 'rss', name: 'peak RSS, bare exceljs floor', value: floorRss, unit: 'MB' });
  return [...rows, ...unhandledRows(all)];
}

function cpuRow(cpu: number | undefined, note: string): ResultRow[] {
  if (cpu === undefined) return [];
  return [
    {
      group: 'absolute',
      name: 'unhandled clusters: CPU seconds (user + system)',
      value: cpu,
      unit: 's',
      note,
    },
  ];
}

/** The unhandled step's rows: against its read floor, its time and its peak RSS with the issue's targets. */
function unhandledRows(all: AllFigures): ResultRow[] {
  const seconds = value(all, 'unhandled', 'seconds');
  const floor = value(all, 'unhandled', 'floorSeconds');
  const rss = value(all, 'unhandled', 'peakRssMb');
  const messages = value(all, 'unhandled', 'messages');
  if (seconds === undefined || floor === undefined || rss === undefined || messages === undefined) return [];
  const note = `${Math.round(messages).toLocaleString('en')} catch-all messages, ${Math.round(value(all, 'unhandled', 'texts') ?? 0).toLocaleString('en')} distinct texts`;
  return [
    {
      group: 'ratio',
      name: 'unhandled clusters ÷ reading their texts',
      value: seconds / floor,
      unit: 'ratio',
      note,
    },
    {
      group: 'absolute',
      ...atMost('unhandled clusters of the period (computeUnhandled)', seconds, 60, 's', { note }),
    },
    ...cpuRow(value(all, 'unhandled', 'cpuSeconds'), note),
    { group: 'rss', ...atMost('peak RSS, unhandled clusters', rss, 1000, 'MB', { note }) },
  ];
}

export function formatFigure(v: number, unit: Figure['unit']): string {
  if (unit === 'count' || unit === 'rows/s') return Math.round(v).toLocaleString('en');
  if (unit === 'ratio') return v.toFixed(2);
  if (unit === 'MB') return `${v.toFixed(0)} MB`;
  if (unit === 'per 1000') return v.toFixed(1);
  if (unit === 'ms') return `${v.toFixed(1)} ms`;
  return `${v.toFixed(2)} s`;
}

/** The table printed on stdout: ratios, then absolute figures, then RSS. */
export function renderResultTable(rows: readonly ResultRow[]): string {
  const lines: string[][] = [['', 'value', 'target', 'met', 'note']];
  for (const group of ['ratio', 'absolute', 'rss'] as const) {
    const inGroup = rows.filter((r) => r.group === group);
    if (inGroup.length === 0) continue;
    lines.push([
      `— ${group === 'rss' ? 'peak RSS' : group === 'ratio' ? 'ratios' : 'absolute'} —`,
      '',
      '',
      '',
      '',
    ]);
    for (const r of inGroup)
      lines.push([
        r.name,
        formatFigure(r.value, r.unit),
        r.target ?? '',
        r.met === undefined ? '' : r.met ? 'yes' : 'NO',
        r.note ?? '',
      ]);
  }
  const widths = [0, 1, 2, 3].map((c) => Math.max(...lines.map((l) => l[c]!.length)));
  return lines
    .map((l) =>
      l
        .map((cell, c) => (c === 4 ? cell : c === 1 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The native-floor prototype against the floors' CPU and against the full sync (issue 34: sync ≤ 1.5 × floors). */
function nativeFloorRows(all: AllFigures, floorsCpu: number, fullSyncCpu: number | undefined): ResultRow[] {
  const nativeCpu = value(all, 'native-floor', 'cpuSeconds');
  if (nativeCpu === undefined) return [];
  const rows: ResultRow[] = [
    {
      group: 'ratio',
      name: "native prototype's CPU ÷ floors' CPU (transfer with parse, plus load)",
      value: nativeCpu / floorsCpu,
      unit: 'ratio',
      note: 'DuckDB parsing, checking, mapping and inserting the pages into an empty warehouse (no staging, no delete by key): a lower bound of that design',
    },
  ];
  if (fullSyncCpu !== undefined)
    rows.push({
      group: 'ratio',
      name: "full sync's CPU ÷ native prototype's CPU",
      value: fullSyncCpu / nativeCpu,
      unit: 'ratio',
      note: 'above 1 is what that design could save at most',
    });
  return rows;
}
