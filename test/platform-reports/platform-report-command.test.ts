// The platform-report command's run() in this process (configuration from a stubbed environment): usage
// errors raised before anything is sent, a deadline of 0 leaving the task pending (exit 75), list --json,
// delete --all and --resume, and the text of a reconciliation that found differences (exit 3).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { platformReportCommand } from '../../src/cli/commands/platform-report.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { createReportHarness, DAY, type ReportHarness } from './report-harness.js';

let r: ReportHarness | undefined;
afterEach(async () => {
  vi.unstubAllEnvs();
  await r?.close();
  r = undefined;
});

async function run(args: string[], env: Record<string, string>) {
  for (const [key, value] of Object.entries({ ...env, LOG_LEVEL: 'silent' })) vi.stubEnv(key, value);
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), isTty: false };
  try {
    const code = await platformReportCommand.run(args, io);
    return { code, error: undefined, out: out.join('\n'), err: err.join('\n') };
  } catch (error) {
    return {
      code: undefined,
      error: error as Error & { kind?: string },
      out: out.join('\n'),
      err: err.join('\n'),
    };
  } finally {
    vi.unstubAllEnvs();
  }
}

const iso = (t: number) => new Date(t).toISOString();

describe('platform-report command', () => {
  it('usage errors name what to change, before anything is sent', async () => {
    r = await createReportHarness();
    const env = r.h.env;
    const cases: [string[], RegExp][] = [
      [[], /name a report kind/],
      [['invoices'], /unknown report kind "invoices"/],
      [['messages', '--date', '2026-13-45x'], /--date expects a date/],
      // impossible dates are refused naming the option, never rolled over (2026-11-31 is not December 1)
      [['messages', '--from', '2026-11-31', '--to', '2026-12-02'], /--from expects .*no such date or time/],
      [['messages', '--from', '2026-11-20', '--to', '2026-11-20T25:00Z'], /--to expects/],
      [['messages', '--date', '2026-02-29'], /--date expects .*no such date or time/],
      [['messages', '--date', '2026-10-31', '--from', '2026-10-30'], /--date is one whole day in --tz/],
      [
        ['messages', '--from', '2026-10-31', '--to', '2026-10-30'],
        /must be before --to .*wrong way round, give --from 2026-10-30 --to 2026-10-31$/,
      ],
      [['clients', '--reconcile'], /clients reports cannot be reconciled/],
      [['messages', '--reconcile', '--filter', 'MESSAGE_TEXT~hi'], /cannot compare the filter MESSAGE_TEXT/],
      [['telephony', '--format', 'csv'], /telephony reports take no settings/],
      [['telephony', '--filter', 'CHANNEL_TYPE=vk'], /telephony reports take only --filter BOT_ID/],
      [['daily', '--from', '2026-10-30T06:00:00Z', '--to', '2026-10-31'], /one whole UTC day/],
      [['message-reaction'], /need --filter BOT_ID/],
      [['messages', '--filter', 'MESSAGE_TIME=x'], /the period is set with --from\/--to or --date/],
      [['messages', '--filter', '{"key": 1}'], /needs string "key" and "type"/],
      [['delete'], /one task id, or --completed, or --all/],
      [['list', '--all'], /--completed and --all belong to `platform-report delete`/],
      [['--resume', 'messages'], /use it without a kind/],
      [['messages', '--format', 'pdf'], /--format expects one of xlsx, csv/],
      [['messages', '--poll-timeout', '45'], /at most 30 seconds/],
    ];
    for (const [args, message] of cases) {
      const result = await run(args, env);
      expect(result.error?.kind, `${args.join(' ')}: ${result.error?.message}`).toBe('usage');
      expect(result.error!.message).toMatch(message);
    }
    expect(r.platformTasks()).toHaveLength(0);
    expect(await r.records()).toEqual([]);
  });

  it('--deadline 0 leaves a task pending (75); list --json; delete --completed, then --all; --resume has nothing left', async () => {
    // slow enough that the messages report stays pending however loaded the machine is (the messages of its day take ~30 s to build, the client list ~6 s)
    r = await createReportHarness({ emulator: { reportRowsPerSecond: 50 } });
    const env = r.h.env;
    const done = await run(['client-list', '--date', '2026-10-31', '--json'], env);
    expect(done.code).toBe(0);
    const doneTask = JSON.parse(done.out).outcomes[0].taskId;
    const pending = await run(['messages', '--date', '2026-10-31', '--deadline', '0'], env);
    expect(pending.code).toBe(75);
    expect(pending.err).toMatch(
      /messages 2026-10-31: pending · request [0-9a-f-]+ · still CREATED when the deadline passed; it stays pending/,
    );
    const byKind = async () => Object.fromEntries((await r!.records()).map((x) => [x['kind'], x]));
    expect((await byKind())['messages']).toMatchObject({ status: 'pending', task_id: null });

    const listed = await run(['list', '--json'], env);
    const list = JSON.parse(listed.out);
    expect(list.platform).toHaveLength(2);
    expect(list.platform).toContainEqual(expect.objectContaining({ taskId: doneTask, status: 'COMPLETED' }));
    expect(list.platform).toContainEqual(expect.objectContaining({ reportType: 'MESSAGES', fileName: null }));
    expect(list.table.map((x: { status: string }) => x.status).sort()).toEqual(['completed', 'pending']);
    expect(list.table[0].request).toBeUndefined();

    const completed = await run(['delete', '--completed', '--json'], env);
    expect(JSON.parse(completed.out).deleted).toEqual([doneTask]);
    expect((await byKind())['client-list']).toMatchObject({
      status: 'completed',
      platform_status: 'DELETED',
    });
    expect((await byKind())['messages']).toMatchObject({ status: 'pending' });

    const all = await run(['delete', '--all', '--json'], env);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.out).deleted).toEqual([expect.any(String)]);
    expect(r.platformTasks()).toHaveLength(0);
    // the record knew only its request: it learnt its task id before the deletion, so it is matched
    expect((await byKind())['messages']).toMatchObject({ status: 'deleted', platform_status: 'DELETED' });
    const resumed = await run(['--resume'], env);
    expect(resumed.code).toBe(0);
    expect(resumed.out).toMatch(/shop-bot: no pending report tasks/);
  }, 120_000);

  it('prints the differences a reconciliation finds (exit 3)', async () => {
    r = await createReportHarness();
    await r.h.sync({ full: true });
    const from = TEST_NOW - DAY;
    const to = TEST_NOW - 6 * 3_600_000;
    const [gone] = await r.h.withWarehouse((w) =>
      w.query('select question_id from messages where "timestamp" >= $1 and "timestamp" < $2 limit 1', [
        new Date(from),
        new Date(to),
      ]),
    );
    const id = String(gone!['question_id']);
    await r.h.withWarehouse((w) => w.query('delete from messages where question_id = $1', [id]));
    const result = await run(
      ['messages', '--from', iso(from), '--to', iso(to), '--format', 'csv', '--reconcile'],
      r.h.env,
    );
    expect(result.error).toBeUndefined();
    expect(result.code).toBe(3);
    expect(result.out).toMatch(
      /messages 2026-10-31T00:00:00.000Z..2026-10-31T18:00:00.000Z: completed · task [0-9a-f-]+ · [\d,]+ rows · .*messages_20261031T0000Z_20261031T1800Z\.csv/,
    );
    expect(result.out).toMatch(/reconcile messages .*missing in the warehouse 1 · missing in the file 0/);
    expect(result.out).toContain(`in the file, missing in the warehouse (1): ${id}`);
  });
});
