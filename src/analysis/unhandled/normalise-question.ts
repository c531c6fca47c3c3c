// A question made safe to store and show, and its words: Unicode NFKC, lower case, `ё` as `е`, e-mails,
// phone numbers and every other number masked (`<email>`, `<phone>`, `<n>`), an apostrophe inside a word
// joining it (`didn't` → `didnt`, never a stray `t`), punctuation and control characters dropped. Only masked
// texts reach the tables and the output; the masked text is also the key equal questions are counted under.

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
/** A phone: an optional +, then at least 7 digits with spaces, dashes, dots or brackets between them. */
const PHONE = /\+?\(?\d(?:[\s().-]*\d){6,}/g;
const NUMBER = /\p{N}+/gu;
const APOSTROPHE = /(?<=\p{L})['’`ʼ](?=\p{L})/gu;
const NOT_A_WORD = /[^\p{L}\p{N}\u0001\s]+/gu;
const CONTROL = /[\p{Cc}\p{Cf}]+/gu;
const MASKS: Readonly<Record<string, string>> = { e: '<email>', p: '<phone>', n: '<n>' };
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;

/** The text masked and normalised: what is stored and shown of a question. */
export function maskQuestion(text: string): string {
  const marked = text
    .normalize('NFKC')
    .replace(CONTROL, ' ')
    .toLowerCase()
    .replaceAll('ё', 'е')
    .replace(EMAIL, ' \u0001e ')
    .replace(PHONE, ' \u0001p ')
    .replace(NUMBER, ' \u0001n ')
    .replace(APOSTROPHE, '')
    .replace(NOT_A_WORD, ' ');
  return marked
    .split(/\s+/u)
    .filter((w) => w !== '')
    .map((w) => (w.startsWith('\u0001') ? (MASKS[w.slice(1)] ?? '') : w))
    .join(' ');
}

/** The words of a masked text, placeholders (`<n>`, `<phone>`, `<email>`) left out. */
export function questionWords(masked: string): string[] {
  return masked.split(' ').filter((w) => w !== '' && !w.startsWith('<'));
}

/** The script of a word: 'ru' (any Cyrillic letter), 'en' (any Latin letter), else 'other'. */
export function scriptOf(word: string): 'ru' | 'en' | 'other' {
  if (CYRILLIC.test(word)) return 'ru';
  if (LATIN.test(word)) return 'en';
  return 'other';
}
