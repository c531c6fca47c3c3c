// Finds a label or group of the platform's catalogues by the name a user typed. An unknown or ambiguous name
// is a UsageError that lists what exists (and the near miss, when only the case differs), so a typo is
// refused before anything is written. Message label names are unique only within their group.
import { UsageError } from '../errors.js';
import type { LabelGroup, MessageLabel, SessionLabel } from '../platform/reporter/labels.js';

function listNames(names: readonly string[]): string {
  if (names.length === 0) return 'there are none';
  const shown = names.slice(0, 30).map((n) => JSON.stringify(n));
  return `${names.length > 30 ? 'some of them' : 'they are'}: ${shown.join(', ')}${names.length > 30 ? ', ...' : ''}`;
}

function nearMiss(name: string, names: readonly string[]): string {
  const folded = name.trim().toLowerCase();
  const near = names.find((n) => n.trim().toLowerCase() === folded);
  return near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`;
}

export function pickSessionLabel(
  labels: readonly SessionLabel[],
  name: string,
  option = '--label',
): SessionLabel {
  const found = labels.find((l) => l.name === name);
  if (found) return found;
  const names = labels.map((l) => l.name);
  throw new UsageError(
    `${option} ${JSON.stringify(name)}: no session label has this name${nearMiss(name, names)}; ${listNames(names)} (reporter-etl labels list --kind session)`,
    'manage.unknown_label',
  );
}

export function pickLabelGroup(groups: readonly LabelGroup[], name: string, option = '--group'): LabelGroup {
  const found = groups.find((g) => g.name === name);
  if (found) return found;
  const names = groups.map((g) => g.name);
  throw new UsageError(
    `${option} ${JSON.stringify(name)}: no message label group has this name${nearMiss(name, names)}; ${listNames(names)} (reporter-etl labels list --kind group)`,
    'manage.unknown_group',
  );
}

/** The message label `name`, in group `group` when given; a name found in several groups needs the group. */
export function pickMessageLabel(
  labels: readonly MessageLabel[],
  name: string,
  group?: string,
  option = '--label',
): MessageLabel {
  const inGroup = group === undefined ? labels : labels.filter((l) => l.group?.name === group);
  if (group !== undefined && inGroup.length === 0 && !labels.some((l) => l.group?.name === group)) {
    const groups = [...new Set(labels.map((l) => l.group?.name).filter((g): g is string => g != null))];
    throw new UsageError(
      `--group ${JSON.stringify(group)}: no message label group has this name${nearMiss(group, groups)}; ${listNames(groups)}`,
      'manage.unknown_group',
    );
  }
  const found = inGroup.filter((l) => l.name === name);
  if (found.length === 1) return found[0]!;
  if (found.length > 1)
    throw new UsageError(
      `${option} ${JSON.stringify(name)}: message labels of this name exist in several groups (${found
        .map((l) => JSON.stringify(l.group?.name ?? ''))
        .join(', ')}): add --group NAME`,
      'manage.ambiguous_label',
    );
  const names = inGroup.map((l) => (group === undefined && l.group ? `${l.name} (${l.group.name})` : l.name));
  throw new UsageError(
    `${option} ${JSON.stringify(name)}: no message label has this name${group === undefined ? '' : ` in group ${JSON.stringify(group)}`}${nearMiss(
      name,
      inGroup.map((l) => l.name),
    )}; ${listNames(names)} (reporter-etl labels list --kind message)`,
    'manage.unknown_label',
  );
}
