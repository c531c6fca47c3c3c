// Platform text never reaches the terminal raw: a hostile text (C0 controls, ESC colour sequences, DEL, C1, a
// newline) as a session label name and an experiment description on the emulator, and as a first question and a
// sessionData value in the warehouse, printed by the real CLI (stats, labels list, experiments list): the
// human output holds no control character but \n and \t, and shows the text escaped; --json holds it exactly.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderTable } from '../../src/analysis/stats/render-stats-text.js';
import { formatTable } from '../../src/manage/format-table.js';
import { escapeForTerminal } from '../../src/text/escape-terminal-text.js';
import { describeRollupRebuild } from '../../src/warehouse/rebuild-rollups.js';
import { runCli } from '../helpers/run-cli.js';
import { createHarness, type Harness } from '../helpers/sync-harness.js';

const HOSTILE = 'ctl:\u0000\u0001\u0007\u001b[31mred\u001b[0m\u007f\u009b2J\u0085 two\nlines\ttab\r.';
const SHOWN =
  'ctl:\\u0000\\u0001\\u0007\\u001b[31mred\\u001b[0m\\u007f\\u009b2J\\u0085 two\\nlines\\ttab\\r.';
/** What a table cut at 40 characters still shows of it. */
const SHOWN_START = 'ctl:\\u0000\\u0001\\u0007\\u001b[31mred';
/** Any control character a terminal could act on (newline and tab, our own line layout, excepted). */
const RAW_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const STATS = ['stats', '--from', '2026-10-29', '--to', '2026-11-01', '--tz', 'UTC'];

describe('escapeForTerminal', () => {
  it('shows every control character as an escape, newlines too unless asked to keep lines', () => {
    expect(escapeForTerminal(HOSTILE)).toBe(SHOWN);
    expect(escapeForTerminal('a\nb\tc\u001bd', { keepLines: true })).toBe('a\nb\tc\\u001bd');
    expect(escapeForTerminal('Привет 👋 \\u0000 ok')).toBe('Привет 👋 \\u0000 ok');
    // the same escapes JSON uses: escaping a JSON text keeps it parsing to the exact value
    const json = JSON.stringify({ text: HOSTILE });
    expect(JSON.parse(escapeForTerminal(json, { keepLines: true }))).toEqual({ text: HOSTILE });
  });

  it('keeps tables aligned: cells are escaped before the widths are measured', () => {
    const table = formatTable(
      [
        { id: 1, name: HOSTILE },
        { id: 22, name: 'plain' },
      ],
      { maxWidth: 200 },
    );
    expect(table).toEqual(['  id  name', `  1   ${SHOWN}`, '  22  plain']);
    const stats = renderTable(
      [
        ['label', 'left'],
        ['n', 'right'],
      ],
      [
        [HOSTILE, '1'],
        ['x', '22'],
      ],
    );
    expect(stats).toHaveLength(4);
    expect(stats[2]).toBe(`${SHOWN}   1`);
    expect(stats[3]).toBe(`x${' '.repeat(SHOWN.length - 1)}  22`);
  });
});

let h: Harness;

describe('the CLI prints platform text escaped', () => {
  beforeAll(async () => {
    h = await createHarness({ emulator: { sessions: 300 }, env: { REPORTER_SAFETY_LAG_MINUTES: '0' } });
    const state = h.running.emulator.project('shop-bot').state;
    state.sessionLabels.get(1)!.name = HOSTILE;
    state.experiments.get('greeting-test')!.description = HOSTILE;
    state.touch();
    expect((await h.sync()).status).toBe('success');
    await h.withWarehouse(async (w) => {
      await w.query('UPDATE sessions SET first_question = $1', [HOSTILE]);
      await w.query('UPDATE session_data SET value = $1', [HOSTILE]);
      // rows changed outside a sync: the statistics' rollups are rebuilt (reporter-etl rollups rebuild)
      await w.commitBatch(describeRollupRebuild(new Date()));
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  for (const [what, args, find] of [
    [
      'stats',
      STATS,
      (j: any) => [j.sessionLabels.find((l: any) => l.label === HOSTILE), j.firstQuestions[0]],
    ],
    ['labels list', ['labels', 'list'], (j: any) => [j.sessionLabels.find((l: any) => l.name === HOSTILE)]],
    [
      'experiments list',
      ['experiments', 'list'],
      (j: any) => [j.experiments.find((e: any) => e.description === HOSTILE)],
    ],
  ] as const) {
    it(`${what}: no raw control character, the text escaped; --json holds it exactly`, async () => {
      const plain = await runCli([...args], h.env);
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout + plain.stderr).not.toMatch(RAW_CONTROL);
      expect(plain.stdout).toContain(SHOWN_START);
      const json = await runCli([...args, '--json'], h.env);
      expect(json.code, json.stderr).toBe(0);
      for (const found of find(JSON.parse(json.stdout)))
        expect(found, json.stdout.slice(0, 2000)).toBeTruthy();
      if (what === 'stats') {
        const parsed = JSON.parse(json.stdout);
        expect(parsed.firstQuestions[0].question).toBe(HOSTILE);
        expect(parsed.sessionData[0].values[0].value).toBe(HOSTILE);
        // one table row per label, the label escaped in its cell
        expect(plain.stdout.split('\n').filter((l) => l.startsWith(SHOWN)).length).toBeGreaterThanOrEqual(2);
      }
    });
  }
});
