// Writes one report definition (a folder of reports/, looked up by the caller) to <outDir>/<id>_<from>_<to>.xlsx
// (and/or .html for a report that offers it): checks the request (report, period, zone, projects), builds the
// sheets once, writes each format (streaming, in memory with charts, or one HTML page) to a temporary name in
// the same folder and renames it into place, so a crash or an abort never leaves a broken file under the final name;
// a failed write (a full disk) is an EtlError naming the file, and dead writers' temporary files are swept first.
import { accessSync, constants, existsSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { checkTimeZone, computeStats, readWarehouseNames } from '../analysis/stats/compute-stats.js';
import { paramsFor } from '../analysis/stats/load-stats-sql.js';
import type { PeriodUnit, StatsReport } from '../analysis/stats/stats-report.js';
import { EtlError, UsageError } from '../errors.js';
import { makeDirectory } from '../files/make-directory.js';
import { TRUSTED_FOLDER_MODE } from '../files/trusted-folder.js';
import type { Logger } from '../log.js';
import { collectGarbage } from '../process/collect-garbage.js';
import { assertFromBeforeTo } from '../time/check-period.js';
import type { SqlParam, StreamedRows, Warehouse } from '../warehouse/warehouse.js';
import { type DataBasis, dataFromText, isCovered, readDataBasis, syncedLine } from './data-basis.js';
import { describePeriod, localMinute, periodOptions } from './describe-period.js';
import { EXCEL_LIMITS, type SheetLimits } from './excel-limits.js';
import { loadReportSql } from './load-report-sql.js';
import { noDataNote, noDataSentence } from './no-data-note.js';
import type {
  BuiltReport,
  CellInput,
  ReportContext,
  ReportDefinition,
  ReportFormat,
  SheetSource,
} from './report-definition.js';
import { reportFileName } from './report-file-name.js';
import { streamInSlices } from './stream-in-slices.js';
import { sweepStaleTemporaryFiles, temporaryFileName } from './sweep-temporary-files.js';
import { prepareSheets } from './table-rules.js';
import { writeHtmlReport } from './write-html-report.js';
import { writeMemoryWorkbook } from './write-memory-workbook.js';
import { writeStreamingWorkbook } from './write-streaming-workbook.js';

export interface WriteReportRequest {
  warehouse: Warehouse; // already open; the caller opens and closes it
  report: ReportDefinition; // a folder of reports/ (reports/index.ts findReport), e.g. summary, messages
  from: number; // epoch ms, inclusive
  to: number; // epoch ms, exclusive
  projects?: readonly string[]; // default: every project in the warehouse
  tz: string; // IANA zone for periods and date-time cells
  outDir: string; // the command's default: <REPORTER_DATA_DIR>/reports
  outDirIsDefault?: boolean; // true: outDir is that default (no --out given), for the error's wording
  formats?: readonly ReportFormat[]; // default ['xlsx']; 'html' only for a report whose definition offers it
  log?: Logger;
  onProgress?: (p: { sheet: string; rows: number }) => void;
  signal?: AbortSignal; // aborted: stop, delete the temporary file, throw
}

export interface WriteReportResult {
  reportId: string;
  /** The first format's file (the XLSX unless only html was asked). */
  path: string;
  bytes: number;
  durationMs: number;
  sheets: { name: string; rows: number }[];
  /** The data rows of every sheet together. */
  rows: number;
  /** The period holds none of the report's data: each sheet says "No data for <period>". */
  empty: boolean;
  /** Why, when the report knows (and what to run: `report unhandled` with no stored run), as its sheets say. */
  noDataReason?: string;
  /** Every file written, one per format asked, in that order. */
  files: { format: ReportFormat; path: string; bytes: number }[];
}

/** The formats a report can be written in (a definition without `formats` is xlsx only). */
function formatsOf(report: ReportDefinition): readonly ReportFormat[] {
  return report.formats ?? ['xlsx'];
}

/** Internal knobs for tests: smaller sheet limits (the real ones are EXCEL_LIMITS). */
export interface WriteReportOptions {
  limits?: Partial<SheetLimits>;
  now?: () => number;
}

/** The sheet limits a report is written with: Excel's own unless a test narrows them. */
export function resolveLimits(limits?: Partial<SheetLimits>): SheetLimits {
  return { ...EXCEL_LIMITS, ...limits };
}

/**
 * The error that says why: a recursive mkdir on a read-only file system reports ENOENT, so the deepest
 * existing folder above `dir` is asked whether it is writable (EROFS, EACCES) before the error is believed.
 */
function whyMkdirFailed(dir: string, cause: unknown): unknown {
  let above = dirname(dir);
  while (!existsSync(above) && dirname(above) !== above) above = dirname(above);
  try {
    accessSync(above, constants.W_OK);
  } catch (error) {
    return error;
  }
  return cause;
}

/** Why a folder could not be made, in words (the errno's own message kept for the rest). */
export function describeMkdirError(cause: unknown): string {
  const { code, message } = cause as NodeJS.ErrnoException;
  switch (code) {
    case 'EROFS':
      return 'the folder is on a read-only file system (EROFS)';
    case 'EACCES':
    case 'EPERM':
      return `a folder on that path is not writable by this user (${code})`;
    case 'EEXIST':
    case 'ENOTDIR':
      return `a file (not a folder) is in the way on that path (${code})`;
    case 'ENOENT':
      return 'a folder above it is missing and cannot be made (ENOENT)';
    case 'ENOSPC':
      return 'the disk is full (ENOSPC)';
    default:
      return message;
  }
}

/** The request's usage checks: the period, the zone, the projects and the formats; what it selects. */
async function checkRequest(
  req: WriteReportRequest,
): Promise<{ projects: string[]; formats: readonly ReportFormat[] }> {
  const { report } = req;
  assertFromBeforeTo(req.from, req.to);
  await checkTimeZone(req.warehouse, req.tz);
  if (report.reads === 'kb' && req.projects !== undefined && req.projects.length > 0)
    throw new UsageError(
      `--project does not apply to the ${report.id} report: it reads the knowledge base's tables (kb sync, kb eval), not the Reporter projects`,
    );
  const names = await readWarehouseNames(req.warehouse);
  const projects = req.projects === undefined ? names.projects : [...req.projects];
  for (const project of projects) {
    if (!names.projects.includes(project))
      throw new UsageError(
        `--project: the warehouse holds no data of project "${project}" (it holds ${names.projects.length > 0 ? names.projects.join(', ') : 'none yet: run reporter-etl sync'})`,
      );
  }

  const formats: readonly ReportFormat[] = req.formats?.length ? [...new Set(req.formats)] : ['xlsx'];
  for (const format of formats) {
    if (!formatsOf(report).includes(format))
      throw new UsageError(
        `--format ${format}: the ${report.id} report is written as ${formatsOf(report).join(' or ')} only`,
      );
  }
  return { projects, formats };
}

/** Makes the report's folder, or says why it cannot be made (usage). */
function makeOutDir(req: WriteReportRequest): void {
  try {
    makeDirectory(req.outDir, TRUSTED_FOLDER_MODE);
  } catch (cause) {
    const where = req.outDirIsDefault
      ? `cannot create the report folder ${req.outDir} (the default, under REPORTER_DATA_DIR)`
      : `--out: cannot create the folder ${req.outDir}`;
    const remedy = req.outDirIsDefault
      ? 'write the report elsewhere with --out DIR'
      : 'choose another --out DIR';
    throw new EtlError(
      'report.out_dir',
      `${where}: ${describeMkdirError(whyMkdirFailed(req.outDir, cause))}; ${remedy}`,
      {
        kind: 'usage',
        cause,
      },
    );
  }
}

export async function writeReport(
  req: WriteReportRequest,
  options: WriteReportOptions = {},
): Promise<WriteReportResult> {
  const started = performance.now();
  const { report } = req;
  const { projects, formats } = await checkRequest(req);
  makeOutDir(req);
  sweepStaleTemporaryFiles(req.outDir, req.log);
  const basis = await readDataBasis(req.warehouse, report.reads ?? 'reporter', projects, req.tz);
  const context = createContext(report, req, projects, options, basis);
  const heading = {
    title: report.title,
    period: describePeriod(req.from, req.to, req.tz),
    synced: syncedLine(basis),
  };
  const writeOptions = {
    tz: req.tz,
    limits: resolveLimits(options.limits),
    onProgress: req.onProgress,
    signal: req.signal,
    title: `${report.title} ${iso(req.from)} – ${iso(req.to)}`,
    heading,
  };
  // debug: the caller prints the result (the CLI on stdout, a job in its summary), not twice
  req.log?.debug(
    {
      report: report.id,
      path: join(req.outDir, reportFileName(report.id, req.from, req.to, req.tz, formats[0])),
      formats,
      from: iso(req.from),
      to: iso(req.to),
      tz: req.tz,
    },
    'report started',
  );
  let sheets: { name: string; rows: number }[] = [];
  const files: WriteReportResult['files'] = [];
  // built once: the XLSX and the HTML of one run show the same figures from the same queries
  const made = withNoDataNotes(await report.build(context), noDataNote(req.from, req.to, req.tz), {
    ...unsyncedPeriod(report, req, basis),
  });
  // the table rules (zones in headers, n/a, turned tables); in-memory sheets' rows are read into arrays
  const inMemory = report.mode === 'memory';
  const built = { ...made, sheets: await prepareSheets(made.sheets, req.tz, inMemory) };
  // rows are read once per format: a second format needs them kept (html is for small, in-memory reports)
  const sources = formats.length > 1 && !inMemory ? await keepRows(built.sheets) : built.sheets;
  for (const format of formats) {
    const path = join(req.outDir, reportFileName(report.id, req.from, req.to, req.tz, format));
    const temporary = join(req.outDir, temporaryFileName(report.id, format));
    try {
      throwIfAborted(req.signal);
      const written =
        format === 'html'
          ? await writeHtmlReport(temporary, sources, built.charts ?? [], {
              title: report.title,
              // the Reporter projects say nothing of a knowledge base report: its heading names none
              projects: report.reads === 'kb' ? null : projects,
              from: req.from,
              to: req.to,
              tz: req.tz,
              synced: heading.synced,
              cover: built.cover,
            })
          : report.mode === 'stream'
            ? await writeStreamingWorkbook(temporary, sources, writeOptions)
            : await writeMemoryWorkbook(temporary, sources, built.charts ?? [], {
                ...writeOptions,
                cover: built.cover,
              });
      throwIfAborted(req.signal);
      if (files.length === 0) sheets = written.map((s) => ({ name: s.name, rows: s.rows }));
      renameSync(temporary, path);
    } catch (error) {
      rmSync(temporary, { force: true });
      throw explainWriteError(error, path);
    }
    files.push({ format, path, bytes: statSync(path).size });
  }
  const rows = sheets.reduce((sum, s) => sum + s.rows, 0);
  const result: WriteReportResult = {
    reportId: report.id,
    path: files[0]!.path,
    bytes: files[0]!.bytes,
    durationMs: Math.round(performance.now() - started),
    sheets,
    rows,
    empty: built.empty ?? rows === 0,
    ...(built.empty && built.noDataReason !== undefined ? { noDataReason: built.noDataReason } : {}),
    files,
  };
  req.log?.debug({ ...result }, 'report written');
  return result;
}

/**
 * Every sheet without a note of its own says "No data for <period>" when it has no row; a report that says its
 * period holds no data loses its rows, charts and cover, and each sheet says that instead of its own note (a
 * note such as "every question found its source" would be false of a period with no run), in one sentence:
 * why, and the command that brings the data. `unsynced`: the period is not covered by synced data, which is
 * then the reason given, with the sync that fetches it.
 */
function withNoDataNotes(
  built: BuiltReport,
  note: string,
  unsynced: { reason?: string; command?: string },
): BuiltReport {
  if (built.empty) {
    const said =
      unsynced.reason === undefined
        ? noDataSentence(note, built.noDataReason, built.noDataCommand)
        : noDataSentence(note, unsynced.reason, unsynced.command);
    return {
      sheets: built.sheets.map((s) => ({ ...s, rows: [], emptyNote: said, footnotes: [] })),
      charts: [],
      empty: true,
      // what the sheets say after "No data for <period>": why, and the command to run (the CLI's warning too)
      ...(said.length > note.length ? { noDataReason: said.slice(note.length).replace(/^: /, '') } : {}),
    };
  }
  // a sheet with no row in a period not synced at all says so, and what to run
  const none = unsynced.reason === undefined ? note : noDataSentence(note, unsynced.reason, unsynced.command);
  return { ...built, sheets: built.sheets.map((s) => ({ ...s, emptyNote: s.emptyNote ?? none })) };
}

/**
 * A Reporter report whose period is not covered by synced data: why (how much of it the warehouse holds) and
 * the `sync` that fetches it, in local dates. Nothing for a covered period, or the knowledge base's reports.
 */
function unsyncedPeriod(
  report: ReportDefinition,
  req: WriteReportRequest,
  basis: DataBasis,
): { reason?: string; command?: string } {
  if ((report.reads ?? 'reporter') !== 'reporter' || isCovered(basis, req.from, req.to)) return {};
  const from = dataFromText(basis);
  const held =
    from === null || basis.syncedTo === null
      ? 'nothing is synced yet'
      : `the warehouse holds data from ${from} to ${localMinute(basis.syncedTo, req.tz)} only`;
  return { reason: held, command: `reporter-etl sync ${periodOptions(req.from, req.to, req.tz)}` };
}

/** The sheets with their rows read into arrays, so that each format can read them again. */
async function keepRows(sheets: readonly SheetSource[]): Promise<SheetSource[]> {
  const kept: SheetSource[] = [];
  for (const sheet of sheets) {
    const chunks: CellInput[][][] = [];
    for await (const chunk of sheet.rows) chunks.push(chunk);
    kept.push({ ...sheet, rows: chunks });
  }
  return kept;
}

function createContext(
  report: ReportDefinition,
  req: WriteReportRequest,
  projects: string[],
  options: WriteReportOptions,
  basis: DataBasis,
): ReportContext {
  const stats = new Map<PeriodUnit, Promise<StatsReport>>();
  const statsOf = (from: number, to: number, period: PeriodUnit) =>
    computeStats(
      req.warehouse,
      { projects, from, to, timeZone: req.tz, period, top: 10, catchAllClass: '/CatchAll' },
      options.now ? { now: options.now } : {},
    );
  const params = (extra: Record<string, SqlParam> | undefined, from: number, to: number) => ({
    projects,
    from: new Date(from),
    to: new Date(to),
    tz: req.tz,
    ...extra,
  });
  return {
    warehouse: req.warehouse,
    from: req.from,
    to: req.to,
    projects,
    tz: req.tz,
    periodOptions: periodOptions(req.from, req.to, req.tz),
    stats(period = 'day') {
      let computed = stats.get(period);
      if (!computed) {
        computed = statsOf(req.from, req.to, period);
        stats.set(period, computed);
      }
      return computed;
    },
    statsOf: (from, to, period = 'day') => statsOf(from, to, period),
    basis: async () => basis,
    streamSql(name, streamOptions = {}): AsyncGenerator<StreamedRows> {
      const sql = loadReportSql(report.id, name);
      const bound = (from: number, to: number) => paramsFor(sql, params(streamOptions.extra, from, to));
      return streamInSlices({
        from: req.from,
        to: req.to,
        sliceMs: streamOptions.sliceMs,
        read: (from, to) => req.warehouse.streamRows(sql, bound(from, to)),
        count: async (from, to) => {
          const rows = await req.warehouse.query(
            `SELECT count(*) AS n FROM (\n${sql}\n) AS slice_rows`,
            bound(from, to),
          );
          return Number(rows[0]?.['n'] ?? 0);
        },
        rowsOf: (chunk) => chunk.rows.length,
        // the slice's DuckDB result is done: let V8 finalize it, which frees its native memory
        afterSlice: collectGarbage,
      });
    },
    async querySql(name, extra) {
      const sql = loadReportSql(report.id, name);
      return req.warehouse.query(sql, paramsFor(sql, params(extra, req.from, req.to)));
    },
  };
}

/** A file system error while writing (no space, no permission, ...) as an EtlError naming the file; others as is. */
function explainWriteError(error: unknown, path: string): unknown {
  const e = error as NodeJS.ErrnoException;
  if (error instanceof EtlError || !(error instanceof Error) || typeof e.syscall !== 'string') return error;
  if (e.code === 'ENOSPC' || e.code === 'EDQUOT')
    return new EtlError(
      'report.no_space',
      `cannot write ${path}: no space left on the device${e.code === 'EDQUOT' ? ' (disk quota exceeded)' : ''}; the partial file was removed. Free some space or write the report elsewhere (--out)`,
      { cause: error },
    );
  return new EtlError(
    'report.write_failed',
    `cannot write ${path}: ${e.message}; the partial file was removed`,
    {
      cause: error,
    },
  );
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new EtlError('report.aborted', 'The report was stopped before it was complete', {
      cause: signal.reason,
    });
}

function iso(t: number): string {
  return Number.isFinite(t) ? new Date(t).toISOString() : String(t);
}
