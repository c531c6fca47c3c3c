// Ground truth of the knowledge base service for tests of its clients (`kb sync`, `kb eval`): its keys,
// every source with its status at a time, integrations, segments, API keys, and the evaluation questions
// with the source each one is about and the text its answer must contain. Read from the service's records
// and the seeded texts without the HTTP layer or the retrieval ranking (the expected source of a question is
// the source it was written from, not what the ranking picks).
import type { Emulator } from '../emulator.js';
import { apiKeyStatus, iso, lastSuccessfulSyncAt, sha256 } from './kb-model.js';
import { knowledgeOf } from './kb-texts.js';
import { KB_EMPTY_GROUP, KB_GENERATED_KEYS, KB_MAIN_PROJECT_ID, KB_ORPHAN_SEGMENT } from './kb-world.js';
import { indexingStatusAt, type SourceStatus } from './source-indexing.js';

/** A question that matches no word of any source: its generation FAILS (kb.no_relevant_chunks). */
export const KB_UNANSWERABLE_QUESTION = 'Xylophone quokka zeppelin?';

export interface KbKeysTruth {
  /** `{url}/kb` is the base URL; operations live under `{kbBase}/api/knowledge-hub`. */
  basePath: string;
  projectId: number;
  projectKey: string;
  adminKey: string;
  /** ACTIVE at the clock's start, EXPIRED 20 minutes later. */
  expiringSoonKey: string;
  expiringSoonAt: string;
  expiredKey: string;
  revokedKey: string;
  /** A project key of another project (hr-kb). */
  otherProjectKey: string;
  otherProjectId: number;
}

export function kbKeys(emulator: Emulator): KbKeysTruth {
  const kb = emulator.kb;
  const expiring = kb.keys.find((k) => k.key === KB_GENERATED_KEYS.expiringSoon)!;
  return {
    basePath: '/kb',
    projectId: KB_MAIN_PROJECT_ID,
    projectKey: kb.options.projectKey,
    adminKey: kb.options.adminKey,
    expiringSoonKey: KB_GENERATED_KEYS.expiringSoon,
    expiringSoonAt: iso(expiring.expiredAt!),
    expiredKey: KB_GENERATED_KEYS.expired,
    revokedKey: KB_GENERATED_KEYS.revoked,
    otherProjectKey: KB_GENERATED_KEYS.otherProject,
    otherProjectId: KB_MAIN_PROJECT_ID + 1,
  };
}

export interface KbSourceTruth {
  id: number;
  name: string;
  type: string;
  status: SourceStatus;
  lastError?: string;
  version: string;
  createdAt: string;
  segments: string[];
  accessControlAttributes: string[];
  sizeBytes: number;
  sizeChars: number;
  hash: string;
  /** When indexing reaches its final status (the clock to advance to). */
  indexedAt: string;
}

/** Every source of a project (the generated one by default) with its status at `now`, by id. */
export function kbSourcesTruth(
  emulator: Emulator,
  now = emulator.now(),
  projectId = KB_MAIN_PROJECT_ID,
): KbSourceTruth[] {
  return emulator.kb.sourcesOf(projectId).map((s) => {
    const status = indexingStatusAt(s.indexing, now);
    return {
      id: s.id,
      name: s.name,
      type: s.type,
      status,
      ...(status === 'FAILED_TO_INGEST' ? { lastError: s.indexing.error! } : {}),
      version: String(s.version),
      createdAt: iso(s.createdAt),
      segments: [...s.segments],
      accessControlAttributes: [...s.accessControlAttributes],
      sizeBytes: s.sizeBytes,
      sizeChars: s.text.length,
      hash: sha256(s.content ?? s.text),
      indexedAt: iso(s.indexing.doneAt),
    };
  });
}

/** How many sources of a project have each status at `now`. */
export function kbStatusCounts(emulator: Emulator, now = emulator.now(), projectId = KB_MAIN_PROJECT_ID) {
  const counts: Record<SourceStatus, number> = {
    READY_TO_INGEST: 0,
    PROCESSING: 0,
    INGESTED: 0,
    FAILED_TO_INGEST: 0,
  };
  for (const s of kbSourcesTruth(emulator, now, projectId)) counts[s.status]++;
  return counts;
}

/** The moment every source of the project has its final status (advance the clock past it). */
export function kbAllIndexedAt(emulator: Emulator, projectId = KB_MAIN_PROJECT_ID): number {
  return Math.max(...emulator.kb.sourcesOf(projectId).map((s) => s.indexing.doneAt));
}

export interface KbQuestionTruth {
  question: string;
  /** The source the question was written from, and the part of its text an answer must contain. */
  sourceId: number;
  sourceName: string;
  expectedAnswerContains: string;
  /** Whether the source is INGESTED at `now` with its generated text (else no answer can come from it). */
  answerable: boolean;
}

/** One question per generated source of the main project (in source id order). */
export function kbQuestions(emulator: Emulator, now = emulator.now()): KbQuestionTruth[] {
  const kb = emulator.kb;
  const out: KbQuestionTruth[] = [];
  for (let i = 0; i < kb.options.sources; i++) {
    const source = kb.sources.get(100_001 + i);
    if (!source || source.projectId !== KB_MAIN_PROJECT_ID) continue;
    const k = knowledgeOf(kb.seed, i);
    out.push({
      question: k.question,
      sourceId: source.id,
      sourceName: source.name,
      expectedAnswerContains: k.answerContains,
      answerable: indexingStatusAt(source.indexing, now) === 'INGESTED' && source.text === k.text,
    });
  }
  return out;
}

/** The names of the sources a question should retrieve first at `now` ([] when none can answer it). */
export function kbExpectedSources(emulator: Emulator, question: string, now = emulator.now()): string[] {
  return kbQuestions(emulator, now)
    .filter((q) => q.question === question && q.answerable)
    .map((q) => q.sourceName);
}

/** Integrations of the main project at `now`: status, lastError, last success. */
export function kbIntegrationsTruth(emulator: Emulator, now = emulator.now()) {
  return emulator.kb.integrationsOf(KB_MAIN_PROJECT_ID).map((i) => {
    const last = lastSuccessfulSyncAt(i, now);
    return {
      id: i.id,
      name: i.name,
      status: i.state,
      autoSync: i.autoSync,
      syncIntervalMinutes: i.syncIntervalMinutes,
      ...(i.lastError === undefined ? {} : { lastError: i.lastError }),
      lastSuccessfulSyncAt: last === undefined ? null : iso(last),
    };
  });
}

/** Segments of the main project with their source counts (the orphan one has 0). */
export function kbSegmentsTruth(emulator: Emulator) {
  return { segments: emulator.kb.segmentsOf(KB_MAIN_PROJECT_ID), orphan: KB_ORPHAN_SEGMENT };
}

/** API keys of a project with their status at `now` (no key values). */
export function kbApiKeysTruth(emulator: Emulator, now = emulator.now(), projectId = KB_MAIN_PROJECT_ID) {
  return emulator.kb.keysOf(projectId).map((k) => ({
    id: k.id,
    name: k.name,
    status: apiKeyStatus(k, now),
    expiredAt: k.expiredAt === undefined ? null : iso(k.expiredAt),
  }));
}

/** Access groups with the count of sources and integrations carrying each (all projects). */
export function kbAccessGroupsTruth(emulator: Emulator) {
  const kb = emulator.kb;
  return {
    groups: [...kb.groups.values()].map((g) => ({
      id: g.id,
      name: g.name,
      filesCount: [...kb.sources.values()].filter((s) => s.accessControlAttributes.includes(g.name)).length,
      integrationsCount: [...kb.integrations.values()].filter((i) =>
        i.accessControlAttributes.includes(g.name),
      ).length,
    })),
    empty: KB_EMPTY_GROUP,
  };
}

/** Everything above at `now`, as the control endpoint `/__emulator/kb/truth` answers it. */
export function kbTruth(emulator: Emulator, now = emulator.now()) {
  return {
    asOf: iso(now),
    keys: kbKeys(emulator),
    statusCounts: kbStatusCounts(emulator, now),
    allIndexedAt: iso(kbAllIndexedAt(emulator)),
    sources: kbSourcesTruth(emulator, now),
    integrations: kbIntegrationsTruth(emulator, now),
    segments: kbSegmentsTruth(emulator),
    apiKeys: kbApiKeysTruth(emulator, now),
    accessGroups: kbAccessGroupsTruth(emulator),
    questions: kbQuestions(emulator, now),
    unanswerableQuestion: KB_UNANSWERABLE_QUESTION,
  };
}
