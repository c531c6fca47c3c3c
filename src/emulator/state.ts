// The mutable side of one emulated project: label catalogues, labels and comments set by people,
// blocked clients, experiments and their joins, saved filter sets. Every change bumps `version`,
// which invalidates cached query results.
import { MESSAGE_LABEL_GROUPS, SESSION_LABELS } from './vocabulary.js';

export interface SessionLabel {
  id: number;
  name: string;
  priority: number;
}
export interface LabelGroup {
  id: number;
  name: string;
  priority: number;
}
export interface MessageLabel {
  id: number;
  name: string;
  priority: number;
  groupId: number;
}
export interface Block {
  blockReason?: string;
  blockedBy: number;
  blockDate: number;
}
export interface Experiment {
  key: string;
  description?: string;
  branches: { key: string; description?: string }[];
  status: 'CREATED' | 'RUNNING' | 'STOPPED';
  /** Seeded experiments join sessions by hash between these times; API-created ones only by `join`. */
  seededFrom?: number;
  seededTo?: number;
  joins: Map<number, string>;
}
export interface FilterSet {
  filterSetId: string;
  filters: unknown[];
  intervalType?: string;
  step?: number;
}

/** Ids of the seeded catalogues, so that the generator can refer to them without the state. */
export const SEEDED_SESSION_LABEL_IDS = SESSION_LABELS.map((_, i) => 1 + i);
export const SEEDED_GROUP_IDS = MESSAGE_LABEL_GROUPS.map((_, g) => 11 + g);
export const SEEDED_MESSAGE_LABEL_IDS = MESSAGE_LABEL_GROUPS.flatMap((group, g) =>
  group.labels.map((_, l) => 101 + g * 10 + l),
);

export class ProjectState {
  version = 0;
  private nextId = 1000;
  readonly sessionLabels = new Map<number, SessionLabel>();
  readonly labelGroups = new Map<number, LabelGroup>();
  readonly messageLabels = new Map<number, MessageLabel>();
  /** Label sets set by people: they replace the seeded labels of that session / message. */
  readonly sessionLabelSets = new Map<number, Set<number>>();
  readonly messageLabelSets = new Map<number, Set<number>>();
  /** Comments set by people (null: deleted), keyed by global message index. */
  readonly comments = new Map<number, string | null>();
  /** Blocked clients by client index. */
  readonly blocks = new Map<number, Block>();
  readonly experiments = new Map<string, Experiment>();
  readonly filterSets = new Map<string, FilterSet>();

  constructor(history: { t0: number; now: number }) {
    SESSION_LABELS.forEach((label, i) => {
      const id = SEEDED_SESSION_LABEL_IDS[i]!;
      this.sessionLabels.set(id, { id, name: label.name, priority: i + 1 });
    });
    MESSAGE_LABEL_GROUPS.forEach((group, g) => {
      const groupId = SEEDED_GROUP_IDS[g]!;
      this.labelGroups.set(groupId, { id: groupId, name: group.name, priority: g + 1 });
      group.labels.forEach((name, l) => {
        const id = 101 + g * 10 + l;
        this.messageLabels.set(id, { id, name, priority: l + 1, groupId });
      });
    });
    const half = history.t0 + (history.now - history.t0) / 2;
    this.experiments.set('greeting-test', {
      key: 'greeting-test',
      description: 'Короткое или длинное приветствие',
      branches: [
        { key: 'short', description: 'Короткое приветствие' },
        { key: 'long', description: 'Длинное приветствие' },
      ],
      status: 'RUNNING',
      seededFrom: half,
      seededTo: Number.POSITIVE_INFINITY,
      joins: new Map(),
    });
    this.experiments.set('menu-layout', {
      key: 'menu-layout',
      description: 'Menu buttons vs free text',
      branches: [{ key: 'buttons' }, { key: 'text' }, { key: 'mixed' }],
      status: 'STOPPED',
      seededFrom: history.t0,
      seededTo: half,
      joins: new Map(),
    });
  }

  newId(): number {
    return this.nextId++;
  }

  touch(): void {
    this.version++;
  }

  sessionLabelByName(name: string): SessionLabel | undefined {
    for (const label of this.sessionLabels.values()) if (label.name === name) return label;
    return undefined;
  }
}
