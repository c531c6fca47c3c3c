// Replaces a project's label catalogues and experiments in one transaction, a use of commitBatch: staged with
// the appender, the project's old rows deleted, the new ones inserted (one per key, the last staged wins).
// Every row must belong to the batch's project, or a catalogue could be half replaced.
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import { commitBatch, defineBatchTable } from './commit-batch.js';
import { isOutOfSpace, outOfSpaceError } from './out-of-space.js';
import type { CatalogueBatch } from './rows.js';
import { STAGING_TABLES } from './staging-tables.js';
import { EXPERIMENTS_TABLE, MESSAGE_LABEL_CATALOGUE_TABLE, SESSION_LABEL_CATALOGUE_TABLE } from './tables.js';

export async function commitCatalogues(
  connection: DuckDBConnection,
  batch: CatalogueBatch,
  now: number,
): Promise<void> {
  const stranger = [...batch.sessionLabels, ...batch.messageLabels, ...batch.experiments].find(
    (row) => row.project !== batch.project,
  );
  if (stranger) {
    throw new EtlError(
      'warehouse.invalid_row',
      `A catalogue row of project ${stranger.project} was given in the catalogue batch of project ${batch.project}`,
    );
  }
  const project = { project: batch.project };
  const catalogue = { replaceScope: project };
  await commitBatch(
    connection,
    {
      tables: [
        defineBatchTable({
          spec: SESSION_LABEL_CATALOGUE_TABLE,
          stage: STAGING_TABLES.sessionLabelCatalogue,
          rows: batch.sessionLabels,
          ...catalogue,
        }),
        defineBatchTable({
          spec: MESSAGE_LABEL_CATALOGUE_TABLE,
          stage: STAGING_TABLES.messageLabelCatalogue,
          rows: batch.messageLabels,
          ...catalogue,
        }),
        defineBatchTable({
          spec: EXPERIMENTS_TABLE,
          stage: STAGING_TABLES.experiments,
          rows: batch.experiments,
          constants: { synced_at: new Date(now) },
          ...catalogue,
        }),
      ],
      at: new Date(now),
    },
    (cause) =>
      isOutOfSpace(cause)
        ? outOfSpaceError(`Could not replace the catalogues of project ${batch.project}`, cause)
        : new EtlError(
            'warehouse.commit_failed',
            `Could not replace the catalogues of project ${batch.project} (run ${batch.runId}); ` +
              `the previous ones are kept: ${(cause as Error).message}`,
            { cause },
          ),
  );
}
