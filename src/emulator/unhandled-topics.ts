// The questions the emulated bot cannot handle (its catch-all class): most come from hidden topics, each told
// in a few phrasings with synonyms and numbers, then perturbed as people type (word order, a typo, case,
// punctuation); the rest are one-off noise. Russian and English. Pure functions of (seed, session, message):
// the generator and the ground truth (unhandledTruth) regenerate the same text and topic without shared state.
import { pick, pickIndex, pickWeighted, unit } from './prng.js';

export interface UnhandledTopic {
  /** The truth's name of the topic (never shown to the code under test). */
  id: string;
  weight: number;
  /** Phrasings: `{a|b}` picks one alternative, `{n}` a number, `{phone}` / `{email}` a contact. */
  phrasings: readonly string[];
}

export const UNHANDLED_TOPICS: readonly UnhandledTopic[] = [
  {
    id: 'gift-card',
    weight: 10,
    phrasings: [
      '{Можно|Как} {купить|оформить} подарочный сертификат на {n} рублей',
      'Подарочный сертификат {есть|продаёте}',
      'хочу {купить|заказать} подарочный сертификат другу',
    ],
  },
  {
    id: 'installment',
    weight: 9,
    phrasings: [
      'Есть ли рассрочка на {n} месяцев',
      'Можно {купить|оплатить} в рассрочку без переплаты',
      'рассрочка без переплаты {есть|бывает}',
    ],
  },
  {
    id: 'promo-code',
    weight: 8,
    phrasings: [
      'Промокод {n} не {работает|применяется}',
      'Куда {вводить|ввести} промокод',
      'промокод не {принимается|работает} при оплате',
    ],
  },
  {
    id: 'wholesale',
    weight: 6,
    phrasings: [
      '{Продаёте|Продаете} оптом для юрлиц',
      'Оптовые цены от {n} штук',
      'какие оптовые цены для юрлиц',
    ],
  },
  {
    id: 'change-phone',
    weight: 5,
    phrasings: [
      '{Поменять|Изменить} номер телефона на {phone}',
      'Как {поменять|сменить} номер телефона в профиле',
      'новый номер телефона {phone} {поменяйте|измените}',
    ],
  },
  {
    id: 'invoice',
    weight: 5,
    phrasings: [
      'Пришлите счёт-фактуру на почту {email}',
      '{Нужна|Нужен} счёт-фактура для бухгалтерии',
      'счёт-фактура на заказ {n} для бухгалтерии',
    ],
  },
  {
    id: 'pet-friendly',
    weight: 4,
    phrasings: [
      'Can I {bring|take} my dog into the store',
      'Are dogs allowed in the store',
      'dogs {allowed|welcome} in your store',
    ],
  },
  {
    id: 'gift-wrap',
    weight: 4,
    phrasings: [
      'Do you offer gift wrapping',
      'Can you {gift wrap|wrap} my order {n}',
      'gift wrapping for an order {available|possible}',
    ],
  },
  {
    id: 'student-discount',
    weight: 4,
    phrasings: [
      'Is there a student discount',
      'Student discount {available|offered} with a student card',
      'discount for students {please|available}',
    ],
  },
  {
    id: 'crypto',
    weight: 3,
    phrasings: [
      'Can I pay with {bitcoin|crypto}',
      'Do you accept {bitcoin|cryptocurrency} payments',
      'bitcoin payment {accepted|possible}',
    ],
  },
  {
    id: 'assembly',
    weight: 3,
    phrasings: [
      'Делаете ли вы сборку мебели после доставки',
      'Сборка мебели {входит|включена} в стоимость',
      'нужна сборка мебели {n} шкафов',
    ],
  },
  {
    id: 'international',
    weight: 3,
    phrasings: [
      'Do you ship {abroad|internationally} to Germany',
      'International shipping to Germany {available|possible}',
      'ship my order {n} abroad to Germany',
    ],
  },
];

/** The share of catch-all questions that are one-off noise (the rest come from UNHANDLED_TOPICS). */
export const UNHANDLED_NOISE_SHARE = 0.12;

const TOPIC_WEIGHTS = UNHANDLED_TOPICS.map((t) => t.weight);
const NOISE_LETTERS = 'абвгдежзиклмнопрстуфхцчшщэюяqwertyuiopasdfghjklzxcvbnm';
const ENDINGS = ['', '?', '??', '!', '...', ' ?', '.'];

/** A catch-all question and the topic it came from (undefined: noise). */
export interface UnhandledQuestion {
  text: string;
  topic: string | undefined;
}

/** The catch-all question of message (i, k) of a project with seed `s`. */
export function unhandledQuestion(s: number, i: number, k: number): UnhandledQuestion {
  if (unit(s, i, k, 400) < UNHANDLED_NOISE_SHARE) return { text: noiseText(s, i, k), topic: undefined };
  const topic = pickWeighted(UNHANDLED_TOPICS, TOPIC_WEIGHTS, unit(s, i, k, 401));
  const phrasing = pick(topic.phrasings, s, i, k, 402);
  return { text: perturb(fillPhrasing(phrasing, s, i, k), s, i, k), topic: topic.id };
}

/** Alternatives, numbers and contacts of a phrasing filled in by hash. */
function fillPhrasing(phrasing: string, s: number, i: number, k: number): string {
  let slot = 0;
  return phrasing.replace(/\{([^}]+)\}/g, (_, body: string) => {
    slot++;
    if (body === 'n') return String(1 + pickIndex(5000, s, i, k, 410, slot));
    if (body === 'phone')
      return `+7 9${pickIndex(100, s, i, k, 411)} ${100 + pickIndex(900, s, i, k, 412)}-45-67`;
    if (body === 'email') return `client${pickIndex(10_000, s, i, k, 413)}@example.ru`;
    return pick(body.split('|'), s, i, k, 414, slot);
  });
}

/** As people type: two neighbouring words swapped, a typo, the case changed, an ending added. */
function perturb(text: string, s: number, i: number, k: number): string {
  const words = text.split(' ');
  if (words.length > 2 && unit(s, i, k, 420) < 0.3) {
    const at = pickIndex(words.length - 1, s, i, k, 421);
    [words[at], words[at + 1]] = [words[at + 1]!, words[at]!];
  }
  if (unit(s, i, k, 422) < 0.3) {
    const at = pickIndex(words.length, s, i, k, 423);
    words[at] = swapLetters(words[at]!, pickIndex(8, s, i, k, 424));
  }
  let out = words.join(' ');
  const casing = unit(s, i, k, 425);
  if (casing < 0.15) out = out.toLowerCase();
  else if (casing < 0.2) out = out.toUpperCase();
  return out + pick(ENDINGS, s, i, k, 426);
}

/** Two neighbouring letters of a long enough word swapped (a typo). */
function swapLetters(word: string, at: number): string {
  const letters = Array.from(word);
  if (letters.length < 5) return word;
  const j = 1 + (at % (letters.length - 2));
  [letters[j], letters[j + 1]] = [letters[j + 1]!, letters[j]!];
  return letters.join('');
}

/** A one-off message: a few random words of random letters. */
function noiseText(s: number, i: number, k: number): string {
  const words: string[] = [];
  const count = 1 + pickIndex(3, s, i, k, 430);
  for (let w = 0; w < count; w++) {
    let word = '';
    const length = 3 + pickIndex(6, s, i, k, 431, w);
    for (let c = 0; c < length; c++)
      word += NOISE_LETTERS[pickIndex(NOISE_LETTERS.length, s, i, k, 432, w, c)];
    words.push(word);
  }
  return words.join(' ');
}
