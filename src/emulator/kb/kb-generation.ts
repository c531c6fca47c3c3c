// Retrieval and answer generation on the emulated knowledge base: the request's filters (access groups,
// segments, topK) narrow the INGESTED sources, retrieval ranks their chunks, and the answer is the top
// chunk's sentence with its source named. A query matching no chunk FAILS (kb.no_relevant_chunks); a follow-up
// that matches nothing alone is searched again with the latest user message of its history (or chat).
import { kbBadRequest } from './kb-error.js';
import type { KbSource } from './kb-model.js';
import type { KbQuery, QueryOutcome, SourceRef } from './kb-queries.js';
import type { KbChat, KbService } from './kb-service.js';
import { effectiveSettings, field } from './kb-settings.js';
import { type RankedChunk, rankChunks } from './retrieval.js';

/** The special segment that also selects the sources without any segment. */
export const WITHOUT_SEGMENTS = 'include_without_segments';

export interface KbAsk {
  query: string;
  /** Latest first, as the seed orders history. */
  history: { role: string; content: string }[];
  access?: string[];
  settings: Record<string, unknown>;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads a retrieval or generation body: `query` required; history, accessSettings and settings checked. */
export function parseAsk(body: unknown): KbAsk {
  if (!isObject(body)) throw kbBadRequest('body', 'expected a JSON object with query');
  const query = body['query'];
  if (typeof query !== 'string' || query.trim() === '')
    throw kbBadRequest('query', 'required: a non-empty string');
  const history = body['history'] ?? [];
  if (!Array.isArray(history) || !history.every((h) => isObject(h) && typeof h['content'] === 'string'))
    throw kbBadRequest('history', 'expected an array of {content, role}');
  const accessSettings = body['accessSettings'];
  let access: string[] | undefined;
  if (accessSettings !== undefined && accessSettings !== null) {
    if (!isObject(accessSettings)) throw kbBadRequest('accessSettings', 'expected an object');
    const groups = accessSettings['accessControlAttributes'] ?? [];
    if (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string'))
      throw kbBadRequest('accessSettings.accessControlAttributes', 'expected an array of access group names');
    access = groups;
  }
  const settings = body['settings'] ?? {};
  if (!isObject(settings)) throw kbBadRequest('settings', 'expected an object');
  return {
    query,
    history: history.map((h) => ({ role: String(h['role'] ?? 'user'), content: h['content'] })),
    ...(access === undefined ? {} : { access }),
    settings,
  };
}

function segmentFilter(settings: Record<string, unknown>): ((s: KbSource) => boolean) | undefined {
  const one = field(settings, 'search', 'segment');
  const many = field(settings, 'search', 'segments');
  const wanted: string[] = [
    ...(typeof one === 'string' ? [one] : []),
    ...(Array.isArray(many) ? many.filter((s): s is string => typeof s === 'string') : []),
  ];
  if (wanted.length === 0) return undefined;
  return (s) =>
    s.segments.some((g) => wanted.includes(g)) ||
    (wanted.includes(WITHOUT_SEGMENTS) && s.segments.length === 0);
}

/** The chunks a request retrieves at `now`, best first (the chat's earlier questions as history). */
export function retrieveChunks(
  kb: KbService,
  projectId: number,
  now: number,
  ask: KbAsk,
  chat?: KbChat,
  beforeQuery?: number,
): RankedChunk[] {
  const settings = { ...(chat?.settings ?? {}), ...ask.settings };
  const own = effectiveSettings(kb.project(projectId).settings);
  const askedTopK = field(settings, 'search', 'similarityTopK');
  const topK = Number.isInteger(askedTopK) && (askedTopK as number) > 0 ? (askedTopK as number) : own.topK;
  const askedMin = field(settings, 'search', 'reranker', 'minScore');
  const minScore = typeof askedMin === 'number' ? askedMin : own.minScore;
  const bySegment = segmentFilter(settings);
  const sources = kb.searchable(projectId, now, ask.access).filter((s) => !bySegment || bySegment(s));
  const ranked = rankChunks(sources, ask.query, { topK, minScore });
  if (ranked.length > 0) return ranked;
  const history = chat ? chatHistory(kb, chat, beforeQuery) : ask.history;
  const previous = history.find((h) => h.role === 'user')?.content;
  return previous === undefined ? [] : rankChunks(sources, `${ask.query} ${previous}`, { topK, minScore });
}

/** A chat's earlier questions (those sent before `beforeQuery` when given), latest first. */
export function chatHistory(
  kb: KbService,
  chat: KbChat,
  beforeQuery?: number,
): { role: string; content: string }[] {
  const ids =
    beforeQuery === undefined ? chat.queryIds : chat.queryIds.slice(0, chat.queryIds.indexOf(beforeQuery));
  return ids
    .map((id) => kb.queries.get(id)?.request)
    .filter((r): r is string => r !== undefined)
    .reverse()
    .map((content) => ({ role: 'user', content }));
}

export function sourceRef(s: KbSource): SourceRef {
  return {
    id: s.id,
    title: s.name,
    sourceType: s.type,
    path: s.name,
    ...(s.link === undefined ? {} : { externalLink: s.link }),
  };
}

/** A retrieved chunk on the wire (the seed's Chunk). */
export function chunkWire(c: RankedChunk): Record<string, unknown> {
  return {
    score: c.score,
    content: c.content,
    docId: `${c.source.id}-v${c.source.version}-${c.position}`,
    metadata: { sourcePath: c.source.name, sourceUrl: c.source.link ?? '', segments: [...c.source.segments] },
    source: sourceRef(c.source),
  };
}

/** The answer of a generation, decided at submit: the top chunk's sentence, or why it fails. */
function decideOutcome(chunks: RankedChunk[], fault: boolean): QueryOutcome {
  const top = chunks[0];
  const relevant = [...new Map(chunks.map((c) => [c.source.id, c.source])).values()].slice(0, 3);
  if (fault)
    return { relevantSources: [], failure: 'kb.llm_error: the model did not answer (emulated fault)' };
  if (top === undefined)
    return {
      relevantSources: [],
      failure: 'kb.no_relevant_chunks: no source of the project matches the query',
    };
  return {
    response: `According to ${top.source.name}: ${top.content}`,
    relevantSources: relevant.map(sourceRef),
  };
}

/** Submits a generation: the record with its answer (or failure) decided now; `fault` forces a failure. */
export function submitQuery(
  kb: KbService,
  projectId: number,
  now: number,
  ask: KbAsk,
  options: { chat?: KbChat; fault?: boolean } = {},
): KbQuery {
  const outcome = decideOutcome(
    retrieveChunks(kb, projectId, now, ask, options.chat),
    options.fault ?? false,
  );
  const query: KbQuery = {
    id: kb.newQueryId(),
    projectId,
    ...(options.chat ? { chatId: options.chat.id } : {}),
    request: ask.query,
    createdAt: now,
    submittedReal: Date.now(),
    processingMs: kb.options.queryProcessingMs,
    outcome,
  };
  kb.queries.set(query.id, query);
  options.chat?.queryIds.push(query.id);
  return query;
}

/**
 * Runs a finished, failed or cancelled chat query again on the same id: a new answer as of `now`, searched
 * with the chat's questions sent before it (the original request's own settings are not kept).
 */
export function retryQuery(
  kb: KbService,
  query: KbQuery,
  chat: KbChat,
  now: number,
  fault: boolean,
): KbQuery {
  const ask = { query: query.request, history: [], settings: {} };
  query.outcome = decideOutcome(retrieveChunks(kb, query.projectId, now, ask, chat, query.id), fault);
  query.submittedReal = Date.now();
  query.processingMs = kb.options.queryProcessingMs;
  query.createdAt = now;
  delete query.canceledAfterMs;
  return query;
}
