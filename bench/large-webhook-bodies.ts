// The large Chat API bodies of the webhooks-large step and its floor (issue 30, item 7): 2,000 POST bodies
// of about 50 KB each, one object whose `data` holds ten replies of words made of random syllables
// (Cyrillic and Latin, so the JSON is mostly 2-byte UTF-8, and DuckDB's string compression finds what it
// would in real answers). The same index gives the same body, so the receiver and the floor store the same.

/** How many bodies the step sends. */
export const LARGE_BODY_COUNT = 2_000;
/** The size of each body, bytes of JSON (about). */
export const LARGE_BODY_BYTES = 50_000;

// words of one to four syllables: about 19 bits a word, so a text compresses about as much as real replies
const SYLLABLES = [
  'за',
  'ка',
  'до',
  'ста',
  'вка',
  'ку',
  'рьер',
  'о',
  'пла',
  'та',
  'воз',
  'врат',
  'ну',
  'мер',
  'пункт',
  'вы',
  'да',
  'чи',
  'се',
  'год',
  'ня',
  'ord',
  'er',
  'de',
  'li',
  'ver',
  'y',
  'tra',
  'ck',
  'ing',
  'ва',
  'ш',
];

/** The next state of a 32-bit linear congruential generator; its high bits are the random ones. */
const next = (state: number): number => (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;

/** A text of about `bytes` bytes of UTF-8, syllables picked by the generator seeded with `seed`. */
function text(seed: number, bytes: number): string {
  const words: string[] = [];
  let state = next(seed >>> 0);
  for (let size = 0; size < bytes; ) {
    state = next(state);
    let word = '';
    for (let s = 0; s <= state >>> 30; s++) {
      state = next(state);
      word += SYLLABLES[(state >>> 16) % SYLLABLES.length];
    }
    words.push(word);
    size += Buffer.byteLength(word) + 1;
  }
  return words.join(' ');
}

/** The Chat API object of body `index` (before JSON.stringify and the array around it), of about `bytes`. */
export function largeWebhookObject(
  index: number,
  token: string,
  bytes: number = LARGE_BODY_BYTES,
): Record<string, unknown> {
  const replyBytes = Math.floor((bytes - 2_000) / 10);
  const replies = Array.from({ length: 10 }, (_, r) => ({
    type: 'text',
    text: text(index * 10 + r, replyBytes),
  }));
  return {
    token,
    clientId: `client-${index % 97}`,
    questionId: `large-${index}`,
    data: {
      nlpClass: '/Delivery/Status',
      confidence: 0.8,
      answer: text(index, 1_000),
      replies,
    },
    timestamp: '2026-11-20T09:30:00.123',
    blockForm: false,
  };
}

/** The POST body of request `index`: a JSON array of one object (of about `bytes`). */
export const largeWebhookBody = (index: number, token: string, bytes: number = LARGE_BODY_BYTES): string =>
  JSON.stringify([largeWebhookObject(index, token, bytes)]);
