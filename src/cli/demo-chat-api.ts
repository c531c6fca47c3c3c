// The demo's Chat API steps: a few dialogues through the emulated Chat API, as a customer's app would hold
// them (POST /chatapi/{token} with a clientId and a query), one of them handed to an agent, each question
// printed with the bot's answer (the Reporter sees them afterwards as `chatapi` sessions); then asynchronous
// questions whose answers the emulated platform pushes to the webhook receiver, which stores them.
import type { Config } from '../config.js';
import type { RunningEmulator } from '../emulator/server.js';
import type { Logger } from '../log.js';
import { withConfiguredWarehouse } from '../manage/use-warehouse.js';
import { configuredReceiverOptions, startWebhookReceiver } from '../sources/webhooks/webhook-receiver.js';
import type { CommandIo } from './command.js';

const DIALOGUES: readonly { clientId: string; queries: readonly string[] }[] = [
  { clientId: 'demo-app-client-1', queries: ['Привет', 'Как оплатить?'] },
  { clientId: 'demo-app-client-2', queries: ['Когда доставка?'] },
  { clientId: 'demo-app-client-3', queries: ['Позовите оператора', 'Где мой заказ?'] },
];

interface ChatAnswer {
  questionId?: string;
  data?: { nlpClass?: string; answer?: string };
}

/** Holds the dialogues; returns 0, or 1 when the Chat API answered something else than 200. */
export async function talkThroughChatApi(baseUrl: string, token: string, io: CommandIo): Promise<number> {
  for (const { clientId, queries } of DIALOGUES) {
    for (const query of queries) {
      const response = await fetch(`${baseUrl}/chatapi/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId, query }),
      });
      if (response.status !== 200) {
        io.err(`the Chat API answered ${response.status} to ${clientId}'s "${query}"`);
        return 1;
      }
      const answer = (await response.json()) as ChatAnswer;
      const text = answer.data?.answer || '(handed to an agent: the answer comes later, as an event)';
      io.out(`${clientId}: ${query} → ${text} [${answer.data?.nlpClass ?? 'no intent'}]`);
    }
  }
  return 0;
}

/** Asks two questions asynchronously; the emulator pushes the answers to a receiver this step runs. */
export async function receiveDemoWebhooks(
  running: RunningEmulator,
  token: string,
  config: Config,
  log: Logger,
  io: CommandIo,
): Promise<number> {
  return withConfiguredWarehouse(config, 'write', log, async (warehouse) => {
    const receiver = await startWebhookReceiver({
      ...configuredReceiverOptions(config, warehouse, log),
      host: '127.0.0.1',
      port: 0,
      key: undefined,
    });
    const channel = running.emulator.chatApi.channel(token);
    channel.webhookUrl = `${receiver.url}/webhooks/chatapi`;
    io.out(
      `reporter-etl webhooks listens on ${receiver.url}; the channel's webhook points at /webhooks/chatapi`,
    );
    for (const query of ['Когда доставка?', 'Как оплатить?']) {
      const response = await fetch(`${running.url}/chatapi/${token}/async`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: 'demo-app-client-4', query }),
      });
      const { questionId } = (await response.json()) as { questionId: string };
      io.out(`demo-app-client-4: ${query} → accepted as ${questionId}; the answer will be pushed`);
    }
    await running.emulator.chatApi.webhooks.idle();
    await receiver.close();
    channel.webhookUrl = undefined;
    const rows = await warehouse.query(
      "select question_id, answer, nlp_class from chatapi_webhook_events where client_id = 'demo-app-client-4' order by received_at",
    );
    for (const row of rows) io.out(`received ${row['question_id']}: ${row['answer']} [${row['nlp_class']}]`);
    io.out(`${receiver.counts.accepted} pushes received and stored in chatapi_webhook_events`);
    return rows.length === 2 ? 0 : 1;
  });
}
