// The knowledge base's answers to some of the hidden topics of the unhandled questions (unhandled-topics.ts):
// one FAQ source per covered topic, in the topic's language, answering it with its own words, so that
// `reporter-etl unhandled --coverage` finds them; the other topics have no answer in the knowledge base (some
// share a word with a generated source: `store`, `pay`). The unhandled truth says which topics are covered
// (unhandledTruth().coveredTopics), straight from here.
import type { KbSource } from './kb-model.js';
import { sha256 } from './kb-model.js';

const DAY = 86_400_000;

/** Topic id (unhandled-topics.ts) → the text of the FAQ source that answers it. */
export const KB_TOPIC_ANSWERS: Readonly<Record<string, string>> = {
  'gift-card':
    'Подарочный сертификат можно купить на сайте или в магазине на сумму от 1000 до 50000 рублей. Подарочный сертификат другу оформить можно онлайн: он придёт на почту. Подарочный сертификат действует один год.',
  'promo-code':
    'Промокод вводится в корзине в поле «Промокод» до оплаты. Если промокод не работает или не применяется при оплате, проверьте срок его действия. Промокод не принимается вместе со скидкой.',
  'change-phone':
    'Номер телефона можно поменять в профиле, в разделе «Настройки». Чтобы изменить или сменить номер телефона, подтвердите новый номер кодом из SMS.',
  'gift-wrap':
    'We offer gift wrapping for any order at checkout. Gift wrapping is possible for an order of any size and is free above 3000 rubles.',
  'student-discount':
    'Students get a student discount of 10 percent with a valid student card. The student discount is available online and offered in every store.',
  international:
    'We ship orders abroad: internationally to Germany and the rest of the EU. International shipping to Germany is available and takes 7 to 14 days.',
};

/** The topics the knowledge base answers, in a fixed order. */
export const KB_COVERED_TOPICS: readonly string[] = Object.keys(KB_TOPIC_ANSWERS).sort();

/** The FAQ sources of the main project, ids from `firstId` on, indexed 30 days before `now`. */
export function topicAnswerSources(projectId: number, firstId: number, now: number): KbSource[] {
  return KB_COVERED_TOPICS.map((topic, n) => {
    const text = KB_TOPIC_ANSWERS[topic]!;
    const createdAt = now - 30 * DAY;
    return {
      id: firstId + n,
      projectId,
      name: `faq-${topic}.txt`,
      type: 'TEXT',
      segments: [],
      accessControlAttributes: [],
      createdAt,
      version: 1,
      text,
      sizeBytes: Buffer.byteLength(text),
      hash: sha256(text),
      indexing: { queuedAt: createdAt, processingAt: createdAt + 60_000, doneAt: createdAt + 180_000 },
    };
  });
}
