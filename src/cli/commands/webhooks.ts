// `reporter-etl webhooks`: serves the webhook receiver (POST /webhooks/chatapi, POST /webhooks/prompter)
// until SIGTERM or Ctrl-C, then loads everything it acknowledged into the warehouse and exits 0.
import { CONFIG_DEFAULTS as D, loadConfig } from '../../config.js';
import { EXIT, UsageError } from '../../errors.js';
import { withConfiguredWarehouse } from '../../manage/use-warehouse.js';
import { listenForShutdown } from '../../schedule/shutdown-signals.js';
import { requireKeyOffLoopback } from '../../sources/webhooks/require-key-off-loopback.js';
import { configuredReceiverOptions, startWebhookReceiver } from '../../sources/webhooks/webhook-receiver.js';
import { plural } from '../../text/plural.js';
import { intOption, parseCommandArgs } from '../args.js';
import type { Command } from '../command.js';
import { createCommandLogger } from '../create-command-logger.js';
import { requireDataDir } from '../require-warehouse.js';

const HELP = `reporter-etl webhooks [--host ADDR] [--port N] [--insecure-no-key] [--json]

Receives what the platform pushes and stores it in the warehouse:
  POST /webhooks/chatapi     the Chat API's payload (an array of objects: asynchronous answers, agent
                             replies, response timeouts, campaign messages) → chatapi_webhook_events, one row
                             per object, once per questionId however often the platform resends it
  POST /webhooks/prompter    the Prompter API's answer options → prompter_answers (one row per question)
                             and prompter_answer_options (one row per option, rank from 1)
  GET  /healthz              200 {"ok": true}

It answers 200 once the request is on disk (REPORTER_DATA_DIR/webhooks/, a spool: a kill -9 right after the
answer loses nothing) and loads the spool into the warehouse every second, holding the warehouse only for
that commit. A body that is not JSON or does not fit gets 400 with the reason, and is kept in etl_rejects
(endpoint webhooks/chatapi or webhooks/prompter). On SIGTERM or Ctrl-C it stops taking requests, loads
everything it acknowledged, and exits 0. The channel token in a Chat API payload is never stored: the row
carries the channel's name when the token is one of REPORTER_CHATAPI_CHANNELS.

Options:
  --host ADDR   address to listen on (default REPORTER_WEBHOOKS_HOST, ${D.REPORTER_WEBHOOKS_HOST})
  --port N      port to listen on (default REPORTER_WEBHOOKS_PORT, else ${D.REPORTER_WEBHOOKS_PORT}; 0 picks a free one)
  --insecure-no-key  listen on an address other than loopback without REPORTER_WEBHOOK_KEY (refused otherwise:
                anyone who reaches it could write into the warehouse)
  --json        print the address as one JSON line at start, and the counts as JSON at the end

Configuration: REPORTER_WEBHOOK_KEY (none) a secret of 16 characters or more: a request without
?key=<it> gets 401 and nothing is kept (give the platform https://<host>/webhooks/chatapi?key=<it>);
REPORTER_CHATAPI_TIMEZONE (${D.REPORTER_CHATAPI_TIMEZONE}) the zone of the payloads' timestamps, which carry none;
REPORTER_WEBHOOKS_LOAD_SECONDS (${D.REPORTER_WEBHOOKS_LOAD_SECONDS}) how often the spool is loaded into the warehouse;
REPORTER_WEBHOOKS_LOAD_MAX_BYTES (1MiB) the spooled bytes of one load transaction;
REPORTER_DATA_DIR (${D.REPORTER_DATA_DIR}). \`reporter-etl schedule\` runs the receiver beside the jobs when REPORTER_WEBHOOKS_PORT is set.
Put it behind your HTTPS proxy: it speaks plain HTTP.

Exit codes: 0 stopped by SIGTERM/Ctrl-C with everything loaded, 1 the spool could not be loaded, 2 usage
(a bad option, the port is taken, a read-only REPORTER_DATA_DIR, a non-loopback --host without
REPORTER_WEBHOOK_KEY), 75 the warehouse stayed locked at the end, or ran out of memory or disk loading a
request (what was acknowledged is in the spool: the next start loads it).

Examples:
  reporter-etl webhooks --port 8080
  REPORTER_WEBHOOK_KEY=$(openssl rand -hex 16) reporter-etl webhooks --host 0.0.0.0
  curl -X POST 'http://127.0.0.1:8080/webhooks/prompter' -H 'content-type: application/json' \\
    -d '{"clientInfo":{"id":"c1"},"chatId":"chat-1","questionId":"q1","answerOptions":[]}'
`;

export const webhooksCommand: Command = {
  name: 'webhooks',
  help: HELP,
  async run(argv, io) {
    const { values } = parseCommandArgs(argv, {
      host: { type: 'string' },
      port: { type: 'string' },
      'insecure-no-key': { type: 'boolean' },
      json: { type: 'boolean' },
    });
    const config = loadConfig(process.env, { requireToken: false });
    const port = intOption(values.port, 'port', config.webhooks.port ?? D.REPORTER_WEBHOOKS_PORT, 0);
    if (port > 65_535) throw new UsageError(`--port ${port}: a port is 0 to 65535`);
    const host = values.host ?? config.webhooks.host;
    requireKeyOffLoopback({
      host,
      hostGivenAs: values.host !== undefined ? `--host ${host}` : `REPORTER_WEBHOOKS_HOST=${host}`,
      key: config.webhooks.key,
      insecureNoKey: values['insecure-no-key'] === true,
    });
    requireDataDir(config);
    const log = createCommandLogger(config, { onTerminal: 'info' });
    return withConfiguredWarehouse(config, 'write', log, async (warehouse) => {
      const receiver = await startWebhookReceiver({
        ...configuredReceiverOptions(config, warehouse, log),
        host,
        port,
        ...(values.port === undefined ? {} : { portGivenAs: `--port ${port}` }),
      });
      // listening before it says it listens: a SIGTERM sent on that line (a supervisor, the bench) arrived before
      // the listener, and node's default ended the process by the signal without loading. A second signal while
      // loading stops at once: what was acknowledged stays in the spool for the next start
      let stopListening = () => {};
      const signalled = new Promise<NodeJS.Signals>((resolve) => {
        stopListening = listenForShutdown({ onStop: resolve, onForce: () => process.exit(EXIT.tryLater) });
        io.signal?.addEventListener('abort', () => resolve('SIGTERM'), { once: true });
      });
      if (values.json) io.out(JSON.stringify({ url: receiver.url, port: receiver.port }));
      else
        io.out(
          `Receiving webhooks on ${receiver.url}/webhooks/chatapi and /webhooks/prompter${config.webhooks.key ? ' (with ?key=)' : ''}; Ctrl-C to stop.`,
        );
      const signal = await signalled;
      io.err(`reporter-etl webhooks: ${signal}: loading what was received…`);
      try {
        await receiver.close();
      } catch (error) {
        io.err(
          `could not load everything into the warehouse: ${(error as Error).message}; it stays in the spool for the next start`,
        );
        stopListening();
        return (error as { exitCode?: number }).exitCode ?? EXIT.failed;
      }
      stopListening();
      const c = receiver.counts;
      if (values.json) io.out(JSON.stringify(c));
      else
        io.out(
          `Stopped: ${plural(c.accepted, 'request')} accepted, ${c.rejected} rejected, ${c.unauthorized} refused without the key; ${plural(c.loaded, 'record')} loaded.`,
        );
      return EXIT.ok;
    });
  },
};
