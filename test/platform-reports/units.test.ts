// The pure parts of platform reports: --filter parsing, periods and file names, the create request (inclusive
// API bounds), folding async events (other requests, duplicates, order, failures), the streaming CSV parser
// across chunk boundaries, and the file check (a broken XLSX, ragged CSV, a missing header, a foreign URL).
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { buildCreateRequest } from '../../src/platform-reports/build-create-request.js';
import { downloadReportFile } from '../../src/platform-reports/download-report-file.js';
import { foldTaskEvents, UNKNOWN_TASK_STATE } from '../../src/platform-reports/fold-task-events.js';
import { parseCsvStream } from '../../src/platform-reports/parse-csv-stream.js';
import { parseReportFilter } from '../../src/platform-reports/parse-report-filter.js';
import { readReportFile } from '../../src/platform-reports/read-report-file.js';
import { reportFileName } from '../../src/platform-reports/report-file-name.js';
import type { AsyncEvent } from '../../src/platform-reports/report-schemas.js';
import { describePeriod, resolveReportPeriod } from '../../src/platform-reports/resolve-report-period.js';

const dir = mkdtempSync(join(tmpdir(), 'platform-report-units-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const DAY = 86_400_000;
const T = Date.parse('2026-11-01T00:00:00Z');

describe('--filter', () => {
  it('parses the short forms and JSON', () => {
    expect(parseReportFilter('CHANNEL_TYPE=telegram, vk')).toEqual({
      key: 'CHANNEL_TYPE',
      type: 'CHECKBOX',
      comparisonType: 'CONTAINS',
      options: ['telegram', 'vk'],
    });
    expect(parseReportFilter('nlp_class!=/CatchAll')).toMatchObject({
      key: 'NLP_CLASS',
      comparisonType: 'NOT_CONTAINS',
    });
    expect(parseReportFilter('MESSAGE_TEXT~price')).toEqual({
      key: 'MESSAGE_TEXT',
      type: 'TEXT',
      comparisonType: 'CONTAINS',
      values: ['price'],
      isCaseSensitive: false,
    });
    expect(parseReportFilter('SESSION_ID=abc')).toMatchObject({ type: 'TEXT', comparisonType: 'EQUALS' });
    expect(parseReportFilter('WITHOUT_EMPTY_SESSIONS=yes')).toEqual({
      key: 'WITHOUT_EMPTY_SESSIONS',
      type: 'RADIO',
      option: 'YES',
    });
    expect(parseReportFilter('MESSAGE_COUNT=2..')).toEqual({
      key: 'MESSAGE_COUNT',
      type: 'NUMERIC_RANGE',
      from: 2,
    });
    expect(parseReportFilter('{"key":"SESSION_LABELS","type":"CHECKBOX","options":["1"]}')).toMatchObject({
      key: 'SESSION_LABELS',
    });
    expect(() => parseReportFilter('CHANNEL_TYPE~x')).toThrow(/takes = or !=/);
    expect(() => parseReportFilter('BOT_ID=')).toThrow(/at least one value/);
    expect(() => parseReportFilter('nonsense')).toThrow(/expected KEY=a,b/);
  });

  it('refuses values the platform cannot match, naming key, value and what is accepted', () => {
    const refusal = (text: string): string => {
      try {
        parseReportFilter(text);
      } catch (error) {
        expect(error).toMatchObject({ kind: 'usage', exitCode: 2 });
        return (error as Error).message;
      }
      throw new Error(`${text} was accepted`);
    };
    expect(refusal('CHANNEL_TYPE=telegram,telegrm')).toMatch(/CHANNEL_TYPE.*"telegrm".*accepted: .*telegram/);
    expect(refusal('CHANNEL_TYPE!=fax')).toMatch(/"fax"/);
    expect(refusal('MESSAGE_COUNT=10..2')).toMatch(/MESSAGE_COUNT.*"10\.\.2"/);
    expect(refusal('WITHOUT_EMPTY_SESSIONS=maybe')).toMatch(/WITHOUT_EMPTY_SESSIONS.*"maybe".*YES, NO/);
    expect(refusal('TRANSFER_TO_OPERATOR=yes')).toMatch(/accepted: ANY, WITH_TRANSFER, WITHOUT_TRANSFER/);
    // the channel spellings the platform uses, booleans and a one-value range still pass
    expect(parseReportFilter('CHANNEL_TYPE=CHAT_WIDGET,Telegram')).toMatchObject({
      options: ['CHAT_WIDGET', 'Telegram'],
    });
    expect(parseReportFilter('WITHOUT_EMPTY_MESSAGES=true')).toMatchObject({ option: 'YES' });
    expect(parseReportFilter('WITHOUT_EMPTY_SESSIONS=false')).toMatchObject({ option: 'NO' });
    expect(parseReportFilter('MESSAGE_COUNT=3..3')).toMatchObject({ from: 3, to: 3 });
  });
});

describe('periods, names and the create request', () => {
  it('defaults to yesterday (UTC); --date is one day; --from alone runs to now', () => {
    expect(resolveReportPeriod({}, T + 5 * 3_600_000)).toEqual({ from: T - DAY, to: T });
    expect(resolveReportPeriod({ date: '2026-10-30' }, T)).toEqual({ from: T - 2 * DAY, to: T - DAY });
    expect(resolveReportPeriod({ from: '2026-10-31T12:00:00Z' }, T + 1234)).toEqual({
      from: T - 12 * 3_600_000,
      to: T + 1000,
    });
    expect(() => resolveReportPeriod({ to: '2026-10-31' }, T)).toThrow(/--to needs --from/);
  });

  it('names files by kind and period (and filters)', () => {
    const base = { kind: 'messages' as const, filters: [], fileType: 'XLSX' as const };
    expect(reportFileName({ ...base, period: { from: T - DAY, to: T } })).toBe('messages_2026-10-31.xlsx');
    expect(reportFileName({ ...base, period: { from: T - 3 * DAY, to: T }, fileType: 'CSV' })).toBe(
      'messages_2026-10-29_2026-10-31.csv',
    );
    expect(reportFileName({ ...base, period: { from: T - 6 * 3_600_000, to: T + 90_000 } })).toBe(
      'messages_20261031T1800Z_20261101T000130Z.xlsx',
    );
    const filtered = reportFileName({
      ...base,
      period: { from: T - DAY, to: T },
      filters: [parseReportFilter('BOT_ID=a')],
    });
    expect(filtered).toMatch(/^messages_2026-10-31_[0-9a-f]{8}\.xlsx$/);
    expect(describePeriod({ from: T - 3 * DAY, to: T })).toBe('2026-10-29..2026-10-31');
  });

  it('sends [from, to) as the inclusive [from, to - 1 ms]; daily as its date; telephony in the query', () => {
    const period = { from: T - DAY, to: T };
    expect(buildCreateRequest({ kind: 'sessions', period, filters: [], fileType: 'CSV' }, 'v1', 'p')).toEqual(
      {
        query: {},
        body: {
          filters: [
            {
              key: 'SESSION_START_TIME',
              type: 'DATE_TIME_RANGE',
              from: '2026-10-31T00:00:00.000Z',
              to: '2026-10-31T23:59:59.999Z',
            },
          ],
          settings: { fileType: 'CSV', withHeader: true, delimiter: ',' },
        },
      },
    );
    expect(
      buildCreateRequest({ kind: 'daily', period, filters: [], fileType: 'XLSX' }, 'legacy', 'p').body,
    ).toEqual({
      date: '2026-10-31',
      settings: { fileType: 'XLSX', withHeader: true },
    });
    expect(
      buildCreateRequest(
        { kind: 'telephony', period, filters: [parseReportFilter('BOT_ID=b1,b2')], fileType: 'XLSX' },
        'v1',
        'p',
      ),
    ).toEqual({
      query: {
        startTime: '2026-10-31T00:00:00.000Z',
        endTime: '2026-10-31T23:59:59.999Z',
        botIds: ['b1', 'b2'],
      },
    });
    expect(
      buildCreateRequest(
        { kind: 'message-reaction', period, filters: [parseReportFilter('BOT_ID=b1')], fileType: 'CSV' },
        'v1',
        'shop',
      ).body,
    ).toMatchObject({
      projectShortName: 'shop',
      botId: 'b1',
      messageTimeFrom: T - DAY,
      messageTimeTo: T - 1,
    });
  });
});

describe('async events', () => {
  const event = (
    requestId: string,
    at: number,
    payload: Record<string, unknown>,
    isOk = true,
  ): AsyncEvent => ({
    isOk,
    requestId,
    requestTime: T,
    responseTime: T + at,
    payload: { taskId: `task-${requestId}`, status: 'STARTED', ...payload },
  });

  it('ignores other requests, duplicates and stale events; applies the rest in responseTime order', () => {
    const events = [
      event('mine', 3, { status: 'STARTED', writeCount: 40, totalCount: 100 }),
      event('other', 4, { status: 'COMPLETED', fileUrl: 'http://x/other.csv', fileName: 'other.csv' }),
      event('mine', 1, { status: 'STARTED', writeCount: 0, totalCount: 100 }),
      event('mine', 3, { status: 'STARTED', writeCount: 40, totalCount: 100 }),
    ];
    const first = foldTaskEvents(UNKNOWN_TASK_STATE, events, 'mine');
    expect(first.applied).toBe(2);
    expect(first.state).toMatchObject({
      taskId: 'task-mine',
      status: 'STARTED',
      writeCount: 40,
      fileUrl: null,
      lastEventTime: T + 3,
    });
    const again = foldTaskEvents(first.state, [events[0]!, event('mine', 2, { writeCount: 10 })], 'mine');
    expect(again.applied).toBe(0);
    expect(again.state).toBe(first.state);
    const done = foldTaskEvents(
      first.state,
      [
        event('mine', 5, {
          status: 'COMPLETED',
          writeCount: 100,
          fileUrl: 'http://x/f.xlsx',
          fileName: 'f.xlsx',
        }),
      ],
      'mine',
    );
    expect(done.state).toMatchObject({ status: 'COMPLETED', fileUrl: 'http://x/f.xlsx', writeCount: 100 });
  });

  it('a failed event carries the platform error', () => {
    const failed: AsyncEvent = {
      ...event('mine', 9, { status: 'FAILED' }, false),
      error: { error: 'reporter.report.generation_failed', message: 'disk full' },
    };
    expect(foldTaskEvents(UNKNOWN_TASK_STATE, [failed], 'mine').state).toMatchObject({
      status: 'FAILED',
      error: 'disk full',
    });
  });
});

async function* chunksOf(text: string, size: number) {
  for (let n = 0; n < text.length; n += size) yield text.slice(n, n + size);
}

describe('CSV', () => {
  const text = '\ufeffid,text\r\n1,"a ""quoted"", and\r\nsplit"\r\n2,plain\n3,""\r\n';
  it('parses quotes, delimiters and line breaks in fields, whatever the chunk boundaries', async () => {
    for (const size of [1, 2, 3, 5, 1000]) {
      const rows: string[][] = [];
      await parseCsvStream(chunksOf(text, size), ',', (fields) => rows.push(fields));
      expect(rows, `chunks of ${size}`).toEqual([
        ['id', 'text'],
        ['1', 'a "quoted", and\r\nsplit'],
        ['2', 'plain'],
        ['3', ''],
      ]);
    }
  });

  it('refuses text after a closing quote and an unterminated quote', async () => {
    await expect(parseCsvStream(chunksOf('a,"b"c\r\n', 4), ',', () => {})).rejects.toThrow(
      /line 1: text after/,
    );
    await expect(parseCsvStream(chunksOf('a\r\n"b,c\r\n', 4), ',', () => {})).rejects.toThrow(/never closed/);
  });

  it('names the line each record starts on, across line breaks in fields and mixed line ends', async () => {
    const lines: number[] = [];
    const mixed = 'h1,h2\n"x\r\ny\nz",1\r2,"a\rb"\n\n3,4';
    for (const size of [1, 4, 1000]) {
      lines.length = 0;
      const count = await parseCsvStream(chunksOf(mixed, size), ',', (_fields, line) => lines.push(line));
      expect(count).toBe(5);
      expect(lines, `chunks of ${size}`).toEqual([1, 2, 5, 7, 8]);
    }
    await expect(parseCsvStream(chunksOf('a\n"b\nc",1\nd,"e"f\n', 3), ',', () => {})).rejects.toThrow(
      /^line 4: text after the closing quote/,
    );
    await expect(parseCsvStream(chunksOf('a\nb,c"d\n', 3), ',', () => {})).rejects.toThrow(
      /^line 2: a quote inside a field/,
    );
  });

  it('takes another delimiter and passes an error of onRow through unchanged', async () => {
    const rows: string[][] = [];
    await parseCsvStream(chunksOf('a;"b;c"\n', 2), ';', (fields) => rows.push(fields));
    expect(rows).toEqual([['a', 'b;c']]);
    const stop = new Error('stop here');
    await expect(
      parseCsvStream(chunksOf('a\nb\n', 1), ',', () => {
        throw stop;
      }),
    ).rejects.toBe(stop);
  });
});

describe('the file check', () => {
  const shape = { fileType: 'CSV' as const, delimiter: ',', withHeader: true };
  it('counts data rows and hands the cells over', async () => {
    const path = join(dir, 'ok.csv');
    writeFileSync(path, 'questionId,x\r\nq1,1\r\nq2,2\r\n');
    const ids: string[] = [];
    const summary = await readReportFile(path, shape, (cells) => ids.push(cells[0]!));
    expect(summary).toEqual({
      rows: 2,
      header: ['questionId', 'x'],
      fileType: 'CSV',
      delimiter: ',',
      encoding: 'utf-8',
    });
    expect(ids).toEqual(['q1', 'q2']);
  });

  it('reads a file by its content, whatever was asked: XLSX for CSV, `;` with a BOM, Windows-1251, UTF-16', async () => {
    const xlsx = join(dir, 'served.csv');
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Отчёт');
    sheet.addRow(['ID вопроса', 'Статус']);
    sheet.addRow(['q1', 'READ']);
    writeFileSync(xlsx, Buffer.from(await workbook.xlsx.writeBuffer()));
    const rows: string[][] = [];
    const asXlsx = await readReportFile(xlsx, shape, (cells) => rows.push(cells));
    expect(asXlsx).toMatchObject({ fileType: 'XLSX', rows: 1, header: ['ID вопроса', 'Статус'] });
    expect(rows).toEqual([['q1', 'READ']]);
    const texts: [string, Buffer, string, string][] = [
      ['semicolon.csv', Buffer.from('\ufeffID вопроса;Статус\r\nq1;READ\r\n'), ';', 'utf-8'],
      // the Cyrillic code page: А..я are 0xC0..0xFF
      [
        'cp1251.csv',
        Buffer.from([
          ...Buffer.from('ID '),
          0xe2,
          0xee,
          0xef,
          0xf0,
          0xee,
          0xf1,
          0xe0,
          ...Buffer.from('\tS\nq1\tREAD\n'),
        ]),
        '\t',
        'windows-1251',
      ],
      ['utf16.csv', Buffer.from('\ufeffID вопроса|Статус\nq1|READ\n', 'utf16le'), '|', 'utf-16le'],
    ];
    for (const [name, bytes, delimiter, encoding] of texts) {
      const path = join(dir, name);
      writeFileSync(path, bytes);
      const cells: string[][] = [];
      const summary = await readReportFile(path, shape, (row) => cells.push(row));
      expect(summary, name).toMatchObject({ fileType: 'CSV', delimiter, encoding, rows: 1 });
      expect(summary.header![0], name).toBe('ID вопроса');
      expect(cells, name).toEqual([['q1', 'READ']]);
    }
    const xls = join(dir, 'legacy.xls');
    writeFileSync(xls, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
    await expect(readReportFile(xls, shape)).rejects.toThrow(/legacy\.xls is a legacy XLS workbook/);
  });

  it('refuses ragged CSV, an empty file and a broken XLSX, naming the file', async () => {
    const ragged = join(dir, 'ragged.csv');
    writeFileSync(ragged, 'a,b\r\n1,2\r\n3\r\n');
    await expect(readReportFile(ragged, shape)).rejects.toThrow(/ragged\.csv has 1 fields on line 3/);
    const empty = join(dir, 'empty.csv');
    writeFileSync(empty, '');
    await expect(readReportFile(empty, shape)).rejects.toThrow(/empty\.csv is empty: it has no header row/);
    const broken = join(dir, 'broken.xlsx');
    writeFileSync(broken, 'PK\u0003\u0004 this is not a workbook');
    await expect(readReportFile(broken, { ...shape, fileType: 'XLSX' })).rejects.toMatchObject({
      code: 'platform_report.bad_file',
      message: expect.stringMatching(/broken\.xlsx does not read as a XLSX workbook/),
    });
  });

  it('never writes through a link planted at the temporary name (it is predictable)', async () => {
    const server = createServer((_, response) => response.end('questionId,status\r\nq1,READ\r\n'));
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'not to be overwritten');
    symlinkSync(victim, join(dir, 'planted.part'));
    try {
      await expect(
        downloadReportFile({
          url: `${base}/r.csv`,
          baseUrl: base,
          api: 'v1',
          token: 'secret-token',
          path: join(dir, 'planted.part'),
          what: 'the file',
          timeoutMs: 1000,
          retries: 0,
        }),
      ).rejects.toThrow(/ELOOP/);
      expect(readFileSync(victim, 'utf8')).toBe('not to be overwritten');
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });

  it('never sends the token to another host than REPORTER_BASE_URL', async () => {
    await expect(
      downloadReportFile({
        url: 'https://files.example.net/r.xlsx',
        baseUrl: 'https://app.jaicp.com',
        api: 'v1',
        token: 'secret-token',
        path: join(dir, 'x.part'),
        what: 'the file',
        timeoutMs: 1000,
        retries: 0,
      }),
    ).rejects.toMatchObject({ code: 'platform_report.foreign_url' });
  });
});
