// Alert rules (REPORTER_ALERTS, or "alerts" in the REPORTER_CONFIG file): each compares one metric of a
// project's last period with a threshold, evaluated after each sync (src/analysis/alerts/). A rule fires once when it
// starts to hold and resolves once when it stops (docs/pushgate.md, Alerts).
import { z } from 'zod';
import { JsonSyntaxError, parseJsonText } from '../text/parse-json-text.js';

export const ALERT_METRICS = [
  'deliveryRate',
  'transferShare',
  'unrecognisedShare',
  'hoursSinceLastSession',
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export interface AlertRule {
  /** Unique; names the rule in the alerts table, the events and `runs` (default `<metric>-below|above-<n>`). */
  name: string;
  metric: AlertMetric;
  /** The rule holds when the value is below `below` or above `above` (exactly one of them). */
  below?: number;
  above?: number;
  /** The period the metric is computed over, ending at the evaluation (default 24 hours). */
  periodHours: number;
  /** Only this project (default: every synced project). */
  project?: string;
}

export const DEFAULT_ALERT_PERIOD_HOURS = 24;

/** The keys of a rule (messages about a misspelled one list them). */
export const ALERT_RULE_KEYS = ['name', 'metric', 'below', 'above', 'periodHours', 'project'] as const;

const ruleSchema = z
  .object({
    name: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/, 'letters, digits, _ . and -')
      .optional(),
    metric: z.enum(ALERT_METRICS),
    below: z.number().finite().optional(),
    above: z.number().finite().optional(),
    periodHours: z
      .number()
      .min(0.01)
      .max(24 * 366)
      .optional(),
    project: z.string().trim().min(1).optional(),
  })
  .strict()
  .refine((r) => (r.below === undefined) !== (r.above === undefined), {
    message: 'give exactly one of "below" and "above"',
  });

export const alertRulesSchema = z.array(ruleSchema).transform((rules, ctx): AlertRule[] => {
  const out = rules.map((r) => ({
    name: r.name ?? `${r.metric}-${r.below === undefined ? 'above' : 'below'}-${r.below ?? r.above}`,
    metric: r.metric,
    ...(r.below === undefined ? {} : { below: r.below }),
    ...(r.above === undefined ? {} : { above: r.above }),
    periodHours: r.periodHours ?? DEFAULT_ALERT_PERIOD_HOURS,
    ...(r.project === undefined ? {} : { project: r.project }),
  }));
  const seen = new Set<string>();
  for (const [index, rule] of out.entries()) {
    if (seen.has(rule.name))
      ctx.addIssue({
        code: 'custom',
        path: [index, 'name'],
        message: `rule name ${rule.name} is used twice`,
      });
    seen.add(rule.name);
  }
  return out;
});

/** REPORTER_ALERTS: the same array as the config file's "alerts", as JSON. */
export const alertRulesSetting = z
  .string()
  .trim()
  .transform((text, ctx) => {
    try {
      return parseJsonText(text);
    } catch (error) {
      // the parser's own message would quote the text
      const where = error instanceof JsonSyntaxError ? ` (${error.message})` : '';
      ctx.addIssue({
        code: 'custom',
        message: `expected a JSON array of rules (docs/pushgate.md, Alerts)${where}`,
      });
      return z.NEVER;
    }
  })
  .pipe(alertRulesSchema);

/** An alert rule that started (`firing`) or stopped (`resolved`) holding. */
export interface AlertChange {
  project: string;
  rule: string;
  state: 'firing' | 'resolved';
  metric: string;
  /** The metric over the rule's period; null when there was no data to compute it from. */
  value: number | null;
  threshold: number;
  /** One line for people. */
  message: string;
}
