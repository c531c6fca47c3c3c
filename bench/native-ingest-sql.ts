// The SQL of the native-floor prototype (children/native-ingest.ts): a page of sessions/filter,
// messages/filter or clients/filter handed to DuckDB as its bytes, parsed by DuckDB (from_json with the
// structure of the fields the sync keeps) and mapped in SQL to the rows the sync writes (src/sources/reporter/map-records.ts),
// the records that fail the checks counted, not inserted (an exact design would quarantine them).
// The page is parsed once into a TEMP table of records (`page_<kind>`, one STRUCT a row) and every table of
// the page is INSERTed from it (or, `reparse`, each INSERT parses the bytes again); the per-page failures are what the INSERT of the main table left out.
// Pure: strings only (test/bench/native-ingest-sql.test.ts).

export type PageKind = 'sessions' | 'messages' | 'clients';

/** schemas.ts DATE_TIME_PATTERN, for RE2: an ISO date-time with a zone. */
export const DATE_TIME_RE =
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}:?\\d{2})$';

const V = 'VARCHAR';
const CLIENT = { id: V, firstName: V, lastName: V, username: V };

/** The JSON structure of each kind's records: the fields the sync keeps, with the types it stores. */
export const RECORD_STRUCTURES: Record<PageKind, Record<string, unknown>> = {
  sessions: {
    sessionId: V,
    projectShortName: V,
    channelType: V,
    botId: V,
    client: CLIENT,
    startTime: V,
    isLivechat: 'BOOLEAN',
    firstQuestion: V,
    lastQuestion: V,
    questionCount: 'BIGINT',
    duration: 'DOUBLE',
    callTaskId: 'BIGINT',
    isCallIncoming: 'BOOLEAN',
    sessionResult: V,
    sessionData: 'MAP(VARCHAR, VARCHAR)',
    labels: [{ id: 'BIGINT', name: V }],
  },
  messages: {
    sessionId: V,
    projectShortName: V,
    channelType: V,
    botId: V,
    client: { id: V },
    sessionStartTime: V,
    timestamp: V,
    questionId: V,
    isLivechat: 'BOOLEAN',
    question: V,
    textAnswer: V,
    event: V,
    operatorInfo: { id: V },
    nlpInfo: { nlpClass: V, nlpState: V, confidence: 'DOUBLE' },
    responseData: { replies: [{ type: V }] },
    exception: V,
    processingTime: 'BIGINT',
    labels: [{ id: 'BIGINT', name: V, group: { name: V } }],
    comment: V,
  },
  clients: {
    id: V,
    firstName: V,
    lastName: V,
    username: V,
    projectShortName: V,
    channelType: V,
    botId: V,
    lastSessionId: V,
    joinDate: V,
    lastVisitDate: V,
    isBlocked: 'BOOLEAN',
    blockReason: V,
    blockedBy: 'BIGINT',
    blockDate: V,
  },
};

/** A SQL string literal. */
const literal = (text: string): string => `'${text.replaceAll("'", "''")}'`;

/** normaliseChannel: lower case, no underscores. */
const channel = (expr: string): string => `lower(replace(${expr}, '_', ''))`;
/** A non-empty text (schemas.ts nonEmptyText / id). */
const nonEmpty = (expr: string): string => `coalesce(length(${expr}) > 0, false)`;
/** A date-time as the sync's dateTime accepts it (the pattern, then a valid instant). */
const validTime = (expr: string): string =>
  `coalesce(regexp_full_match(${expr}, ${literal(DATE_TIME_RE)}) AND TRY_CAST(${expr} AS TIMESTAMPTZ) IS NOT NULL, false)`;
/** A nullish date-time: absent, or valid. */
const nullishTime = (expr: string): string => `(${expr} IS NULL OR ${validTime(expr)})`;
const time = (expr: string): string => `CAST(${expr} AS TIMESTAMPTZ)`;
/** A label list whose every label has its id and name (labels: z.array of {id: int, name: string}). */
const labelsOk = (expr: string): string =>
  `coalesce(list_bool_and(list_transform(${expr}, l -> l.id IS NOT NULL AND l.name IS NOT NULL)), true)`;

/** Per kind: what a record must satisfy to be stored (the rest would be quarantined). */
export const RECORD_CHECKS: Record<PageKind, string> = {
  sessions: [
    nonEmpty('r.sessionId'),
    'r.projectShortName IS NOT NULL',
    nonEmpty('r.channelType'),
    'r.botId IS NOT NULL',
    nonEmpty('r.client.id'),
    validTime('r.startTime'),
    'coalesce(r.questionCount >= 0, true)',
    'coalesce(r.duration >= 0, true)',
    labelsOk('r.labels'),
  ].join(' AND '),
  messages: [
    nonEmpty('r.questionId'),
    nonEmpty('r.sessionId'),
    'r.projectShortName IS NOT NULL',
    nonEmpty('r.channelType'),
    'r.botId IS NOT NULL',
    nonEmpty('r.client.id'),
    validTime('r."timestamp"'),
    validTime('r.sessionStartTime'),
    '(r.operatorInfo IS NULL OR ' + nonEmpty('r.operatorInfo.id') + ')',
    'coalesce(r.processingTime BETWEEN -2147483648 AND 2147483647, true)',
    labelsOk('r.labels'),
  ].join(' AND '),
  clients: [
    nonEmpty('r.id'),
    nullishTime('r.joinDate'),
    nullishTime('r.lastVisitDate'),
    nullishTime('r.blockDate'),
  ].join(' AND '),
};

/** A table's INSERT from the page's records: its columns and, per column, the SQL over the record `r`. */
interface TableInsert {
  table: string;
  columns: [string, string][];
  /** Rows per record (a record's labels, its sessionData): the list unnested as `l`. */
  unnest?: string;
  /** RETURNING (the messages' keys the statuses need). */
  returning?: string;
}

/** The row inserts of each kind's page, the main table first. $project and $synced_at are bound. */
export const PAGE_INSERTS: Record<PageKind, TableInsert[]> = {
  sessions: [
    {
      table: 'sessions',
      columns: [
        ['project', '$project'],
        ['session_id', 'r.sessionId'],
        ['bot_id', 'r.botId'],
        ['channel_type', channel('r.channelType')],
        ['client_id', 'r.client.id'],
        ['client_first_name', 'r.client.firstName'],
        ['client_last_name', 'r.client.lastName'],
        ['client_username', 'r.client.username'],
        ['start_time', time('r.startTime')],
        ['duration_ms', 'CAST(r.duration AS BIGINT)'],
        ['question_count', 'CAST(r.questionCount AS INTEGER)'],
        ['first_question', 'r.firstQuestion'],
        ['last_question', 'r.lastQuestion'],
        ['is_livechat', 'coalesce(r.isLivechat, false)'],
        ['session_result', 'r.sessionResult'],
        ['call_task_id', 'r.callTaskId'],
        ['is_call_incoming', 'r.isCallIncoming'],
        ['synced_at', 'CAST($synced_at AS TIMESTAMPTZ)'],
      ],
    },
    {
      table: 'session_labels',
      unnest: 'r.labels',
      columns: [
        ['project', '$project'],
        ['session_id', 'r.sessionId'],
        ['label_id', 'l.id'],
        ['label_name', 'l.name'],
      ],
    },
    {
      table: 'session_data',
      unnest: 'map_entries(r.sessionData)',
      columns: [
        ['project', '$project'],
        ['session_id', 'r.sessionId'],
        ['key', 'l.key'],
        ['value', 'l.value'],
      ],
    },
  ],
  messages: [
    {
      table: 'messages',
      returning: 'question_id, session_id, channel_type',
      columns: [
        ['project', '$project'],
        ['question_id', 'r.questionId'],
        ['session_id', 'r.sessionId'],
        ['"timestamp"', time('r."timestamp"')],
        ['question', 'r.question'],
        ['text_answer', 'r.textAnswer'],
        ['event', 'r.event'],
        ['nlp_class', 'r.nlpInfo.nlpClass'],
        ['nlp_state', 'r.nlpInfo.nlpState'],
        ['confidence', 'r.nlpInfo.confidence'],
        ['status', 'NULL'],
        ['is_livechat', 'coalesce(r.isLivechat, false)'],
        ['comment', 'r.comment'],
        ['processing_time', 'CAST(r.processingTime AS INTEGER)'],
        ['exception', 'r.exception'],
        ['operator_id', 'r.operatorInfo.id'],
        [
          'is_transfer',
          "coalesce(list_contains(list_transform(r.responseData.replies, x -> x.type), 'switch'), false)",
        ],
        ['channel_type', channel('r.channelType')],
        ['synced_at', 'CAST($synced_at AS TIMESTAMPTZ)'],
      ],
    },
    {
      table: 'message_labels',
      unnest: 'r.labels',
      columns: [
        ['project', '$project'],
        ['question_id', 'r.questionId'],
        ['label_id', 'l.id'],
        ['label_name', 'l.name'],
        ['group_name', 'l."group".name'],
        ['"timestamp"', time('r."timestamp"')],
        ['channel_type', channel('r.channelType')],
      ],
    },
  ],
  clients: [
    {
      table: 'clients',
      columns: [
        ['project', '$project'],
        ['client_id', 'r.id'],
        ['channel_type', `CASE WHEN length(r.channelType) > 0 THEN ${channel('r.channelType')} END`],
        ['bot_id', 'r.botId'],
        ['first_name', 'r.firstName'],
        ['last_name', 'r.lastName'],
        ['username', 'r.username'],
        ['join_date', time('r.joinDate')],
        ['last_visit_date', time('r.lastVisitDate')],
        ['last_session_id', 'r.lastSessionId'],
        ['is_blocked', 'coalesce(r.isBlocked, false)'],
        ['block_reason', 'r.blockReason'],
        ['blocked_by', 'r.blockedBy'],
        ['block_date', time('r.blockDate')],
        ['synced_at', 'CAST($synced_at AS TIMESTAMPTZ)'],
      ],
    },
  ],
};

/** from_json's structure of a whole page of `kind`: {"<kind>": [record]}. */
export function pageStructure(kind: PageKind): string {
  return JSON.stringify({ [kind]: [RECORD_STRUCTURES[kind]] });
}

/**
 * The page's records, parsed by DuckDB from the bound bytes ($body), one STRUCT `r` a row. The parsed page is
 * a MATERIALIZED CTE, unnested in a subquery: `unnest(from_json(...).kind)` in one projection, or a lateral
 * unnest, cost 4 to 6 times as much CPU here (DuckDB 1.5.5).
 */
export function pageRecords(kind: PageKind, body = '$body'): string {
  return (
    `WITH page AS MATERIALIZED (SELECT from_json(decode(${body}), ${literal(pageStructure(kind))}) AS p) ` +
    `SELECT unnest(p.${kind}) AS r FROM page`
  );
}

/** The page's records with `ok`, whether each passes RECORD_CHECKS (computed once per record). */
export function checkedRecords(kind: PageKind, body = '$body'): string {
  return `SELECT r, ${RECORD_CHECKS[kind]} AS ok FROM (${pageRecords(kind, body)})`;
}

/** The TEMP table holding the parsed records of the current page of `kind`. */
export const stageTable = (kind: PageKind): string => `page_${kind}`;

/** Creates stageTable(kind) (r STRUCT, ok BOOLEAN), empty (once, before the statements are prepared). */
export function createStageSql(kind: PageKind): string {
  const empty = literal(JSON.stringify({ [kind]: [] }));
  return `CREATE TEMP TABLE ${stageTable(kind)} AS ${checkedRecords(kind, `${empty}::BLOB`)}`;
}

/** Parses and checks the bound page ($body) into stageTable(kind), emptied first. */
export function stagePageSql(kind: PageKind): string[] {
  return [`DELETE FROM ${stageTable(kind)}`, `INSERT INTO ${stageTable(kind)} ${checkedRecords(kind)}`];
}

/**
 * One INSERT of `insert`'s table from `source` (rows of a record `r` and `ok`), the checks' failures left out. A list
 * per record is unnested in a projection over the records that pass and have one (a lateral unnest in FROM
 * cost twice as much).
 */
export function insertSql(insert: TableInsert, source: string): string {
  const names = insert.columns.map(([name]) => name).join(', ');
  const values = insert.columns.map(([, value]) => value).join(', ');
  const checked = `(${source}) WHERE ok`;
  const from =
    insert.unnest === undefined
      ? checked
      : `(SELECT r, unnest(${insert.unnest}) AS l FROM ${checked} AND len(${insert.unnest}) > 0)`;
  return (
    `INSERT INTO ${insert.table} (${names}) SELECT ${values} FROM ${from}` +
    (insert.returning === undefined ? '' : ` RETURNING ${insert.returning}`)
  );
}

/**
 * The statements of one page of `kind` once it is parsed into its stage (stagePageSql): each table's
 * INSERT, then the count of the page's records that fail the checks.
 */
export function pageSql(
  kind: PageKind,
  /** `staged`: from page_records (parsed once); `reparse`: each statement parses the bound $body again. */
  mode: 'staged' | 'reparse' = 'staged',
): { inserts: string[]; failures: string } {
  const source = mode === 'staged' ? `SELECT r, ok FROM ${stageTable(kind)}` : checkedRecords(kind);
  return {
    inserts: PAGE_INSERTS[kind].map((insert) => insertSql(insert, source)),
    failures: `SELECT count(*) FILTER (WHERE NOT ok) AS failed FROM (${source})`,
  };
}

/** The statuses of the status-channel messages, bound as two lists ($ids, $statuses), set in one UPDATE. */
export const APPLY_STATUSES_SQL =
  'UPDATE messages SET status = s.status, ' +
  'first_status_at = CASE WHEN s.status IS NOT NULL THEN CAST($seen_at AS TIMESTAMPTZ) END, ' +
  "read_at = CASE WHEN s.status = 'READ' THEN CAST($seen_at AS TIMESTAMPTZ) END " +
  'FROM (SELECT unnest($ids) AS question_id, unnest($statuses) AS status) AS s ' +
  'WHERE messages.project = $project AND messages.question_id = s.question_id';

/** Each (message, status) first seen: one history row per non-null status. */
export const INSERT_HISTORY_SQL =
  'INSERT INTO message_status_history (project, question_id, status, first_seen_at) ' +
  'SELECT $project, question_id, status, CAST($seen_at AS TIMESTAMPTZ) FROM ' +
  '(SELECT unnest($ids) AS question_id, unnest($statuses) AS status) WHERE status IS NOT NULL';
