// The create request of a platform report (query and body) from what the user asked: kind, period, filters
// and file type. Invariants: the half-open period [from, to) is sent as the API's inclusive [from, to - 1 ms];
// settings always say withHeader: true (reconcile relies on it); a filter a kind cannot take is a UsageError
// before anything is sent.
import { UsageError } from '../errors.js';
import type { Generation } from '../platform/reporter/reporter-http.js';
import type { ReporterFilter } from './parse-report-filter.js';
import { type FileType, KIND_INFO, type PlatformReportKind } from './report-kinds.js';
import { DAY_MS, type ReportPeriod } from './resolve-report-period.js';

export interface ReportSpec {
  kind: PlatformReportKind;
  period: ReportPeriod;
  filters: readonly ReporterFilter[];
  fileType: FileType;
}

/** What is sent to create the task (the operation path follows from the kind and the generation). */
export interface CreateRequest {
  query: Record<string, string | string[]>;
  body?: Record<string, unknown>;
}

const iso = (t: number): string => new Date(t).toISOString();

function settingsOf(fileType: FileType): Record<string, unknown> {
  return fileType === 'CSV' ? { fileType, withHeader: true, delimiter: ',' } : { fileType, withHeader: true };
}

/** The one value of a `KEY=value` filter (message-reaction body fields). */
function singleValue(filter: ReporterFilter): string {
  const values = (filter['options'] ?? filter['values']) as unknown;
  const comparison = filter['comparisonType'];
  if (
    !Array.isArray(values) ||
    values.length !== 1 ||
    typeof values[0] !== 'string' ||
    (comparison !== 'CONTAINS' && comparison !== 'EQUALS')
  )
    throw new UsageError(`message-reaction reports take --filter ${filter.key}=ONE_VALUE`);
  return values[0];
}

/** The create operation of a kind: under /api/v1/async on v1, under the reporter prefix on legacy. */
export function createOperation(
  kind: PlatformReportKind,
  api: Generation,
): { op: string; scope: 'async' | 'reporter' } {
  return api === 'v1'
    ? { op: `reporter/reports/${kind}`, scope: 'async' }
    : { op: `reports/${kind}`, scope: 'reporter' };
}

export function buildCreateRequest(spec: ReportSpec, api: Generation, project: string): CreateRequest {
  const { kind, period, filters } = spec;
  const info = KIND_INFO[kind];
  if (info.v1Only && api !== 'v1')
    throw new UsageError(`${kind} reports exist only in the v1 API (REPORTER_API=v1 with a v1 token)`);
  const last = period.to - 1;
  switch (info.period) {
    case 'SESSION_START_TIME':
    case 'MESSAGE_TIME':
    case 'CLIENT_LAST_ACTIVITY_TIME': {
      for (const f of filters)
        if (f.key === 'CLIENT_ID' || f.key === 'MESSAGE_ID')
          throw new UsageError(`--filter ${f.key} is for message-reaction reports only`);
      const periodFilter: ReporterFilter = {
        key: info.period,
        type: 'DATE_TIME_RANGE',
        from: iso(period.from),
        to: iso(last),
      };
      return {
        query: {},
        body: { filters: [periodFilter, ...filters], settings: settingsOf(spec.fileType) },
      };
    }
    case 'query': {
      const botIds: string[] = [];
      for (const f of filters) {
        if (f.key !== 'BOT_ID' || f['comparisonType'] !== 'CONTAINS')
          throw new UsageError(`telephony reports take only --filter BOT_ID=id1,id2 (got ${f.key})`);
        botIds.push(...((f['options'] as string[] | undefined) ?? []));
      }
      if (spec.fileType !== 'XLSX')
        throw new UsageError(
          'telephony reports take no settings (the operation has no body): the platform writes XLSX; leave out --format',
        );
      return {
        query: { startTime: iso(period.from), endTime: iso(last), ...(botIds.length > 0 ? { botIds } : {}) },
      };
    }
    case 'date': {
      if (filters.length > 0) throw new UsageError('daily reports take no --filter (only --date)');
      if (period.from % DAY_MS !== 0 || period.to - period.from !== DAY_MS)
        throw new UsageError('daily reports cover one whole UTC day: use --date YYYY-MM-DD');
      return {
        query: {},
        body: { date: iso(period.from).slice(0, 10), settings: settingsOf(spec.fileType) },
      };
    }
    case 'epoch': {
      const body: Record<string, unknown> = {
        projectShortName: project,
        messageTimeFrom: period.from,
        messageTimeTo: last,
        settings: settingsOf(spec.fileType),
      };
      const fields: Record<string, string> = {
        BOT_ID: 'botId',
        SESSION_ID: 'sessionId',
        CLIENT_ID: 'clientId',
        MESSAGE_ID: 'messageId',
      };
      for (const f of filters) {
        const field = fields[f.key];
        if (!field)
          throw new UsageError(
            `message-reaction reports take --filter BOT_ID=, SESSION_ID=, CLIENT_ID=, MESSAGE_ID= (got ${f.key})`,
          );
        body[field] = singleValue(f);
      }
      if (body['botId'] === undefined)
        throw new UsageError(
          'message-reaction reports need --filter BOT_ID=<botId> (see: select distinct bot_id from sessions)',
        );
      return { query: {}, body };
    }
  }
}
