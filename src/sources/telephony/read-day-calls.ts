// Reads the platform's call statistics of one UTC day (stats/telephony with dateFrom = dateTo = the day):
// incoming, outgoing and billed calls, and the day's average call duration. One request per day, because the
// average is given for the whole asked range only.
import { z } from 'zod';
import { parseAnswer } from '../../platform/reporter/parse-answer.js';
import type { ReporterHttp } from '../../platform/reporter/reporter-http.js';
import type { DayRow } from '../daily-source.js';

/** The calls of one day: a row of telephony_daily. */
export interface DayCalls extends DayRow {
  incoming_calls: number;
  outgoing_calls: number;
  billed_calls: number;
  /** null on a day without calls (the platform answers 0 then). */
  average_call_seconds: number | null;
}

const timestampValues = z.array(z.object({ ts: z.number(), value: z.number() }));
const telephonyAnswer = z.object({
  averageCallDurationInSeconds: z.number(),
  billingCount: timestampValues,
  incomingCount: timestampValues,
  outgoingCount: timestampValues,
});

const total = (values: readonly { value: number }[]) => values.reduce((sum, v) => sum + v.value, 0);

/** The calls of `day` (yyyy-MM-dd, UTC): one row. */
export async function readDayCalls(http: ReporterHttp, project: string, day: string): Promise<DayCalls[]> {
  const op = 'stats/telephony';
  const answer = await http.json({ method: 'GET', op, query: { dateFrom: day, dateTo: day } });
  const t = parseAnswer(op, telephonyAnswer, answer);
  const incoming = total(t.incomingCount);
  const outgoing = total(t.outgoingCount);
  return [
    {
      project,
      day,
      incoming_calls: incoming,
      outgoing_calls: outgoing,
      billed_calls: total(t.billingCount),
      average_call_seconds: incoming + outgoing === 0 ? null : t.averageCallDurationInSeconds,
    },
  ];
}
