// The generated knowledge of the emulated knowledge base: every source is one topic about one subject
// (delivery to Kazan, the warranty of a kettle, ...) told in a few sentences with seeded facts, and every
// source has one question whose answer is the source's first fact. Pure functions of (seed, index): the
// service and the ground truth both regenerate the same texts without sharing state.
import { pickIndex } from '../prng.js';

export interface KbTopic {
  /** Word used in source names: `delivery-kazan.md`. */
  slug: string;
  subjects: readonly string[];
  /** Sentences with `{s}` (the subject) and `{n}` (a seeded number); the first is the question's answer. */
  facts: readonly string[];
  /** The question about the first fact, with `{s}`. */
  question: string;
}

const CITIES = [
  'Kazan',
  'Samara',
  'Omsk',
  'Tula',
  'Perm',
  'Sochi',
  'Tver',
  'Irkutsk',
  'Vologda',
  'Murmansk',
  'Kaluga',
  'Ryazan',
  'Tomsk',
  'Penza',
  'Kursk',
  'Orel',
  'Yaroslavl',
  'Vladimir',
  'Smolensk',
  'Bryansk',
];
const PRODUCTS = [
  'kettle',
  'blender',
  'toaster',
  'vacuum',
  'heater',
  'juicer',
  'mixer',
  'scale',
  'iron',
  'fan',
  'router',
  'printer',
  'camera',
  'speaker',
  'monitor',
  'keyboard',
  'headphones',
  'microwave',
  'dishwasher',
  'fridge',
];
const PLANS = [
  'basic',
  'standard',
  'premium',
  'family',
  'student',
  'business',
  'travel',
  'senior',
  'gold',
  'silver',
  'bronze',
  'platinum',
  'night',
  'weekend',
  'kids',
  'pro',
  'lite',
  'ultimate',
  'starter',
  'corporate',
];

/** Topic, facts and question templates; `unit` is the part of the first fact an answer must contain. */
export const KB_TOPICS: readonly (KbTopic & { range: [number, number]; unit: string })[] = [
  {
    slug: 'delivery',
    subjects: CITIES,
    facts: [
      'Courier delivery to {s} takes {n} days.',
      'Pickup points in {s} keep a parcel for a week.',
      'Orders to {s} above 5000 rubles ship without a fee.',
    ],
    question: 'How many days does courier delivery to {s} take?',
    range: [2, 9],
    unit: '{n} days',
  },
  {
    slug: 'store',
    subjects: CITIES,
    facts: [
      'The flagship store in {s} opens at {n} in the morning.',
      'The flagship store in {s} has a parking lot for customers.',
      'Staff in {s} accept returns at the service desk.',
    ],
    question: 'When does the flagship store in {s} open?',
    range: [8, 11],
    unit: '{n} in the morning',
  },
  {
    slug: 'office',
    subjects: CITIES,
    facts: [
      'The support office in {s} answers on phone line {n}.',
      'The support office in {s} works without lunch breaks.',
      'Visitors of the office in {s} need an appointment.',
    ],
    question: 'Which phone line does the support office in {s} answer on?',
    range: [100, 999],
    unit: 'line {n}',
  },
  {
    slug: 'festival',
    subjects: CITIES,
    facts: [
      'The summer festival in {s} lasts {n} days.',
      'Tickets to the festival in {s} are sold online.',
      'The festival in {s} ends with fireworks.',
    ],
    question: 'How many days does the summer festival in {s} last?',
    range: [2, 12],
    unit: '{n} days',
  },
  {
    slug: 'warranty',
    subjects: PRODUCTS,
    facts: [
      'The {s} comes with a warranty of {n} months.',
      'A broken {s} is repaired at an authorised service centre.',
      'Keep the receipt of the {s} to claim the warranty.',
    ],
    question: 'How long is the warranty on the {s}?',
    range: [12, 36],
    unit: '{n} months',
  },
  {
    slug: 'returns',
    subjects: PRODUCTS,
    facts: [
      'An unused {s} can be returned within {n} days of purchase.',
      'Return the {s} in its original packaging.',
      'Refunds for a {s} reach the card in five working days.',
    ],
    question: 'Within how many days can an unused {s} be returned?',
    range: [14, 30],
    unit: '{n} days',
  },
  {
    slug: 'manual',
    subjects: PRODUCTS,
    facts: [
      'The {s} manual says to clean it every {n} weeks.',
      'The {s} manual lists the spare parts.',
      'Unplug the {s} before cleaning, the manual warns.',
    ],
    question: 'How often does the {s} manual say to clean it?',
    range: [2, 8],
    unit: '{n} weeks',
  },
  {
    slug: 'tariff',
    subjects: PLANS,
    facts: [
      'The {s} subscription costs {n} rubles per month.',
      'The {s} subscription can be cancelled at any moment.',
      'Upgrading from the {s} subscription keeps the remaining days.',
    ],
    question: 'How much does the {s} subscription cost per month?',
    range: [199, 999],
    unit: '{n} rubles',
  },
  {
    slug: 'bonus',
    subjects: PLANS,
    facts: [
      'Members of the {s} loyalty tier earn {n} bonus points per purchase.',
      'Bonus points of the {s} loyalty tier expire after one year.',
      'Points of the {s} loyalty tier pay for up to half of an order.',
    ],
    question: 'How many bonus points does the {s} loyalty tier earn per purchase?',
    range: [5, 50],
    unit: '{n} bonus points',
  },
  {
    slug: 'trial',
    subjects: PLANS,
    facts: [
      'The {s} plan offers a free trial of {n} days.',
      'The free trial of the {s} plan needs no card.',
      'After the trial the {s} plan renews monthly.',
    ],
    question: 'How long is the free trial of the {s} plan?',
    range: [7, 30],
    unit: '{n} days',
  },
];

/** The number of distinct topic × subject pairs: the most sources the world can hold without repeats. */
export const KB_PAIRS = KB_TOPICS.reduce((n, t) => n + t.subjects.length, 0);

export interface KbKnowledge {
  topic: string;
  subject: string;
  /** The whole text of the source. */
  text: string;
  question: string;
  /** The answer's key fact: the first sentence of the text. */
  answer: string;
  /** A short part of the answer that an evaluation can look for (the number with its unit). */
  answerContains: string;
}

/** The `index`-th topic × subject pair in a seeded order (distinct for index < KB_PAIRS). */
export function knowledgePair(seed: number, index: number): { topic: KbTopic; subject: string } {
  const pairs: { topic: KbTopic; subject: string }[] = [];
  for (const topic of KB_TOPICS) for (const subject of topic.subjects) pairs.push({ topic, subject });
  // a seeded rotation and stride keep pairs distinct while mixing topics
  const offset = pickIndex(pairs.length, seed, 0x6b62);
  return pairs[(offset + index * strideFor(pairs.length)) % pairs.length]!;
}

/** A stride coprime with `n`, so that `(offset + i × stride) mod n` visits every pair once. */
function strideFor(n: number): number {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  let stride = 7;
  while (gcd(stride, n) !== 1) stride++;
  return stride;
}

/** The text, question and answer of the source with this index. */
export function knowledgeOf(seed: number, index: number): KbKnowledge {
  const { topic, subject } = knowledgePair(seed, index);
  const t = topic as (typeof KB_TOPICS)[number];
  const n = t.range[0] + pickIndex(t.range[1] - t.range[0] + 1, seed, index, 0x6e75);
  const fill = (s: string) => s.replaceAll('{s}', subject).replaceAll('{n}', String(n));
  const sentences = topic.facts.map(fill);
  return {
    topic: topic.slug,
    subject,
    text: sentences.join(' '),
    question: fill(topic.question),
    answer: sentences[0]!,
    answerContains: fill(t.unit),
  };
}
