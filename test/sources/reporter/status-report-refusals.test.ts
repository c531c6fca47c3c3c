// The statuses report against a server that refuses or misleads, which the emulator does not do: a create
// answered 403 is the operation refused (the run stops asking for reports, with one warning), a completed
// task whose file URL is on another host is a failure without the token ever going there, and a file with no
// column of statuses is a failure naming the task, the values looked for and the header.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../src/log.js';
import { ReporterHttp } from '../../../src/platform/reporter/reporter-http.js';
import { readStatusReport } from '../../../src/sources/reporter/read-status-report.js';
import { REPORT_MIN_CLIENTS, StatusReports } from '../../../src/sources/reporter/status-reports.js';

const TOKEN = 'secret-token-of-the-test';
let server: Server | undefined;
const seen: { url: string; authorization: string | undefined }[] = [];

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
  seen.length = 0;
});

async function serve(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    seen.push({ url: req.url ?? '', authorization: req.headers.authorization });
    handle(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
}

function transports(baseUrl: string) {
  const options = { baseUrl, token: TOKEN, api: 'legacy' as const, retries: 0, backoffBaseMs: 1 };
  return {
    http: new ReporterHttp(options),
    fileHttp: new ReporterHttp({ ...options, bodyAs: 'bytes' }),
  };
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

describe('statuses report refusals', () => {
  it('a create answered 403 turns the reports off for the run', async () => {
    const baseUrl = await serve((_req, res) =>
      send(res, 403, { error: 'reporter.forbidden', message: 'no reports for this token' }),
    );
    const { http, fileHttp } = transports(baseUrl);
    const warnings: unknown[] = [];
    const log = silentLogger();
    log.warn = ((...args: unknown[]) => warnings.push(args)) as typeof log.warn;
    const reports = new StatusReports({ http, fileHttp, log, waitMs: 5_000 });
    expect(await reports.begin(0, 3_600_000, REPORT_MIN_CLIENTS)).toBeUndefined();
    expect(reports.failed).toBe(1);
    // refused: the next window does not ask again
    expect(reports.begin(3_600_000, 7_200_000, REPORT_MIN_CLIENTS)).toBeUndefined();
    expect(seen).toHaveLength(1);
    expect(warnings).toHaveLength(1);
    await reports.close();
  });

  it('a file URL on another host is a failure, and the token does not go there', async () => {
    const other = createServer((req, res) => {
      seen.push({ url: `other:${req.url}`, authorization: req.headers.authorization });
      res.end('questionId,status\r\n');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    try {
      const baseUrl = await serve((req, res) => {
        if (req.method === 'DELETE') return send(res, 200, {});
        send(res, 200, {
          taskId: 't1',
          status: 'COMPLETED',
          totalCount: 0,
          fileUrl: `${otherUrl}/api/reporter/p/${TOKEN}/reports/files/t1/messages.csv`,
        });
      });
      const { http, fileHttp } = transports(baseUrl);
      const report = await readStatusReport(http, fileHttp, {
        from: 0,
        to: 3_600_000,
        channels: ['telegram'],
        waitMs: 5_000,
      });
      expect(report).toMatchObject({ ok: false, refused: false });
      expect(report.ok ? '' : report.reason).toContain('not under the Reporter API prefix');
      expect(seen.some((r) => r.url.startsWith('other:'))).toBe(false);
      // created, polled once, deleted
      expect(seen.map((r) => r.url.split('/').slice(-2).join('/'))).toEqual([
        'reports/messages',
        'tasks/t1',
        'tasks/t1',
      ]);
      await Promise.all([http.close(), fileHttp.close()]);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });

  it('a file with no column of statuses fails naming the task, what was looked for and the header', async () => {
    let base = '';
    const baseUrl = await serve((req, res) => {
      if (req.method === 'DELETE') return send(res, 200, {});
      if (req.url?.includes('/reports/files/')) {
        res.writeHead(200, { 'content-type': 'text/csv' });
        return res.end('Номер;Состояние\r\nq1;Доставлено\r\nq2;Прочитано\r\n');
      }
      send(res, 200, {
        taskId: 't7',
        status: 'COMPLETED',
        totalCount: 2,
        fileUrl: `${base}/api/reporter/p/${TOKEN}/reports/files/t7/messages.csv`,
      });
    });
    base = baseUrl;
    const { http, fileHttp } = transports(baseUrl);
    const report = await readStatusReport(http, fileHttp, {
      from: 0,
      to: 3_600_000,
      channels: ['telegram'],
      waitMs: 5_000,
    });
    expect(report).toMatchObject({ ok: false, refused: false });
    const reason = report.ok ? '' : report.reason;
    expect(reason).toContain('the report file of task t7');
    expect(reason).toContain(
      'no column holds delivery statuses (SENT, DELIVERED, READ, NOT_SENT, NOT_DELIVERED',
    );
    expect(reason).toContain('the header: "Номер", "Состояние"');
    // the task is deleted all the same
    expect(seen.at(-1)?.url).toMatch(/tasks\/t7$/);
    await Promise.all([http.close(), fileHttp.close()]);
  });

  it('a file in another form than asked is read by its content and said once', async () => {
    let base = '';
    const baseUrl = await serve((req, res) => {
      if (req.method === 'DELETE') return send(res, 200, {});
      if (req.url?.includes('/reports/files/')) {
        res.writeHead(200, { 'content-type': 'text/csv' });
        return res.end('\ufeffID вопроса;Статус\r\nq1;READ\r\nq2;SENT\r\n');
      }
      send(res, 200, {
        taskId: 't8',
        status: 'COMPLETED',
        totalCount: 2,
        fileUrl: `${base}/api/reporter/p/${TOKEN}/reports/files/t8/messages.csv`,
      });
    });
    base = baseUrl;
    const { http, fileHttp } = transports(baseUrl);
    const infos: unknown[][] = [];
    const log = silentLogger();
    log.info = ((...args: unknown[]) => infos.push(args)) as typeof log.info;
    const reports = new StatusReports({ http, fileHttp, log, waitMs: 5_000 });
    const first = await reports.begin(0, 3_600_000, REPORT_MIN_CLIENTS);
    const second = await reports.begin(3_600_000, 7_200_000, REPORT_MIN_CLIENTS);
    expect(first?.lookup(['q1', 'q2'])).toEqual(
      new Map([
        ['q1', 'READ'],
        ['q2', 'SENT'],
      ]),
    );
    expect(second?.lookup(['q2'])?.get('q2')).toBe('SENT');
    expect(infos).toEqual([
      [
        { fileType: 'CSV', delimiter: ';', encoding: 'utf-8' },
        'a statuses report file is not in the form asked: read by its content',
      ],
    ]);
    await reports.close();
  });
});
