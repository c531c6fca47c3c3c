// Replaces a project's label catalogues and experiments in one transaction: staged with the appender,
// the project's old rows deleted, the new ones inserted (one per key, the last staged wins).
// Every row must belong to the batch's project, or a catalogue could be half replaced.
import type { DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors.js';
import { runStatement } from './query-rows.js';
import type { CatalogueBatch } from './rows.js';
import { runInTransaction } from './run-in-transaction.js';
import { stageRows } from './stage-rows.js';
import { STAGING_TABLES } from './staging-tables.js';
import { WAREHOUSE_SQL as SQL } from './warehouse-sql.js';

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
  await runInTransaction(
    connection,
    async () => {
      await stageRows(connection, STAGING_TABLES.sessionLabelCatalogue, batch.sessionLabels);
      await stageRows(connection, STAGING_TABLES.messageLabelCatalogue, batch.messageLabels);
      await stageRows(connection, STAGING_TABLES.experiments, batch.experiments);
      await runStatement(connection, SQL.deleteSessionLabelCatalogue, project);
      await runStatement(connection, SQL.insertSessionLabelCatalogue);
      await runStatement(connection, SQL.deleteMessageLabelCatalogue, project);
      await runStatement(connection, SQL.insertMessageLabelCatalogue);
      await runStatement(connection, SQL.deleteExperiments, project);
      await runStatement(connection, SQL.insertExperiments, { synced_at: new Date(now) });
    },
    (cause) =>
      new EtlError(
        'warehouse.commit_failed',
        `Could not replace the catalogues of project ${batch.project} (run ${batch.runId}); ` +
          `the previous ones are kept: ${(cause as Error).message}`,
        { cause },
      ),
  );
}
