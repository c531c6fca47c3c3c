// Words to terms: stop words out, each word stemmed by the Snowball stemmer of its script (Cyrillic → Russian,
// Latin → English; other scripts kept as they are). The stop lists are Snowball's, cut down to words that
// never carry a topic (pronouns, articles, auxiliaries, conjunctions, politeness): negations and particles that
// change an intent (not, no, off, on, up, down, out, не, нет, без) are kept.
import { createRequire } from 'node:module';
import { questionWords, scriptOf } from './normalise-question.js';

interface Stemmer {
  stem(word: string): string;
}
// snowball-stemmers is CommonJS without types: its one function, typed here.
const snowball = createRequire(import.meta.url)('snowball-stemmers') as {
  newStemmer(language: string): Stemmer;
};
const ENGLISH = snowball.newStemmer('english');
const RUSSIAN = snowball.newStemmer('russian');

export const STOP_WORDS: ReadonlySet<string> = new Set(
  // English: Snowball's list less not/no/nor/off/on/up/down/out/over/under/again/before/after and the
  // question words, plus contractions written without their apostrophe and chat politeness.
  (
    'i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers ' +
    'herself it its itself they them their theirs themselves what which who whom this that these those am is ' +
    'are was were be been being have has had having do does did doing would should could ought will shall can ' +
    'may might must a an the and but if or because as until while of at by for with about into through during ' +
    'to from in then once here there all any both each few more most other some such only own same so than ' +
    'too very just im ive id ill youre youve youd youll hes shes were theyre weve theyve wed theyd ' +
    'isnt arent wasnt werent hasnt havent hadnt doesnt dont didnt wont wouldnt shant shouldnt cant cannot ' +
    'couldnt mustnt lets thats whos whats heres theres whens wheres whys hows s t d ll m re ve u ur pls ' +
    'please thanks thank hi hello hey ok okay get got also want need know tell ' +
    // Russian: Snowball's list less не/нет/ни/без, plus politeness.
    'и в во что он на я с со как а то все она так его но да ты к у же вы за бы по только ее мне было вот от ' +
    'меня еще о из ему теперь когда даже ну вдруг ли если уже или быть был него до вас нибудь опять уж вам ' +
    'ведь там потом себя ничего ей может они тут где есть надо ней для мы тебя их чем была сам чтоб чего раз ' +
    'тоже себе под будет ж тогда кто этот того потому этого какой совсем ним здесь этом один почти мой тем ' +
    'чтобы нее сейчас были куда зачем всех никогда можно при наконец два об другой хоть после над больше тот ' +
    'через эти нас про всего них какая много разве три эту моя впрочем хорошо свою этой перед иногда лучше ' +
    'чуть том нельзя такой им более всегда конечно всю между какие ваш ваши вашем свой хочу ' +
    'пожалуйста подскажите скажите спасибо здравствуйте привет добрый день'
  ).split(' '),
);

/** Stems already computed (a period repeats its words); cleared when it grows past this many words. */
const CACHE_LIMIT = 500_000;
const cache = new Map<string, string>();

/** The stem of one lower-case word by its script's Snowball stemmer; other scripts as they are. */
export function stemWord(word: string): string {
  let stem = cache.get(word);
  if (stem === undefined) {
    const script = scriptOf(word);
    stem = script === 'ru' ? RUSSIAN.stem(word) : script === 'en' ? ENGLISH.stem(word) : word;
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(word, stem);
  }
  return stem;
}

/** Whether a word makes a term: two letters or more and not a stop word. */
export function isContentWord(word: string): boolean {
  return word.length >= 2 && !STOP_WORDS.has(word);
}

/** The content terms of words, in order: stop words and 1-letter words out, each stemmed. */
export function contentTerms(words: readonly string[]): string[] {
  const out: string[] = [];
  for (const w of words) if (isContentWord(w)) out.push(stemWord(w));
  return out;
}

/** The distinct content terms of a masked text, sorted. */
export function questionTerms(masked: string): string[] {
  return [...new Set(contentTerms(questionWords(masked)))].sort();
}
