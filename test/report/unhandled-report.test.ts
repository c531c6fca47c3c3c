// The `unhandled` report over a synced emulator, judged by the emulator's truth (unhandledTruth, not the
// clustering's output): empty, naming the command, before a run is stored; then its top cluster is the truth's
// largest topic (its messages and the previous period's within 10 % of the topic's, mostly that topic's
// messages), the run's unrecognised counts are the truth's, every topic has a row, the chart is drawn, and the
// HTML page shows the same clusters.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findReport } from '../../reports/index.js';
import { OTHER_LABEL } from '../../reports/unhandled/report.js';
import { coverTopClusters } from '../../src/cli/commands/unhandled-coverage.js';
import { loadConfig } from '../../src/config.js';
import { kbKeys } from '../../src/emulator/kb/kb-truth.js';
import { unhandledTruth } from '../../src/emulator/unhandled-truth.js';
import { silentLogger } from '../../src/log.js';
import { writeReport } from '../../src/report/write-report.js';
import { createUnhandledHarness, recordUnhandled } from '../helpers/record-unhandled.js';
import type { Harness } from '../helpers/sync-harness.js';
import { readWorkbook, sheetNamed } from './read-workbook.js';

const DAY = 86_400_000;

describe('the unhandled report against the emulator truth', () => {
  let h: Harness;
  let from: number;
  let to: number;
  const write = (formats: ('xlsx' | 'html')[] = ['xlsx']) =>
    h.withWarehouse((warehouse) =>
      writeReport({
        warehouse,
        report: findReport('unhandled'),
        from,
        to,
        tz: 'UTC',
        outDir: join(h.dir, 'reports'),
        formats,
      }),
    );
  const truthOf = (a: number, b: number) =>
    unhandledTruth(h.running.emulator.project('shop-bot'), { from: a, to: b, now: h.running.emulator.now() });

  beforeAll(async () => {
    ({ h, from, to } = await createUnhandledHarness());
  }, 120_000);
  afterAll(() => h.close());

  it('is empty before a run of its period is stored, and names the command that stores it', async () => {
    const result = await write();
    expect(result.empty).toBe(true);
    const { sheets } = await readWorkbook(result.path);
    const note = String(sheets[0]!.rows[0]?.[0] ?? sheets[0]!.header[0]);
    // in local dates (the report's zone is UTC here): --to is the day after the last
    const day = (t: number) => new Date(t).toISOString().slice(0, 10);
    expect(note).toContain(`reporter-etl unhandled --from ${day(from)} --to ${day(to)} --tz UTC`);
  });

  it("shows the truth's largest topic first, the truth's counts, every topic and the chart", async () => {
    const run = await h.withWarehouse((w) => recordUnhandled(w, { from, to }, h.running.emulator.now()));
    const result = await write();
    expect(result.empty).toBe(false);
    const { workbook, sheets } = await readWorkbook(result.path);
    const clusters = sheetNamed(sheets, 'Clusters');
    const at = (name: string) => clusters.header.indexOf(name);
    const truth = truthOf(from, to);
    const previous = truthOf(from - 7 * DAY, from);
    const [largest, count] = Object.entries(truth.topics).sort((a, b) => b[1] - a[1])[0]!;
    const top = clusters.rows[0]!;
    expect(top[at('Rank')]).toBe(1);
    expect(Math.abs(Number(top[at('Messages')]) - count) / count).toBeLessThanOrEqual(0.1);
    const before = previous.topics[largest]!;
    expect(Math.abs(Number(top[at('Previous period')]) - before) / before).toBeLessThanOrEqual(0.1);
    // the top cluster's messages are mostly the largest topic's (membership judged by the truth)
    const members = await h.withWarehouse((w) =>
      w.query('select question_id from unhandled_members where run_id = $run and cluster_id = $id', {
        run: run.runId,
        id: String(top[at('Cluster id')]),
      }),
    );
    const ofLargest = members.filter((m) => truth.topicOf.get(String(m['question_id'])) === largest).length;
    expect(ofLargest / members.length).toBeGreaterThanOrEqual(0.9);
    expect(clusters.rows.length - 1).toBeGreaterThanOrEqual(Object.keys(truth.topics).length);
    const figures = new Map(sheetNamed(sheets, 'Run').rows.map((r) => [String(r[0]), r[1]]));
    expect(figures.get('Unrecognised messages')).toBe(h.truth(from, to).nlpClasses['/CatchAll']);
    expect(figures.get('Unrecognised messages, previous period')).toBe(
      h.truth(from - 7 * DAY, from).nlpClasses['/CatchAll'],
    );
    // the last row is "other": the messages in no cluster, said plainly
    const other = clusters.rows.at(-1)!;
    expect([other[at('Cluster id')], other[at('Label (most central phrasing)')]]).toEqual([
      'other',
      OTHER_LABEL,
    ]);
    const clustered = clusters.rows.slice(0, -1).reduce((n, r) => n + Number(r[at('Messages')]), 0);
    expect(figures.get('Messages in a cluster')).toBe(clustered);
    expect(figures.get('Other: messages that joined no topic')).toBe(Number(other[at('Messages')]));
    expect(clustered + Number(other[at('Messages')])).toBe(figures.get('Unrecognised messages'));
    expect(workbook.model.media.length).toBeGreaterThanOrEqual(1);
  });

  it('writes the same clusters as an HTML page with the chart', async () => {
    const result = await write(['html']);
    const page = readFileSync(result.path, 'utf8');
    const stored = await h.withWarehouse((w) =>
      w.query('select label from unhandled_clusters order by rank limit 3'),
    );
    const html = (t: string) =>
      t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    for (const r of stored) expect(page).toContain(html(String(r['label'])));
    expect(page).toContain('<svg');
    expect(page).toContain('Top 10 clusters');
  });

  it("shows each top cluster's coverage: answerable as the truth's covered topics say", async () => {
    const now = h.running.emulator.now();
    const run = await h.withWarehouse((w) => recordUnhandled(w, { from, to }, now));
    const keys = kbKeys(h.running.emulator);
    const config = loadConfig({
      ...h.env,
      REPORTER_KB_BASE_URL: `${h.running.url}${keys.basePath}`,
      REPORTER_KB_KEY: keys.projectKey,
    });
    await coverTopClusters(config, silentLogger(), run, 20, new Date(now));
    const { sheets } = await readWorkbook((await write()).path);
    const clusters = sheetNamed(sheets, 'Coverage');
    const at = (name: string) => clusters.header.indexOf(name);
    const truth = truthOf(from, to);
    const members = await h.withWarehouse((w) =>
      w.query('select question_id, cluster_id from unhandled_members where run_id = $run', {
        run: run.runId,
      }),
    );
    const rows = clusters.rows.slice(0, 20);
    const agree = rows.filter((r) => {
      const counts = new Map<string, number>();
      for (const m of members)
        if (m['cluster_id'] === r[at('Cluster id')]) {
          const topic = truth.topicOf.get(String(m['question_id'])) ?? 'noise';
          counts.set(topic, (counts.get(topic) ?? 0) + 1);
        }
      const [topic] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
      // a yes/no cell is written as the text yes or no
      return r[at('Answerable')] === (truth.coveredTopics.includes(topic) ? 'yes' : 'no');
    });
    expect(agree.length / rows.length).toBeGreaterThanOrEqual(0.9);
    const figures = new Map(sheetNamed(sheets, 'Run').rows.map((r) => [String(r[0]), r[1]]));
    expect(figures.get('Top clusters asked to the knowledge base')).toBe(rows.length);
  });
});
