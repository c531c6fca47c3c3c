// A run of the unhandled questions written in ONE commitBatch (docs/unhandled.md): the run's row (its counts,
// "other", where its vectors came from, the run its ids carried over from), each clustered message's
// membership (the clustered texts staged by key: text-keys.ts) and each cluster's figures (computed in SQL from
// the membership), replacing the earlier run of the same period and selection. Raw texts are only staged
// (TEMP, gone with the transaction), and only those whose key another text shares.
import { defineBatchTable } from '../../warehouse/commit-batch.js';
import { defineStagedTable } from '../../warehouse/stage-rows.js';
import type { Warehouse } from '../../warehouse/warehouse.js';
import type { QuestionCluster } from './name-topics.js';
import { UNHANDLED_CLUSTERS_TABLE, UNHANDLED_MEMBERS_TABLE, UNHANDLED_RUNS_TABLE } from './tables.js';
import { INSERT_CLUSTERS, INSERT_MEMBERS } from './unhandled-sql.js';

/** The run's row as staged. */
export interface RunRow {
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
  other_messages: number;
  other_texts: number;
  vectors: string;
  previous_run_id: string | null;
}
/** A clustered text of the period: its key, its raw text where the key is shared (else null), its cluster. */
export interface MemberText {
  text_key: number;
  question: string | null;
  cluster_id: string;
}
interface ClusterRow {
  cluster_id: string;
  rank: number;
  label: string;
  previous_messages: number;
  examples: string[];
  terms: string[];
  profile: string;
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
  ['other_messages', 'bigint'],
  ['other_texts', 'bigint'],
  ['vectors', 'varchar'],
  ['previous_run_id', 'varchar'],
]);
const TEXT_STAGE = defineStagedTable<MemberText>('stage_unhandled_texts', [
  ['text_key', 'bigint'],
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
  ['profile', 'varchar'],
]);

/** The selection's bound values INSERT_MEMBERS reads (every one it names, no other). */
export interface MemberParams {
  run_id: string;
  project: string;
  channel: string;
  class: string;
  from: Date;
  to: Date;
  /** The bits of a text's hash its key drops (text-keys.ts), as when the keys were read. */
  key_shift: number;
}

/** Writes the run, its membership and its clusters in one transaction. */
export async function storeUnhandledRun(
  warehouse: Warehouse,
  run: RunRow,
  members: MemberParams,
  texts: readonly MemberText[],
  clusters: readonly QuestionCluster[],
  now: Date,
): Promise<void> {
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
        rows: texts,
        replaceScope: { run_id: run.run_id },
        insert: INSERT_MEMBERS,
        constants: { ...members },
      }),
      defineBatchTable({
        spec: UNHANDLED_CLUSTERS_TABLE,
        stage: CLUSTER_STAGE,
        rows: clusterRows(clusters),
        replaceScope: { run_id: run.run_id },
        insert: INSERT_CLUSTERS,
        constants: { ...members, unrecognised: run.unrecognised },
      }),
    ],
    at: now,
  });
}

function clusterRows(clusters: readonly QuestionCluster[]): ClusterRow[] {
  return clusters.map((c, n) => ({
    cluster_id: c.id,
    rank: n + 1,
    label: c.label,
    previous_messages: c.previous,
    examples: c.examples,
    terms: c.terms,
    profile: JSON.stringify(c.profile.map(([t, w, m]) => [t, round(w), m])),
  }));
}

/** A profile weight kept to 6 significant digits: the cosine of two profiles needs no more. */
function round(x: number): number {
  return Number(x.toPrecision(6));
}
