// A statuses report read: its status column and the columns that may hold the message ids (status-columns.ts),
// kept until a window takes its statuses. The id column is the one whose values hold the most of the window's
// message ids (the report may be read before the window's messages are: it is started ahead); a tie goes to the
// column whose header says question, then message, then id, then to the leftmost. Once chosen it stays for the
// report (the halves of a split window take the same one). Invariant: a lookup whose ids no column holds
// answers undefined and says why (the window reads its statuses per client: nothing is lost).
import { chooseIdColumn } from '../../platform/reporter/report-columns.js';

/** A column that may hold the message ids: its header name and its values, one per data row. */
export interface IdColumn {
  name: string;
  values: string[];
}

export class ReportStatuses {
  private chosen: Map<string, string | null> | undefined;
  /** The candidates until one is chosen (then dropped: the map holds what is needed). */
  private candidates: IdColumn[] | undefined;

  /** `candidates` likeliest first (status-columns.ts); `statuses` one per data row (null: none). */
  constructor(
    candidates: IdColumn[],
    private statuses: (string | null)[] | undefined,
    /** Data rows of the file. */
    readonly rows: number,
    /** Called when a lookup's ids are in no candidate column, with why. */
    private readonly onUnmatched: (reason: string) => void = () => {},
  ) {
    this.candidates = candidates;
  }

  /** The header name of the chosen id column, once chosen. */
  idColumn: string | undefined;

  /** The statuses by message id of the column holding the most of `ids`; undefined when none holds one. */
  lookup(ids: Iterable<string>): Map<string, string | null> | undefined {
    if (this.chosen !== undefined) return this.chosen;
    const wanted = new Set(ids);
    if (wanted.size === 0 || this.rows === 0) return new Map();
    const candidates = this.candidates ?? [];
    const best = chooseIdColumn(candidates, (column) => {
      let hits = 0;
      for (const value of column.values) if (wanted.has(value)) hits++;
      return hits;
    });
    if (best === undefined) {
      const names = candidates.map((c) => JSON.stringify(c.name)).join(', ');
      this.onUnmatched(
        `none of the report's id-like columns (${names}) holds any of the ${wanted.size} message ids looked up`,
      );
      return undefined;
    }
    this.chosen = mapByIds(best.values, this.statuses!);
    this.idColumn = best.name;
    this.candidates = undefined;
    this.statuses = undefined;
    return this.chosen;
  }
}

function mapByIds(ids: readonly string[], statuses: readonly (string | null)[]): Map<string, string | null> {
  const map = new Map<string, string | null>();
  for (let n = 0; n < ids.length; n++) map.set(ids[n]!, statuses[n]!);
  return map;
}
