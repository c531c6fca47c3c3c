// The retention job deletes, by age, the files under <dataDir>/reports and <dataDir>/platform-reports and the
// etl_rejects rows, and nothing else: not younger files, not files elsewhere, not a symbolic link's target.
import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { retentionJob } from '../../jobs/retention.js';
import type { FinishedJobRun } from '../../src/schedule/job-runner.js';
import { createScheduleHarness, type ScheduleHarness } from '../schedule/schedule-harness.js';

let h: ScheduleHarness | undefined;
afterEach(() => {
  h?.close();
  h = undefined;
});

const DAY = 86_400_000;

describe('retention job', () => {
  it('deletes report files and rejects older than REPORTER_RETENTION_DAYS, and nothing else', async () => {
    const now = Date.now();
    h = createScheduleHarness({ REPORTER_RETENTION_DAYS: '10' }, now);
    const dir = h.dir;
    const file = (rel: string, ageDays: number) => {
      const path = join(dir, rel);
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, `${rel}\n`);
      const t = new Date(now - ageDays * DAY);
      utimesSync(path, t, t);
      return path;
    };
    const old = [
      file('reports/summary_2026-10-01.xlsx', 40),
      file('reports/2026/10/summary_2026-10-05.xlsx', 11),
      file('platform-reports/messages_2026-10-01.xlsx', 30),
      file('platform-reports/messages_2026-10-02.csv.part', 12),
    ];
    const kept = [
      file('reports/summary_2026-11-20.xlsx', 1),
      file('reports/summary_2026-11-12.xlsx', 9.9),
      file('platform-reports/messages_2026-11-20.xlsx', 0),
      file('old-notes.txt', 400),
      file('exports/ancient.xlsx', 400),
    ];
    // a link inside reports/ to an old file outside: neither the link nor its target goes
    const target = file('elsewhere/target.xlsx', 100);
    const link = join(dir, 'reports', 'link.xlsx');
    symlinkSync(target, link);
    kept.push(target);

    await h.useWarehouse((w) =>
      w.query(
        `insert into etl_rejects (run_id, project, endpoint, record_id, raw_json, error, rejected_at) values
         ('r1', 'p', 'sessions/filter', 'a', '{}', 'bad', $1),
         ('r1', 'p', 'sessions/filter', 'b', '{}', 'bad', $2),
         ('r2', 'p', 'messages/filter', 'c', '{}', 'bad', $3)`,
        [new Date(now - 20 * DAY), new Date(now - 10 * DAY - 60_000), new Date(now - 9 * DAY)],
      ),
    );

    const outcome = (await h.runner().run(retentionJob, 'manual')) as FinishedJobRun;
    expect(outcome.status, outcome.error ?? '').toBe('success');
    for (const path of old) expect(existsSync(path), path).toBe(false);
    for (const path of kept) expect(existsSync(path), path).toBe(true);
    expect(existsSync(link)).toBe(true);
    const details = outcome.details as { files: { path: string }[]; rejects: number };
    expect(details.files.map((f) => f.path).sort()).toEqual([...old].sort());
    expect(details.rejects).toBe(2);
    expect(outcome.summary).toMatch(/deleted 4 files .* and 2 rejected records/);
    const left = await h.useWarehouse((w) => w.query('select record_id from etl_rejects order by 1'));
    expect(left.map((r) => r['record_id'])).toEqual(['c']);
    // the folders themselves stay
    expect(existsSync(join(dir, 'reports', '2026', '10'))).toBe(true);
    const [run] = await h.runs('retention');
    expect(run).toMatchObject({ trigger: 'manual', status: 'success' });
  });

  it('has nothing to do in an empty data dir', async () => {
    h = createScheduleHarness();
    const outcome = (await h.runner().run(retentionJob, 'schedule')) as FinishedJobRun;
    expect(outcome).toMatchObject({ status: 'success', details: { files: [], rejects: 0 } });
  });
});
