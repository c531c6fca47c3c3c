// Labels on records through the client, against the emulator: bulk by ids and by filters (sessions and
// messages), reading labels back (the write-back's check).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bulkLabelMessages,
  bulkLabelSessions,
  readLabelledMessageIds,
  readSessionLabelIds,
} from '../../../src/platform/reporter/label-assignments.js';
import { type ClientHarness, createClientHarness } from './client-harness.js';

let c: ClientHarness;
beforeAll(async () => {
  c = await createClientHarness();
});
afterAll(() => c.close());

const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b);
/** The newest sessions that have messages, as ids with their index. */
function sessions(n: number, offset = 0): { id: string; i: number }[] {
  const [, hi] = c.p.skeleton.sessionsStartingIn(Number.NEGATIVE_INFINITY, c.now());
  const out: { id: string; i: number }[] = [];
  for (let i = hi - 1 - offset; i >= 0 && out.length < n; i--)
    if (c.p.skeleton.visibleMessageCount(i, c.now()) > 1) out.push({ id: c.p.sessionId(i), i });
  return out;
}
const sessionLabels = (i: number) => sorted(c.p.sessionLabelIds(i, c.now()));
const messageLabels = (i: number, k: number) => sorted(c.p.messageLabelIds(i, k, c.now()));

describe('session labels on sessions', () => {
  it('bulk-labels by ids (CONTAINS adds, NOT_CONTAINS removes) and by filters', async () => {
    const picked = sessions(5, 3);
    const before = new Map(picked.map((s) => [s.i, sessionLabels(s.i)]));
    await bulkLabelSessions(c.v1, {
      comparisonType: 'CONTAINS',
      labels: [4],
      objectIds: picked.map((s) => s.id),
    });
    for (const s of picked)
      expect(sessionLabels(s.i)).toEqual(sorted([...new Set([...before.get(s.i)!, 4])]));
    await bulkLabelSessions(c.legacy, {
      comparisonType: 'NOT_CONTAINS',
      labels: [4],
      objectIds: picked.map((s) => s.id),
    });
    for (const s of picked) expect(sessionLabels(s.i)).toEqual(before.get(s.i)!.filter((id) => id !== 4));
    const first = picked[0]!;
    const start = c.p.skeleton.start.get(first.i);
    await bulkLabelSessions(c.v1, {
      comparisonType: 'CONTAINS',
      labels: [2],
      filters: [
        {
          key: 'SESSION_START_TIME',
          type: 'DATE_TIME_RANGE',
          from: new Date(start).toISOString(),
          to: new Date(start).toISOString(),
        },
      ],
    });
    expect(sessionLabels(first.i)).toContain(2);
  });

  it('reads the labels of a list of sessions back, and tells which do not exist', async () => {
    const picked = sessions(6, 10);
    const times = picked.map((s) => c.p.skeleton.start.get(s.i));
    const read = await readSessionLabelIds(c.v1, {
      sessionIds: [...picked.map((s) => s.id), 'no-such-session'],
      from: Math.min(...times),
      to: Math.max(...times),
      pageSize: 2,
    });
    expect(read.complete).toBe(true);
    expect([...read.labels.keys()].sort()).toEqual(picked.map((s) => s.id).sort());
    for (const s of picked) expect(sorted(read.labels.get(s.id)!)).toEqual(sessionLabels(s.i));
  });
});

describe('message labels on messages', () => {
  it('bulk-labels messages by ids and reads back which carry the label', async () => {
    const picked = sessions(4, 30);
    const refs = picked.map((s) => ({ id: c.p.questionId(s.i, 1), i: s.i, k: 1 }));
    await bulkLabelMessages(c.v1, {
      comparisonType: 'CONTAINS',
      labels: [113],
      objectIds: refs.map((r) => r.id),
    });
    for (const r of refs) expect(messageLabels(r.i, r.k)).toContain(113);
    const times = refs.map((r) => c.p.skeleton.messageTime(r.i, r.k));
    const read = await readLabelledMessageIds(c.v1, {
      sessionIds: picked.map((s) => s.id),
      from: Math.min(...times),
      to: Math.max(...times),
      labelId: 113,
      pageSize: 500,
    });
    expect(read.complete).toBe(true);
    for (const r of refs) expect(read.questionIds.has(r.id)).toBe(true);
    // exactly the messages of those sessions, in that time, that carry it
    const truth = new Set<string>();
    for (const s of picked)
      for (let k = 0; k < c.p.skeleton.visibleMessageCount(s.i, c.now()); k++) {
        const t = c.p.skeleton.messageTime(s.i, k);
        if (t >= Math.min(...times) && t <= Math.max(...times) && messageLabels(s.i, k).includes(113))
          truth.add(c.p.questionId(s.i, k));
      }
    expect(read.questionIds).toEqual(truth);
  });
});
