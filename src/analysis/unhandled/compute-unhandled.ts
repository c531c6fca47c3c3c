// One run of the unhandled questions: the catch-all messages of a period and of the previous period of the
// same length read as distinct texts with counts and keys (streamed, masked as they come: no raw text is kept
// but those whose key another shares), the previous stored run of the selection read (its topics' ids carry
// over), the texts clustered in memory (clusterTexts; an embeddings endpoint asked when one is given, while the
// warehouse is not held) and the run stored (store-unhandled-run.ts), then read back.
import { createHash } from 'node:crypto';
import type { PlainRow, Warehouse } from '../../warehouse/warehouse.js';
import { clusterTexts, type TextClustering } from './cluster-questions.js';
import { collectDistinctTexts, type DistinctTexts, grow } from './distinct-texts.js';
import { maskQuestion } from './normalise-question.js';
import { readPreviousRun } from './read-previous-run.js';
import { type MemberText, type RunRow, storeUnhandledRun } from './store-unhandled-run.js';
import type { TextEmbedder } from './text-embedder.js';
import { indexOfText, sharedKeys, TEXT_KEY_SHIFT } from './text-keys.js';
import {
  RESET_FLUSH_THRESHOLD,
  SELECT_CLUSTERS,
  SELECT_QUESTION_COUNTS,
  SELECT_RUN,
  SELECT_TEXTS_OF_KEYS,
  SET_FLUSH_THRESHOLD,
} from './unhandled-sql.js';

export interface UnhandledQuery {
  /** undefined: every project. */
  project?: string;
  /** A channel type (lower case); undefined: every channel. */
  channel?: string;
  catchAllClass: string;
  /** Epoch ms, inclusive. */
  from: number;
  /** Epoch ms, exclusive. */
  to: number;
  /** The smallest topic in messages (default: 0.05 % of the period's catch-all messages, at least 3). */
  minMessages?: number;
}

export interface UnhandledCluster {
  id: string;
  rank: number;
  label: string;
  messages: number;
  previousMessages: number;
  clients: number;
  share: number;
  /** messages / previousMessages - 1; null when the previous period had none. */
  trend: number | null;
  agentSessions: number;
  channels: string[];
  examples: string[];
}

/** The period's catch-all messages that joined no topic: counted, never hidden. */
export interface UnhandledOther {
  messages: number;
  /** Their distinct (masked) texts. */
  texts: number;
  /** messages / the period's unrecognised (0 when there were none). */
  share: number;
}

export interface UnhandledRun {
  runId: string;
  project: string | null;
  channel: string | null;
  catchAllClass: string;
  from: string;
  to: string;
  previousFrom: string;
  unrecognised: number;
  previousUnrecognised: number;
  clustered: number;
  other: UnhandledOther;
  /** Where the texts' vectors came from: `lsa`, or `embeddings:<model>`. */
  vectors: string;
  /** The stored run whose ids carried over; null: none. */
  previousRunId: string | null;
  clusters: UnhandledCluster[];
}

export interface ComputeUnhandledOptions {
  /** Vectors from an embeddings endpoint instead of the LSA. */
  embedder?: TextEmbedder;
  /** The bits of a text's hash dropped from its key (default TEXT_KEY_SHIFT; tests: more, to share keys). */
  keyShift?: number;
}

/** DuckDB's memory_limit while a run is computed (docs/unhandled.md#memory-and-time). */
export const UNHANDLED_DUCKDB_MEMORY_LIMIT = '128MB';

/** DuckDB's memory_limit for the moment its cached pages are dropped, between the read and the clustering. */
const CACHE_DROP_LIMIT = '16MB';

/** The run id of a selection and period: computing the same again replaces it. */
export function unhandledRunId(query: UnhandledQuery): string {
  const key = [query.project ?? '', query.channel ?? '', query.catchAllClass, query.from, query.to];
  return createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 16);
}

/** Clusters the period's unhandled questions and stores the run; returns it as stored. */
export async function computeUnhandled(
  warehouse: Warehouse,
  query: UnhandledQuery,
  now: Date,
  options: ComputeUnhandledOptions = {},
): Promise<UnhandledRun> {
  // the texts, their vectors and the graph are in this process's memory while DuckDB reads and stores: its
  // buffer pool kept small (64MB ran out in INSERT_CLUSTERS at 1M messages), emptied before the clustering,
  // and what it freed handed back to the system after each query (docs/unhandled.md#memory-and-time)
  await warehouse.setMemoryLimit(UNHANDLED_DUCKDB_MEMORY_LIMIT);
  await warehouse.query(SET_FLUSH_THRESHOLD);
  try {
    return await clusterAndStore(warehouse, query, now, options);
  } finally {
    await warehouse.query(RESET_FLUSH_THRESHOLD);
    await warehouse.setMemoryLimit(undefined);
  }
}

async function clusterAndStore(
  warehouse: Warehouse,
  query: UnhandledQuery,
  now: Date,
  options: ComputeUnhandledOptions,
): Promise<UnhandledRun> {
  const params = selectionParams(query);
  const { previous_from: _p, ...selection } = params;
  const keyShift = options.keyShift ?? TEXT_KEY_SHIFT;
  const { run, texts, clusters } = await clusterPeriod(warehouse, query, params, keyShift, options);
  await storeUnhandledRun(warehouse, run, { ...selection, key_shift: keyShift }, texts, clusters, now);
  return readUnhandledRun(warehouse, run.run_id);
}

/**
 * The period's texts read and clustered; returned is only what the store needs (the run's row, the clustered
 * texts by key, the clusters), so that the distinct texts are garbage once it returns.
 */
async function clusterPeriod(
  warehouse: Warehouse,
  query: UnhandledQuery,
  params: ReturnType<typeof selectionParams>,
  keyShift: number,
  options: ComputeUnhandledOptions,
): Promise<{ run: RunRow; texts: MemberText[]; clusters: TextClustering['clusters'] }> {
  const { run_id: _, ...countParams } = params;
  const period = await readPeriodTexts(warehouse, countParams, keyShift);
  const { previous_from: _p, ...selection } = params;
  const previous = await readPreviousRun(warehouse, selection);
  await dropCachedPages(warehouse);
  const clustering = await clusterTexts(period.d, {
    ...(query.minMessages === undefined ? {} : { minMessages: query.minMessages }),
    ...(previous === undefined ? {} : { previous: previous.run }),
    ...(options.embedder === undefined ? {} : { embedder: options.embedder }),
  });
  return {
    run: runRow(query, params, period.d, clustering, previous?.runId ?? null),
    texts: memberTexts(period, clustering),
    clusters: clustering.clusters,
  };
}

/**
 * DuckDB's buffer pool emptied of what it cached while the texts were read (the messages' pages, about 100 MB
 * at 1M messages) before the clustering needs the memory: its limit lowered for a moment (evicting them) and
 * put back. A lowering DuckDB refuses (pages it cannot let go) leaves the limit as it was: nothing is lost.
 */
async function dropCachedPages(warehouse: Warehouse): Promise<void> {
  try {
    await warehouse.setMemoryLimit(CACHE_DROP_LIMIT);
  } catch {
    // the cache stays: the run only takes more memory
  }
  await warehouse.setMemoryLimit(UNHANDLED_DUCKDB_MEMORY_LIMIT);
}

/** The period's distinct texts, and per question read: its key and whether it was asked in the period. */
interface PeriodTexts {
  d: DistinctTexts;
  keys: Float64Array;
  asked: Uint8Array;
  /** The asked questions whose key another shares: raw text, key, index of its masked text. */
  shared: { question: string; key: number; text: number }[];
}

/**
 * The period's distinct texts with their counts, streamed chunk by chunk and masked as they come: no
 * materialised result, no object or raw text per question (at 1M messages, about half a million of them).
 */
async function readPeriodTexts(
  warehouse: Warehouse,
  params: Omit<ReturnType<typeof selectionParams>, 'run_id'>,
  keyShift: number,
): Promise<PeriodTexts> {
  const collector = collectDistinctTexts();
  let keys = new Float64Array(1024);
  let asked = new Uint8Array(1024);
  let n = 0;
  const sql = SELECT_QUESTION_COUNTS;
  for await (const chunk of warehouse.streamRows(sql, { ...params, key_shift: keyShift })) {
    const [q, c, p, k] = ['question', 'current', 'previous', 'text_key'].map((x) => chunk.columns.indexOf(x));
    for (const row of chunk.rows) {
      const current = Number(row[c!]);
      collector.add(String(row[q!]), current, Number(row[p!]));
      if (n === keys.length) [keys, asked] = [grow(keys), grow(asked)];
      keys[n] = Number(row[k!]);
      asked[n++] = current > 0 ? 1 : 0;
    }
  }
  const d = collector.finish();
  [keys, asked] = [keys.slice(0, n), asked.slice(0, n)];
  const shared = await readSharedTexts(warehouse, params, keyShift, d, sharedKeys(keys, asked));
  return { d, keys, asked, shared };
}

/** The asked texts of the keys two of them share (read again: their raw texts were not kept). */
async function readSharedTexts(
  warehouse: Warehouse,
  params: Omit<ReturnType<typeof selectionParams>, 'run_id'>,
  keyShift: number,
  d: DistinctTexts,
  keys: readonly number[],
): Promise<PeriodTexts['shared']> {
  if (keys.length === 0) return [];
  const { previous_from: _, ...selection } = params;
  const rows = await warehouse.query(SELECT_TEXTS_OF_KEYS, {
    ...selection,
    key_shift: keyShift,
    keys: keys.map(String),
  });
  return rows.map((r) => {
    const question = String(r['question']);
    return { question, key: Number(r['text_key']), text: indexOfText(d.texts, maskQuestion(question)) };
  });
}

/** The clustered texts of the period as staged: by key, with the raw text where the key is shared. */
function memberTexts(period: PeriodTexts, clustering: TextClustering): MemberText[] {
  const { d, keys, asked, shared } = period;
  const isShared = new Set(shared.map((s) => s.key));
  const rows: MemberText[] = [];
  for (let n = 0; n < keys.length; n++) {
    const cluster = clustering.idOfText[d.textOf[n]!];
    if (asked[n] && cluster !== undefined && !isShared.has(keys[n]!))
      rows.push({ text_key: keys[n]!, question: null, cluster_id: cluster });
  }
  for (const s of shared) {
    const cluster = clustering.idOfText[s.text];
    if (cluster !== undefined) rows.push({ text_key: s.key, question: s.question, cluster_id: cluster });
  }
  return rows;
}

function selectionParams(query: UnhandledQuery) {
  return {
    run_id: unhandledRunId(query),
    project: query.project ?? '',
    channel: query.channel ?? '',
    class: query.catchAllClass,
    previous_from: new Date(query.from - (query.to - query.from)),
    from: new Date(query.from),
    to: new Date(query.to),
  };
}

function runRow(
  query: UnhandledQuery,
  params: ReturnType<typeof selectionParams>,
  d: DistinctTexts,
  clustering: TextClustering,
  previousRunId: string | null,
): RunRow {
  return {
    run_id: params.run_id,
    project: params.project,
    channel_type: params.channel,
    catch_all_class: query.catchAllClass,
    period_from: params.from.getTime(),
    period_to: params.to.getTime(),
    previous_from: params.previous_from.getTime(),
    unrecognised: d.current.reduce((n, c) => n + c, 0),
    previous_unrecognised: d.previous.reduce((n, c) => n + c, 0),
    clustered: clustering.clusters.reduce((n, c) => n + c.current, 0),
    clusters: clustering.clusters.length,
    other_messages: clustering.other.current,
    other_texts: clustering.other.texts,
    vectors: clustering.vectors,
    previous_run_id: previousRunId,
  };
}

/** A stored run with every cluster, biggest first (undefined when no run has that id). */
export async function readUnhandledRun(warehouse: Warehouse, runId: string): Promise<UnhandledRun> {
  const run = (await warehouse.query(SELECT_RUN, { run_id: runId }))[0];
  if (run === undefined) throw new RangeError(`no unhandled run ${runId}`);
  const rows = await warehouse.query(SELECT_CLUSTERS, { run_id: runId });
  return { ...toRunFigures(run), clusters: rows.map(toCluster) };
}

/** A row of SELECT_RUN as the run's figures (clusters apart). */
export function toRunFigures(r: PlainRow): Omit<UnhandledRun, 'clusters'> {
  const unrecognised = Number(r['unrecognised']);
  const clustered = Number(r['clustered']);
  // a run stored before migration 025 has no other_*: what was not clustered is other
  const otherMessages = r['other_messages'] === null ? unrecognised - clustered : Number(r['other_messages']);
  return {
    runId: String(r['run_id']),
    project: r['project'] === '' ? null : String(r['project']),
    channel: r['channel_type'] === '' ? null : String(r['channel_type']),
    catchAllClass: String(r['catch_all_class']),
    from: new Date(Number(r['period_from'])).toISOString(),
    to: new Date(Number(r['period_to'])).toISOString(),
    previousFrom: new Date(Number(r['previous_from'])).toISOString(),
    unrecognised,
    previousUnrecognised: Number(r['previous_unrecognised']),
    clustered,
    other: {
      messages: otherMessages,
      texts: r['other_texts'] === null ? 0 : Number(r['other_texts']),
      share: unrecognised === 0 ? 0 : otherMessages / unrecognised,
    },
    vectors: r['vectors'] === null ? 'signatures' : String(r['vectors']),
    previousRunId: r['previous_run_id'] === null ? null : String(r['previous_run_id']),
  };
}

/** A row of SELECT_CLUSTERS as a cluster. */
export function toCluster(r: PlainRow): UnhandledCluster {
  return {
    id: String(r['cluster_id']),
    rank: Number(r['rank']),
    label: String(r['label']),
    messages: Number(r['messages']),
    previousMessages: Number(r['previous_messages']),
    clients: Number(r['clients']),
    share: Number(r['share']),
    trend: r['trend'] === null ? null : Number(r['trend']),
    agentSessions: Number(r['agent_sessions']),
    channels: (r['channels'] as string[]).map(String),
    examples: (r['examples'] as string[]).map(String),
  };
}
