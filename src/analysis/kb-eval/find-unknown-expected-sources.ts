// The expected sources of a `kb eval` question set that name no source of the knowledge base's latest `kb sync`
// snapshot (kb_sources) of the project: a misspelt name or a deleted source's id would otherwise only count as
// a miss, question after question, without a word. Null when there is no snapshot to compare with.
import type { KbId } from '../../platform/kb/kb-schemas.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import type { KbEvalQuestion } from './read-eval-questions.js';

export interface UnknownExpectedSources {
  /** The snapshot compared with (kb_snapshots.snapshot_id). */
  snapshotId: string;
  /** The expected source ids and names found in no source of it, in the questions' order, once each. */
  unknown: string[];
}

export async function findUnknownExpectedSources(
  warehouse: Warehouse,
  projectId: KbId | null,
  questions: readonly KbEvalQuestion[],
): Promise<UnknownExpectedSources | null> {
  // once each, names compared without case (the first spelling kept)
  const byKey = new Map<string, string>();
  for (const e of questions.flatMap((q) => q.expectedSources))
    if (!byKey.has(e.trim().toLowerCase())) byKey.set(e.trim().toLowerCase(), e.trim());
  const expected = [...byKey.values()];
  if (expected.length === 0) return null;
  const [snapshot] = await warehouse.query(
    `SELECT snapshot_id FROM kb_snapshots
     WHERE $project_id IS NULL OR project_id = $project_id
     ORDER BY taken_at DESC, snapshot_id DESC LIMIT 1`,
    { project_id: projectId },
  );
  if (!snapshot) return null;
  const snapshotId = String(snapshot['snapshot_id']);
  const sources = await warehouse.query(
    'SELECT CAST(source_id AS VARCHAR) AS id, lower(name) AS name FROM kb_sources WHERE snapshot_id = $s',
    { s: snapshotId },
  );
  const ids = new Set(sources.map((s) => String(s['id'])));
  const names = new Set(sources.map((s) => String(s['name'])));
  const unknown = expected.filter((e) =>
    /^\d+$/.test(e.trim()) ? !ids.has(e.trim()) : !names.has(e.trim().toLowerCase()),
  );
  return { snapshotId, unknown };
}
