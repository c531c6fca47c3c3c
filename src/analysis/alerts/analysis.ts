// The alerts as a unit: the alert rules (REPORTER_ALERTS) evaluated over the statistics after each sync, each
// change (firing, resolved) kept in table `alerts` for `runs` and the notification (docs/pushgate.md#alerts).
import type { AnalysisUnit } from '../analysis-unit.js';

export const alertsAnalysis: AnalysisUnit = {
  id: 'alerts',
  describe: "alert rules over each synced project's last period, their changes recorded in alerts",
  tables: [{ name: 'alerts', key: ['alert_id'], write: 'append', exported: false }],
};
