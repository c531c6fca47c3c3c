// The event a notification POSTs to Pushgate (docs/pushgate.md, The event): one JSON object per run that
// failed, per daily-report that completed and per run whose alerts changed. `eventId` is the run's id, so a
// resend of the same notification carries the same one and the bot's script can drop it.
import type { AlertChange } from '../../settings/alert-rules.js';

export interface NotificationEvent {
  eventId: string;
  job: string;
  status: 'success' | 'partial' | 'failed';
  /** ISO 8601 UTC. */
  startedAt: string;
  finishedAt: string;
  summary: string;
  /** The report written (daily-report). */
  reportPath?: string;
  /** The alerts that changed state after this run (sync). */
  alerts?: AlertChange[];
}

/** What a finished run says about itself, for deciding whether it notifies. */
export interface RunForNotice {
  runId: string;
  job: string;
  status: NotificationEvent['status'];
  startedAt: number;
  finishedAt: number;
  summary: string;
  reportPath?: string | undefined;
  alerts?: readonly AlertChange[] | undefined;
}

/** The event of a run, or undefined when the run is not one that notifies. */
export function notificationOf(run: RunForNotice): NotificationEvent | undefined {
  const alerts = run.alerts ?? [];
  const completedReport = run.job === 'daily-report' && run.status !== 'failed';
  if (run.status !== 'failed' && !completedReport && alerts.length === 0) return undefined;
  return {
    eventId: run.runId,
    job: run.job,
    status: run.status,
    startedAt: new Date(run.startedAt).toISOString(),
    finishedAt: new Date(run.finishedAt).toISOString(),
    summary: run.summary,
    ...(run.reportPath === undefined ? {} : { reportPath: run.reportPath }),
    ...(alerts.length === 0 ? {} : { alerts: [...alerts] }),
  };
}
