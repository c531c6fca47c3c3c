// One run of the unhandled questions: the catch-all messages of a period and of the previous period of the
// same length read as distinct texts with counts, clustered in memory (clusterQuestions), then written in ONE
// commitBatch: the run, each clustered message's membership and each cluster's figures (computed in SQL from
// the membership), replacing the earlier run of the same period and selection. Raw texts are only staged
// (TEMP, gone with the transaction): the tables hold masked phrasings.
import { createHash } from 'node:crypto';
import { defineBatchTable } from '../../warehouse/commit-batch.js';
import { defineStagedTable } from '../../warehouse/stage-rows.js';
import type { PlainRow, Warehouse } from '../../warehouse/warehouse.js';
import { type Clustering, clusterQuestions, type QuestionCount } from './cluster-questions.js';
import { UNHANDLED_CLUSTERS_TABLE, UNHANDLED_MEMBERS_TABLE, UNHANDLED_RUNS_TABLE } from './tables.js';
import { INSERT_CLUSTERS, INSERT_MEMBERS, SELECT_CLUSTERS, SELECT_QUESTION_COUNTS } from './unhandled-sql.js';

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
  /** Clusters with fewer messages are left out (default: 1 in 10,000 of the period's messages, at least 3). */
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
  clusters: UnhandledCluster[];
}

interface RunRow {
  run_id: string;
  project: string;
  channel_type: string;
  catch_all_class: string;
  /** Epoch ms. */
  period_from: number;
  period_to: number;
  previous_from: number;
  unrecognised: number;
  previous_unrecognised: number;
  clustered: number;
  clusters: number;
}
interface TextRow {
  question: string;
  cluster_id: string;
}
interface ClusterRow {
  cluster_id: string;
  rank: number;
  label: string;
  previous_messages: number;
  examples: string[];
  terms: string[];
}

const RUN_STAGE = defineStagedTable<RunRow>('stage_unhandled_runs', [
  ['run_id', 'varchar'],
  ['project', 'varchar'],
  ['channel_type', 'varchar'],
  ['catch_all_class', 'varchar'],
  ['period_from', 'timestamptz'],
  ['period_to', 'timestamptz'],
  ['previous_from', 'timestamptz'],
  ['unrecognised', 'bigint'],
  ['previous_unrecognised', 'bigint'],
  ['clustered', 'bigint'],
  ['clusters', 'integer'],
]);
const TEXT_STAGE = defineStagedTable<TextRow>('stage_unhandled_texts', [
  ['question', 'varchar'],
  ['cluster_id', 'varchar'],
]);
const CLUSTER_STAGE = defineStagedTable<ClusterRow>('stage_unhandled_clusters', [
  ['cluster_id', 'varchar'],
  ['rank', 'integer'],
  ['label', 'varchar'],
  ['previous_messages', 'bigint'],
  ['examples', 'varchar[]'],
  ['terms', 'varchar[]'],
]);

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
): Promise<UnhandledRun> {
  const params = selectionParams(query);
  const { run_id: _, ...countParams } = params;
  const counts = await warehouse.query(SELECT_QUESTION_COUNTS, countParams);
  const questions: QuestionCount[] = counts.map((r) => ({
    question: String(r['question']),
    current: Number(r['current']),
    previous: Number(r['previous']),
  }));
  const clustering = clusterQuestions(
    questions,
    query.minMessages === undefined ? {} : { minMessages: query.minMessages },
  );
  const run = runRow(query, params, questions, clustering);
  await warehouse.commitBatch({
    tables: [
      defineBatchTable({
        spec: UNHANDLED_RUNS_TABLE,
        stage: RUN_STAGE,
        rows: [run],
        constants: { computed_at: now },
      }),
      defineBatchTable({
        spec: UNHANDLED_MEMBERS_TABLE,
        stage: TEXT_STAGE,
        rows: textRows(questions, clustering),
        replaceScope: { run_id: run.run_id },
        insert: INSERT_MEMBERS,
        constants: membersParams(params),
      }),
      defineBatchTable({
        spec: UNHANDLED_CLUSTERS_TABLE,
        stage: CLUSTER_STAGE,
        rows: clusterRows(clustering),
        replaceScope: { run_id: run.run_id },
        insert: INSERT_CLUSTERS,
        constants: { run_id: run.run_id, unrecognised: run.unrecognised },
      }),
    ],
    at: now,
  });
  return readRun(warehouse, run);
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

/** The parameters INSERT_MEMBERS binds (every one it names, no other). */
function membersParams(params: ReturnType<typeof selectionParams>) {
  const { previous_from: _, ...rest } = params;
  return rest;
}

function runRow(
  query: UnhandledQuery,
  params: ReturnType<typeof selectionParams>,
  questions: readonly QuestionCount[],
  clustering: Clustering,
): RunRow {
  return {
    run_id: params.run_id,
    project: params.project,
    channel_type: params.channel,
    catch_all_class: query.catchAllClass,
    period_from: params.from.getTime(),
    period_to: params.to.getTime(),
    previous_from: params.previous_from.getTime(),
    unrecognised: questions.reduce((n, q) => n + q.current, 0),
    previous_unrecognised: questions.reduce((n, q) => n + q.previous, 0),
    clustered: clustering.clusters.reduce((n, c) => n + c.current, 0),
    clusters: clustering.clusters.length,
  };
}

function textRows(questions: readonly QuestionCount[], clustering: Clustering): TextRow[] {
  const rows: TextRow[] = [];
  for (const [n, q] of questions.entries()) {
    const cluster = clustering.clusterOf[n];
    if (cluster !== undefined && q.current > 0) rows.push({ question: q.question, cluster_id: cluster });
  }
  return rows;
}

function clusterRows(clustering: Clustering): ClusterRow[] {
  return clustering.clusters.map((c, n) => ({
    cluster_id: c.id,
    rank: n + 1,
    label: c.label,
    previous_messages: c.previous,
    examples: c.examples,
    terms: c.terms,
  }));
}

async function readRun(warehouse: Warehouse, run: RunRow): Promise<UnhandledRun> {
  const rows = await warehouse.query(SELECT_CLUSTERS, { run_id: run.run_id });
  return {
    runId: run.run_id,
    project: run.project === '' ? null : run.project,
    channel: run.channel_type === '' ? null : run.channel_type,
    catchAllClass: run.catch_all_class,
    from: new Date(run.period_from).toISOString(),
    to: new Date(run.period_to).toISOString(),
    previousFrom: new Date(run.previous_from).toISOString(),
    unrecognised: run.unrecognised,
    previousUnrecognised: run.previous_unrecognised,
    clustered: run.clustered,
    clusters: rows.map(toCluster),
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
