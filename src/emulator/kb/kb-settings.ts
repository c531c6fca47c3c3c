// A project's settings as the seed's ProjectSettings describes them (indexing, search, generation, every
// field present), the defaults a new project gets, and the check of a settings update (all three objects
// required: the update carries every setting). The emulator reads model, similarityTopK, minScore and
// rpmLimit from them; the others are kept and answered as sent.
import { kbBadRequest } from './kb-error.js';

export function defaultKbSettings(rpmLimit: number): Record<string, unknown> {
  return {
    indexing: {
      model: 'text-embedding-3-large',
      chunkingMethod: 'sentence',
      chunker: { maxChunkSize: 1000, language: 'english', tokensSoftLimit: 800, useForLargeTables: false },
      chunkMetadata: { enrichChunks: false, getImageDescriptions: false },
      llm: { model: 'gpt-4o-mini', contextWindow: 128000, maxTokens: 1024, temperature: 0 },
    },
    search: {
      pipeline: 'semantic',
      retrieving: {
        similarityTopK: 5,
        candidateRadius: 1,
        metadataSearch: false,
        segmentSearchMode: 'strict',
        rephrase: { rephraseQuery: false, prompt: 'Rephrase the question: {query_str}' },
        fullTextSearch: {
          enableFullTextSearch: true,
          strategy: 'hybrid',
          semanticPortion: 0.7,
          ftsPortion: 0.3,
          threshold: 0.1,
        },
        history: {
          historyMaxTokens: 2000,
          historyMinUserMessages: 1,
          useHistory: true,
          historyCondensePrompt: 'Given the history {history_str}, rewrite the question {query_str}',
        },
      },
      reranker: {
        useReranker: false,
        type: 'manual',
        minScore: 0,
        maxChunksPerDocument: 3,
        maxChunks: 10,
        scoreReductionLimit: 0.5,
      },
      advanced: { enableTabularPipeline: false },
      abbreviations: {
        filename: 'abbreviations.json',
        rawData: JSON.stringify({
          KB: { name: 'knowledge base', variations: ['kb', 'k.b.'], description: 'this service' },
        }),
      },
    },
    generation: {
      prompt: 'Answer the question from the context only. Context: {context_str}',
      llm: {
        model: 'gpt-4o',
        contextWindow: 128000,
        maxTokens: 2048,
        temperature: 0.2,
        topP: 1,
        frequencyPenalty: 0,
        presencePenalty: 0,
      },
      showRelevantSources: true,
      cache: { enableCaching: false, lifetime: 'PT1H' },
      advanced: { tabularPromptAdjustment: '' },
      rpmLimit,
    },
  };
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Checks a settings update: indexing, search and generation objects; rpmLimit a positive integer. */
export function checkKbSettings(body: unknown): Record<string, unknown> {
  if (!isObject(body)) throw kbBadRequest('body', 'expected a ProjectSettings object');
  for (const key of ['indexing', 'search', 'generation'])
    if (!isObject(body[key])) throw kbBadRequest(key, 'required: the update carries every setting');
  const generation = body['generation'] as Record<string, unknown>;
  const rpm = generation['rpmLimit'];
  if (!Number.isInteger(rpm) || (rpm as number) < 1)
    throw kbBadRequest('generation.rpmLimit', 'expected a positive integer');
  const search = body['search'] as Record<string, unknown>;
  const topK = (search['retrieving'] as Record<string, unknown> | undefined)?.['similarityTopK'];
  if (topK !== undefined && (!Number.isInteger(topK) || (topK as number) < 1))
    throw kbBadRequest('search.retrieving.similarityTopK', 'expected a positive integer');
  return structuredClone(body);
}

/** The value at a path of nested objects (undefined where a step is missing or not an object). */
export function field(value: unknown, ...path: string[]): unknown {
  let at = value;
  for (const key of path) {
    if (!isObject(at)) return undefined;
    at = at[key];
  }
  return at;
}

/** Settings values the emulator acts on. */
export function effectiveSettings(settings: Record<string, unknown>): {
  topK: number;
  minScore: number;
  rpmLimit: number;
  model: string;
} {
  const useReranker = field(settings, 'search', 'reranker', 'useReranker') === true;
  return {
    topK: Number(field(settings, 'search', 'retrieving', 'similarityTopK') ?? 5),
    minScore: useReranker ? Number(field(settings, 'search', 'reranker', 'minScore') ?? 0) : 0,
    rpmLimit: Number(field(settings, 'generation', 'rpmLimit') ?? 600),
    model: String(field(settings, 'generation', 'llm', 'model') ?? 'gpt-4o'),
  };
}
