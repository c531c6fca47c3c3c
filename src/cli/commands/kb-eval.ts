// `reporter-etl kb eval`: asks the knowledge base a set of questions (a CSV/JSONL file, or --sql over the
// warehouse), measures retrieval against the expected sources and the answers against the expected texts, and
// records the run beside the earlier ones (kb_eval_runs, kb_eval_questions, kb_eval_chunks; docs/kb-eval.md).

import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { KbEvalMetrics } from '../../analysis/kb-eval/kb-eval-metrics.js';
import type { KbEvalQuestionRow } from '../../analysis/kb-eval/kb-eval-sql.js';
import {
  checkQuestionLength,
  type KbEvalQuestion,
  MAX_QUESTION_CHARS,
  readEvalQuestionsFile,
} from '../../analysis/kb-eval/read-eval-questions.js';
import { type KbEvalSummary, runKbEval } from '../../analysis/kb-eval/run-kb-eval.js';
import { type Config, CONFIG_DEFAULTS as D, loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { selectKbEvalQuestions } from '../../manage/select-kb-eval-questions.js';
import { useQuerySandboxAt } from '../../manage/use-query-sandbox.js';
import { configuredWarehouse, withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { createKbClient } from '../../platform/kb/kb-client.js';
import { createKbStreamer } from '../../platform/kb/kb-stream.js';
import { escapeForTerminal } from '../../text/escape-terminal-text.js';
import { FORMAT_DIGITS, formatCount, formatDecimal, toCleanJson } from '../../text/format-figures.js';
import { plural } from '../../text/plural.js';
import { clearStatusLine, showStatusLine } from '../../text/status-line.js';
import { makeRunId } from '../../warehouse/run-history.js';
import { intOption, parseCommandArgs, sqlOrSqlFile } from '../args.js';
import type { CommandIo } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireDataDir } from '../require-warehouse.js';
import { sqlTimeLimit, sqlTimeoutHelp } from '../sql-time-limit.js';
import type { KbSubcommand } from './kb.js';

const HELP = `reporter-etl kb eval (--questions FILE | --sql QUERY | --sql-file PATH) [--stream] [--concurrency N]
                     [--sql-timeout S] [--wait-time S] [--timeout S] [--limit N] [--json]

Measures the knowledge base of REPORTER_KB_KEY on a set of questions and records the run in the warehouse
beside the earlier ones, so a drop between two runs shows (report kb-eval, view kb_eval_run_changes).
For each question, --concurrency at a time:
  1. retrieval (POST /retrieve): the chunks, each with its source, score and rank; the rank of the first
     chunk from an expected source is the question's hit rank
  2. generation: POST /async/query, then GET /query/{id}?waitTimeSeconds=S, a long poll that returns as soon
     as the answer is ready (one or two status calls per question, not a poll every second); or, with
     --stream, POST /query/stream read as Server-Sent Events (start, chunk..., done). A stream that ends or
     breaks before its done event is tried once more, then recorded as failed (kb.stream_cut)
  3. the answer, its status, latency and error are stored at once (kb_eval_questions, kb_eval_chunks):
     a stopped or failed run keeps every question it finished
The figures: hit@1, hit@5 and MRR over the questions with expected sources whose retrieval succeeded;
the share of answers containing the expected text; failures; p50 and p95 latency of the answers.
If the service refuses the key midway (expired, revoked: 401/403), the questions not yet asked are recorded
as failed with that reason and the run is finished and kept all the same.

The questions file (docs/kb-eval.md):
  .csv    header row: question (required), expected_sources (source ids or names, several separated by
          | or ;), expected_answer_contains (a text the answer must contain, case ignored), id (optional:
          what joins a question across runs; default its text). Other columns are refused.
          question,expected_sources,expected_answer_contains
          "How do I return an item?",returns-policy.pdf|faq.md,30 days
  .jsonl  one object per line: {"question": "...", "expected_sources": ["returns-policy.pdf", 12],
          "expected_answer_contains": "30 days"}  (expected_answer_contains may be a list: all must appear)
A bad file is refused before anything is asked, naming the line and the column (exit 2): also a file
that is not UTF-8, an empty one (or a header row only), a repeated column or id, a question over
${MAX_QUESTION_CHARS} characters. Expected sources that no source of the latest kb sync snapshot has are
named in a warning. A run is compared with the previous run of the same question set (the same questions
and expectations: a --limit run is a set of its own) that finished normally (not stopped or failed).

Options:
  --questions FILE   the questions (.csv, .jsonl or .ndjson)
  --sql QUERY        or a SELECT over the warehouse returning a text column \`question\` (optional:
  --sql-file PATH    expected_sources as a list or |-separated text, expected_answer_contains, id), run
                     read-only in the sandbox as label-sessions' --sql; e.g. last week's most frequent first
                     questions (below)
${sqlTimeoutHelp('--sql-timeout', 21)}
  --stream           generate through the SSE stream instead of the async query and its long poll
  --concurrency N    questions asked at a time (default 4)
  --wait-time S      waitTimeSeconds of each status call, 0..30 (default 20): the long poll; whatever S,
                     a generation's status is asked at most once a second
  --timeout S        how long a generation may take before it is recorded as failed, kb.timeout (default 180)
  --limit N          ask only the first N questions
  --json             the run's summary as JSON on stdout

Progress goes to stderr; the summary to stdout.

Configuration: REPORTER_KB_KEY (the project key; never printed or stored), REPORTER_KB_BASE_URL (default
${D.REPORTER_KB_BASE_URL}), REPORTER_RETRIES and REPORTER_TIMEOUT_MS (429/5xx are retried, with Retry-After),
REPORTER_DATA_DIR (${D.REPORTER_DATA_DIR}).

Exit codes: 0 every question retrieved and answered; 1 failed (the key refused, or no question answered);
2 usage (bad option, file or query; no REPORTER_KB_KEY; the query ran out of --sql-timeout or of
REPORTER_DUCKDB_MEMORY_LIMIT); 3 partial (some questions failed: see
kb_eval_questions.error); 75 try again later (the warehouse locked, a writer needed it while the query
ran, or stopped by Ctrl-C / SIGTERM: the
questions asked so far are kept, the rest recorded as not asked, the run's status stopped). A run left
running by a process killed outright is closed as abandoned by the next run.

Examples (against the emulator: reporter-etl emulator):
  export REPORTER_KB_BASE_URL=http://127.0.0.1:4010/kb REPORTER_KB_KEY=emulator-kb-project-key
  reporter-etl kb eval --questions questions.csv
  reporter-etl kb eval --questions questions.jsonl --stream --concurrency 8 --json
  reporter-etl kb eval --limit 20 --sql "select first_question as question, count(*) as n from sessions
    where start_time >= now() - interval 7 day and first_question <> '' group by 1 order by n desc"
  reporter-etl report kb-eval --from 2026-11-01
  reporter-etl sql "select run_id, hit_at_5, previous_hit_at_5, hit_at_5_change from kb_eval_run_changes"
`;

function percent(value: number | null): string {
  return value === null ? 'n/a' : `${formatDecimal(value * 100, 1)} %`;
}

/** The run's figures as lines for a person. */
export function describeKbEvalSummary(s: KbEvalSummary): string[] {
  const m: KbEvalMetrics = s.metrics;
  const project = s.projectName === null ? '' : ` on project ${s.projectName} (id ${s.projectId})`;
  return [
    `kb eval ${s.runId}${project}: ${s.status}, ${plural(m.questions, 'question')} (${s.mode}), ` +
      `${m.answered} answered, ${m.failures} failed, ${(s.durationMs / 1000).toFixed(1)} s`,
    `  retrieval over ${plural(m.withExpectedSources, 'question')} with expected sources: ` +
      `hit@1 ${percent(m.hitAt1)} · hit@5 ${percent(m.hitAt5)} · MRR ${m.mrr === null ? 'n/a' : formatDecimal(m.mrr, FORMAT_DIGITS.decimal3)}` +
      (m.retrievalFailures > 0 ? ` (${m.retrievalFailures} retrievals failed)` : ''),
    `  answers containing the expected text: ${percent(m.answerContainsRate)} of ${m.withExpectedAnswer}`,
    `  latency p50 ${m.latencyP50Ms ?? 'n/a'} ms · p95 ${m.latencyP95Ms ?? 'n/a'} ms · ` +
      `${plural(s.requests, 'request')} (${s.statusRequests} status)`,
    ...(s.error ? [`  ${escapeForTerminal(s.error)}`] : []),
  ];
}

/** The command line parsed against the options of `kb eval`. */
function parseKbEvalArgs(argv: string[]) {
  return parseCommandArgs(argv, {
    questions: { type: 'string' },
    sql: { type: 'string' },
    'sql-file': { type: 'string' },
    'sql-timeout': { type: 'string' },
    stream: { type: 'boolean' },
    concurrency: { type: 'string' },
    'wait-time': { type: 'string' },
    timeout: { type: 'string' },
    limit: { type: 'string' },
    json: { type: 'boolean' },
  });
}

type KbEvalValues = ReturnType<typeof parseKbEvalArgs>['values'];

/** What one evaluation asks, and how. */
interface KbEvalRequest {
  config: Config;
  log: Logger;
  questions: KbEvalQuestion[];
  /** The file's name, or `sql`. */
  source: string;
  query: string | undefined;
  concurrency: number;
  waitTimeSeconds: number;
  timeoutMs: number;
  stream: boolean;
  json: boolean;
}

async function run(argv: string[], io: CommandIo): Promise<number> {
  const { values } = parseKbEvalArgs(argv);
  const fromSql = values.sql !== undefined || values['sql-file'] !== undefined;
  if ((values.questions === undefined) === !fromSql)
    throw new UsageError(
      'kb eval: give the questions with --questions FILE or with --sql QUERY / --sql-file PATH (one of them)',
    );
  const concurrency = intOption(values.concurrency, 'concurrency', 4, 1);
  const waitTimeSeconds = intOption(values['wait-time'], 'wait-time', 20, 0, 30);
  const timeoutMs = intOption(values.timeout, 'timeout', 180, 1) * 1000;
  const limit = values.limit === undefined ? undefined : intOption(values.limit, 'limit', 0, 1);
  const config = loadConfig(process.env, { requireToken: false });
  if (config.kb.key === undefined)
    throw new UsageError(
      `kb eval: REPORTER_KB_KEY is not set (the knowledge base project key; REPORTER_KB_BASE_URL defaults to ${D.REPORTER_KB_BASE_URL})`,
      'kb.not_configured',
    );
  requireDataDir(config);
  const log = createCommandLogger(config);

  let questions: KbEvalQuestion[];
  let source: string;
  let query: string | undefined;
  if (values.questions !== undefined) {
    questions = readEvalQuestionsFile(values.questions).slice(0, limit);
    source = basename(values.questions);
  } else {
    const selected = await selectSqlQuestions(io, values, config, log, limit);
    ({ questions, query } = selected);
    source = 'sql';
    if (questions.length === 0) {
      // nothing to ask is not an error for a query (last week may have had no questions); --json still answers
      io.err('kb eval: the --sql query selected no questions; nothing asked, no run recorded');
      if (values.json)
        io.out(
          JSON.stringify(
            {
              runId: null,
              status: 'nothing_to_ask',
              questions: 0,
              skipped: selected.skipped,
              repeated: selected.repeated,
            },
            null,
            2,
          ),
        );
      return EXIT.ok;
    }
  }
  const request: KbEvalRequest = {
    config,
    log,
    questions,
    source,
    query,
    concurrency,
    waitTimeSeconds,
    timeoutMs,
    stream: values.stream === true,
    json: values.json === true,
  };
  return await askQuestions(io, request);
}

/** The questions of `--sql` / `--sql-file`: the warehouse first (it is migrated), then the query in the read-only sandbox. */
async function selectSqlQuestions(
  io: CommandIo,
  values: KbEvalValues,
  config: Config,
  log: Logger,
  limit: number | undefined,
): Promise<{ questions: KbEvalQuestion[]; query: string; skipped: number; repeated: number }> {
  const query = sqlOrSqlFile(values, 'a SELECT returning a text column question');
  const where = configuredWarehouse(config, 'write', log);
  // the warehouse first (it is migrated), then the query in the read-only sandbox
  await withConfiguredWarehouse(config, 'write', log, async () => undefined);
  const timeLimit = sqlTimeLimit(values['sql-timeout'], '--sql-timeout', config);
  const selected = await useQuerySandboxAt({ ...where, timeLimit })((s) =>
    selectKbEvalQuestions(s, query, limit),
  );
  if (selected.skipped > 0) io.err(`--sql: ${plural(selected.skipped, 'row')} without a question skipped`);
  if (selected.repeated > 0) io.err(`--sql: ${plural(selected.repeated, 'repeated question')} skipped`);
  for (const [n, q] of selected.questions.entries())
    checkQuestionLength(q.question, `--sql row ${n + 1}, column question`);
  return { questions: selected.questions, query, skipped: selected.skipped, repeated: selected.repeated };
}

/** Asks the questions and records the run (stopped by SIGINT / SIGTERM), then prints it; its exit code. */
async function askQuestions(io: CommandIo, request: KbEvalRequest): Promise<number> {
  const { config, log, concurrency, query } = request;
  const controller = new AbortController();
  const onSignal = () => controller.abort(new Error('stopped by a signal'));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  io.signal?.addEventListener('abort', onSignal, { once: true });
  const clientOptions = {
    config: config.kb,
    concurrency,
    retries: config.retries,
    timeoutMs: config.timeoutMs,
    log,
  };
  const client = createKbClient(clientOptions);
  const streamer = request.stream
    ? createKbStreamer({ config: config.kb, concurrency, retries: config.retries, log })
    : undefined;
  const started = Date.now();
  try {
    const summary = await withConfiguredWarehouse(config, 'write', log, (warehouse) =>
      runKbEval({
        client,
        ...(streamer ? { streamer } : {}),
        useWarehouse: (fn) => fn(warehouse),
        questions: request.questions,
        runId: makeRunId(started, randomUUID()),
        kbBaseUrl: config.kb.baseUrl,
        questionSource: request.source,
        ...(query === undefined ? {} : { questionQuery: query }),
        concurrency,
        waitTimeSeconds: request.waitTimeSeconds,
        timeoutMs: request.timeoutMs,
        signal: controller.signal,
        log,
        onUnknownExpectedSources: (unknown, snapshotId) => warnUnknownSources(io, unknown, snapshotId),
        onQuestion: (progress) => showQuestionProgress(io, progress),
      }),
    );
    clearStatusLine();
    if (request.json) io.out(toCleanJson(summary));
    else for (const line of describeKbEvalSummary(summary)) io.out(line);
    // stopped by Ctrl-C / SIGTERM: what was asked is recorded, the rest marked not asked; try again later
    if (controller.signal.aborted) return EXIT.tryLater;
    if (summary.status === 'success') return EXIT.ok;
    if (summary.status === 'partial') return EXIT.partial;
    return EXIT.failed;
  } finally {
    clearStatusLine();
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await Promise.all([client.close(), streamer?.close()]);
  }
}

/** Expected sources that no source of the latest kb sync snapshot has: they can only be misses (stderr). */
function warnUnknownSources(io: CommandIo, unknown: string[], snapshotId: string): void {
  io.err(
    escapeForTerminal(
      `kb eval: warning: ${plural(unknown.length, 'expected source')} match no source of the latest kb sync snapshot (${snapshotId}), so they can only be misses: ${unknown.slice(0, 20).join(', ')}${unknown.length > 20 ? ', ...' : ''}`,
    ),
  );
}

/** A settled question: the status line on a terminal; else a line for each failure and every tenth question. */
function showQuestionProgress(
  io: CommandIo,
  { done, total, failed, row }: { done: number; total: number; failed: number; row: KbEvalQuestionRow },
): void {
  const line = `kb eval: ${formatCount(done)}/${formatCount(total)} questions${failed > 0 ? ` (${formatCount(failed)} failed)` : ''}`;
  if (io.isTty) showStatusLine(line);
  else if (row.status !== 'answered' || row.retrievalStatus !== 'ok')
    io.err(
      escapeForTerminal(
        `${line}: question ${row.seq} ${row.status}: ${row.error ?? row.retrievalError ?? ''}`,
      ),
    );
  else if (done === total || done % 10 === 0) io.err(line);
}

export const kbEvalSubcommand: KbSubcommand = {
  name: 'eval',
  summary: 'asks the knowledge base a set of questions and records retrieval and answer quality',
  help: HELP,
  run,
};
