// The emulated Prompter API (PLATFORM-APIS.md section 3): a channel token, a customer question; answered at
// once with {questionId}, then the answer options are POSTed to the channel's Prompter webhook as the seed's
// payload (one object, not an array), resent like the Chat API's. The options are the vocabulary's intents
// whose confidence passed the classifier threshold, best first, at most 5 (possibly none): the bot's own
// intent for the text with the bot's confidence, other topics the text names, and a few unrelated intents
// the classifier half-believes (a hash of text and intent). Every question asked is kept as ground truth.
import { randomUUID } from 'node:crypto';
import { hashString, unit } from '../prng.js';
import { FALLBACK_CLASS, INTENTS, type Intent } from '../vocabulary.js';
import { answerQuery, keywordIntents } from './bot.js';
import type { ChatChannel } from './chat-api.js';
import { WebhookSender, type WebhookSettings } from './webhook.js';

/** The classifier threshold: an intent below it is never suggested. */
export const PROMPTER_THRESHOLD = 0.3;
/** The most options one answer carries. */
export const PROMPTER_MAX_OPTIONS = 5;

export interface PrompterQuestion {
  clientInfo: { id: string; firstName?: string; lastName?: string };
  chatId: string;
  text: string;
}

export interface PrompterOption {
  messages: Record<string, unknown>[];
  intent: { id: number; confidence: number; name: string; path: string };
}

/** Ground truth of one question asked: what the emulator answered and delivered. */
export interface PrompterAsked {
  token: string;
  questionId: string;
  chatId: string;
  clientId: string;
  text: string;
  /** Real time (epoch ms) the question was answered. */
  askedAt: number;
  options: PrompterOption[];
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** An intent's id on the platform: an integer, stable per intent. */
export const intentId = (intent: Intent): number => 100 + INTENTS.indexOf(intent);

/** The markup of an intent's answer: most are plain, some html or markdown. */
function markupOf(intent: Intent): 'plain' | 'html' | 'markdown' {
  const n = INTENTS.indexOf(intent) % 4;
  return n === 1 ? 'html' : n === 2 ? 'markdown' : 'plain';
}

function optionOf(intent: Intent, confidence: number): PrompterOption {
  const messages: Record<string, unknown>[] = [
    { type: 'TEXT', text: intent.answer, markup: markupOf(intent) },
  ];
  // an answer with a picture: message types other than TEXT exist and must be kept
  if (intent.nlpClass === '/Address') messages.push({ type: 'IMAGE', url: 'https://example.com/map.png' });
  const segments = intent.nlpClass.split('/').filter((s) => s !== '');
  return {
    messages,
    intent: { id: intentId(intent), confidence, name: segments.join(' '), path: intent.nlpClass },
  };
}

/** The answer options for a question: deterministic in the text. */
export function prompterOptions(text: string): PrompterOption[] {
  const h = hashString(text);
  const confidences = new Map<Intent, number>();
  const bot = answerQuery(text);
  const own = INTENTS.find((intent) => intent.nlpClass === bot.nlpClass);
  if (own && bot.nlpClass !== FALLBACK_CLASS) confidences.set(own, bot.confidence ?? 0);
  for (const [n, intent] of keywordIntents(text).entries())
    if (!confidences.has(intent)) confidences.set(intent, round3(0.3 + unit(h, 61, n) * 0.25));
  for (const [n, intent] of INTENTS.entries())
    if (!confidences.has(intent)) confidences.set(intent, round3(unit(h, 67, n) * 0.36));
  return [...confidences.entries()]
    .filter(([, confidence]) => confidence >= PROMPTER_THRESHOLD)
    .sort((a, b) => b[1] - a[1] || INTENTS.indexOf(a[0]) - INTENTS.indexOf(b[0]))
    .slice(0, PROMPTER_MAX_OPTIONS)
    .map(([intent, confidence]) => optionOf(intent, confidence));
}

export class Prompter {
  /** Every question asked, in order (ground truth). */
  readonly asked: PrompterAsked[] = [];
  readonly webhooks: WebhookSender;

  constructor(settings: WebhookSettings) {
    this.webhooks = new WebhookSender(settings);
  }

  /** Answers a question with its questionId and starts delivering its options to the channel's webhook. */
  ask(channel: ChatChannel, question: PrompterQuestion): string {
    const questionId = randomUUID();
    const options = prompterOptions(question.text);
    this.asked.push({
      token: channel.token,
      questionId,
      chatId: question.chatId,
      clientId: question.clientInfo.id,
      text: question.text,
      askedAt: Date.now(),
      options,
    });
    const payload = {
      clientInfo: { id: question.clientInfo.id },
      chatId: question.chatId,
      questionId,
      answerOptions: options,
    };
    this.webhooks.send(channel.token, channel.prompterWebhookUrl, payload, { asArray: false });
    return questionId;
  }

  close(): Promise<void> {
    return this.webhooks.close();
  }
}
