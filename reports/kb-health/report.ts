// The `kb-health` report: the knowledge base projects as `kb sync` last saw them (each project's latest
// snapshot taken before the period's end, compared with the snapshot before it): sources by status, the
// failures with their errors, stale integrations (no successful sync for more than STALE_FACTOR× their
// interval), API keys expiring within EXPIRY_DAYS days, and the sources that changed since the previous
// snapshot. Small: written in memory with charts, or as one HTML page. --project does not apply.
import { codeInWords } from '../../src/report/code-words.js';
import type {
  CellInput,
  ChartSpec,
  ColumnSpec,
  ReportDefinition,
  SheetSource,
} from '../../src/report/report-definition.js';

/** An auto-syncing integration is stale after this many of its intervals without a successful sync. */
export const STALE_FACTOR = 2;
/** A key is expiring when it expires within this many days of the snapshot. */
export const EXPIRY_DAYS = 14;

const col = (key: string, header: string, format: ColumnSpec['format'], width?: number): ColumnSpec =>
  width === undefined ? { key, header, format } : { key, header, format, width };

type Row = Record<string, CellInput>;
const pick = (rows: readonly Row[], keys: readonly string[]): CellInput[][] =>
  rows.map((r) => keys.map((k) => r[k]));

/** The order the contract gives the source statuses (others after them, by name). */
const STATUS_ORDER = ['READY_TO_INGEST', 'PROCESSING', 'INGESTED', 'FAILED_TO_INGEST'];
const CHANGE_KINDS = ['new failure', 'status changed', 'added', 'removed'];

export const kbHealthReport: ReportDefinition = {
  id: 'kb-health',
  title: 'Knowledge base health',
  description:
    'the knowledge base projects’ latest snapshot (kb sync): sources by status, failures, stale integrations, expiring keys, changes',
  mode: 'memory',
  formats: ['xlsx', 'html'],
  reads: 'kb',
  defaultPeriod: 'today',
  async build(context) {
    const [snapshots, byStatus, failures, stale, expiring, changes] = await Promise.all([
      context.querySql('snapshots'),
      context.querySql('sources-by-status'),
      context.querySql('failures'),
      context.querySql('stale-integrations', { factor: STALE_FACTOR }),
      context.querySql('expiring-keys', { days: EXPIRY_DAYS }),
      context.querySql('changes'),
    ]);
    const health = computeHealthRows(snapshots, byStatus, stale, expiring, changes);
    const withoutAdmin = snapshots.some((s) => s['with_admin'] === false);
    const sheets: SheetSource[] = [
      describeHealthSheet(health),
      describeSourcesByStatusSheet(byStatus),
      describeFailuresSheet(failures),
      describeStaleIntegrationsSheet(stale),
      describeExpiringKeysSheet(expiring, withoutAdmin),
      describeChangesSheet(changes),
    ];
    // no snapshot: "No data for <period>" on every sheet, not "no source failed to ingest"
    return {
      sheets,
      charts: charts(health, byStatus, changes),
      empty: snapshots.length === 0,
      noDataReason: 'no knowledge base snapshot before its end',
      noDataCommand: 'reporter-etl kb sync',
    };
  },
};

/** One row per project's snapshot: its counts by status, stale integrations, expiring keys and changes. */
function computeHealthRows(
  snapshots: readonly Row[],
  byStatus: readonly Row[],
  stale: readonly Row[],
  expiring: readonly Row[],
  changes: readonly Row[],
): Row[] {
  const count = (rows: readonly Row[], project: unknown, where: (r: Row) => boolean = () => true) =>
    rows.filter((r) => r['project_name'] === project && where(r)).length;
  const sourcesOf = (project: unknown, status: string) =>
    Number(byStatus.find((r) => r['project_name'] === project && r['status'] === status)?.['sources'] ?? 0);
  return snapshots.map((s) => {
    const p = s['project_name'];
    const hasPrevious = s['previous_snapshot_id'] !== null;
    return {
      ...s,
      ingested: sourcesOf(p, 'INGESTED'),
      in_progress: sourcesOf(p, 'READY_TO_INGEST') + sourcesOf(p, 'PROCESSING'),
      failed: sourcesOf(p, 'FAILED_TO_INGEST'),
      stale_integrations: count(stale, p),
      expiring_keys: s['with_admin'] ? count(expiring, p) : null,
      new_failures: hasPrevious ? count(changes, p, (r) => r['change'] === 'new failure') : null,
      status_changes: hasPrevious ? count(changes, p, (r) => r['change'] === 'status changed') : null,
      added_sources: hasPrevious ? count(changes, p, (r) => r['change'] === 'added') : null,
      removed_sources: hasPrevious ? count(changes, p, (r) => r['change'] === 'removed') : null,
    } as Row;
  });
}

/** The Health sheet: one row per project, its latest snapshot against the previous one. */
function describeHealthSheet(health: readonly Row[]): SheetSource {
  return {
    name: 'Health',
    columns: [
      col('project_name', 'Project', 'text'),
      col('project_id', 'Project ID', 'id'),
      col('taken_at', 'Snapshot taken at', 'datetime'),
      col('previous_taken_at', 'Previous snapshot', 'datetime'),
      col('sources', 'Sources', 'integer'),
      col('ingested', 'Ingested', 'integer'),
      col('in_progress', 'Waiting or processing', 'integer'),
      col('failed', 'Failed to ingest', 'integer'),
      col('integrations', 'Integrations', 'integer'),
      col('stale_integrations', `Stale integrations (>${STALE_FACTOR}× interval)`, 'integer'),
      col('api_keys', 'API keys', 'integer'),
      col('expiring_keys', `Keys expiring in ${EXPIRY_DAYS} days`, 'integer'),
      col('new_failures', 'New failures', 'integer'),
      col('status_changes', 'Other status changes', 'integer'),
      col('added_sources', 'Added sources', 'integer'),
      col('removed_sources', 'Removed sources', 'integer'),
      col('rejects', 'Quarantined records', 'integer'),
      col('generation_model', 'Generation model', 'text'),
      col('rpm_limit', 'rpmLimit', 'integer'),
      col('snapshot_id', 'Snapshot ID', 'text'),
    ],
    rows: [
      pick(health, [
        'project_name',
        'project_id',
        'taken_at',
        'previous_taken_at',
        'sources',
        'ingested',
        'in_progress',
        'failed',
        'integrations',
        'stale_integrations',
        'api_keys',
        'expiring_keys',
        'new_failures',
        'status_changes',
        'added_sources',
        'removed_sources',
        'rejects',
        'generation_model',
        'rpm_limit',
        'snapshot_id',
      ]),
    ],
  };
}

/** The sheet of sources counted by status. */
function describeSourcesByStatusSheet(byStatus: readonly Row[]): SheetSource {
  return {
    name: 'Sources by status',
    columns: [
      col('project_name', 'Project', 'text'),
      col('status', 'Status', 'code'),
      col('sources', 'Sources', 'integer'),
    ],
    rows: [pick(byStatus, ['project_name', 'status', 'sources'])],
  };
}

/** The sheet of the sources that failed to ingest, with their errors. */
function describeFailuresSheet(failures: readonly Row[]): SheetSource {
  return {
    name: 'Failures',
    columns: [
      col('project_name', 'Project', 'text'),
      col('source_id', 'Source ID', 'id'),
      col('name', 'Source', 'text', 40),
      col('type', 'Type', 'text'),
      col('last_error', 'Last error', 'text', 80),
      col('created_at', 'Created', 'datetime'),
      col('version', 'Version', 'text'),
      col('new_failure', 'New since the previous snapshot', 'boolean'),
    ],
    rows: [
      pick(failures, [
        'project_name',
        'source_id',
        'name',
        'type',
        'last_error',
        'created_at',
        'version',
        'new_failure',
      ]),
    ],
    emptyNote: 'No source failed to ingest',
  };
}

/** The sheet of the auto-syncing integrations without a recent successful sync. */
function describeStaleIntegrationsSheet(stale: readonly Row[]): SheetSource {
  return {
    name: 'Stale integrations',
    columns: [
      col('project_name', 'Project', 'text'),
      // text: an int64 beyond 2^53 keeps every digit (a spreadsheet number would round it)
      col('integration_id', 'Integration ID', 'text'),
      col('name', 'Integration', 'text', 40),
      col('status', 'Status', 'code'),
      col('sync_interval_minutes', 'Interval (min)', 'integer'),
      col('last_successful_sync_at', 'Last successful sync', 'datetime'),
      col('hours_since_success', 'Hours since', 'number'),
      col('intervals_since_success', 'Intervals since', 'number'),
      col('last_error', 'Last error', 'text', 80),
    ],
    rows: [
      pick(stale, [
        'project_name',
        'integration_id',
        'name',
        'status',
        'sync_interval_minutes',
        'last_successful_sync_at',
        'hours_since_success',
        'intervals_since_success',
        'last_error',
      ]),
    ],
    emptyNote: `No auto-syncing integration without a successful sync for over ${STALE_FACTOR}× its interval`,
  };
}

/** The sheet of the API keys expiring soon. */
function describeExpiringKeysSheet(expiring: readonly Row[], withoutAdmin: boolean): SheetSource {
  return {
    name: 'Expiring keys',
    columns: [
      col('project_name', 'Project', 'text'),
      col('api_key_id', 'API key ID', 'id'),
      col('name', 'API key', 'text', 40),
      col('status', 'Status', 'code'),
      col('owner_login', 'Owner', 'text'),
      col('expires_at', 'Expires at', 'datetime'),
      col('days_left', 'Days left', 'number'),
      col('last_used_at', 'Last used', 'datetime'),
    ],
    rows: [
      pick(expiring, [
        'project_name',
        'api_key_id',
        'name',
        'status',
        'owner_login',
        'expires_at',
        'days_left',
        'last_used_at',
      ]),
    ],
    emptyNote: withoutAdmin
      ? `No key expiring within ${EXPIRY_DAYS} days (a snapshot taken without REPORTER_KB_ADMIN_KEY has no keys)`
      : `No key expiring within ${EXPIRY_DAYS} days`,
  };
}

/** The sheet of the sources changed since the previous snapshot. */
function describeChangesSheet(changes: readonly Row[]): SheetSource {
  return {
    name: 'Changes',
    columns: [
      col('project_name', 'Project', 'text'),
      col('change', 'Change', 'text'),
      col('source_id', 'Source ID', 'id'),
      col('name', 'Source', 'text', 40),
      col('previous_status', 'Previous status', 'code'),
      col('status', 'Status', 'code'),
      col('last_error', 'Last error', 'text', 80),
    ],
    rows: [
      pick(changes, [
        'project_name',
        'change',
        'source_id',
        'name',
        'previous_status',
        'status',
        'last_error',
      ]),
    ],
    emptyNote: 'No change since the previous snapshot (or no previous snapshot)',
  };
}

function charts(health: readonly Row[], byStatus: readonly Row[], changes: readonly Row[]): ChartSpec[] {
  if (health.length === 0) return [];
  const projects = health.map((h) => String(h['project_name']));
  const seen = new Set(byStatus.map((r) => String(r['status'])));
  const statuses = [
    ...STATUS_ORDER.filter((s) => seen.has(s)),
    ...[...seen].filter((s) => !STATUS_ORDER.includes(s)).sort(),
  ];
  const out: ChartSpec[] = [
    {
      title: 'Sources by status (latest snapshot)',
      kind: 'bar',
      categories: statuses.map(codeInWords),
      categoryAxis: 'Status',
      valueAxis: { title: 'Sources' },
      series: projects.map((p) => ({
        name: p,
        values: statuses.map((s) =>
          Number(byStatus.find((r) => r['project_name'] === p && r['status'] === s)?.['sources'] ?? 0),
        ),
      })),
    },
  ];
  if (health.some((h) => h['previous_snapshot_id'] !== null))
    out.push({
      title: 'Source changes since the previous snapshot',
      kind: 'hbar',
      categories: CHANGE_KINDS,
      categoryAxis: 'Change',
      valueAxis: { title: 'Sources' },
      series: projects.map((p) => ({
        name: p,
        values: CHANGE_KINDS.map(
          (kind) => changes.filter((r) => r['project_name'] === p && r['change'] === kind).length,
        ),
      })),
    });
  return out;
}
