// The tables of the unhandled questions (migrations 020 and 021, docs/unhandled.md): runs, clusters,
// membership, and the coverage of the top clusters by the knowledge base and the Prompter.
// Derived from the warehouse, not read from the platform; local (not exported), like the kb eval runs.
import type { TableSpec } from '../../warehouse/table-spec.js';

export const UNHANDLED_RUNS_TABLE: TableSpec = {
  name: 'unhandled_runs',
  key: ['run_id'],
  write: 'replace-by-key',
  exported: false,
};
export const UNHANDLED_CLUSTERS_TABLE: TableSpec = {
  name: 'unhandled_clusters',
  key: ['run_id', 'cluster_id'],
  write: 'replace-by-key',
  exported: false,
};
export const UNHANDLED_MEMBERS_TABLE: TableSpec = {
  name: 'unhandled_members',
  key: ['run_id', 'project', 'question_id'],
  write: 'replace-by-key',
  exported: false,
};

export const UNHANDLED_COVERAGE_TABLE: TableSpec = {
  name: 'unhandled_coverage',
  key: ['run_id', 'cluster_id'],
  write: 'replace-by-key',
  exported: false,
};

export const UNHANDLED_TABLES: readonly TableSpec[] = [
  UNHANDLED_RUNS_TABLE,
  UNHANDLED_CLUSTERS_TABLE,
  UNHANDLED_MEMBERS_TABLE,
  UNHANDLED_COVERAGE_TABLE,
];
