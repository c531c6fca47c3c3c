// The `runs` table: without --wide it fits 100 columns and says when an outcome is cut; with --wide the error
// is whole however long (it was cut at 40 columns), the last column.
import { describe, expect, it } from 'vitest';
import { formatRuns } from '../../src/cli/commands/runs.js';
import type { RunRecord } from '../../src/warehouse/warehouse.js';

const reason =
  'the Reporter API answered 503 Service Unavailable to GET /api/v1/sessions/filter 7 times over 6 minutes ' +
  '(REPORTER_RETRIES 6); the window 2026-11-20T00:00:00Z – 2026-11-22T00:00:00Z stays for the next run';

const run: RunRecord = {
  runId: 'run-1',
  project: 'shop-bot',
  job: 'sync',
  trigger: 'manual',
  startedAt: Date.UTC(2026, 10, 22, 9),
  finishedAt: Date.UTC(2026, 10, 22, 9, 6),
  status: 'failed',
  windows: 3,
  sessions: 12_345,
  messages: 123_456,
  requests: 1_234,
  rejects: 0,
  durationMs: 360_000,
  error: reason,
  pid: 1,
  host: 'h',
  notification: null,
  unknownValues: null,
  concurrencyReached: 4,
  throttled: 0,
};

describe('the runs table', () => {
  it('--wide shows the whole failure reason, last', () => {
    const [header, row] = formatRuns([run], true, 'UTC');
    expect(header!.trimEnd().endsWith('Error')).toBe(true);
    expect(row!.endsWith(reason)).toBe(true);
  });

  it('without --wide fits 100 columns and says where a cut outcome is whole', () => {
    const lines = formatRuns([run], false, 'UTC');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(100);
    expect(lines[1]).toMatch(/…$/);
    expect(lines.at(-1)).toBe('(an outcome ending in … is cut: runs --wide or --json shows it whole)');
    const short = formatRuns([{ ...run, error: 'stopped' }], false, 'UTC');
    expect(short).toHaveLength(2);
  });
});
