// The loader reads a spool back from its file in bounded batches, a live spool's only up to the end the spool
// acknowledged (lines written after it may still be on their way to the disk, and may yet be answered 503).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readSpoolBatch } from '../../../src/sources/webhooks/read-spool-batch.js';

const dir = mkdtempSync(join(tmpdir(), 'read-spool-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const line = (i: number) => `${JSON.stringify({ route: 'prompter', receivedAt: i, body: { i } })}\n`;
const lines = [0, 1, 2, 3].map(line);
const path = join(dir, 'spool-1-1.jsonl');
writeFileSync(path, `${lines.join('')}{"route":"pro`);
const ends = lines.map((_, n) => Buffer.byteLength(lines.slice(0, n + 1).join('')));
const times = (batch: ReturnType<typeof readSpoolBatch>) => batch.records.map((r) => r.record.receivedAt);

describe('readSpoolBatch', () => {
  it('reads whole lines within the limits, never the cut last line', () => {
    const all = readSpoolBatch(path, 0, { maxBytes: 1 << 20, maxRecords: 100 });
    expect(times(all)).toEqual([0, 1, 2, 3]);
    expect(all.end).toBe(ends[3]);
    const two = readSpoolBatch(path, 0, { maxBytes: 1 << 20, maxRecords: 2 });
    expect(times(two)).toEqual([0, 1]);
    expect(two.end).toBe(ends[1]);
  });

  it('stops at the acknowledged end of a live spool', () => {
    const acknowledged = readSpoolBatch(path, ends[0]!, { maxBytes: 1 << 20, maxRecords: 100 }, ends[2]!);
    expect(times(acknowledged)).toEqual([1, 2]);
    expect(acknowledged.end).toBe(ends[2]);
    // the middle of a line is no end: the line is left for a later read
    const partway = readSpoolBatch(path, ends[2]!, { maxBytes: 1 << 20, maxRecords: 100 }, ends[3]! - 5);
    expect(partway.records).toEqual([]);
    expect(partway.end).toBe(ends[2]);
  });
});
