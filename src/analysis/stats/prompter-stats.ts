// The `prompter` section of the statistics: the Prompter's suggestions for the questions `prompter ask` sent,
// from prompter.sql (one row) and prompter-intents.sql (the top intents), over the questions sent in
// [from, to) (all time when a bound is not given): the Prompter's questions are not sessions, so the
// sessions' window does not bound them.
import type { PlainValue, Warehouse } from '../../warehouse/warehouse.js';
import { loadStatsSql, paramsFor } from './load-stats-sql.js';
import type { PrompterStats } from './stats-report.js';

/** Epoch ms bounds far outside any real time: "no bound". */
const BEFORE_ALL = -8_640_000_000_000_000;
const AFTER_ALL = 8_640_000_000_000_000;

const num = (value: PlainValue | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const count = (value: PlainValue | undefined): number => num(value) ?? 0;
const ratio = (part: number, whole: number): number | null => (whole === 0 ? null : part / whole);
const str = (value: PlainValue | undefined): string | null =>
  value === null || value === undefined ? null : String(value);

export async function computePrompterStats(
  warehouse: Warehouse,
  window: { from?: number | undefined; to?: number | undefined; top: number },
): Promise<PrompterStats> {
  const sql = loadStatsSql();
  const all = {
    prompter_from: window.from ?? BEFORE_ALL,
    prompter_to: window.to ?? AFTER_ALL,
    top: window.top,
  };
  const [row = {}] = await warehouse.query(sql.prompter, paramsFor(sql.prompter, all));
  const intents = await warehouse.query(sql['prompter-intents'], paramsFor(sql['prompter-intents'], all));
  const sent = count(row['sent']);
  const answered = count(row['answered']);
  const withOptions = count(row['with_options']);
  const withExpected = count(row['with_expected']);
  const top1 = count(row['top1_hits']);
  const top3 = count(row['top3_hits']);
  const tenths = Array.isArray(row['top1_tenths']) ? (row['top1_tenths'] as PlainValue[]) : [];
  const buckets = Array.from({ length: 10 }, (_, n) => ({
    from: n / 10,
    to: (n + 1) / 10,
    questions: tenths.filter((t) => t === n).length,
  }));
  const top1Mean = num(row['top1_mean']);
  const latencyMean = num(row['latency_mean']);
  return {
    questions: count(row['questions']),
    sent,
    failed: count(row['failed']),
    answered,
    answeredRate: ratio(answered, sent),
    withOptions,
    withOptionsRate: ratio(withOptions, answered),
    meanOptions: num(row['mean_options']),
    top1Confidence:
      top1Mean === null
        ? null
        : { mean: top1Mean, p50: count(row['top1_p50']), p90: count(row['top1_p90']), buckets },
    topIntents: intents.map((r) => ({
      intentPath: str(r['intent_path']),
      intentName: str(r['intent_name']),
      questions: count(r['questions']),
      share: ratio(count(r['questions']), withOptions),
      meanConfidence: num(r['mean_confidence']),
    })),
    accuracy: {
      questions: withExpected,
      top1,
      top3,
      top1Rate: ratio(top1, withExpected),
      top3Rate: ratio(top3, withExpected),
    },
    latencyMs:
      latencyMean === null
        ? null
        : {
            mean: latencyMean,
            p50: count(row['latency_p50']),
            p90: count(row['latency_p90']),
            p99: count(row['latency_p99']),
            max: count(row['latency_max']),
          },
  };
}
