// Every filter key `platform-report --filter` offers, against the emulator: the messages report asked with
// `--filter KEY...` (parsed as the CLI parses it) holds exactly the messages of the period that the filter
// selects, computed here from the emulator's data with this file's own reading of each key. TEXT filters
// carry isCaseSensitive (the vendor's TextFilter requires it) and match ignoring case. A value no key can
// match (unknown channel, an upside-down range, an unknown radio option) is refused before any request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportSpec } from '../../src/platform-reports/build-create-request.js';
import { parseReportFilter, REPORT_FILTER_KEYS } from '../../src/platform-reports/parse-report-filter.js';
import { runPlatformReport } from '../../src/platform-reports/run-platform-report.js';
import { TEST_NOW } from '../helpers/emulator-client.js';
import { cli, createReportHarness, DAY, fileRows, type ReportHarness, sorted } from './report-harness.js';

const period = { from: TEST_NOW - DAY, to: TEST_NOW };

let r: ReportHarness;
beforeAll(async () => {
  r = await createReportHarness({ shared: true });
}, 60_000);
afterAll(async () => {
  await r?.close();
});

type Project = ReturnType<ReportHarness['h']['running']['emulator']['project']>;
interface Msg {
  i: number;
  k: number;
}
interface Case {
  /** The --filter text, as a user types it. */
  filter: string;
  /** This file's reading of the filter: does message k of session i match? */
  matches: (m: Msg) => boolean;
}

const lower = (s: string | undefined) => (s ?? '').toLowerCase();
/** A word of a text that a --filter value can hold (no comma, not too short). */
const wordOf = (text: string | undefined): string => {
  const word = (text ?? '').split(/[\s,.!?:;()"«»]+/).find((w) => w.length >= 4);
  if (!word) throw new Error(`no word to filter by in ${JSON.stringify(text)}`);
  return word;
};

/** The messages of the period as of the emulator's clock (sessions not withheld). */
function messagesOfPeriod(p: Project, now: number): Msg[] {
  const sk = p.skeleton;
  const out: Msg[] = [];
  for (let i = 0; i < sk.sessionCount; i++) {
    if (p.withheld.has(i) || sk.start.get(i) > now) continue;
    const visible = sk.visibleMessageCount(i, now);
    for (let k = 0; k < visible; k++) {
      const t = sk.messageTime(i, k);
      if (t >= period.from && t < period.to) out.push({ i, k });
    }
  }
  return out;
}

/** One case per offered key, with values taken from the period's own data. */
function casesOf(p: Project, now: number, all: Msg[]): Record<string, Case> {
  const sk = p.skeleton;
  const find = (what: string, test: (m: Msg) => boolean): Msg => {
    const found = all.find(test);
    if (!found) throw new Error(`the emulator's period holds no message with ${what}`);
    return found;
  };
  const facts = (m: Msg) => p.messageFacts(m.i, m.k);
  const client = (m: Msg) => p.clientInfo(sk.client.get(m.i));

  const withComment = find('a comment', (m) => p.commentAt(m.i, m.k, now) !== undefined);
  const commentWord = wordOf(p.commentAt(withComment.i, withComment.k, now)).toUpperCase();
  const questionWord = wordOf(facts(find('a question', (m) => facts(m).question !== undefined)).question);
  const answerWord = wordOf(facts(find('an answer', (m) => facts(m).answer.length > 0)).answer);
  const nlp = facts(find('an NLP class', (m) => facts(m).nlpClass !== undefined)).nlpClass!;
  const logLabel = p.messageLabelIds(
    ...ij(find('a label', (m) => p.messageLabelIds(m.i, m.k, now).length > 0)),
    now,
  )[0]!;
  const labelled = find('a session label', (m) => p.sessionLabelIds(m.i, now).length > 0);
  const sessionLabel = p.sessionLabelIds(labelled.i, now)[0]!;
  const named = find('a client name', (m) => client(m).firstName !== undefined);
  const firstName = client(named).firstName!;
  const transferred = (m: Msg) => {
    const t = sk.transferAt.get(m.i);
    return t >= 0 && sk.visibleMessageCount(m.i, now) > t;
  };
  const result = p.sessionResult(find('a transfer', transferred).i);
  const bot = p.botIdOf(all[0]!.i);
  const sessionId = p.sessionId(all[Math.floor(all.length / 2)]!.i);

  return {
    CHANNEL_TYPE: {
      filter: 'CHANNEL_TYPE=telegram,VK',
      matches: (m) => ['telegram', 'vk'].includes(p.channelOf(m.i).replace(/_/g, '').toLowerCase()),
    },
    BOT_ID: { filter: `BOT_ID!=${bot}`, matches: (m) => p.botIdOf(m.i) !== bot },
    SESSION_RESULT: { filter: `SESSION_RESULT=${result}`, matches: (m) => p.sessionResult(m.i) === result },
    SESSION_LABELS: {
      filter: `SESSION_LABELS=${sessionLabel}`,
      matches: (m) => p.sessionLabelIds(m.i, now).includes(sessionLabel),
    },
    LOG_LABELS: {
      filter: `LOG_LABELS=${logLabel}`,
      matches: (m) => p.messageLabelIds(m.i, m.k, now).includes(logLabel),
    },
    NLP_CLASS: { filter: `NLP_CLASS=${nlp}`, matches: (m) => facts(m).nlpClass === nlp },
    WITHOUT_EMPTY_SESSIONS: {
      filter: 'WITHOUT_EMPTY_SESSIONS=yes',
      matches: (m) => sk.visibleMessageCount(m.i, now) > 0,
    },
    WITHOUT_EMPTY_MESSAGES: {
      filter: 'WITHOUT_EMPTY_MESSAGES=yes',
      matches: (m) => facts(m).question !== undefined,
    },
    TRANSFER_TO_OPERATOR: { filter: 'TRANSFER_TO_OPERATOR=WITH_TRANSFER', matches: transferred },
    SESSION_ID: {
      filter: `SESSION_ID=${sessionId.toUpperCase()}`,
      matches: (m) => lower(p.sessionId(m.i)) === lower(sessionId),
    },
    CLIENT_ID_OR_NAME: {
      filter: `CLIENT_ID_OR_NAME=${firstName.toUpperCase()}`,
      matches: (m) => {
        const c = client(m);
        return [c.id, c.firstName, c.lastName, c.username].some(
          (v) => v !== undefined && lower(v) === lower(firstName),
        );
      },
    },
    MESSAGE_TEXT: {
      filter: `MESSAGE_TEXT~${questionWord.toUpperCase()}`,
      matches: (m) => lower(facts(m).question).includes(lower(questionWord)),
    },
    ANSWER_TEXT: {
      filter: `ANSWER_TEXT~${answerWord.toUpperCase()}`,
      matches: (m) => lower(facts(m).answer).includes(lower(answerWord)),
    },
    COMMENT_TEXT: {
      filter: `COMMENT_TEXT~${commentWord}`,
      matches: (m) => lower(p.commentAt(m.i, m.k, now)).includes(lower(commentWord)),
    },
    MESSAGE_COUNT: {
      filter: 'MESSAGE_COUNT=2..5',
      matches: (m) => {
        const n = sk.visibleMessageCount(m.i, now);
        return n >= 2 && n <= 5;
      },
    },
  };
}

const ij = (m: Msg): [number, number] => [m.i, m.k];

describe('platform-report --filter: every offered key, against the emulator', () => {
  it('has a case for every key the CLI offers, and nothing else', () => {
    const p = r.h.running.emulator.project('shop-bot');
    const now = r.h.running.emulator.now();
    expect(Object.keys(casesOf(p, now, messagesOfPeriod(p, now))).sort()).toEqual(
      [...REPORT_FILTER_KEYS].sort(),
    );
  });

  it('TEXT filters carry isCaseSensitive: false (required by the vendor spec)', () => {
    for (const text of [
      'SESSION_ID=a',
      'MESSAGE_TEXT~b',
      'ANSWER_TEXT!=c',
      'COMMENT_TEXT~d',
      'CLIENT_ID_OR_NAME=e',
    ])
      expect(parseReportFilter(text)).toMatchObject({ type: 'TEXT', isCaseSensitive: false });
  });

  for (const key of REPORT_FILTER_KEYS) {
    it(`messages --filter ${key}: the file holds exactly the matching messages`, async () => {
      const p = r.h.running.emulator.project('shop-bot');
      const now = r.h.running.emulator.now();
      const all = messagesOfPeriod(p, now);
      const c = casesOf(p, now, all)[key]!;
      const expected = sorted(all.filter(c.matches).map((m) => p.questionId(m.i, m.k)));
      expect(expected.length, `${c.filter} selects no message of the period`).toBeGreaterThan(0);
      const spec: ReportSpec = {
        kind: 'messages',
        period,
        filters: [parseReportFilter(c.filter)],
        fileType: 'CSV',
      };
      const result = await runPlatformReport(r.ctx(), spec, r.options());
      expect(result.exitCode, JSON.stringify(result.outcomes)).toBe(0);
      const outcome = result.outcomes.at(-1)!;
      expect(outcome).toMatchObject({ kind: 'messages', status: 'completed' });
      const rows = await fileRows(outcome.filePath!);
      expect(rows[0]![0]).toBe('questionId');
      expect(sorted(rows.slice(1).map((row) => row[0]))).toEqual(expected);
    }, 60_000);
  }
});

describe('platform-report --filter: values refused before any request (child process)', () => {
  const refused: [string, RegExp][] = [
    ['CHANNEL_TYPE=telegrm', /CHANNEL_TYPE.*"telegrm".*accepted: .*telegram, viber/],
    ['MESSAGE_COUNT=10..2', /MESSAGE_COUNT.*"10\.\.2".*at most/],
    ['WITHOUT_EMPTY_SESSIONS=maybe', /WITHOUT_EMPTY_SESSIONS.*"maybe".*accepted: YES, NO, NOT_IMPORTANT/],
  ];
  for (const [filter, message] of refused) {
    it(`--filter ${filter}: exit 2 naming key and value, no request made`, async () => {
      const emulator = r.h.running.emulator;
      const requestsBefore = emulator.requestCount;
      const tasksBefore = r.platformTasks().length;
      const run = await cli(['messages', '--format', 'csv', '--filter', filter, '--out', r.outDir], r.h.env);
      expect(run.code, run.stderr).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(emulator.requestCount).toBe(requestsBefore);
      expect(r.platformTasks()).toHaveLength(tasksBefore);
    }, 60_000);
  }
});
