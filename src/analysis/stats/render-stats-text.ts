// Human-readable output of `stats` (the TTY form; --json prints the report itself): aligned plain-text
// tables per section, and the reconciliation side by side. Only formats: every figure comes from the report;
// every text from the data (cells, names, values) is shown with its control characters escaped; every number
// is rounded by src/text/format-figures.ts, as the reports round it. Where rows of several projects meet (labels,
// experiments) each names its project; times are shown in the report's zone.
import { displayWidth, padToWidth } from '../../text/display-width.js';
import { escapeForTerminal } from '../../text/escape-terminal-text.js';
import { FIGURE_DIGITS, formatCount, formatDecimal, formatShare } from '../../text/format-figures.js';
import { formatLocalTime } from '../../time/format-local-time.js';
import type { ReconcileReport } from './reconcile-stats.js';
import type { Distribution, StatsReport } from './stats-report.js';

type Align = 'left' | 'right';

/** An aligned table: a header line, a rule, then the rows. */
export function renderTable(columns: readonly [string, Align][], cellRows: readonly string[][]): string[] {
  const rows = cellRows.map((r) => r.map((cell) => escapeForTerminal(cell)));
  const widths = columns.map(([title], i) =>
    Math.max(displayWidth(title), ...rows.map((r) => displayWidth(r[i] ?? ''))),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => padToWidth(cell, widths[i]!, columns[i]?.[1] ?? 'left'))
      .join('  ')
      .trimEnd();
  return [line(columns.map(([title]) => title)), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/** Periods with a run of two or more empty ones (no session, no message) folded into one row. */
function collapseEmptyPeriods<T extends { period: string; sessions: number; messages: number }>(
  rows: readonly T[],
  unit: string,
): (T | { empty: true; first: string; last: string; count: string })[] {
  const out: (T | { empty: true; first: string; last: string; count: string })[] = [];
  for (let i = 0; i < rows.length; ) {
    let j = i;
    while (j < rows.length && rows[j]!.sessions === 0 && rows[j]!.messages === 0) j++;
    if (j - i >= 2) {
      out.push({
        empty: true,
        first: rows[i]!.period,
        last: rows[j - 1]!.period,
        count: `${(j - i).toLocaleString('en-US')} ${unit}s`,
      });
      i = j;
    } else {
      out.push(rows[i]!);
      i++;
    }
  }
  return out;
}

export { formatCount, formatShare };

export function formatDuration(ms: number | null): string {
  if (ms === null) return '-';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${s % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

function distribution(d: Distribution | null, format: (x: number) => string): string {
  return d === null
    ? '-'
    : `mean ${format(d.mean)} · p50 ${format(d.p50)} · p90 ${format(d.p90)} · p99 ${format(d.p99)}`;
}

export function renderStatsText(report: StatsReport): string {
  const out: string[] = [];
  const local = (t: string | null) => (t === null ? '' : formatLocalTime(Date.parse(t), report.timeZone));
  const window =
    report.window.from === null
      ? 'no data'
      : `${local(report.window.from)} – ${local(report.window.to)} (to exclusive)`;
  out.push(
    escapeForTerminal(
      `Statistics of ${report.filters.projects.join(', ') || 'no project'} · ${window} · periods by ${report.period} in ${report.timeZone}` +
        (report.filters.channels ? ` · channels ${report.filters.channels.join(', ')}` : ''),
    ),
  );
  if (report.empty) {
    out.push('', 'No sessions and no messages in this window.');
    return out.join('\n');
  }
  out.push(
    ...renderTotals(report.totals),
    ...renderByChannel(report),
    ...renderByPeriod(report),
    ...renderSessionLabels(report),
    ...renderMessageLabels(report),
    ...renderDeliveryFunnel(report),
    ...renderIntents(report.intents),
    ...renderSessionData(report),
    ...renderExperiments(report),
    ...renderFirstQuestions(report),
    ...renderPrompter(report.prompter),
  );
  return out.join('\n');
}

/** The totals: sessions, messages, clients, transfers, and the two distributions. */
function renderTotals(t: StatsReport['totals']): string[] {
  return [
    '',
    'Totals',
    `  sessions ${formatCount(t.sessions)} (non-empty ${formatCount(t.nonEmptySessions)}) · messages ${formatCount(t.messages)}`,
    `  unique clients ${formatCount(t.uniqueClients)} (new ${formatCount(t.newClients)}, returning ${formatCount(t.returningClients)})`,
    `  transferred to an agent ${formatCount(t.transferredSessions)} (${formatShare(t.transferShare)} of sessions)`,
    `  messages per session: ${distribution(t.messagesPerSession, (x) => formatDecimal(x, FIGURE_DIGITS.perSession))}`,
    `  session duration: ${distribution(t.sessionDurationMs, formatDuration)}`,
  ];
}

/** A row per channel. */
function renderByChannel(report: StatsReport): string[] {
  return [
    '',
    'By channel',
    ...renderTable(
      [
        ['channel', 'left'],
        ['sessions', 'right'],
        ['non-empty', 'right'],
        ['messages', 'right'],
        ['clients', 'right'],
        ['transferred', 'right'],
        ['transferred %', 'right'],
      ],
      report.byChannel.map((c) => [
        c.channel ?? '(session not synced)',
        formatCount(c.sessions),
        formatCount(c.nonEmptySessions),
        formatCount(c.messages),
        formatCount(c.uniqueClients),
        formatCount(c.transferredSessions),
        formatShare(c.transferShare),
      ]),
    ),
  ];
}

/** A row per period of all channels, a run of empty periods folded into one. */
function renderByPeriod(report: StatsReport): string[] {
  return [
    '',
    `By ${report.period} (${report.timeZone}, all channels; per channel in --json)`,
    ...renderTable(
      [
        [report.period, 'left'],
        ['sessions', 'right'],
        ['messages', 'right'],
        ['clients', 'right'],
        ['transferred', 'right'],
      ],
      collapseEmptyPeriods(report.byPeriod, report.period).map((p) =>
        'empty' in p
          ? [`${p.first} – ${p.last} (${p.count} empty)`, '0', '0', '0', '0']
          : [
              p.period,
              formatCount(p.sessions),
              formatCount(p.messages),
              formatCount(p.uniqueClients),
              formatCount(p.transferredSessions),
            ],
      ),
    ),
  ];
}

/** Several projects: their rows meet in one table, and each row names its project. */
function projectColumn(report: StatsReport): readonly [string, Align][] {
  return report.filters.projects.length > 1 ? [['project', 'left']] : [];
}

/** The project cell of a row, when the table has the column. */
function projectCell(report: StatsReport, project: string): string[] {
  return report.filters.projects.length > 1 ? [project] : [];
}

/** A row per session label (of its project; the share is of its project's sessions). */
function renderSessionLabels(report: StatsReport): string[] {
  return [
    '',
    `Session labels (${report.filters.projects.length > 1 ? "share of the project's sessions; " : ''}by period in --json)`,
    ...renderTable(
      [...projectColumn(report), ['label', 'left'], ['sessions', 'right'], ['share', 'right']],
      report.sessionLabels.map((l) => [
        ...projectCell(report, l.project),
        l.label ?? `#${l.labelId}`,
        formatCount(l.count),
        formatShare(l.share),
      ]),
    ),
  ];
}

/** A row per message label, with its group. */
function renderMessageLabels(report: StatsReport): string[] {
  return [
    '',
    `Message labels (${report.filters.projects.length > 1 ? "share of the project's messages; " : ''}by period in --json)`,
    ...renderTable(
      [
        ...projectColumn(report),
        ['group', 'left'],
        ['label', 'left'],
        ['messages', 'right'],
        ['share', 'right'],
      ],
      report.messageLabels.map((l) => [
        ...projectCell(report, l.project),
        l.group ?? '',
        l.label ?? `#${l.labelId}`,
        formatCount(l.count),
        formatShare(l.share),
      ]),
    ),
  ];
}

/** The delivery funnel, a row per channel. */
function renderDeliveryFunnel(report: StatsReport): string[] {
  return [
    '',
    'Delivery funnel (messages by latest status; - where the channel has no such status; time to read n/a: not measured)',
    ...renderTable(
      [
        ['channel', 'left'],
        ['messages', 'right'],
        ['sent', 'right'],
        ['delivered', 'right'],
        ['read', 'right'],
        ['not sent', 'right'],
        ['not delivered', 'right'],
        ['other', 'right'],
        ['delivered %', 'right'],
        ['read %', 'right'],
        ['time to read', 'right'],
      ],
      report.deliveryFunnel.map((f) => [
        f.channel,
        formatCount(f.messages),
        formatCount(f.sent),
        formatCount(f.delivered),
        formatCount(f.read),
        formatCount(f.notSent),
        formatCount(f.notDelivered),
        formatCount(f.other),
        formatShare(f.deliveredRate),
        formatShare(f.readRate),
        // not measured: no API gives the time of a status change (docs/statistics.md)
        f.read === null ? '-' : 'n/a',
      ]),
    ),
  ];
}

/** The intents: classified and unrecognised requests, then the top NLP classes. */
function renderIntents(intents: StatsReport['intents']): string[] {
  return [
    '',
    `Intents: ${formatCount(intents.classified)} classified requests, ${formatCount(intents.unrecognised)} unrecognised (${escapeForTerminal(intents.catchAllClass)}, ${formatShare(intents.unrecognisedShare)})`,
    ...renderTable(
      [
        ['NLP class', 'left'],
        ['messages', 'right'],
        ['share', 'right'],
        ['confidence', 'right'],
      ],
      intents.top.map((i) => [
        i.nlpClass,
        formatCount(i.messages),
        formatShare(i.share),
        formatDecimal(i.meanConfidence, FIGURE_DIGITS.confidence),
      ]),
    ),
  ];
}

/** A row per experiment branch. */
function renderExperiments(report: StatsReport): string[] {
  return [
    '',
    'Experiments',
    ...renderTable(
      [
        ...projectColumn(report),
        ['experiment', 'left'],
        ['status', 'left'],
        ['branch', 'left'],
        ['sessions', 'right'],
        ['msgs/session', 'right'],
        ['transfer rate', 'right'],
      ],
      report.experiments.map((e) => [
        ...projectCell(report, e.project),
        e.experiment,
        e.status ?? '',
        e.branch,
        formatCount(e.sessions),
        formatDecimal(e.messagesPerSession, FIGURE_DIGITS.perSession),
        formatShare(e.transferRate),
      ]),
    ),
  ];
}

/** The top first questions of the sessions. */
function renderFirstQuestions(report: StatsReport): string[] {
  return [
    '',
    'Top first questions',
    ...renderTable(
      [
        ['question', 'left'],
        ['sessions', 'right'],
        ['share', 'right'],
      ],
      report.firstQuestions.map((q) => [q.question, formatCount(q.sessions), formatShare(q.share)]),
    ),
  ];
}

/** A line per sessionData key: its sessions, its distinct values and the most frequent ones. */
function renderSessionData(report: StatsReport): string[] {
  return [
    '',
    'sessionData',
    ...report.sessionData.map((key) =>
      escapeForTerminal(
        `  ${key.key}: ${formatCount(key.sessions)} sessions (${formatShare(key.share)}), ${formatCount(key.distinctValues)} values: ` +
          key.values.map((v) => `${v.value ?? '(null)'} ${formatCount(v.sessions)}`).join(', '),
      ),
    ),
  ];
}

/** The Prompter's suggestions (`prompter ask`), when there were questions. */
function renderPrompter(p: StatsReport['prompter']): string[] {
  if (p.questions <= 0) return [];
  const a = p.accuracy;
  return [
    '',
    'Prompter suggestions (reporter-etl prompter ask)',
    `  questions ${formatCount(p.questions)} · sent ${formatCount(p.sent)} · failed ${formatCount(p.failed)} · answered ${formatCount(p.answered)} (${formatShare(p.answeredRate)}) · with an option ${formatCount(p.withOptions)} (${formatShare(p.withOptionsRate)}) · options per answer ${formatDecimal(p.meanOptions, FIGURE_DIGITS.options)}`,
    `  top-1 confidence: ${p.top1Confidence ? `mean ${formatDecimal(p.top1Confidence.mean, FIGURE_DIGITS.confidence)} · p50 ${formatDecimal(p.top1Confidence.p50, FIGURE_DIGITS.confidence)} · p90 ${formatDecimal(p.top1Confidence.p90, FIGURE_DIGITS.confidence)}` : '-'}`,
    `  accuracy over ${formatCount(a.questions)} questions with an expected intent: top-1 ${formatShare(a.top1Rate)} · top-3 ${formatShare(a.top3Rate)}`,
    `  latency send → webhook: ${p.latencyMs ? `mean ${formatCount(p.latencyMs.mean)} ms · p50 ${formatCount(p.latencyMs.p50)} ms · p90 ${formatCount(p.latencyMs.p90)} ms · max ${formatCount(p.latencyMs.max)} ms` : '-'}`,
    ...renderTable(
      [
        ['top intent', 'left'],
        ['questions', 'right'],
        ['share', 'right'],
        ['mean confidence', 'right'],
      ],
      p.topIntents.map((i) => [
        i.intentPath ?? i.intentName ?? '-',
        formatCount(i.questions),
        formatShare(i.share),
        formatDecimal(i.meanConfidence, FIGURE_DIGITS.confidence),
      ]),
    ),
  ];
}

export function renderReconcileText(report: ReconcileReport): string {
  const out: string[] = [];
  const tolerance =
    report.tolerance.kind === 'absolute' ? `${report.tolerance.value}` : `${report.tolerance.value}%`;
  for (const p of report.projects) {
    out.push(
      escapeForTerminal(
        `Reconciliation of ${p.project} · ${p.window.from} – ${p.window.to} (to exclusive)` +
          (report.filters.channels ? ` · channels ${report.filters.channels.join(', ')}` : '') +
          ` · tolerance ${tolerance}`,
      ),
      ...renderTable(
        [
          ['figure', 'left'],
          ['subject', 'left'],
          ['local', 'right'],
          ['platform', 'right'],
          ['difference', 'right'],
          ['', 'left'],
          ['scope / note', 'left'],
        ],
        p.rows.map((r) => [
          r.figure,
          r.subject ?? '',
          formatCount(r.local),
          formatCount(r.platform),
          r.difference === null ? '-' : `${r.difference > 0 ? '+' : ''}${formatCount(r.difference)}`,
          r.withinTolerance === null ? 'skipped' : r.withinTolerance ? 'ok' : 'DIFFERS',
          [r.scope, r.note].filter((x) => x !== null && x !== '').join(': '),
        ]),
      ),
      p.ok
        ? `${p.project}: every figure agrees within the tolerance`
        : `${p.project}: figures differ beyond the tolerance`,
      '',
    );
  }
  return out.join('\n').trimEnd();
}
