// What an empty report says, on its first sheet (and the first section of its HTML page) and on every other
// sheet: one sentence, "No data for <period>", the period as describe-period.ts writes it, then why and the
// command that brings the data, with the period's options in local dates (`--from 2026-10-31 --to
// 2026-11-01 --tz Europe/Moscow`).
import { describePeriod } from './describe-period.js';

export { describePeriod as describeLocalPeriod } from './describe-period.js';

/** "No data for <period>". */
export function noDataNote(from: number, to: number, tz: string): string {
  return `No data for ${describePeriod(from, to, tz)}`;
}

/** What a report with no data says: the note, why, and what to run (each part optional). */
export function noDataSentence(note: string, reason?: string, command?: string): string {
  const why = reason === undefined ? '' : `: ${reason}`;
  const run = command === undefined ? '' : `; run ${command}`;
  return `${note}${why}${run}`;
}
