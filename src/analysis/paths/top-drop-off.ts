// `stats --json`'s key `paths`: the states where most sessions of the window dropped off (their path ended
// there after a regular or a catch-all answer, not with an agent), by drop-off.sql: the definitions of the
// dialog paths (docs/paths.md) without their heavier figures. Every selected channel together.
import type { PlainValue, SqlParam, Warehouse } from '../../warehouse/warehouse.js';
import { loadPathsSql, pickParams } from './load-paths-sql.js';
import { byDropOff, ratio } from './read-flows.js';

export interface DropOffState {
  state: string;
  /** Sessions with a step in the state. */
  reached: number;
  /** Sessions whose path ended there after a regular or a catch-all answer. */
  droppedOff: number;
  /** droppedOff ÷ reached. */
  dropOffShare: number | null;
  endedAfterAnswer: number;
  endedAfterCatchAll: number;
  /** Sessions whose path ended there with a transfer to an agent (not a drop-off). */
  endedWithAgent: number;
}

export interface TopDropOff {
  catchAllClass: string;
  /** Sessions of the window with a path. */
  withPath: number;
  /** The top states by drop-off (then by sessions reached, then by name). */
  states: DropOffState[];
}

const count = (v: PlainValue | undefined): number => (typeof v === 'number' ? v : 0);

export async function readTopDropOff(
  warehouse: Warehouse,
  query: {
    projects: readonly string[];
    /** Stored channel names; null every channel. */
    channels: readonly string[] | null;
    from: number;
    to: number;
    catchAllClass: string;
    top: number;
  },
): Promise<TopDropOff> {
  const sql = loadPathsSql()['drop-off'];
  const params: Record<string, SqlParam> = {
    projects: [...query.projects],
    all_channels: query.channels === null,
    channels: [...(query.channels ?? [])],
    from: new Date(query.from),
    to: new Date(query.to),
    catch_all: query.catchAllClass,
  };
  const rows = await warehouse.query(sql, pickParams(sql, params));
  const states = rows.map((r) => {
    const endedAfterAnswer = count(r['ended_end']);
    const endedAfterCatchAll = count(r['ended_catch_all']);
    const reached = count(r['sessions']);
    return {
      state: String(r['state']),
      reached,
      droppedOff: endedAfterAnswer + endedAfterCatchAll,
      dropOffShare: ratio(endedAfterAnswer + endedAfterCatchAll, reached),
      endedAfterAnswer,
      endedAfterCatchAll,
      endedWithAgent: count(r['ended_agent']),
    };
  });
  const withPath = states.reduce(
    (n, s) => n + s.endedAfterAnswer + s.endedAfterCatchAll + s.endedWithAgent,
    0,
  );
  return { catchAllClass: query.catchAllClass, withPath, states: states.sort(byDropOff).slice(0, query.top) };
}
