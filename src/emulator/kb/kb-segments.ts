// Segments of a project's sources: the counts (a segment the project knows stays listed with 0 sources),
// rename across the sources carrying it, add to and remove from sources; each change answers the ids of
// the sources it changed. Pure functions over the project and its sources.
import { kbNotFound } from './kb-error.js';
import type { KbProject, KbSource } from './kb-model.js';
import { checkSegmentName } from './kb-write-checks.js';

export function segmentCounts(
  project: KbProject,
  sources: readonly KbSource[],
): { name: string; sourcesCount: number }[] {
  const counts = new Map<string, number>([...project.segmentNames].map((n) => [n, 0]));
  for (const s of sources) for (const g of s.segments) counts.set(g, (counts.get(g) ?? 0) + 1);
  return [...counts]
    .map(([name, sourcesCount]) => ({ name, sourcesCount }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Renames `oldName` (404 when the project has no such segment) on every source carrying it. */
export function renameSegmentIn(
  project: KbProject,
  sources: readonly KbSource[],
  oldName: string,
  newName: unknown,
): number[] {
  const to = checkSegmentName(newName, 'newName');
  if (!project.segmentNames.has(oldName)) throw kbNotFound('segment', oldName);
  const updated: number[] = [];
  for (const s of sources) {
    if (!s.segments.includes(oldName)) continue;
    s.segments = [...new Set(s.segments.map((g) => (g === oldName ? to : g)))];
    updated.push(s.id);
  }
  project.segmentNames.delete(oldName);
  project.segmentNames.add(to);
  return updated;
}

export function addSegmentsTo(project: KbProject, targets: readonly KbSource[], names: string[]): number[] {
  for (const n of names) project.segmentNames.add(n);
  const updated: number[] = [];
  for (const s of targets) {
    const before = s.segments.length;
    s.segments = [...new Set([...s.segments, ...names])];
    if (s.segments.length !== before) updated.push(s.id);
  }
  return updated;
}

/** Removes the names from the sources; a segment a source does not carry is skipped. */
export function removeSegmentsFrom(targets: readonly KbSource[], names: string[]): number[] {
  const updated: number[] = [];
  for (const s of targets) {
    const kept = s.segments.filter((g) => !names.includes(g));
    if (kept.length !== s.segments.length) updated.push(s.id);
    s.segments = kept;
  }
  return updated;
}
