// Catch-all questions from a labelled corpus instead of the emulator's own topics (an emulator option): real
// customer questions nobody here wrote, each with its true intent for the truth (unhandled-truth.ts). A corpus
// file holds one question a line as `intent<TAB>text`, plain or gzip (test/fixtures/unhandled/: Banking77 and
// CLINC150, their licences beside them). Message (i, k) asks the entry a hash of (seed, i, k) picks: with
// replacement, so frequent questions repeat as real traffic does. Pure: the generator and the truth agree.
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { pickIndex } from './prng.js';
import type { UnhandledQuestion } from './unhandled-topics.js';

export interface UnhandledCorpus {
  /** The file's name, for the truth's answer. */
  name: string;
  texts: readonly string[];
  intents: readonly string[];
}

/** Where catch-all questions come from: the emulator's hidden topics (default) or a corpus. */
export interface CatchAllOptions {
  corpus?: UnhandledCorpus;
  /**
   * Share of the bot's answered messages that are catch-all (default 0.12, the emulator's usual); a higher
   * share gives a month of a corpus's questions with fewer sessions to sync.
   */
  share?: number;
}

/** The corpus in a file (`intent<TAB>text` lines, gzip when it starts with gzip's magic bytes). */
export function readUnhandledCorpus(path: string): UnhandledCorpus {
  const bytes = readFileSync(path);
  const text = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes).toString('utf8');
  const texts: string[] = [];
  const intents: string[] = [];
  for (const [n, line] of text.split('\n').entries()) {
    if (line.trim() === '') continue;
    const tab = line.indexOf('\t');
    if (tab <= 0 || tab === line.length - 1)
      throw new Error(`${path}: line ${n + 1} is not "intent<TAB>text"`);
    intents.push(line.slice(0, tab));
    texts.push(line.slice(tab + 1));
  }
  if (texts.length === 0) throw new Error(`${path}: no question in the corpus`);
  return { name: path.split('/').pop()!, texts, intents };
}

/** The corpus question of message (i, k) of a project with seed `s`, and its intent. */
export function corpusQuestion(corpus: UnhandledCorpus, s: number, i: number, k: number): UnhandledQuestion {
  const at = pickIndex(corpus.texts.length, s, i, k, 440);
  return { text: corpus.texts[at]!, topic: corpus.intents[at]! };
}
