// The selection of the paths, checked against the warehouse before any heavy query: each --project must be a
// project the warehouse holds sessions of, each --channel (case-insensitive, CHAT_WIDGET = chatwidget) a
// channel it holds sessions of; a wrong one is a UsageError naming it and what the warehouse holds.
import { UsageError } from '../../errors.js';
import { normaliseChannel } from '../../platform/reporter/normalise-channel.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import type { PathsSql } from './load-paths-sql.js';

export interface CheckedSelection {
  projects: string[];
  /** Stored channel names; undefined: every channel. */
  channels: string[] | undefined;
  /** The projects are every project the warehouse holds. */
  everyProject: boolean;
}

const listed = (names: readonly string[], none: string) => (names.length > 0 ? names.join(', ') : none);

export async function checkSelection(
  warehouse: Warehouse,
  sql: PathsSql,
  selection: { projects?: readonly string[] | undefined; channels?: readonly string[] | undefined },
): Promise<CheckedSelection> {
  const rows = await warehouse.query(sql.names);
  const held = (kind: string) => rows.filter((r) => r['kind'] === kind).map((r) => String(r['name']));
  const projects = held('project');
  const channels = held('channel');
  for (const project of selection.projects ?? []) {
    if (!projects.includes(project))
      throw new UsageError(
        `--project: the warehouse holds no session of project "${project}" (it holds ${listed(projects, 'none yet: run reporter-etl sync')})`,
      );
  }
  let picked: string[] | undefined;
  if (selection.channels !== undefined) {
    picked = [];
    for (const raw of selection.channels) {
      const channel = normaliseChannel(raw.trim());
      if (!channels.includes(channel))
        throw new UsageError(
          `--channel: the warehouse holds no session of channel "${raw}" (it holds ${listed(channels, 'none yet: run reporter-etl sync')})`,
        );
      if (!picked.includes(channel)) picked.push(channel);
    }
  }
  const chosen = selection.projects === undefined ? projects : [...selection.projects];
  return { projects: chosen, channels: picked, everyProject: projects.every((p) => chosen.includes(p)) };
}
