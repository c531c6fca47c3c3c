// Every report written from a warehouse synced from the emulator and read back with exceljs: cells compared
// with the emulator's ground truth and with the warehouse queried by the test itself (never with the report
// code's own SQL), in Europe/Moscow; the layout (frozen header, autofilter, formats, sheet names), charts,
// an empty period, the file name, and temp + rename when the report is aborted.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReport } from '../../reports/index.js';
import { codeInWords } from '../../src/report/code-words.js';
import { TURNED_TABLE_ROWS } from '../../src/report/table-rules.js';
import { type WriteReportRequest, writeReport } from '../../src/report/write-report.js';
import { offsetAt } from '../../src/time/parse-zoned-time.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';
import { column, readWorkbook, sheetNamed, wallMs } from './read-workbook.js';

const TZ = 'Europe/Moscow';
const MSK = 3 * 3_600_000;
// two whole Moscow days inside the synced range
const FROM = Date.parse('2026-10-29T00:00:00+03:00');
const TO = Date.parse('2026-10-31T00:00:00+03:00');

let h: Harness;
let outDir: string;

beforeAll(async () => {
  h = await createHarness({ emulator: { sessions: 600 }, env: { REPORTER_SAFETY_LAG_MINUTES: '0' } });
  expect((await h.sync()).status).toBe('success');
  outDir = join(h.dir, 'reports');
}, 60_000);
afterAll(async () => {
  await h?.close();
});

function write(reportId: string, extra: Partial<WriteReportRequest> = {}) {
  return h.withWarehouse((warehouse) =>
    writeReport({ warehouse, report: findReport(reportId), from: FROM, to: TO, tz: TZ, outDir, ...extra }),
  );
}

// each report of [FROM, TO) is written and read back once, for every test that checks it: the same warehouse
// and period give the same file (a test with options of its own writes its own)
const written = new Map<string, ReturnType<typeof write>>();
const books = new Map<string, ReturnType<typeof readWorkbook>>();

/** Report `reportId` of [FROM, TO) (with `extra`: written afresh with those options). */
function report(reportId: string, extra: Partial<WriteReportRequest> = {}) {
  if (Object.keys(extra).length > 0) return write(reportId, extra);
  if (!written.has(reportId)) written.set(reportId, write(reportId));
  return written.get(reportId)!;
}

/** The workbook of report `reportId` of [FROM, TO), as exceljs reads it back. */
async function book(reportId: string) {
  const { path } = await report(reportId);
  if (!books.has(path)) books.set(path, readWorkbook(path));
  return books.get(path)!;
}

const local = (t: number) => t + offsetAt(t, TZ);

describe('messages report', () => {
  it('holds every message of the period, each cell equal to the warehouse, times in the zone', async () => {
    const result = await report('messages');
    expect(result.path).toBe(join(outDir, 'messages_2026-10-29_2026-10-30.xlsx'));
    const truth = h.truth(FROM, TO);
    expect(truth.messages).toBeGreaterThan(500);
    expect(result.sheets).toEqual([{ name: 'Messages', rows: truth.messages }]);

    const { sheets } = await book('messages');
    const sheet = sheetNamed(sheets, 'Messages');
    expect(sheet.header[0]).toBe(`Time (${TZ})`);
    expect([...(column(sheet, 'Message ID') as string[])].sort()).toEqual([...truth.messageIds].sort());

    const expected = await h.withWarehouse((w: Warehouse) =>
      w.query(
        `SELECT m.question_id, m."timestamp" AS t, s.channel_type, s.client_id, m.question, m.confidence,
           m.status, m.is_transfer,
           (SELECT string_agg(l.group_name || ' / ' || l.label_name, ', ' ORDER BY l.group_name, l.label_name)
              FROM message_labels l WHERE l.question_id = m.question_id) AS labels
         FROM messages m JOIN sessions s USING (project, session_id)
         WHERE m."timestamp" >= $1 AND m."timestamp" < $2`,
        [new Date(FROM), new Date(TO)],
      ),
    );
    const byId = new Map(expected.map((r) => [r['question_id'], r]));
    const at = (name: string) => sheet.header.indexOf(name);
    let previous = 0;
    let labelled = 0;
    for (const row of sheet.rows) {
      const e = byId.get(row[at('Message ID')] as string)!;
      expect(e).toBeDefined();
      const time = wallMs(row[at(`Time (${TZ})`)]);
      expect(time).toBe(local(e['t'] as number));
      expect(time).toBe((e['t'] as number) + MSK);
      expect(time).toBeGreaterThanOrEqual(previous); // in time order
      previous = time;
      expect(row[at('Channel')]).toBe(e['channel_type']);
      expect(row[at('Client ID')]).toBe(e['client_id']);
      expect(row[at('Question')] ?? null).toBe(e['question']);
      expect(row[at('Confidence')] ?? null).toBe(e['confidence']);
      // the platform's code in words (DELIVERED: Delivered)
      const status = e['status'] as string | null;
      expect(row[at('Delivery status')] ?? null).toBe(status === null ? null : codeInWords(status));
      const transfer = e['is_transfer'] as boolean | null;
      expect(row[at('Transfer to agent')] ?? null).toBe(transfer === null ? null : transfer ? 'yes' : 'no');
      expect(row[at('Labels')] ?? null).toBe(e['labels']);
      if (e['labels'] !== null) labelled += 1;
    }
    expect(labelled).toBeGreaterThan(0);
  });
});

describe('sessions report', () => {
  it('one row per session, sessionData keys as columns, labels joined', async () => {
    const result = await report('sessions');
    const truth = h.truth(FROM, TO);
    expect(result.sheets).toEqual([{ name: 'Sessions', rows: truth.sessions }]);
    const { sheets } = await book('sessions');
    const sheet = sheetNamed(sheets, 'Sessions');
    expect([...(column(sheet, 'Session ID') as string[])].sort()).toEqual([...truth.sessionIds].sort());

    // every key=value of the ground truth, counted from the data columns of the sheet
    const dataColumns = sheet.header.filter((h) => h.startsWith('data: '));
    expect(dataColumns).toEqual(expect.arrayContaining(['data: city', 'data: plan', 'data: utm_source']));
    const counted: Record<string, number> = {};
    for (const header of dataColumns)
      for (const value of column(sheet, header))
        if (value !== null) {
          const kv = `${header.slice(6)}=${value}`;
          counted[kv] = (counted[kv] ?? 0) + 1;
        }
    expect(counted).toEqual(truth.sessionData);

    // labels: each label's sessions counted from the joined text equal the ground truth
    const labels: Record<string, number> = {};
    for (const text of column(sheet, 'Labels'))
      if (typeof text === 'string')
        for (const label of text.split(', ')) labels[label] = (labels[label] ?? 0) + 1;
    expect(labels).toEqual(truth.sessionLabels);

    // a yes/no figure is written yes or no, as on the HTML page (not TRUE/FALSE)
    const transferredColumn = column(sheet, 'Transferred to agent');
    expect(new Set(transferredColumn)).toEqual(new Set(['yes', 'no']));
    expect(transferredColumn.filter((v) => v === 'yes').length).toBe(truth.transferredSessions);
    const starts = await h.withWarehouse((w) =>
      w.query(
        'SELECT session_id, start_time, duration_ms FROM sessions WHERE start_time >= $1 AND start_time < $2',
        [new Date(FROM), new Date(TO)],
      ),
    );
    const byId = new Map(starts.map((r) => [r['session_id'], r]));
    const ids = column(sheet, 'Session ID');
    const times = column(sheet, `Start time (${TZ})`);
    const durations = column(sheet, 'Duration');
    ids.forEach((id, i) => {
      const e = byId.get(id as string)!;
      expect(wallMs(times[i])).toBe((e['start_time'] as number) + MSK);
      // a duration is a fraction of a day
      // (exceljs reads [h]:mm:ss cells back as dates from 1899-12-30)
      expect(wallMs(durations[i]) + 25_569 * 86_400_000).toBe(e['duration_ms']);
    });
  });
});

describe('summary report', () => {
  it('KPIs, by day and funnel equal the ground truth; four charts as images, one on the scorecard', async () => {
    const result = await report('summary');
    expect(result.path).toBe(join(outDir, 'summary_2026-10-29_2026-10-30.xlsx'));
    const truth = h.truth(FROM, TO);
    const { workbook, sheets } = await book('summary');
    const kpi = sheetNamed(sheets, 'Summary');
    const value = (metric: string) => kpi.rows.find((r) => r[0] === metric)?.[1];
    expect(value('Sessions')).toBe(truth.sessions);
    expect(value('Non-empty sessions')).toBe(truth.nonEmptySessions);
    expect(value('Messages')).toBe(truth.messages);
    expect(value('Unique clients')).toBe(truth.uniqueClients);
    expect(value('Sessions transferred to an agent')).toBe(truth.transferredSessions);
    expect(value('Transfer share')).toBeCloseTo(truth.transferredSessions / truth.sessions, 12);
    expect(value('Period')).toBe(`2026-10-29 – 2026-10-30 (${TZ})`);

    const byDay = sheetNamed(sheets, 'By day');
    expect(column(byDay, 'Day').map((d) => (d as Date).toISOString().slice(0, 10))).toEqual([
      '2026-10-29',
      '2026-10-30',
    ]);
    const sum = (values: unknown[]) => values.reduce<number>((a, v) => a + (v as number), 0);
    expect(sum(column(byDay, 'Sessions'))).toBe(truth.sessions);
    expect(sum(column(byDay, 'Messages'))).toBe(truth.messages);

    const channels = sheetNamed(sheets, 'Channels');
    for (const [channel, figures] of Object.entries(truth.byChannel)) {
      const row = channels.rows.find((r) => r[0] === channel);
      expect(row?.[1], channel).toBe(figures.sessions);
      expect(row?.[3], channel).toBe(figures.messages);
    }
    const perDayChannel = sheetNamed(sheets, 'By day × channel');
    expect(sum(column(perDayChannel, 'Sessions'))).toBe(truth.sessions);

    // three channels, sixteen columns: a list, a row per column and a column per channel
    const funnel = sheetNamed(sheets, 'Delivery funnel');
    for (const [channel, statuses] of Object.entries(truth.statuses)) {
      const at = funnel.header.indexOf(channel);
      expect(at, channel).toBeGreaterThan(0);
      const cell = (name: string) => funnel.rows.find((r) => r[0] === name)?.[at];
      expect(cell('Latest status: delivered'), channel).toBe(statuses['DELIVERED'] ?? 0);
      const read = cell('Latest status: read');
      expect(read === 'n/a' ? 0 : read, channel).toBe(statuses['READ'] ?? 0);
      expect(cell('Delivered or read'), channel).toBe((statuses['DELIVERED'] ?? 0) + (statuses['READ'] ?? 0));
      expect(cell('Latest status: not sent'), channel).toBe(statuses['NOT_SENT'] ?? 0);
    }

    const labels = sheetNamed(sheets, 'Labels');
    for (const [label, count] of Object.entries(truth.sessionLabels))
      expect(labels.rows.find((r) => r[0] === 'session' && r[3] === label)?.[5], label).toBe(count);
    // a message label's name may repeat in several groups: the truth counts by name
    for (const [label, count] of Object.entries(truth.messageLabels))
      expect(
        sum(labels.rows.filter((r) => r[0] === 'message' && r[3] === label).map((r) => r[5])),
        label,
      ).toBe(count);

    const intents = sheetNamed(sheets, 'Top intents');
    for (const row of intents.rows) expect(row[1]).toBe(truth.nlpClasses[row[0] as string]);

    const experiments = sheetNamed(sheets, 'Experiments');
    for (const [key, branches] of Object.entries(truth.experiments))
      for (const [branch, n] of Object.entries(branches))
        expect(experiments.rows.find((r) => r[1] === key && r[3] === branch)?.[4], `${key}/${branch}`).toBe(
          n,
        );

    // charts: the sessions chart on the scorecard (page 1), three PNG images on their own sheet after the KPIs
    expect(sheets.slice(0, 3).map((s) => s.name)).toEqual(['Scorecard', 'Summary', 'Charts']);
    expect(sheetNamed(sheets, 'Scorecard').sheet.getImages()).toHaveLength(1);
    const images = sheetNamed(sheets, 'Charts').sheet.getImages();
    expect(images).toHaveLength(3);
    const media = (workbook.model as unknown as { media: { extension: string; buffer: Buffer }[] }).media;
    expect(media).toHaveLength(4);
    for (const m of media) {
      expect(m.extension).toBe('png');
      expect(m.buffer.subarray(1, 4).toString()).toBe('PNG');
      expect(m.buffer.length).toBeGreaterThan(10_000);
    }
  });
});

describe('labels report', () => {
  it('totals and day-by-day breakdowns equal the ground truth', async () => {
    const truth = h.truth(FROM, TO);
    const { sheets } = await book('labels');
    const totals = sheetNamed(sheets, 'Session labels');
    for (const [label, count] of Object.entries(truth.sessionLabels))
      expect(totals.rows.find((r) => r[1] === label)?.[3], label).toBe(count);
    const byDay = sheetNamed(sheets, 'Session labels by day');
    expect(byDay.rows).toHaveLength(2);
    for (const [label, count] of Object.entries(truth.sessionLabels)) {
      const header = byDay.header.find((x) => x === label)!;
      expect(
        column(byDay, header).reduce<number>((a, v) => a + (v as number), 0),
        label,
      ).toBe(count);
    }
    const messageTotals = sheetNamed(sheets, 'Message labels');
    for (const [label, count] of Object.entries(truth.messageLabels))
      expect(messageTotals.rows.find((r) => r[2] === label)?.[4], label).toBe(count);
    const messagesByDay = sheetNamed(sheets, 'Message labels by day');
    const total = messagesByDay.rows.reduce<number>((a, r) => a + (r[r.length - 1] as number), 0);
    expect(total).toBe(Object.values(truth.messageLabels).reduce((a, b) => a + b, 0));
  });
});

describe('layout and formats', () => {
  it('every table sheet: frozen styled header, autofilter over the data (not the KPIs), names within 31 characters', async () => {
    for (const id of ['summary', 'sessions', 'messages', 'labels']) {
      const { sheets } = await book(id);
      for (const s of sheets) {
        // the cover page (notes, small tables, a chart) has no header row to freeze
        if (s.name === 'Charts' || s.name === 'Scorecard') continue;
        if (s.name === 'Summary') {
          expect(s.sheet.autoFilter, 'a key/value list has no autofilter').toBeUndefined();
          continue;
        }
        expect(s.name.length, s.name).toBeLessThanOrEqual(31);
        expect(s.sheet.views[0], s.name).toMatchObject({ state: 'frozen', ySplit: 1 });
        expect(s.sheet.getRow(1).getCell(1).font?.bold, s.name).toBe(true);
        const filter = s.sheet.autoFilter as unknown as string | undefined;
        // a table of few records and many columns is a label/value list (a row per column): no autofilter
        if (filter === undefined && s.header.length <= TURNED_TABLE_ROWS + 1) continue;
        expect(filter, s.name).toMatch(/^A1:[A-Z]+\d+$/);
        expect(Number(/\d+$/.exec(filter ?? '')![0]), s.name).toBe(Math.max(s.rows.length, 0) + 1);
        expect(s.sheet.getColumn(1).width ?? 0, s.name).toBeGreaterThan(8);
      }
    }
  });

  it('number, percent, duration and date-time formats (the time is shown)', async () => {
    const { sheets } = await book('summary');
    const kpi = sheetNamed(sheets, 'Summary');
    const fmt = (metric: string) =>
      kpi.sheet.getRow(kpi.rows.findIndex((r) => r[0] === metric) + 2).getCell(2).numFmt;
    expect(fmt('Sessions')).toBe('#,##0');
    expect(fmt('Transfer share')).toBe('0.0%');
    expect(fmt('Session duration: mean')).toBe('[h]:mm:ss');
    expect(fmt(`Report generated at (${TZ})`)).toBe('yyyy-mm-dd hh:mm:ss');
    const messages = sheetNamed((await book('messages')).sheets, 'Messages');
    expect(messages.sheet.getRow(2).getCell(1).numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(messages.sheet.getRow(2).getCell(messages.header.indexOf('Confidence') + 1).numFmt).toBe('0.000');
  });
});

describe('empty period, file names, temp + rename', () => {
  const EMPTY_FROM = Date.parse('2025-01-01T00:00:00+03:00');
  const EMPTY_TO = Date.parse('2025-01-02T00:00:00+03:00');

  it('an empty period gives workbooks that say "No data for <period>" on every sheet, the first included', async () => {
    // the Reporter reports: the period lies before the synced data, so the note says so and names the sync;
    // kb-eval and kb-health: no run, no snapshot in this warehouse at all
    const unsynced =
      /: the warehouse holds data from \d{4}-\d\d-\d\d \d\d:\d\d to \d{4}-\d\d-\d\d \d\d:\d\d only; run reporter-etl sync --from 2025-01-01 --to 2025-01-02 --tz Europe\/Moscow$/;
    const reasons: Record<string, string> = {
      'kb-eval':
        ': no kb eval run started in it; run reporter-etl kb eval --questions FILE (or report kb-eval with a wider --from / --to)',
      'kb-health': ': no knowledge base snapshot before its end; run reporter-etl kb sync',
    };
    for (const id of ['summary', 'sessions', 'messages', 'labels', 'prompter', 'kb-eval', 'kb-health']) {
      const result = await report(id, { from: EMPTY_FROM, to: EMPTY_TO });
      expect(result.path).toBe(join(outDir, `${id}_2025-01-01_2025-01-01.xlsx`));
      expect(result, id).toMatchObject({ rows: 0, empty: true });
      const { sheets, workbook } = await readWorkbook(result.path);
      expect(sheets.length, id).toBeGreaterThan(0);
      for (const s of sheets) {
        // one row: the note, merged across the sheet's columns (each merged cell reads as the note)
        expect(s.rows, `${id}/${s.name}`).toHaveLength(1);
        const [note, ...rest] = s.rows[0]!;
        expect(
          rest.every((v) => v === null || v === note),
          `${id}/${s.name}`,
        ).toBe(true);
        const text = String(note);
        expect(text.startsWith('No data for 2025-01-01 (Europe/Moscow)'), text).toBe(true);
        const reason = text.slice('No data for 2025-01-01 (Europe/Moscow)'.length);
        if (reasons[id] !== undefined) expect(reason, `${id}/${s.name}`).toBe(reasons[id]);
        else expect(reason, `${id}/${s.name}`).toMatch(unsynced);
      }
      expect(result.sheets.every((s) => s.rows === 0)).toBe(true);
      expect(
        workbook.worksheets.flatMap((w) => w.getImages()),
        id,
      ).toEqual([]);
    }
  });

  it('an empty period as HTML: its first section says "No data for <period>", no sheet claims anything else', async () => {
    for (const id of ['summary', 'kb-eval', 'kb-health']) {
      const result = await report(id, { from: EMPTY_FROM, to: EMPTY_TO, formats: ['html'] });
      const page = readFileSync(result.path, 'utf8');
      const firstSection = page.slice(page.indexOf('<section'), page.indexOf('</section>'));
      expect(firstSection, id).toContain('No data for 2025-01-01 (Europe/Moscow)');
      expect(page).not.toMatch(/Every question was answered|No source failed to ingest|in this period/);
    }
  });

  it('a period with data: rows is the sum of the sheets’ rows, and the report is not empty', async () => {
    const result = await report('summary');
    expect(result.empty).toBe(false);
    expect(result.rows).toBe(result.sheets.reduce((sum, s) => sum + s.rows, 0));
    expect(result.rows).toBeGreaterThan(0);
  });

  it('a period that is not whole local days is named by its local times', async () => {
    const result = await report('sessions', {
      from: Date.parse('2026-10-29T09:30:00+03:00'),
      to: Date.parse('2026-10-29T18:00:00+03:00'),
    });
    expect(result.path).toBe(join(outDir, 'sessions_20261029T0930_20261029T1800.xlsx'));
  });

  it('an aborted report leaves neither the file nor its temporary file', async () => {
    const dir = join(h.dir, 'aborted');
    const controller = new AbortController();
    const run = report('messages', {
      outDir: dir,
      onProgress: () => controller.abort(new Error('test abort')),
      signal: controller.signal,
    });
    await expect(run).rejects.toMatchObject({ code: 'report.aborted' });
    expect(existsSync(join(dir, 'messages_2026-10-29_2026-10-30.xlsx'))).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a failing report leaves no file either, and bad requests are refused naming the option', async () => {
    const dir = join(h.dir, 'failed');
    await expect(
      h.withWarehouse(async (warehouse) => {
        const broken = { ...warehouse, streamRows: () => failingRows() } as Warehouse;
        return writeReport({
          warehouse: broken,
          report: findReport('messages'),
          from: FROM,
          to: TO,
          tz: TZ,
          outDir: dir,
        });
      }),
    ).rejects.toThrow(/disk on fire/);
    expect(readdirSync(dir)).toEqual([]);
    await expect(report('nope')).rejects.toThrow(
      /unknown report "nope"; the reports are summary, sessions, messages, labels/,
    );
    await expect(report('summary', { tz: 'Mars/Olympus' })).rejects.toThrow(/--tz/);
    await expect(report('summary', { projects: ['ghost'] })).rejects.toThrow(/--project.*ghost/);
    await expect(report('summary', { from: TO, to: FROM })).rejects.toThrow(/--from .* must be before --to/);
  });
});

// biome-ignore lint/correctness/useYield: fails before the first chunk, like a query that dies
async function* failingRows(): AsyncGenerator<never> {
  throw new Error('disk on fire');
}
