// The emulated bot behind a Chat API channel: answers a client's text from the vocabulary's intents (the
// phrase itself, then a keyword of it), an event with the start answer, anything else with the fallback;
// deterministic (the confidence is a hash of the text). `/Operator` hands the dialog to an agent.
import { hashString, pick, unit } from '../prng.js';
import {
  AGENT_ANSWERS,
  AGENTS,
  FALLBACK_ANSWER,
  FALLBACK_CLASS,
  INTENTS,
  type Intent,
} from '../vocabulary.js';

export interface BotAnswer {
  nlpClass?: string;
  nlpState: string;
  confidence?: number;
  answer: string;
  /** The answer hands the dialog to an agent. */
  isSwitch: boolean;
}

const KEYWORDS: readonly [RegExp, string][] = [
  [/привет|здравств|hello|\bhi\b|добр/i, '/Greeting'],
  [/заказ|достав|курьер|order|deliver/i, '/Delivery/Status'],
  [/оплат|карт|pay|visa/i, '/Payment/Methods'],
  [/возврат|вернуть|refund/i, '/Refund'],
  [/оператор|человек|специалист|operator|agent|human/i, '/Operator'],
  [/режим|работаете|открыва|hours/i, '/Hours'],
  [/адрес|находитесь|address/i, '/Address'],
  [/спасибо|благодар|thank/i, '/Thanks'],
  [/пока|свидания|bye/i, '/Goodbye'],
];

/** The intents a keyword of the text names (several when it mentions several topics), in KEYWORDS order. */
export function keywordIntents(text: string): Intent[] {
  const t = text.trim().toLowerCase();
  return KEYWORDS.filter(([pattern]) => pattern.test(t)).flatMap(
    ([, nlpClass]) => INTENTS.find((intent) => intent.nlpClass === nlpClass) ?? [],
  );
}

function intentOf(text: string): Intent | undefined {
  const t = text.trim().toLowerCase();
  const exact = INTENTS.find((intent) => intent.questions.some((q) => q.toLowerCase() === t));
  if (exact) return exact;
  const keyword = KEYWORDS.find(([pattern]) => pattern.test(t));
  return keyword ? INTENTS.find((intent) => intent.nlpClass === keyword[1]) : undefined;
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The bot's answer to a text query. */
export function answerQuery(text: string): BotAnswer {
  const h = hashString(text);
  const intent = intentOf(text);
  if (!intent)
    return {
      nlpClass: FALLBACK_CLASS,
      nlpState: FALLBACK_CLASS,
      confidence: round3(0.05 + unit(h, 41) * 0.25),
      answer: FALLBACK_ANSWER,
      isSwitch: false,
    };
  return {
    nlpClass: intent.nlpClass,
    nlpState: intent.nlpClass,
    confidence: round3(0.55 + unit(h, 44) * 0.44),
    answer: intent.answer,
    isSwitch: intent.nlpClass === '/Operator',
  };
}

/** The bot's answer to an event (`/start` and any other): the start answer. */
export function answerEvent(_event: string): BotAnswer {
  return { nlpState: '/Start', answer: INTENTS[0]!.answer, isSwitch: false };
}

/** An agent's reply to the n-th message of a transferred dialog: who, what, and how long after the question. */
export function agentReply(
  seed: number,
  session: number,
  k: number,
): { operator: (typeof AGENTS)[number]; text: string; delayMs: number } {
  return {
    operator: pick(AGENTS, seed, session, 32),
    text: pick(AGENT_ANSWERS, seed, session, k, 33),
    delayMs: 5_000 + Math.floor(unit(seed, session, k, 34) * 55_000),
  };
}
