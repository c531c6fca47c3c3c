// A question made safe to store and show, and its signature for grouping: Unicode NFKC, lower case, `ё` as
// `е`, e-mails, phone numbers and every other number masked (`<email>`, `<phone>`, `<n>`), punctuation and
// control characters dropped. The signature is the masked text's content words without stop words of Russian
// and English, each cut to its first 5 letters (a light stem: Russian endings and most typos fall beyond it),
// distinct and sorted: word order and case no longer matter.

const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu;
/** A phone: an optional +, then at least 7 digits with spaces, dashes, dots or brackets between them. */
const PHONE = /\+?\(?\d(?:[\s().-]*\d){6,}/g;
const NUMBER = /\p{N}+/gu;
const NOT_A_WORD = /[^\p{L}\p{N}\u0001\s]+/gu;
const CONTROL = /[\p{Cc}\p{Cf}]+/gu;
const MASKS: Readonly<Record<string, string>> = { e: '<email>', p: '<phone>', n: '<n>' };
const STEM_LENGTH = 5;

const STOP_WORDS = new Set(
  (
    'и в во не что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот от ' +
    'меня еще нет о из ему когда даже ну ли если уже или ни быть был него до вас вам ведь там потом себя ей ' +
    'может они тут где есть надо ней для мы тебя их чем была сам чтоб без чего раз тоже себе под будет ж тогда ' +
    'кто этот того потому этого какой какие какая ним здесь этом мой тем чтобы нее сейчас были куда зачем всех можно при ' +
    'об хоть после над больше тот через эти нас про всего них много эту моя вы ваш ваши вашем свой хочу ' +
    'пожалуйста подскажите скажите нужна нужен нужно нужны ' +
    'a an the and or but is are was were be been to of in on at for with by from do does did can could would ' +
    'will i you we my your our me it this that there what how when where which who please any have has ' +
    'there here into an as if so not no yes'
  ).split(' '),
);

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
    .replace(NOT_A_WORD, ' ');
  return marked
    .split(/\s+/u)
    .filter((w) => w !== '')
    .map((w) => (w.startsWith('\u0001') ? (MASKS[w.slice(1)] ?? '') : w))
    .join(' ');
}

/** The content words of a masked text, stemmed, distinct and sorted. */
export function signatureTerms(masked: string): string[] {
  const terms = new Set<string>();
  for (const word of masked.split(' ')) {
    if (word === '' || word.startsWith('<') || STOP_WORDS.has(word)) continue;
    terms.add(Array.from(word).slice(0, STEM_LENGTH).join(''));
  }
  return [...terms].sort();
}
