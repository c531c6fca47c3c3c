// `label-messages --cluster ID`: the messages of a cluster of unhandled questions get a message label on the
// platform (the emulator's state is the judge), dry run first; bad ids and --cluster beside --sql refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeUnhandled, type UnhandledRun } from '../../../src/analysis/unhandled/compute-unhandled.js';
import { labelMessagesCommand } from '../../../src/cli/commands/label-messages.js';
import { unhandledTruth } from '../../../src/emulator/unhandled-truth.js';
import { createManageHarness, type ManageHarness, runCommand } from '../../manage/manage-harness.js';

const DAY = 86_400_000;
const WRONG = 102; // 'Неверно' of the group 'Качество ответа' in the emulator's catalogue

describe('label-messages --cluster', () => {
  let h: ManageHarness;
  let run: UnhandledRun;
  let from: number;
  let to: number;
  beforeAll(async () => {
    h = await createManageHarness({ emulator: { sessions: 1200, days: 3 } });
    await h.sync();
    to = h.running.emulator.now();
    from = to - 2 * DAY;
    run = await h.withWarehouse((w) =>
      computeUnhandled(w, { catchAllClass: '/CatchAll', from, to }, new Date(to)),
    );
  }, 120_000);
  afterAll(() => h?.close());

  const cli = (...argv: string[]) => runCommand(labelMessagesCommand, argv, h.env);
  const label = ['--label', 'Неверно', '--group', 'Качество ответа'];

  it("dry run, then --apply puts the label on the cluster's messages: those of one hidden topic", async () => {
    const cluster = run.clusters[0]!;
    const version = h.stateVersion();
    const dry = await cli(...label, '--cluster', cluster.id, '--json');
    expect(dry.code, dry.err).toBe(0);
    expect(JSON.parse(dry.out)).toMatchObject({ dryRun: true, selected: cluster.messages });
    expect(h.stateVersion()).toBe(version);

    const applied = await cli(...label, '--cluster', cluster.id, '--apply', '--json');
    expect(applied.code, applied.err).toBe(0);
    const truth = unhandledTruth(h.p, { from, to, now: h.running.emulator.now() });
    const labelled = [...truth.topicOf.keys(), ...truth.noise].filter((id) =>
      h.messageLabelIds(id).includes(WRONG),
    );
    const topics = new Map<string, number>();
    for (const id of labelled)
      topics.set(truth.topicOf.get(id) ?? '', (topics.get(truth.topicOf.get(id) ?? '') ?? 0) + 1);
    const [topic, count] = [...topics].sort((a, b) => b[1] - a[1])[0]!;
    expect(count / cluster.messages).toBeGreaterThanOrEqual(0.9);
    expect(count / truth.topics[topic]!).toBeGreaterThanOrEqual(0.9);
  });

  it('refuses a malformed id, and --cluster beside --sql, before asking the platform', async () => {
    const requests = h.requests();
    const bad = await cli(...label, '--cluster', "u-1' or 1=1 --");
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--cluster expects a cluster id/);
    const both = await cli(
      ...label,
      '--cluster',
      run.clusters[0]!.id,
      '--sql',
      'select question_id from messages',
    );
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/--cluster or --sql/);
    expect(h.requests()).toBe(requests);
  });
});
