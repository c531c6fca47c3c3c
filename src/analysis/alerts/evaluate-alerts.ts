// Evaluates the alert rules (REPORTER_ALERTS) for the synced projects after a sync: each rule's metric over
// its last period (from the warehouse's statistics), compared with the threshold; a rule that starts to hold
// is recorded as `firing`, one that stops as `resolved` (table alerts), and nothing is recorded while the
// state stays. The changes are returned for the run's notification.
import { randomUUID } from 'node:crypto';
import type { AlertChange, AlertMetric, AlertRule } from '../../settings/alert-rules.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import { computeStats } from '../stats/compute-stats.js';
import type { StatsReport } from '../stats/stats-report.js';
import { ALERTS_SQL } from './alerts-sql.js';

/** The unrecognised requests' class, as the reports count it. */
const CATCH_ALL_CLASS = '/CatchAll';
const HOUR = 3_600_000;

export interface EvaluateAlertsOptions {
  warehouse: Warehouse;
  rules: readonly AlertRule[];
  /** The projects just synced (a rule with `project` applies to that one only). */
  projects: readonly string[];
  now: number;
  timeZone: string;
  /** The run after which the rules are evaluated (alerts.run_id). */
  runId: string;
}

/** deliveryRate over every channel with statuses: (delivered + read) / messages with a status. */
function deliveryRate(report: StatsReport): number | null {
  let delivered = 0;
  let withStatus = 0;
  for (const row of report.deliveryFunnel) {
    if (row.deliveredRate === null) continue;
    delivered += row.deliveredRate * row.withStatus;
    withStatus += row.withStatus;
  }
  return withStatus === 0 ? null : delivered / withStatus;
}

async function metricValue(
  o: EvaluateAlertsOptions,
  project: string,
  rule: AlertRule,
  stats: () => Promise<StatsReport | undefined>,
): Promise<number | null> {
  if (rule.metric === 'hoursSinceLastSession') {
    const [row] = await o.warehouse.query(ALERTS_SQL.lastSessionStart, { project });
    const last = row?.['last_start'];
    return last === null || last === undefined ? null : (o.now - Number(last)) / HOUR;
  }
  const report = await stats();
  if (!report) return null;
  const pick: Record<Exclude<AlertMetric, 'hoursSinceLastSession'>, () => number | null> = {
    deliveryRate: () => deliveryRate(report),
    transferShare: () => report.totals.transferShare,
    unrecognisedShare: () => report.intents.unrecognisedShare,
  };
  return pick[rule.metric]();
}

/** Whether the rule holds: no data holds only for hoursSinceLastSession (no session at all). */
function holds(rule: AlertRule, value: number | null): boolean {
  if (value === null) return rule.metric === 'hoursSinceLastSession';
  return rule.below !== undefined ? value < rule.below : value > rule.above!;
}

function describe(project: string, rule: AlertRule, value: number | null, firing: boolean): string {
  const shown = value === null ? 'no data' : Number(value.toPrecision(4)).toString();
  const how = rule.below !== undefined ? `below ${rule.below}` : `above ${rule.above}`;
  const period = rule.metric === 'hoursSinceLastSession' ? '' : ` over the last ${rule.periodHours} h`;
  return `${project}: ${rule.metric} ${shown}${firing ? ' ' : ', no longer '}${how}${period} (rule ${rule.name})`;
}

export async function evaluateAlerts(o: EvaluateAlertsOptions): Promise<AlertChange[]> {
  if (o.rules.length === 0) return [];
  const latest = new Map<string, string>();
  for (const row of await o.warehouse.query(ALERTS_SQL.latestStates))
    latest.set(`${row['project']}\u0000${row['rule']}`, String(row['state']));
  const changes: AlertChange[] = [];
  for (const project of o.projects) {
    // one statistics report per project and period, shared by its rules
    const reports = new Map<number, Promise<StatsReport | undefined>>();
    for (const rule of o.rules) {
      if (rule.project !== undefined && rule.project !== project) continue;
      const stats = () => {
        let report = reports.get(rule.periodHours);
        if (!report) {
          report = computeStats(o.warehouse, {
            projects: [project],
            from: o.now - rule.periodHours * HOUR,
            to: o.now,
            timeZone: o.timeZone,
            period: 'day',
            top: 1,
            catchAllClass: CATCH_ALL_CLASS,
          }).catch(() => undefined);
          reports.set(rule.periodHours, report);
        }
        return report;
      };
      const value = await metricValue(o, project, rule, stats);
      const firing = holds(rule, value);
      const was = latest.get(`${project}\u0000${rule.name}`) === 'firing';
      if (firing === was) continue;
      const change: AlertChange = {
        project,
        rule: rule.name,
        state: firing ? 'firing' : 'resolved',
        metric: rule.metric,
        value,
        threshold: (rule.below ?? rule.above)!,
        message: describe(project, rule, value, firing),
      };
      await o.warehouse.query(ALERTS_SQL.insertAlert, {
        alert_id: randomUUID(),
        project,
        rule: rule.name,
        state: change.state,
        value,
        threshold: change.threshold,
        message: change.message,
        run_id: o.runId,
        alerted_at: new Date(o.now),
      });
      changes.push(change);
    }
  }
  return changes;
}
