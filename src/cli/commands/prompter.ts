// `reporter-etl prompter ask`: sends questions (a CSV/JSONL file, or --sql over the warehouse) to the Prompter
// API of a Chat API channel, records each in prompter_requests, and waits for the answers the webhook
// receiver stores (in another process, or in this one with --receive); docs/prompter.md.
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import { CONFIG_DEFAULTS as D, loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { selectPrompterQuestions } from '../../manage/select-prompter-questions.js';
import { useQuerySandboxAt } from '../../manage/use-query-sandbox.js';
import { configuredWarehouse, withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { createPrompterClient } from '../../platform/prompter/prompter-client.js';
import { selectChannels } from '../../sources/chatapi/select-channels.js';
import { type AskProgress, askPrompter, describeAskProgress } from '../../sources/prompter/ask-prompter.js';
import { type PrompterQuestion, readQuestionsFile } from '../../sources/prompter/read-questions.js';
import { requireKeyOffLoopback } from '../../sources/webhooks/require-key-off-loopback.js';
import { configuredReceiverOptions, startWebhookReceiver } from '../../sources/webhooks/webhook-receiver.js';
import { toCleanJson } from '../../text/format-figures.js';
import { plural } from '../../text/plural.js';
import { clearStatusLine, showStatusLine } from '../../text/status-line.js';
import { intOption, numberOption, parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireDataDir } from '../require-warehouse.js';
import { sqlTimeLimit, sqlTimeoutHelp } from '../sql-time-limit.js';

const HELP = `reporter-etl prompter ask (--file PATH | --sql QUERY) [--channel NAME] [--wait SECONDS]
                           [--sql-timeout S] [--receive [--port N]] [--limit N] [--client-id ID] [--json]

Sends questions to the Prompter API (POST {REPORTER_CHATAPI_BASE_URL}{REPORTER_CHATAPI_PATH}/webhook/
prompter_api/<channel token>), one after the other, rate-limited and retried like every client, and records
each in prompter_requests (question, expected intent, questionId, sent time, outcome). The Prompter answers
each question at once with its questionId and pushes the answer options later to the channel's webhook:
\`reporter-etl webhooks\` (or --receive) stores them in prompter_answers / prompter_answer_options. The
command then waits up to --wait seconds for the answers to be stored, marks the questions answered as they
come, and the rest no_answer; on a terminal a progress line shows the questions sent and the answers arriving
(answers 4/6 · waiting up to 12 s). \`reporter-etl report prompter\` and \`stats --json\` (key prompter) measure them.

Options:
  --file PATH        the questions: .csv with a header row (text, optional expected_intent) or .jsonl
                     ({"text": ..., "expected_intent": ...} per line)
  --sql QUERY        or a SELECT over the warehouse returning a text column \`text\` (and optionally
                     \`expected_intent\`), run read-only in the sandbox (as label-sessions' --sql)
${sqlTimeoutHelp('--sql-timeout', 21)}
  --channel NAME     the channel of REPORTER_CHATAPI_CHANNELS whose token the Prompter takes (required when
                     there are several)
  --wait SECONDS     how long to wait for the answers after the last question (default 30; 0: look once;
                     an answer stored later still counts in the statistics, joined by questionId)
  --receive          run the webhook receiver in this process while waiting (on --port, default
                     REPORTER_WEBHOOKS_PORT else ${D.REPORTER_WEBHOOKS_PORT}); without it another \`reporter-etl webhooks\`
                     (or \`schedule\` with REPORTER_WEBHOOKS_PORT) must be receiving
  --port N           with --receive: the port to listen on (0 picks a free one)
  --limit N          send at most N questions
  --client-id ID     clientInfo.id of the questions (default reporter-etl)
  --json             the summary as JSON

Configuration: REPORTER_CHATAPI_CHANNELS (name=token; the token is never printed or stored),
REPORTER_CHATAPI_BASE_URL, REPORTER_CHATAPI_PATH (${D.REPORTER_CHATAPI_PATH}), REPORTER_RATE_LIMIT_RPM (a cap in requests per
minute), REPORTER_DATA_DIR (${D.REPORTER_DATA_DIR}).

Exit codes: 0 every question answered, 1 failed (the token refused), 2 usage (bad option, file or query;
the query ran out of --sql-timeout or of REPORTER_DUCKDB_MEMORY_LIMIT), 3 partial (some questions failed
or got no answer within --wait), 75 try again later (also: a writer needed the warehouse while the query
ran).

Examples:
  reporter-etl prompter ask --file questions.csv --channel site --receive --wait 20
  reporter-etl prompter ask --channel site \\
    --sql "select distinct question as text from messages where nlp_class = '/CatchAll'" --limit 200
  reporter-etl report prompter
`;

export const prompterCommand: Command = {
  name: 'prompter',
  help: HELP,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (sub !== 'ask')
      throw new UsageError(
        sub === undefined
          ? 'prompter: give a subcommand: ask (reporter-etl prompter --help)'
          : `prompter: no subcommand ${sub} (there is: ask)`,
      );
    const { values } = parseCommandArgs(rest, {
      file: { type: 'string' },
      sql: { type: 'string' },
      'sql-timeout': { type: 'string' },
      channel: { type: 'string' },
      wait: { type: 'string' },
      receive: { type: 'boolean' },
      port: { type: 'string' },
      limit: { type: 'string' },
      'client-id': { type: 'string' },
      json: { type: 'boolean' },
    });
    if ((values.file === undefined) === (values.sql === undefined))
      throw new UsageError(
        'prompter ask: give the questions with --file PATH or with --sql QUERY (one of them)',
      );
    if (values.port !== undefined && !values.receive)
      throw new UsageError('--port is the port of --receive: give --receive too');
    const waitMs = numberOption(values.wait, 'wait', 30) * 1000;
    const limit = values.limit === undefined ? undefined : intOption(values.limit, 'limit', 0, 1);
    const clientId = values['client-id'] ?? 'reporter-etl';
    const config = loadConfig(process.env, { requireToken: false });
    const channels = selectChannels(config.chatApi, values.channel);
    if (channels.length > 1)
      throw new UsageError(
        `--channel is required: REPORTER_CHATAPI_CHANNELS has ${channels.map((c) => c.name).join(', ')}`,
      );
    const channel = channels[0]!;
    requireDataDir(config);
    const log = createCommandLogger(config);

    let questions: PrompterQuestion[];
    let source: string;
    if (values.file !== undefined) {
      questions = readQuestionsFile(values.file).slice(0, limit);
      source = basename(values.file);
    } else {
      const where = configuredWarehouse(config, 'write', log);
      // the warehouse first (it is migrated), then the query in the read-only sandbox
      await withConfiguredWarehouse(config, 'write', log, async () => undefined);
      const timeLimit = sqlTimeLimit(values['sql-timeout'], '--sql-timeout', config);
      const selected = await useQuerySandboxAt({ ...where, timeLimit })((s) =>
        selectPrompterQuestions(s, values.sql!, limit),
      );
      if (selected.skipped > 0) io.err(`--sql: ${plural(selected.skipped, 'row')} without a text skipped`);
      questions = selected.questions;
      source = 'sql';
    }
    if (questions.length === 0) {
      io.err('prompter ask: no questions to send');
      return EXIT.ok;
    }

    if (values.receive)
      requireKeyOffLoopback({
        host: config.webhooks.host,
        hostGivenAs: `REPORTER_WEBHOOKS_HOST=${config.webhooks.host}`,
        key: config.webhooks.key,
        insecureNoKey: false,
      });
    const batchId = `prompter-${new Date().toISOString().replace(/[-:.]/g, '').slice(0, 15)}-${randomUUID().slice(0, 8)}`;
    const summary = await withConfiguredWarehouse(config, 'write', log, async (warehouse) => {
      const receiver = values.receive
        ? await startWebhookReceiver({
            ...configuredReceiverOptions(config, warehouse, log),
            port: intOption(values.port, 'port', config.webhooks.port ?? D.REPORTER_WEBHOOKS_PORT, 0),
            ...(values.port === undefined ? {} : { portGivenAs: `--port ${values.port}` }),
          })
        : undefined;
      if (receiver && !values.json)
        io.err(`Receiving the answer options on ${receiver.url}/webhooks/prompter`);
      const client = createPrompterClient({
        config: config.chatApi,
        channel,
        rateLimitPerMinute: config.rateLimitPerMinute,
        log,
      });
      try {
        return await askPrompter({
          client,
          useWarehouse: (fn) => fn(warehouse),
          questions,
          batchId,
          source,
          clientId,
          waitMs,
          ...(receiver ? { beforeLook: () => receiver.loadNow() } : {}),
          ...(io.isTty ? { onProgress: (p: AskProgress) => showStatusLine(describeAskProgress(p)) } : {}),
          log,
        });
      } finally {
        clearStatusLine();
        await client.close();
        await receiver?.close();
      }
    });
    if (values.json) io.out(toCleanJson(summary));
    else
      io.out(
        `${summary.batchId}: ${plural(summary.sent, 'question')} sent (${summary.failed} failed); ` +
          `${summary.answered} answered, ${summary.noAnswer} without an answer within ${waitMs / 1000} s`,
      );
    return summary.failed > 0 || summary.noAnswer > 0 ? EXIT.partial : EXIT.ok;
  },
};
