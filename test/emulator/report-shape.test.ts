// The emulator's report shape (src/emulator/reports/report-shape.ts), what the seeds leave open about a report
// file, varied over real HTTP: header names in the API's words, display words or Russian; CSV refused (400
// naming settings.fileType) or ignored (an XLSX served, told by its zip magic); columns reversed or shuffled;
// two extra columns; a CSV's BOM and delimiter. In every shape the rows are the ground truth's messages with
// their statuses; the shape is set at start or by POST /__emulator/report-shape, whose bad fields are refused.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { reportsApi } from '../helpers/reports-client.js';
import { parseCsv, readXlsx } from '../helpers/reports-files.js';

const NOW = Date.parse('2026-11-01T00:00:00Z');
const HOUR = 3_600_000;
let running: RunningEmulator;
let api: ReturnType<typeof reportsApi>;

beforeAll(async () => {
  running = await startEmulator({ sessions: 200, days: 1, now: NOW, reportShape: { header: 'display' } });
  api = reportsApi(running.url);
});
afterEach(async () => {
  await setShape({
    header: 'api',
    csv: 'yes',
    columnOrder: 'api',
    extraColumns: false,
    csvBom: false,
    csvDelimiter: null,
  });
});
afterAll(() => running.close());

async function setShape(body: unknown) {
  const r = await fetch(`${running.url}/__emulator/report-shape`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as any };
}

const FROM = NOW - 6 * HOUR;
const filters = [
  {
    key: 'MESSAGE_TIME',
    type: 'DATE_TIME_RANGE',
    from: new Date(FROM).toISOString(),
    to: new Date(NOW - 1).toISOString(),
  },
];

/** A messages report of the last 6 hours asked as `fileType`: its bytes and its rows (the header first). */
async function messagesReport(fileType: 'CSV' | 'XLSX', delimiter = ',') {
  const created = await api.createAsync('messages', { filters, settings: { fileType, delimiter } });
  expect(created.status, created.text).toBe(200);
  const events = await api.eventsUntilDone(created.body.requestId);
  const task = events.at(-1).payload;
  expect(task.status).toBe('COMPLETED');
  const file = await api.download(task.fileUrl);
  const bytes = new Uint8Array(file.data);
  const zip = bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
  const rows = zip
    ? (await readXlsx(file.data)).rows.map((r) => r.map((v) => (v === null ? '' : String(v))))
    : parseCsv(
        Buffer.from(bytes)
          .toString('utf8')
          .replace(/^\ufeff/, ''),
        delimiter,
      );
  return { task, bytes, zip, header: rows[0]!, rows: rows.slice(1) };
}

/** The truth's message ids of the period, and its statuses counted per value (status channels only). */
function truth() {
  const t = groundTruth(running.emulator.project('shop-bot'), { now: NOW, from: FROM, to: NOW });
  const statuses: Record<string, number> = {};
  for (const perChannel of Object.values(t.statuses))
    for (const [status, n] of Object.entries(perChannel)) statuses[status] = (statuses[status] ?? 0) + n;
  return { ids: [...t.messageIds].sort(), statuses };
}

/** The report's ids and statuses (every channel: the statuses of the others are empty) by the named columns. */
function idsAndStatuses(report: { header: string[]; rows: string[][] }, id: string, status: string) {
  const i = report.header.indexOf(id);
  const s = report.header.indexOf(status);
  expect(i, `${id} in ${report.header.join(', ')}`).toBeGreaterThanOrEqual(0);
  expect(s, `${status} in ${report.header.join(', ')}`).toBeGreaterThanOrEqual(0);
  const statuses: Record<string, number> = {};
  for (const row of report.rows) if (row[s]) statuses[row[s]!] = (statuses[row[s]!] ?? 0) + 1;
  return { ids: report.rows.map((r) => r[i]!).sort(), statuses };
}

describe("the emulator's report shape", () => {
  it('set at start: display names, the rows the truth has', async () => {
    const report = await messagesReport('CSV');
    expect(report.header.slice(0, 3)).toEqual(['Question ID', 'Session ID', 'Time']);
    expect(idsAndStatuses(report, 'Question ID', 'Status')).toEqual(truth());
  });

  it('Russian names, reversed, the extra columns: the same rows; a numeric id and ticket states beside', async () => {
    expect((await setShape({ header: 'ru', columnOrder: 'reversed', extraColumns: true })).status).toBe(200);
    const report = await messagesReport('CSV');
    expect(report.header.slice(0, 3)).toEqual(['Статус обращения', 'ID сообщения', 'Ошибка']);
    expect(report.header.at(-1)).toBe('ID вопроса');
    expect(idsAndStatuses(report, 'ID вопроса', 'Статус')).toEqual(truth());
    const numeric = report.rows.map((r) => r[1]!);
    expect(new Set(numeric).size).toBe(numeric.length);
    expect(numeric.every((v) => /^\d{15}$/.test(v))).toBe(true);
    expect(new Set(report.rows.map((r) => r[0]))).toEqual(new Set(['OPEN', 'PENDING', 'CLOSED']));
  });

  it('shuffled: every column once, in another order than the API’s', async () => {
    await setShape({ columnOrder: 'shuffled' });
    const report = await messagesReport('XLSX');
    expect(report.zip).toBe(true);
    expect(report.header).not.toEqual([...report.header].sort());
    expect(report.header[0]).not.toBe('questionId');
    expect(idsAndStatuses(report, 'questionId', 'status')).toEqual(truth());
  });

  it('CSV refused: a create asking CSV answers 400 naming settings.fileType; XLSX is written', async () => {
    await setShape({ csv: 'refused' });
    const refused = await api.createAsync('messages', { filters, settings: { fileType: 'CSV' } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ args: { parameter: 'settings.fileType' } });
    expect(refused.body.message).toContain('XLSX report files only');
    expect((await messagesReport('XLSX')).zip).toBe(true);
  });

  it('CSV ignored: CSV asked, an XLSX file served (zip magic), the task saying XLSX', async () => {
    await setShape({ csv: 'ignored', header: 'ru' });
    const report = await messagesReport('CSV');
    expect(report.zip).toBe(true);
    expect(report.task.settings.fileType).toBe('XLSX');
    expect(report.task.fileName).toMatch(/\.xlsx$/);
    expect(idsAndStatuses(report, 'ID вопроса', 'Статус')).toEqual(truth());
  });

  it('a BOM and `;` whatever delimiter was asked', async () => {
    await setShape({ csvBom: true, csvDelimiter: ';' });
    const report = await messagesReport('CSV', ';');
    expect([...report.bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(report.task.settings.delimiter).toBe(';');
    expect(idsAndStatuses(report, 'questionId', 'status')).toEqual(truth());
  });

  it('the control endpoint says the shape and refuses a bad field, naming it', async () => {
    const now = await (await fetch(`${running.url}/__emulator/report-shape`)).json();
    expect(now).toEqual({
      header: 'api',
      csv: 'yes',
      columnOrder: 'api',
      extraColumns: false,
      csvBom: false,
      csvDelimiter: null,
    });
    for (const [body, parameter] of [
      [{ header: 'fr' }, 'header'],
      [{ csv: true }, 'csv'],
      [{ csvDelimiter: '"' }, 'csvDelimiter'],
      [{ extraColumns: 'yes' }, 'extraColumns'],
      [{ colour: 'red' }, 'colour'],
    ] as const) {
      const r = await setShape(body);
      expect(r.status).toBe(400);
      expect(r.body.args).toEqual({ parameter });
    }
  });
});
