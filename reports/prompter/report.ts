// The `prompter` report: how good the Prompter's suggestions were for the questions `reporter-etl prompter ask`
// sent in the period (the statistics' `prompter` section): the figures (answered, with an option, options
// per answer, top-1 and top-3 accuracy, latency), the top-1 confidence by tenths, and the intents suggested
// first.

import { type Figure, figureSheet } from '../../src/report/figure-sheet.js';
import type { ReportDefinition } from '../../src/report/report-definition.js';

export const prompterReport: ReportDefinition = {
  id: 'prompter',
  title: 'Prompter suggestions',
  description:
    'the Prompter API’s suggestions for the questions prompter ask sent: accuracy, confidence, latency',
  mode: 'memory',
  async build(context) {
    const p = (await context.stats()).prompter;
    const a = p.accuracy;
    const figures: Figure[] = [
      ['Questions', p.questions, 'integer'],
      ['Sent (accepted by the Prompter)', p.sent, 'integer'],
      ['Failed', p.failed, 'integer'],
      ['Answered', p.answered, 'integer'],
      ['Answered / sent', p.answeredRate, 'percent'],
      ['With at least one option', p.withOptions, 'integer'],
      ['With an option / answered', p.withOptionsRate, 'percent'],
      ['Options per answer (mean)', p.meanOptions, 'decimal3'],
      ['Top-1 confidence (mean)', p.top1Confidence?.mean ?? null, 'decimal3'],
      ['Top-1 confidence (median)', p.top1Confidence?.p50 ?? null, 'decimal3'],
      ['Questions with an expected intent (answered)', a.questions, 'integer'],
      ['Top-1 accuracy', a.top1Rate, 'percent'],
      ['Top-3 accuracy', a.top3Rate, 'percent'],
      ['Latency send → webhook, mean (ms)', p.latencyMs?.mean ?? null, 'number'],
      ['Latency p50 (ms)', p.latencyMs?.p50 ?? null, 'number'],
      ['Latency p90 (ms)', p.latencyMs?.p90 ?? null, 'number'],
      ['Latency max (ms)', p.latencyMs?.max ?? null, 'number'],
    ];
    return {
      sheets: [
        figureSheet('Prompter', figures),
        {
          name: 'Top-1 confidence',
          columns: [
            { key: 'from', header: 'From', format: 'decimal3' },
            { key: 'to', header: 'To', format: 'decimal3' },
            { key: 'questions', header: 'Questions', format: 'integer' },
          ],
          rows: [p.top1Confidence ? p.top1Confidence.buckets.map((b) => [b.from, b.to, b.questions]) : []],
        },
        {
          name: 'Top intents',
          columns: [
            { key: 'intentPath', header: 'Intent path', format: 'text' },
            { key: 'intentName', header: 'Intent name', format: 'text' },
            { key: 'questions', header: 'Suggested first', format: 'integer' },
            { key: 'share', header: 'Share of answers with an option', format: 'percent' },
            { key: 'meanConfidence', header: 'Mean confidence', format: 'decimal3' },
          ],
          rows: [
            p.topIntents.map((i) => [i.intentPath, i.intentName, i.questions, i.share, i.meanConfidence]),
          ],
        },
      ],
      // no question sent in the period: "No data for <period>", not a table of zeros
      empty: p.questions === 0,
    };
  },
};
