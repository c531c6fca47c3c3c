// Statistics over a warehouse of two projects: a label belongs to one project, so its share is of its own
// project's sessions (messages), and wherever rows of both projects meet (the text tables, the summary's chart
// of labels) each names its project. Every figure is compared with the emulator's ground truth per project.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { summaryCharts } from '../../../reports/summary/report.js';
import { computeStats } from '../../../src/analysis/stats/compute-stats.js';
import { renderStatsText } from '../../../src/analysis/stats/render-stats-text.js';
import type { StatsReport } from '../../../src/analysis/stats/stats-report.js';
import { loadConfig } from '../../../src/config.js';
import { DEFAULT_V1_TOKEN } from '../../../src/emulator/emulator.js';
import { groundTruth } from '../../../src/emulator/truth.js';
import { silentLogger } from '../../../src/log.js';
import { syncProject } from '../../../src/sources/reporter/run-sync.js';
import { createHarness, type Harness } from '../../helpers/sync-harness.js';
import { expectRollupsEqualRebuild } from './rollup-reference.js';

const PROJECTS = ['shop-bot', 'support-bot'];
const DAY = 86_400_000;
let h: Harness;
let report: StatsReport;
let from: number;
let to: number;

beforeAll(async () => {
  h = await createHarness({ emulator: { projects: PROJECTS, sessions: 700 } });
  const file = join(h.dir, 'projects.json');
  writeFileSync(
    file,
    JSON.stringify({
      projects: PROJECTS.map((project) => ({ baseUrl: h.running.url, token: DEFAULT_V1_TOKEN, project })),
    }),
  );
  const config = loadConfig({ ...h.env, REPORTER_TOKEN: '', REPORTER_CONFIG: file });
  const now = h.running.emulator.now();
  to = now - 5 * 60_000;
  from = to - 4 * DAY;
  report = await h.withWarehouse(async (warehouse) => {
    for (const project of config.projects)
      expect(
        (await syncProject({ config, warehouse, log: silentLogger(), now: () => now }, project)).status,
      ).toBe('success');
    const query = {
      from,
      to,
      timeZone: 'Europe/Moscow',
      period: 'day' as const,
      top: 100,
      catchAllClass: '/CatchAll',
    };
    return computeStats(warehouse, query, { now: () => now });
  });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

const truthOf = (project: string) =>
  groundTruth(h.running.emulator.project(project), { now: h.running.emulator.now(), from, to });

describe('stats of two projects in one warehouse', () => {
  it("the rollups each project's window commits kept are those a rebuild gives (one project's never touched)", async () => {
    await h.withWarehouse((w) => expectRollupsEqualRebuild(w));
  });

  it("each label's share is of its own project's sessions or messages", () => {
    for (const project of PROJECTS) {
      const truth = truthOf(project);
      expect(truth.sessions).toBeGreaterThan(0);
      const labels = report.sessionLabels.filter((l) => l.project === project && l.count > 0);
      expect(labels.length).toBeGreaterThan(0);
      for (const l of labels) {
        expect(l.count, `${project} ${l.label}`).toBe(truth.sessionLabels[l.label!]);
        expect(l.share, `${project} ${l.label}`).toBeCloseTo(l.count / truth.sessions, 12);
      }
      const messages = report.messageLabels.filter((l) => l.project === project && l.count > 0);
      for (const l of messages) expect(l.share).toBeCloseTo(l.count / truth.messages, 12);
    }
    // both projects together: the totals are the sum, so a share of them would be smaller than the project's
    expect(report.totals.sessions).toBe(truthOf(PROJECTS[0]!).sessions + truthOf(PROJECTS[1]!).sessions);
  });

  it('the text tables name the project of each label and experiment row; the header is in the zone', () => {
    const text = renderStatsText(report);
    const header = text.split('\n')[0]!;
    expect(header).toMatch(
      /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+03:00 – \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+03:00 \(to exclusive\)/,
    );
    const section = text.split('\n\n').find((s) => s.startsWith('Session labels'))!;
    const [columns, , ...rows] = section.split('\n').slice(1);
    expect(columns!.split(/\s{2,}/)[0]).toBe('project');
    for (const l of report.sessionLabels) {
      const row = rows.find((r) => r.startsWith(`${l.project} `) && r.includes(` ${l.label} `));
      expect(row, `${l.project} ${l.label}`).toBeDefined();
    }
    const twice = report.sessionLabels.filter(
      (l) => report.sessionLabels.filter((m) => m.label === l.label).length > 1,
    );
    expect(twice.length).toBeGreaterThan(0); // the same label name in both projects: told apart by the column
  });

  it("the summary's chart of labels names each bar's project", () => {
    const chart = summaryCharts(report).find((c) => c.title === 'Top session labels')!;
    expect(new Set(chart.categories).size).toBe(chart.categories.length);
    for (const category of chart.categories) expect(category).toMatch(/ \((shop-bot|support-bot)\)$/);
  });
});
