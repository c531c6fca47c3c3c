// The one check that a period's start comes before its end, and the one message for it: every command that
// takes --from and --to ([from, to): from inclusive, to exclusive) refuses an empty period in the same words.
// When both were given as the same date (`--from 2026-11-25 --to 2026-11-25`), the message says which --to
// takes that whole day.
import { UsageError } from '../errors.js';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** What the user typed, when the period came from options: for the hint. */
export interface GivenPeriod {
  from?: string | undefined;
  to?: string | undefined;
}

function iso(t: number): string {
  return Number.isFinite(t) ? new Date(t).toISOString() : String(t);
}

/** The day after a YYYY-MM-DD date, in the same form. */
function nextDay(date: string): string {
  const [, y, m, d] = DATE.exec(date)!;
  return new Date(Date.UTC(Number(y), Number(m) - 1, Number(d) + 1)).toISOString().slice(0, 10);
}

/** ": for the whole day 2026-11-25, give --to 2026-11-26" when --from was a date and --to the same or earlier. */
function dayHint(given: GivenPeriod | undefined): string {
  const from = given?.from?.trim();
  const to = given?.to?.trim();
  if (from === undefined || !DATE.test(from)) return '';
  if (to !== undefined && !(DATE.test(to) && to <= from)) return '';
  return `: for the whole day ${from}, give --to ${nextDay(from)}`;
}

/** ": they are the wrong way round: --from X --to Y" when --to comes before --from (not the same day). */
function swapHint(from: number, to: number, given: GivenPeriod | undefined): string {
  if (!(to < from) || given?.from === undefined || given.to === undefined) return '';
  if (DATE.test(given.from.trim()) && given.from.trim() === given.to.trim()) return '';
  return `: they are the wrong way round, give --from ${given.to.trim()} --to ${given.from.trim()}`;
}

/** Throws a usage error unless `from` < `to` (both finite epoch ms). */
export function assertFromBeforeTo(from: number, to: number, given?: GivenPeriod): void {
  if (Number.isFinite(from) && Number.isFinite(to) && from < to) return;
  const hint = swapHint(from, to, given) || dayHint(given);
  throw new UsageError(
    `--from (${iso(from)}) must be before --to (${iso(to)}); --from is inclusive, --to exclusive${hint}`,
  );
}
