// End to end on real questions: the emulator serves Banking77 (CC BY 4.0, test/fixtures/unhandled/) as its
// catch-all questions for a month, each message's true intent in its truth (unhandledTruth); the sync reads
// them like any other message, then `reporter-etl unhandled --json` clusters the month. The stored membership
// is judged by the truth: the targets of issue 48, "other" (messages in no cluster) pooled as one cluster.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UnhandledRun } from '../../../src/analysis/unhandled/compute-unhandled.js';
import { runUnhandled } from '../../../src/cli/commands/unhandled.js';
import { readUnhandledCorpus } from '../../../src/emulator/unhandled-corpus.js';
import { unhandledTruth } from '../../../src/emulator/unhandled-truth.js';
import { scoreAgainstTruth } from '../../helpers/cluster-truth.js';
import { UNHANDLED_WINDOW_HOURS } from '../../helpers/record-unhandled.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';

const DAY = 86_400_000;
const corpus = readUnhandledCorpus(
  new URL('../../fixtures/unhandled/banking77.tsv.gz', import.meta.url).pathname,
);

describe('a month of Banking77 questions through the emulator, then `unhandled`', () => {
  let h: Harness;
  let run: UnhandledRun;
  let members: Map<string, string>;
  let truth: ReturnType<typeof unhandledTruth>;
  beforeAll(async () => {
    // 90 % of the bot's answered messages catch-all: a month of ~20,000 questions from 2,400 sessions
    h = await createHarness({
      emulator: { sessions: 2400, days: 30, catchAll: { corpus, share: 0.9 } },
      env: { REPORTER_HISTORY_DAYS: '31', REPORTER_WINDOW_HOURS: UNHANDLED_WINDOW_HOURS },
    });
    expect((await h.sync()).status).toBe('success');
    const to = Math.floor(h.running.emulator.now() / DAY) * DAY;
    const from = to - 28 * DAY;
    const out: string[] = [];
    const io = { out: (line: string) => out.push(line), err: () => {}, isTty: false };
    const iso = (t: number) => new Date(t).toISOString();
    const code = await runUnhandled(['--json', '--from', iso(from), '--to', iso(to)], io, {
      env: h.env,
      now: () => h.running.emulator.now(),
    });
    expect(code).toBe(0);
    run = JSON.parse(out.join('\n')) as UnhandledRun;
    const rows = await h.withWarehouse((w) =>
      w.query('select question_id, cluster_id from unhandled_members where run_id = $run', {
        run: run.runId,
      }),
    );
    members = new Map(rows.map((r) => [String(r['question_id']), String(r['cluster_id'])]));
    truth = unhandledTruth(h.running.emulator.project('shop-bot'), {
      from,
      to,
      now: h.running.emulator.now(),
    });
  }, 300_000);
  afterAll(() => h?.close());

  it('reads every catch-all question of the month, each with its true intent', () => {
    expect(truth.noise).toEqual([]);
    expect(run.unrecognised).toBe(truth.topicOf.size);
    expect(truth.topicOf.size).toBeGreaterThan(15_000);
    expect(Object.keys(truth.topics).length).toBe(77);
  });

  it('meets the targets: NMI ≥ 0.60, purity ≥ 0.50, no cluster over 5 %, ≤ 3 clusters per intent', () => {
    const ids = [...truth.topicOf.keys()];
    const scores = scoreAgainstTruth(
      ids.map((id) => truth.topicOf.get(id)!),
      ids.map((id) => members.get(id)),
    );
    expect(scores.nmi).toBeGreaterThanOrEqual(0.6);
    expect(scores.purity).toBeGreaterThanOrEqual(0.5);
    expect(scores.largestShare).toBeLessThanOrEqual(0.05);
    expect(scores.maxClustersPerIntent).toBeLessThanOrEqual(3);
  });

  it('says "other" plainly: the messages of the month in no cluster, in --json', () => {
    expect(run.clustered).toBe(members.size);
    expect(run.other.messages).toBe(run.unrecognised - members.size);
    expect(run.other.share).toBeCloseTo(run.other.messages / run.unrecognised, 12);
    expect(run.vectors).toBe('lsa');
  });
});
