// `reporter-etl pushgate send` against the emulator: the pushbacks its bots stored in sessionData, chosen by
// SQL over the synced warehouse. Checked against what the emulated Pushgate received: a dry run sends nothing,
// --apply sends each chosen dialog exactly one push (in batches) into the session it belongs to, a rerun sends
// nothing, faults are retried or recorded as failed and the next run finishes the job; no pushback id whole
// in the output.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

let h: Harness;
let env: Record<string, string>;
let expected: string[];
const QUERY =
  "select d.value as pushback_id, 'survey' as event, d.session_id from session_data d where d.key = 'pushbackId'";

beforeAll(async () => {
  h = await createHarness({ emulator: { sessions: 300, days: 2, pushbackShare: 0.2 } });
  const summary = await h.sync();
  expect(summary.status).toBe('success');
  env = { ...h.env, REPORTER_PUSHGATE_BASE_URL: h.running.url, REPORTER_RETRIES: '2' };
  // the truth: every pushbackId value of sessionData among the sessions synced
  const truth = h.truth(0, h.running.emulator.now() - 5 * 60_000);
  expected = Object.keys(truth.sessionData)
    .filter((k) => k.startsWith('pushbackId='))
    .map((k) => k.slice('pushbackId='.length))
    .sort();
  expect(expected.length).toBeGreaterThan(10);
});
afterAll(() => h.close());

const received = () => h.running.emulator.pushgate.receipts();
const send = async (args: string[]) => {
  const r = await runCli(['pushgate', 'send', '--sql', QUERY, '--json', ...args], env);
  for (const id of expected) {
    expect(r.stdout).not.toContain(id);
    expect(r.stderr).not.toContain(id);
  }
  return { ...r, summary: r.stdout ? JSON.parse(r.stdout) : undefined };
};

describe('pushgate send', () => {
  it('a dry run sends nothing and counts every chosen dialog', async () => {
    const r = await send([]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary).toMatchObject({ dryRun: true, selected: expected.length, toSend: expected.length });
    expect(received()).toHaveLength(0);
  });

  it('--apply: one push per dialog into its own session, in batches; recorded; a rerun sends nothing', async () => {
    h.running.emulator.faults.script({ type: 'status503', path: 'pushgate', times: 2 });
    const r = await send(['--apply', '--batch-size', '7']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary).toMatchObject({
      sent: expected.length,
      failed: [],
      batches: Math.ceil(expected.length / 7),
    });
    h.running.emulator.faults.assertAllFired();
    const got = received();
    expect(got.map((g) => g.pushbackId).sort()).toEqual(expected);
    for (const g of got) {
      const body = g.body as { eventId: string; event: string; data: { session_id: string } };
      expect(body.event).toBe('survey');
      // the dialog the emulator fired into is the session the row named
      expect(body.data.session_id).toBe(g.sessionId);
    }
    const rows = await h.withWarehouse((w) =>
      w.query(
        'select status, count(*)::INTEGER as n, max(batch) as batches from pushgate_sends group by all',
      ),
    );
    expect(rows).toEqual([{ status: 'sent', n: expected.length, batches: Math.ceil(expected.length / 7) }]);

    const again = await send(['--apply']);
    expect(again.code).toBe(0);
    expect(again.summary).toMatchObject({ alreadySent: expected.length, toSend: 0, sent: 0 });
    expect(received()).toHaveLength(expected.length);
  });

  it('a deleted pushback is recorded as failed (exit 1), the others go; the next run sends only it', async () => {
    const before = received().length;
    const gone = expected[0]!;
    h.running.emulator.pushgate.delete(gone);
    const r = await send(['--apply', '--key', 'second-wave']);
    expect(r.code).toBe(1);
    expect(r.summary.sent).toBe(expected.length - 1);
    expect(r.summary.failed).toHaveLength(1);
    expect(r.summary.failed[0].error).toMatch(/404/);
    expect(
      received()
        .slice(before)
        .map((g) => g.pushbackId)
        .sort(),
    ).toEqual(expected.slice(1));
    const failed = await h.withWarehouse((w) =>
      w.query("select pushback_id, error from pushgate_sends where status = 'failed'"),
    );
    expect(failed.map((f) => f['pushback_id'])).toEqual([gone]);
    expect(String(failed[0]!['error'])).not.toContain(gone);

    h.running.emulator.pushgate.create(gone);
    const retry = await send(['--apply', '--key', 'second-wave']);
    expect(retry.code, retry.stderr).toBe(0);
    expect(retry.summary).toMatchObject({ alreadySent: expected.length - 1, sent: 1 });
    expect(
      received()
        .slice(before)
        .map((g) => g.pushbackId)
        .sort(),
    ).toEqual(expected);
  });

  it('a push an earlier run left unsettled (sending) is sent again, with the same eventId', async () => {
    const dry = await send(['--key', 'third', '--sample', '1']);
    const eventId = dry.summary.sample[0].eventId as string;
    // a run killed between its record and its settle
    await h.withWarehouse((w) =>
      w.query(
        "insert into pushgate_sends (event_id, run_id, pushback_id, body, query, batch, batches, status, started_at) values ($e, 'killed', 'x', '{}', 'q', 1, 1, 'sending', now())",
        { e: eventId },
      ),
    );
    const before = received().length;
    const r = await send(['--apply', '--key', 'third']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary).toMatchObject({ unsettled: 1, sent: expected.length });
    const ids = received()
      .slice(before)
      .map((g) => (g.body as { eventId: string }).eventId);
    expect(ids).toContain(eventId);
    expect(new Set(ids).size).toBe(expected.length);
  });

  it('a push whose 2xx answer is cut short was delivered: sent once, recorded sent with the note', async () => {
    const before = received().length;
    // Pushgate takes the push, then its answer is cut short
    h.running.emulator.faults.script({ type: 'truncate', path: 'pushgate', times: 1 });
    const r = await send(['--apply', '--key', 'cut-short']);
    h.running.emulator.faults.assertAllFired();
    expect(r.code, r.stderr).toBe(0);
    expect(r.summary).toMatchObject({ sent: expected.length, failed: [] });
    const pushed = received().slice(before);
    expect(pushed.map((g) => g.pushbackId).sort()).toEqual(expected);
    const rows = await h.withWarehouse((w) =>
      w.query(
        'select status, pushback_id, error from pushgate_sends where run_id = $r order by error nulls last',
        {
          r: r.summary.runId,
        },
      ),
    );
    expect(rows.every((row) => row['status'] === 'sent')).toBe(true);
    const noted = rows.filter((row) => row['error'] !== null);
    expect(noted).toHaveLength(1);
    expect(String(noted[0]!['error'])).toMatch(
      /was done \(200\) but its answer was cut short .*not sent again/,
    );
    expect(String(noted[0]!['error'])).not.toContain(String(noted[0]!['pushback_id']));
  });

  it('a query without pushback_id is refused before anything is sent (exit 2)', async () => {
    const r = await runCli(['pushgate', 'send', '--sql', 'select session_id from sessions'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/pushback_id/);
  });

  it('a query out of memory names REPORTER_DUCKDB_MEMORY_LIMIT, not the SET the sandbox forbids (exit 2)', async () => {
    const before = received().length;
    const r = await runCli(
      [
        'pushgate',
        'send',
        '--sql',
        "select string_agg(i::varchar || repeat('x', 100), ',') as pushback_id from range(1000000) t(i)",
      ],
      { ...env, REPORTER_DUCKDB_MEMORY_LIMIT: '16MB' },
    );
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain('REPORTER_DUCKDB_MEMORY_LIMIT, 16MB here');
    expect(r.stderr).toContain('Out of Memory Error');
    expect(r.stderr).not.toMatch(/SET (memory_limit|threads)/);
    expect(received()).toHaveLength(before);
  });
});
