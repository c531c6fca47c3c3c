// The catalogue of every EtlError code the tool throws: a stable code, the kind(s) it carries and a one-line
// meaning. Invariant: EtlError's `code` is typed as a key of ERROR_CODES, so a code not listed here does not
// compile; docs/errors.md lists the same codes (test/error-codes.test.ts checks both ways).
import type { ErrorKind } from './errors.js';

export interface ErrorCodeEntry {
  /** The kinds an error of this code is thrown with (more than one where the cause decides). */
  readonly kinds: readonly ErrorKind[];
  readonly meaning: string;
}

export const ERROR_CODES = {
  usage: { kinds: ['usage'], meaning: 'A wrong command line: the message names the option to change.' },

  'config.invalid': {
    kinds: ['usage'],
    meaning: 'A setting (environment or REPORTER_CONFIG) has a wrong value.',
  },
  'config.missing': {
    kinds: ['usage'],
    meaning: 'A required setting (REPORTER_TOKEN or REPORTER_CONFIG) is not set.',
  },
  'config.project': {
    kinds: ['usage'],
    meaning: 'REPORTER_PROJECT is needed: the token reads no project or several.',
  },
  'config.data_dir_not_folder': { kinds: ['usage'], meaning: 'REPORTER_DATA_DIR is (or lies under) a file.' },
  'config.data_dir_unsafe': {
    kinds: ['usage'],
    meaning:
      'REPORTER_DATA_DIR, or a folder the tool writes in it, can be written by another user (or a file there is a link out of it).',
  },

  'stats.no_warehouse': { kinds: ['usage'], meaning: 'stats: there is no warehouse yet (run sync first).' },
  'report.no_warehouse': { kinds: ['usage'], meaning: 'report: there is no warehouse yet (run sync first).' },
  'sql.no_warehouse': { kinds: ['usage'], meaning: 'sql: there is no warehouse yet (run sync first).' },
  'rollups.no_warehouse': {
    kinds: ['usage'],
    meaning: 'rollups rebuild: there is no warehouse yet (run sync first).',
  },
  'unhandled.no_warehouse': {
    kinds: ['usage'],
    meaning: 'unhandled: there is no warehouse yet (run sync first).',
  },
  'sql.query_failed': {
    kinds: ['usage'],
    meaning: 'sql: DuckDB refused the query (syntax, a missing table or column, a write, a file or URL).',
  },
  'label-sessions.no_warehouse': {
    kinds: ['usage'],
    meaning: 'label-sessions: there is no warehouse yet (run sync first).',
  },
  'label-messages.no_warehouse': {
    kinds: ['usage'],
    meaning: 'label-messages: there is no warehouse yet (run sync first).',
  },

  'emulator.bad_host': { kinds: ['usage'], meaning: 'emulator --host: this machine has no such address.' },
  'emulator.port_denied': {
    kinds: ['usage'],
    meaning: 'emulator --port: listening on this port is not allowed.',
  },
  'emulator.port_in_use': {
    kinds: ['usage'],
    meaning: 'emulator --port: another process listens on this port.',
  },

  'chatapi.auth': {
    kinds: ['terminal'],
    meaning: 'The Chat API refused a channel token of REPORTER_CHATAPI_CHANNELS (401/403).',
  },
  'chatapi.bad_answer': {
    kinds: ['transient'],
    meaning: 'A Chat API answer does not fit its contract as a whole (its elements are rejected one by one).',
  },
  'chatapi.no_channels': {
    kinds: ['usage'],
    meaning:
      'A Chat API command or job runs with REPORTER_CHATAPI_CHANNELS empty (or without the channel named).',
  },
  'kb.not_configured': {
    kinds: ['usage'],
    meaning: 'kb sync (or the kb-sync job) runs without REPORTER_KB_KEY, the knowledge base project key.',
  },
  'kb.auth': {
    kinds: ['terminal'],
    meaning:
      'The knowledge base service refused REPORTER_KB_KEY or REPORTER_KB_ADMIN_KEY (401/403: wrong, expired or revoked).',
  },
  'kb.not_found': { kinds: ['terminal'], meaning: 'The knowledge base service answered 404.' },
  'kb.bad_request': {
    kinds: ['terminal'],
    meaning: 'The knowledge base service answered another 4xx status that trying again does not fix.',
  },
  'kb.unavailable': {
    kinds: ['transient'],
    meaning:
      'The knowledge base service kept failing (5xx, 429, network) through every retry: try again later.',
  },
  'kb.request_failed': {
    kinds: ['terminal'],
    meaning:
      'A knowledge base request could not be sent at all (the host of REPORTER_KB_BASE_URL does not resolve, ...): check REPORTER_KB_BASE_URL.',
  },
  'kb.unreachable': {
    kinds: ['transient'],
    meaning:
      'The first knowledge base request of a run could not connect (nothing answers, unknown host, https to plain HTTP, TLS): check REPORTER_KB_BASE_URL.',
  },
  'kb.retry_after_too_long': {
    kinds: ['transient'],
    meaning: 'The knowledge base service asks to wait (Retry-After) longer than a request waits.',
  },
  'kb.bad_answer': {
    kinds: ['terminal'],
    meaning:
      'A knowledge base answer does not fit its contract as a whole (its records are quarantined one by one).',
  },
  'kb.bad_questions': {
    kinds: ['usage'],
    meaning:
      'kb eval: the questions file (CSV or JSONL) or --sql result is not a list of questions (the line and column are named).',
  },
  'prompter.bad_answer': {
    kinds: ['terminal'],
    meaning: 'The Prompter API answered a question without a questionId.',
  },
  'prompter.bad_questions': {
    kinds: ['usage'],
    meaning:
      'prompter ask: the questions file (CSV or JSONL) or --sql result does not give a text per question.',
  },
  'webhooks.port_in_use': {
    kinds: ['usage'],
    meaning:
      'webhooks --port (REPORTER_WEBHOOKS_PORT): another process listens on this port (the message names how the port was given).',
  },
  'webhooks.key_required': {
    kinds: ['usage'],
    meaning:
      'webhooks --host (REPORTER_WEBHOOKS_HOST) is not a loopback address and REPORTER_WEBHOOK_KEY is not set (--insecure-no-key allows it).',
  },
  'webhooks.load_out_of_resources': {
    kinds: ['transient'],
    meaning:
      'webhooks: one spooled request did not fit in the warehouse (DuckDB out of memory, a full disk, an I/O error); nothing was rejected and the spool keeps it (REPORTER_DUCKDB_MEMORY_LIMIT, REPORTER_WEBHOOKS_LOAD_MAX_BYTES).',
  },
  'webhooks.listen_failed': {
    kinds: ['usage'],
    meaning: 'webhooks: the receiver cannot listen on --host / --port (no such address, a port not allowed).',
  },
  'clickhouse.unavailable': {
    kinds: ['transient'],
    meaning: 'ClickHouse at REPORTER_CLICKHOUSE_URL did not answer.',
  },
  'clickhouse.auth': {
    kinds: ['terminal'],
    meaning: 'ClickHouse refused REPORTER_CLICKHOUSE_USER / _PASSWORD.',
  },
  'clickhouse.failed': {
    kinds: ['terminal', 'transient'],
    meaning: "A ClickHouse statement failed (ClickHouse's reason is in the message).",
  },
  'clickhouse.not_configured': {
    kinds: ['usage'],
    meaning: 'export clickhouse: REPORTER_CLICKHOUSE_URL is not set.',
  },
  'export.no_warehouse': { kinds: ['usage'], meaning: 'export: there is no warehouse yet (run sync first).' },
  'lake.dir_unusable': {
    kinds: ['usage'],
    meaning:
      "export parquet: the lake's folder (--out or REPORTER_LAKE_DIR) cannot be made or is not a folder.",
  },
  'lake.write_failed': {
    kinds: ['terminal'],
    meaning: 'export parquet: a partition file of the lake could not be written (the message names it).',
  },
  'lake.manifest_invalid': {
    kinds: ['terminal'],
    meaning:
      "export parquet: a manifest of the lake names a path that is not one of its project's partitions, or is not a file: nothing removed.",
  },
  'lake.path_outside': {
    kinds: ['terminal'],
    meaning:
      'export parquet: a link inside the lake leads a partition or manifest out of it: nothing written there.',
  },
  'lake.project_unknown': {
    kinds: ['usage'],
    meaning: 'export parquet --project: the warehouse holds no data of that project.',
  },
  'lake.project_unsafe': {
    kinds: ['usage'],
    meaning: 'export parquet --project: not a plain name (a slash, `..`, a control character).',
  },
  'pushgate.not_found': {
    kinds: ['terminal'],
    meaning: 'Pushgate answered 404: the pushback does not exist or was deleted.',
  },
  'pushgate.refused': {
    kinds: ['terminal'],
    meaning: 'Pushgate refused a push with another 4xx status (the body, its content type).',
  },
  'pushgate.bad_selection': {
    kinds: ['usage'],
    meaning: 'pushgate send --sql: the query has no pushback_id column, or a row has no pushback id.',
  },
  'pushgate.no_warehouse': {
    kinds: ['usage'],
    meaning: 'pushgate send: there is no warehouse yet (run sync first).',
  },
  'reporter.auth': { kinds: ['terminal'], meaning: 'The platform refused REPORTER_TOKEN (401/403).' },
  'reporter.not_found': { kinds: ['terminal'], meaning: 'The Reporter API answered 404.' },
  'reporter.bad_request': {
    kinds: ['terminal'],
    meaning: 'The Reporter API answered another 4xx status that trying again does not fix.',
  },
  'reporter.invalid_answer': {
    kinds: ['terminal'],
    meaning: 'The Reporter API answered something that does not have the expected shape.',
  },
  'reporter.request_failed': {
    kinds: ['terminal'],
    meaning: 'A request could not be sent for a reason other than a network fault.',
  },
  'reporter.retry_after_too_long': {
    kinds: ['transient'],
    meaning: 'The server asks to wait (Retry-After) longer than a request waits: try again later.',
  },
  'http.stopped': {
    kinds: ['transient'],
    meaning:
      'A request was cancelled because the command was asked to stop (Ctrl-C, SIGTERM): never retried, the run says it was interrupted.',
  },
  'reporter.unavailable': {
    kinds: ['transient'],
    meaning: 'The Reporter API kept failing (5xx, 429, network) through every retry: try again later.',
  },
  'reporter.unreachable': {
    kinds: ['transient'],
    meaning:
      'The first request of a run could not connect (nothing answers, unknown host, https to plain HTTP, TLS), twice: the message names the setting of the address to check.',
  },
  'reporter.unsupported': {
    kinds: ['terminal'],
    meaning: 'The operation exists only in the other API generation (asynchronous operations: v1).',
  },

  'sync.already_running': {
    kinds: ['transient'],
    meaning:
      'Another sync of the same project holds a fresh lease in etl_runs: try again when it has finished.',
  },
  'sync.empty_range': { kinds: ['usage'], meaning: 'sync --from/--to give an empty period.' },
  'sync.interrupted': {
    kinds: ['transient'],
    meaning:
      'A signal stopped the sync: the requests in flight were cancelled and the window being read was not committed; the next run resumes from the last committed window.',
  },
  'sync.too_many_rejects': {
    kinds: ['terminal'],
    meaning: 'Too many records of a window failed validation; nothing of the window was committed.',
  },
  'sync.window_out_of_memory': {
    kinds: ['terminal'],
    meaning: 'A one-minute window still does not fit in the DuckDB memory limit.',
  },
  'sync.window_unstable': {
    kinds: ['transient'],
    meaning: 'The records of a window kept changing while they were paged: try again later.',
  },

  'source.incomplete': {
    kinds: ['transient'],
    meaning:
      "A source's read of a period did not add up (its total changed while it was paged): nothing of that period was stored; try again later.",
  },

  'warehouse.invalid_batch': {
    kinds: ['terminal'],
    meaning:
      'A source handed the batch commit a table or column it cannot write (a name that is not one, no key to replace by): a bug in that source.',
  },
  'warehouse.bad_message': {
    kinds: ['terminal'],
    meaning:
      'A message on the read socket is not one the writer serves (unknown type or operation, a malformed field).',
  },
  'warehouse.closed': { kinds: ['terminal'], meaning: 'An operation on a warehouse handle that was closed.' },
  'warehouse.commit_failed': { kinds: ['terminal'], meaning: 'A commit failed and was rolled back.' },
  'warehouse.no_space': {
    kinds: ['transient'],
    meaning:
      'The disk (or quota) of the warehouse is full: the write was rolled back; make room and run again (exit 75).',
  },
  'warehouse.commit_out_of_memory': {
    kinds: ['terminal'],
    meaning: "A window's commit did not fit in the DuckDB memory limit and was rolled back (sync halves it).",
  },
  'warehouse.corrupt': {
    kinds: ['terminal'],
    meaning: 'The warehouse file is damaged or not a DuckDB database.',
  },
  'warehouse.dir_not_folder': {
    kinds: ['usage'],
    meaning: 'The folder of the warehouse file is a file, or cannot be made where REPORTER_DATA_DIR says.',
  },
  'warehouse.invalid_row': { kinds: ['terminal'], meaning: 'A row does not fit its warehouse table.' },
  'warehouse.locked': {
    kinds: ['transient'],
    meaning: 'Another process holds the warehouse file: try again later.',
  },
  'warehouse.migration_failed': {
    kinds: ['terminal'],
    meaning: 'A schema migration failed and was rolled back.',
  },
  'warehouse.migrations_invalid': {
    kinds: ['terminal'],
    meaning: 'Two schema migrations have the same version.',
  },
  'warehouse.migrations_missing': {
    kinds: ['terminal'],
    meaning: 'The schema migration files were not found.',
  },
  'warehouse.missing': { kinds: ['usage'], meaning: 'There is no warehouse yet (run sync first).' },
  'warehouse.needs_upgrade': {
    kinds: ['usage'],
    meaning: 'A read-only warehouse lacks schema migrations (run a writing command once).',
  },
  'warehouse.open_failed': {
    kinds: ['terminal'],
    meaning: 'The warehouse file or its folder could not be opened.',
  },
  'warehouse.query_failed': { kinds: ['terminal'], meaning: 'A warehouse query failed.' },
  'warehouse.read_only': {
    kinds: ['usage'],
    meaning: 'The warehouse cannot be written (read-only file or folder).',
  },
  'warehouse.read_refused': {
    kinds: ['terminal'],
    meaning:
      'A read sent to the writer is not one SELECT of the warehouse (a write, SET, COPY, a file, a URL).',
  },
  'warehouse.schema_newer': {
    kinds: ['usage'],
    meaning:
      'The warehouse has schema migrations this version does not know (it was written by a newer one).',
  },
  'warehouse.state_invalid': {
    kinds: ['terminal'],
    meaning: 'A value in etl_state is not what it should be.',
  },

  'stats.param_missing': {
    kinds: ['terminal'],
    meaning: 'A statistics query needs a parameter it was not given.',
  },
  'stats.sql_missing': {
    kinds: ['terminal'],
    meaning: 'The statistics SQL files were not found or not read.',
  },

  'report.aborted': { kinds: ['terminal'], meaning: 'The report was stopped before it was complete.' },
  'report.column_missing': {
    kinds: ['terminal'],
    meaning: "The report's SQL does not return a column it needs.",
  },
  'report.exceljs_changed': {
    kinds: ['terminal'],
    meaning:
      "exceljs internals the streaming writer relies on changed: a file of exceljs's `lib/` it renders the workbook's parts with is missing (exceljs is pinned: see package.json).",
  },
  'report.no_space': { kinds: ['terminal'], meaning: 'No space left on the device for the report file.' },
  'report.out_dir': {
    kinds: ['usage'],
    meaning:
      'The report folder (--out, or the default under REPORTER_DATA_DIR) cannot be created; the message says why (read-only, not writable, a file in the way) and to use --out DIR.',
  },
  'report.sql_missing': { kinds: ['terminal'], meaning: 'The SQL file of the report was not found.' },
  'report.workbook_order': {
    kinds: ['terminal'],
    meaning:
      'The streamed workbook was written out of order (a part begun while another was being written or after the end, a part other than a sheet): a bug in the writer.',
  },
  'report.write_failed': { kinds: ['terminal'], meaning: 'The report file could not be written.' },

  'schedule.unknown_job': {
    kinds: ['terminal'],
    meaning: 'A scheduled tick names a job that is not enabled.',
  },
  'sources.duplicate_table': {
    kinds: ['terminal'],
    meaning:
      'Two units (or a unit and the core) register a warehouse table of the same name (src/sources/tables.ts).',
  },
  'job.interrupted': {
    kinds: ['transient'],
    meaning: 'A signal stopped the job; it runs again at its next time.',
  },

  'manage.ambiguous_label': {
    kinds: ['usage'],
    meaning: 'A message label name is in several groups: add --group.',
  },
  'manage.bad_query': {
    kinds: ['usage'],
    meaning: '--sql does not parse, fails, or returns the wrong columns.',
  },
  'manage.query_out_of_memory': {
    kinds: ['usage'],
    meaning:
      "An analyst's query (sql, --sql) needed more than REPORTER_DUCKDB_MEMORY_LIMIT: ask for less, or raise it.",
  },
  'manage.query_timeout': {
    kinds: ['usage'],
    meaning:
      "An analyst's query (sql, --sql) ran longer than REPORTER_SQL_TIMEOUT_SECONDS (or --timeout / --sql-timeout) and was stopped.",
  },
  'manage.query_yielded_to_writer': {
    kinds: ['transient'],
    meaning:
      "An analyst's query (sql, --sql) was stopped to let a waiting writer (a sync) have the warehouse file: run it again.",
  },
  'manage.label_write_failed': {
    kinds: ['terminal', 'transient'],
    meaning: 'The platform refused a batch of label writes (transient when the platform was unavailable).',
  },
  'manage.label_write_missing': {
    kinds: ['terminal'],
    meaning: "A batch's 'sending' row is missing from label_writes.",
  },
  'manage.label_write_unrecorded': {
    kinds: ['terminal', 'transient', 'usage', 'skippable'],
    meaning: 'A batch could not be recorded in label_writes, so it was not sent (the kind of the cause).',
  },
  'manage.label_write_unsettled': {
    kinds: ['terminal', 'transient', 'usage', 'skippable'],
    meaning: 'A batch was written to the platform but could not be marked as sent (the kind of the cause).',
  },
  'manage.unknown_client': { kinds: ['usage'], meaning: '--client: no client with this id in the project.' },
  'manage.unknown_experiment': { kinds: ['usage'], meaning: '--key: no experiment with this key.' },
  'manage.unknown_group': { kinds: ['usage'], meaning: 'No message label group has this name.' },
  'manage.unknown_label': { kinds: ['usage'], meaning: 'No label has this name.' },
  'manage.wrong_bot': {
    kinds: ['usage'],
    meaning: '--client belongs to another bot than --bot: nothing was changed.',
  },

  'platform_report.ambiguous_create': {
    kinds: ['terminal'],
    meaning: 'It is unknown whether the platform created the report task (it is not created again).',
  },
  'platform_report.bad_answer': {
    kinds: ['terminal'],
    meaning: 'The platform answered a report task without what it needs (no or a relative file URL).',
  },
  'platform_report.bad_file': {
    kinds: ['terminal'],
    meaning: 'The downloaded report file does not read, or its rows do not match what the platform says.',
  },
  'platform_report.create_failed': {
    kinds: ['transient'],
    meaning: 'The report task could not be created: try again later.',
  },
  'platform_report.download_failed': {
    kinds: ['terminal', 'transient'],
    meaning: 'The report file could not be downloaded (transient after retries of 429/5xx/network faults).',
  },
  'platform_report.foreign_url': {
    kinds: ['terminal'],
    meaning: 'The file URL is on another host than REPORTER_BASE_URL (the token is not sent there).',
  },
  'platform_report.unknown_request': {
    kinds: ['terminal'],
    meaning: 'The platform no longer knows the report request and no task id was recorded.',
  },
  'platform_report.unknown_task': {
    kinds: ['terminal'],
    meaning: 'The report task is unknown or no longer exists on the platform.',
  },
  'platform_report.url_expired': {
    kinds: ['terminal'],
    meaning: 'The file link has expired (410); the task is asked for a new one.',
  },
} as const satisfies Record<string, ErrorCodeEntry>;

export type ErrorCode = keyof typeof ERROR_CODES;
