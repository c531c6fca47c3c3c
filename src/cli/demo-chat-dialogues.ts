// The demo's Chat API step: a few dialogues through the emulated Chat API, as a customer's app would hold
// them (POST /chatapi/{token} with a clientId and a query), one of them handed to an agent; prints each
// question with the bot's answer. The Reporter sees them afterwards as `chatapi` sessions.
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
