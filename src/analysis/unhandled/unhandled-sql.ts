// The SQL of the unhandled questions (migrations 020 and 025): the distinct catch-all texts of a period and of
// the previous one with their counts and keys, the statements of a run's batch, which join the clustered texts
// back to their messages by key (membership) and count each cluster's clients, sessions sent to an agent and
// channels, and the previous stored run whose ids carry over. Bound parameters: $project and $channel ('' = all), $class,
// $previous_from, $from, $to, $run_id, $key_shift.

/** The catch-all messages of the selection; `m` the alias of messages ('' for none). */
const selection = (m: string) => `${m}nlp_class = $class AND ${m}question IS NOT NULL
  AND ($project = '' OR ${m}project = $project) AND ($channel = '' OR ${m}channel_type = $channel)`;

/**
 * While a run is computed: memory a finished query freed beyond 8 MB goes back to the system at once, not
 * kept by DuckDB's allocator for the next query (the texts and their vectors need it meanwhile).
 */
export const SET_FLUSH_THRESHOLD = "SET allocator_flush_threshold = '8MB'";
export const RESET_FLUSH_THRESHOLD = 'RESET allocator_flush_threshold';

/** A question's key (text-keys.ts): its hash cut to 53 bits by $key_shift; `m` the alias of messages. */
const textKey = (m: string) => `(hash(${m}question) >> $key_shift)`;

/**
 * Distinct question texts with their messages in [from, to) and in [previous_from, from) and their keys, as
 * doubles (exact below 2^53, and read without a BigInt each).
 */
export const SELECT_QUESTION_COUNTS = `
SELECT question,
  count(*) FILTER (WHERE "timestamp" >= $from)::DOUBLE AS current,
  count(*) FILTER (WHERE "timestamp" < $from)::DOUBLE AS previous,
  ${textKey('')}::DOUBLE AS text_key
FROM messages
WHERE ${selection('')} AND "timestamp" >= $previous_from AND "timestamp" < $to
GROUP BY question`;

/** The period's distinct question texts whose key is one of $keys (keys shared by two texts: text-keys.ts). */
export const SELECT_TEXTS_OF_KEYS = `
SELECT question, ${textKey('')}::DOUBLE AS text_key
FROM messages
WHERE ${selection('')} AND "timestamp" >= $from AND "timestamp" < $to
  AND ${textKey('')} IN (SELECT unnest($keys)::UBIGINT)
GROUP BY question
ORDER BY question`;

/**
 * The period's catch-all messages of the clustered texts (stage_unhandled_texts: each text's key, and its
 * text where another text asked in the period has the same key), one row each, with `columns` of m.
 */
const memberMessages = (columns: string) => `
SELECT t.cluster_id, ${columns}
FROM messages m JOIN stage_unhandled_texts t ON t.text_key = ${textKey('m.')}
WHERE ${selection('m.')}
  AND m."timestamp" >= $from AND m."timestamp" < $to
  AND (t.question IS NULL OR t.question = m.question)`;

/** The run's membership: each member message's id and cluster. */
export const INSERT_MEMBERS = `
INSERT INTO unhandled_members (run_id, project, question_id, cluster_id)
SELECT $run_id, project, question_id, cluster_id FROM (${memberMessages('m.project, m.question_id')})`;

/**
 * Each staged cluster with what its members say: clients, sessions sent to an agent after it, channels. The
 * members joined from the staged keys again, not from unhandled_members by question id: a join on half a
 * million string ids took DuckDB some 40-90 MB more at 1M messages.
 */
export const INSERT_CLUSTERS = `
INSERT INTO unhandled_clusters (run_id, cluster_id, rank, label, messages, previous_messages, clients, share,
  trend, agent_sessions, channels, examples, terms, profile)
WITH members AS (
  SELECT mm.*, s.client_id
  FROM (${memberMessages('m.project, m.session_id, m."timestamp", m.channel_type')}) mm
  LEFT JOIN sessions s ON s.project = mm.project AND s.session_id = mm.session_id
), agent AS (
  SELECT DISTINCT mb.cluster_id, mb.project, mb.session_id
  FROM members mb JOIN messages later
    ON later.project = mb.project AND later.session_id = mb.session_id AND later."timestamp" > mb."timestamp"
  WHERE later.is_transfer OR later.is_livechat
), counted AS (
  SELECT cluster_id, count(*)::BIGINT AS messages, count(DISTINCT (project, client_id))::BIGINT AS clients,
    list_sort(list_distinct(list(channel_type))) AS channels
  FROM members GROUP BY cluster_id
)
SELECT $run_id, c.cluster_id, c.rank, c.label, n.messages, c.previous_messages, n.clients,
  n.messages / $unrecognised::DOUBLE,
  CASE WHEN c.previous_messages = 0 THEN NULL ELSE n.messages / c.previous_messages::DOUBLE - 1 END,
  (SELECT count(*) FROM agent a WHERE a.cluster_id = c.cluster_id)::BIGINT,
  n.channels, c.examples, c.terms, c.profile
FROM stage_unhandled_clusters c JOIN counted n USING (cluster_id)`;

/** The clusters of a run, biggest first. */
export const SELECT_CLUSTERS = `
SELECT cluster_id, rank, label, messages, previous_messages, clients, share, trend, agent_sessions, channels,
  examples
FROM unhandled_clusters WHERE run_id = $run_id ORDER BY rank`;

/** The run's own figures as stored (the run row). */
export const SELECT_RUN = `
SELECT run_id, project, channel_type, catch_all_class, epoch_ms(period_from) AS period_from,
  epoch_ms(period_to) AS period_to, epoch_ms(previous_from) AS previous_from, unrecognised, previous_unrecognised,
  clustered, clusters, other_messages, other_texts, vectors, previous_run_id, epoch_ms(computed_at) AS computed_ms
FROM unhandled_runs WHERE run_id = $run_id`;

/**
 * The run whose ids carry over to a run of this selection: ending at or before $to, not the run itself, made
 * by this method (its clusters have profiles), the latest first.
 */
export const SELECT_PREVIOUS_RUN = `
SELECT r.run_id FROM unhandled_runs r
WHERE r.project = $project AND r.channel_type = $channel AND r.catch_all_class = $class
  AND r.run_id <> $run_id AND r.period_to <= $to
  AND EXISTS (SELECT 1 FROM unhandled_clusters c WHERE c.run_id = r.run_id AND c.profile IS NOT NULL)
ORDER BY r.period_to DESC, r.computed_at DESC, r.run_id
LIMIT 1`;

/** The previous run's topics: id, the terms of the id, profile. */
export const SELECT_PREVIOUS_TOPICS = `
SELECT cluster_id, terms, profile FROM unhandled_clusters
WHERE run_id = $run_id AND profile IS NOT NULL ORDER BY rank`;

/** The previous run's distinct texts (raw: masked by the caller) and their topic. */
export const SELECT_PREVIOUS_TEXTS = `
SELECT m.question, u.cluster_id FROM unhandled_members u
JOIN messages m ON m.project = u.project AND m.question_id = u.question_id
WHERE u.run_id = $run_id AND m.question IS NOT NULL
GROUP BY m.question, u.cluster_id`;

/** A cluster id as `computeUnhandled` makes them: the only text `clusterMessagesQuery` puts into SQL. */
export const CLUSTER_ID = /^u-[0-9a-f]{12}$/;

/**
 * The SELECT of a cluster's messages (question_id) in the latest run holding the cluster (by computation
 * time, then period end): what `label-messages --cluster ID` labels. `id` must match CLUSTER_ID.
 */
export function clusterMessagesQuery(id: string): string {
  if (!CLUSTER_ID.test(id)) throw new RangeError(`not a cluster id: ${JSON.stringify(id)}`);
  return `select question_id from unhandled_members where cluster_id = '${id}' and run_id = (
  select r.run_id from unhandled_runs r join unhandled_clusters c using (run_id)
  where c.cluster_id = '${id}' order by r.computed_at desc, r.period_to desc, r.run_id limit 1)`;
}
