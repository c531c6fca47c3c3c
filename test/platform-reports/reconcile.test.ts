// --reconcile against the emulator after a real sync: a messages and a sessions report agree with the
// warehouse (zero differences, also with a channel filter); rows removed from the warehouse on purpose, and a
// row the platform never had, come out exactly on the right side; untranslatable filters are refused first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportSpec } from '../../src/platform-reports/build-create-request.js';
import { parseReportFilter } from '../../src/platform-reports/parse-report-filter.js';
import { runPlatformReport } from '../../src/platform-reports/run-platform-report.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { createReportHarness, DAY, type ReportHarness } from './report-harness.js';

let r: ReportHarness;
beforeAll(async () => {
  r = await createReportHarness({ shared: true });
  const summary = await r.h.sync({ full: true });
  expect(summary.status).toBe('success');
});
afterAll(async () => {
  await r?.close();
});

const period = { from: TEST_NOW - DAY, to: TEST_NOW - 3_600_000 };
const spec = (
  kind: ReportSpec['kind'],
  filters: string[] = [],
  fileType: 'CSV' | 'XLSX' = 'CSV',
): ReportSpec => ({
  kind,
  period,
  filters: filters.map(parseReportFilter),
  fileType,
});
const reconcile = (s: ReportSpec) => runPlatformReport(r.ctx(), s, { ...r.options(), reconcile: true });

describe('reconcile after a full sync', () => {
  it('messages (XLSX): zero differences, counts equal the ground truth', async () => {
    const result = await reconcile(spec('messages', [], 'XLSX'));
    expect(result.exitCode).toBe(0);
    const truth = r.h.truth(period.from, period.to);
    expect(result.reconcile).toMatchObject({
      target: 'messages',
      agree: true,
      fileRows: truth.messages,
      fileIds: truth.messages,
      warehouseIds: truth.messages,
      missingInWarehouseCount: 0,
      missingInFileCount: 0,
      duplicatesInFile: [],
      notes: [],
    });
  });

  it('sessions (CSV): zero differences', async () => {
    const result = await reconcile(spec('sessions'));
    expect(result.exitCode).toBe(0);
    const truth = r.h.truth(period.from, period.to);
    expect(result.reconcile).toMatchObject({
      agree: true,
      fileIds: truth.sessions,
      warehouseIds: truth.sessions,
    });
  });

  it('with filters (channel, bot) the warehouse side applies the same filters', async () => {
    const result = await reconcile(
      spec('messages', ['CHANNEL_TYPE=telegram,CHAT_WIDGET', 'NLP_CLASS!=/CatchAll']),
    );
    expect(result.exitCode).toBe(0);
    const truth = r.h.truth(period.from, period.to);
    expect(result.reconcile!.agree).toBe(true);
    expect(result.reconcile!.fileIds).toBeGreaterThan(0);
    expect(result.reconcile!.fileIds).toBeLessThan(truth.messages);
    const bot = r.h.running.emulator.project('shop-bot').botIds[0];
    const sessions = await reconcile(spec('sessions', [`BOT_ID=${bot}`, 'CHANNEL_TYPE!=telegram']));
    expect(sessions.reconcile).toMatchObject({ agree: true });
    expect(sessions.reconcile!.fileIds).toBeLessThan(truth.sessions);
  });

  it('refuses a filter it cannot compare before anything is sent', async () => {
    const before = r.platformTasks().length;
    await expect(reconcile(spec('messages', ['MESSAGE_TEXT~hello']))).rejects.toMatchObject({
      kind: 'usage',
      message: expect.stringMatching(/--reconcile cannot compare the filter MESSAGE_TEXT/),
    });
    await expect(reconcile(spec('clients'))).rejects.toMatchObject({ kind: 'usage' });
    expect(r.platformTasks()).toHaveLength(before);
  });
});

describe('reconcile after rows were removed from the warehouse on purpose', () => {
  it('lists exactly the removed ids as missing in the warehouse and an extra row as missing in the file', async () => {
    const { from, to } = period;
    const messageIds = await r.withWarehouse((w) =>
      w.query(
        'select question_id from messages where "timestamp" >= $1 and "timestamp" < $2 order by question_id limit 3',
        [new Date(from), new Date(to)],
      ),
    );
    const removedMessages = messageIds.map((row) => String(row['question_id'])).sort();
    const sessionIds = await r.withWarehouse((w) =>
      w.query(
        'select session_id from sessions where start_time >= $1 and start_time < $2 order by session_id desc limit 2',
        [new Date(from), new Date(to)],
      ),
    );
    const removedSessions = sessionIds.map((row) => String(row['session_id'])).sort();
    await r.withWarehouse(async (w) => {
      await w.query('delete from messages where list_contains($1, question_id)', [removedMessages]);
      await w.query('delete from sessions where list_contains($1, session_id)', [removedSessions]);
      await w.query(
        `insert into messages (project, question_id, session_id, "timestamp", synced_at)
         values ('shop-bot', 'not-on-the-platform', $1, $2, now())`,
        [removedSessions[0]!, new Date(from + 60_000)],
      );
    });

    const messages = await reconcile(spec('messages'));
    expect(messages.exitCode).toBe(3);
    expect(messages.reconcile).toMatchObject({
      agree: false,
      missingInWarehouse: removedMessages,
      missingInWarehouseCount: 3,
      missingInFile: ['not-on-the-platform'],
      missingInFileCount: 1,
    });

    const sessions = await reconcile(spec('sessions', [], 'XLSX'));
    expect(sessions.exitCode).toBe(3);
    expect(sessions.reconcile).toMatchObject({
      agree: false,
      missingInWarehouse: removedSessions,
      missingInFileCount: 0,
    });
  });
});
