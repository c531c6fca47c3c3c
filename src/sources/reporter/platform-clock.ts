// A sync's "now" on the platform's clock, and a watermark kept from the future. This machine's clock may jump
// (a VM restored, a wrong NTP answer): a sync at +30 days used to set the watermark there, later syncs read
// nothing, and once the clock passed it the days between were never read. The platform's clock is its answers'
// Date header (HttpTransport.serverTime): a range end in the platform's future is brought back to the
// platform's now minus the safety lag, and a stored watermark later than the end (an earlier run's clock was
// ahead, or this one's is behind) is read again from the last stored record. Invariant: no watermark is
// committed later than the platform's now, and no time between the last stored record and now goes unread.
import type { Logger } from '../../log.js';
import type { Warehouse } from '../../warehouse/warehouse.js';

/** Slack for the Date header's whole seconds and the answer's own time. */
export const CLOCK_TOLERANCE_MS = 2_000;

/**
 * The end of a run's range (its now minus the safety lag) on the platform's clock: this machine's, unless it
 * is in the future of the platform's `serverNow` (when known), then the platform's now minus the lag. A local
 * clock ahead by less than the lag is left alone: its end is still in the platform's past.
 */
export function endOnPlatformClock(
  localNow: number,
  serverNow: number | undefined,
  safetyLagMs: number,
): { end: number; aheadMs?: number } {
  const end = localNow - safetyLagMs;
  if (serverNow === undefined || end <= serverNow + CLOCK_TOLERANCE_MS) return { end };
  return { end: serverNow - safetyLagMs, aheadMs: localNow - serverNow };
}

/** The latest time of a stored session or message of the project (epoch ms), or undefined when none. */
async function lastStoredRecord(warehouse: Warehouse, project: string): Promise<number | undefined> {
  const [row] = await warehouse.query(
    `SELECT epoch_ms(greatest(
       (SELECT max(start_time) FROM sessions WHERE project = $project),
       (SELECT max("timestamp") FROM messages WHERE project = $project))) AS last`,
    { project },
  );
  const last = row?.['last'];
  return last === null || last === undefined ? undefined : Number(last);
}

/**
 * The watermark a run starts from: the stored one, unless it is later than the run's end (an earlier run's
 * clock was ahead, or this machine's is behind): then the last stored record's time (the look-back goes back
 * from there, so nothing between is left unread), or none (the history is read, as on a first sync).
 */
export async function repairFutureWatermark(
  warehouse: Warehouse,
  project: string,
  watermark: number | undefined,
  end: number,
  log: Logger,
): Promise<number | undefined> {
  if (watermark === undefined || watermark <= end) return watermark;
  const last = await lastStoredRecord(warehouse, project);
  const repaired = last === undefined ? undefined : Math.min(last, end);
  log.warn(
    {
      watermark: new Date(watermark).toISOString(),
      end: new Date(end).toISOString(),
      from: repaired === undefined ? null : new Date(repaired).toISOString(),
    },
    'the watermark is later than now minus the safety lag (an earlier run’s clock was ahead, or this one’s is behind): read again from the last stored record',
  );
  return repaired;
}
