// The questions `kb eval` asks the knowledge base, read from a file: CSV with a header row (`question`, optional
// `expected_sources`, `expected_answer_contains`, `id`) or JSONL (one object per line with the same fields); the
// format goes by the extension (.csv; .jsonl or .ndjson). Any fault is refused with the file, its line and the
// column or field at fault (never skipped: a silently dropped question would skew the figures). In CSV a
// cell lists several expected sources separated by `|` or `;`; in JSONL they are an array (or such a string).
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../../errors.js';
import { jsonFaultColumn, parseJsonText } from '../../text/parse-json-text.js';

export interface KbEvalQuestion {
  /** What joins a question across runs: the `id` column, else the question's text. */
  key: string;
  question: string;
  /** Source ids (digits) or source names (as in `kb sync`'s kb_sources.name), in the file's order; may be empty. */
  expectedSources: string[];
  /** Texts the answer must all contain (case and spacing ignored); may be empty. */
  expectedAnswerContains: string[];
  /** The line of the file it was read from (none for questions of --sql). */
  line?: number;
}

export const QUESTION_COLUMNS = ['question', 'expected_sources', 'expected_answer_contains', 'id'] as const;

/** The longest question asked (characters): a longer one is refused, naming its line (docs/kb-eval.md). */
export const MAX_QUESTION_CHARS = 4000;

/** The questions whose key is their `id` (not their text): a repeat is then a repeated id. */
const keyedById = new WeakSet<KbEvalQuestion>();
const FORMAT_HINT = `columns or fields: ${QUESTION_COLUMNS.join(', ')}; see docs/kb-eval.md`;

function bad(message: string): UsageError {
  return new UsageError(message, 'kb.bad_questions');
}

/** `a | b; c` → [a, b, c]: trimmed, empty items dropped, duplicates kept once. */
export function splitSourceList(cell: string): string[] {
  return [
    ...new Set(
      cell
        .split(/[|;]/)
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
}

/** A list field of JSONL: an array of strings or numbers, or one string (split like a CSV cell). */
function listField(value: unknown, where: string, field: string, split: boolean): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string')
    return split ? splitSourceList(value) : value.trim() === '' ? [] : [value.trim()];
  if (typeof value === 'number' && Number.isInteger(value) && split) return [String(value)];
  if (Array.isArray(value)) {
    const out: string[] = [];
    for (const [n, item] of value.entries()) {
      if (typeof item === 'number' && Number.isInteger(item)) out.push(String(item));
      else if (typeof item === 'string' && item.trim() !== '') out.push(item.trim());
      else
        throw bad(
          `${where}, field ${field}: item ${n + 1} is ${JSON.stringify(item)}; give ${split ? 'source ids or names' : 'texts'}`,
        );
    }
    return [...new Set(out)];
  }
  throw bad(
    `${where}, field ${field}: expected ${split ? 'an array of source ids or names' : 'a text or an array of texts'}, got ${JSON.stringify(value)}`,
  );
}

/** A question over MAX_QUESTION_CHARS is refused, `where` naming the file, line and column or field. */
export function checkQuestionLength(question: string, where: string): void {
  if (question.length > MAX_QUESTION_CHARS)
    throw bad(
      `${where}: ${question.length} characters, over the limit of ${MAX_QUESTION_CHARS} for a question (docs/kb-eval.md)`,
    );
}

function makeQuestion(fields: {
  question: string;
  expectedSources: string[];
  expectedAnswerContains: string[];
  id?: string;
  line?: number;
}): KbEvalQuestion {
  const question = fields.question.trim();
  const id = fields.id?.trim();
  const made: KbEvalQuestion = {
    key: id === undefined || id === '' ? question : id,
    question,
    expectedSources: fields.expectedSources,
    expectedAnswerContains: fields.expectedAnswerContains,
    ...(fields.line === undefined ? {} : { line: fields.line }),
  };
  if (id !== undefined && id !== '') keyedById.add(made);
  return made;
}

/** Refuses two questions with one key (the text, or the id): the runs' comparison joins questions by it. */
function refuseRepeats(
  questions: KbEvalQuestion[],
  name: string,
  cell: 'column' | 'field',
): KbEvalQuestion[] {
  const seen = new Map<string, KbEvalQuestion>();
  for (const q of questions) {
    const first = seen.get(q.key);
    if (first !== undefined && keyedById.has(q))
      throw bad(
        `${name} line ${q.line}, ${cell} id: repeats the id ${JSON.stringify(q.key.slice(0, 60))} of line ${first.line}; ` +
          'give each question its own id',
      );
    if (first !== undefined)
      throw bad(
        `${name} line ${q.line}: repeats the question of line ${first.line} (${JSON.stringify(q.key.slice(0, 60))}); ` +
          'remove one, or give each an id column',
      );
    seen.set(q.key, q);
  }
  return questions;
}

/** The questions of a CSV text; errors name `name line N, column C`. */
export function parseEvalQuestionsCsv(content: string, name: string): KbEvalQuestion[] {
  // CRLF as LF, so the parser's line count is the editor's (a CRLF inside a quoted cell becomes LF)
  const text = content.replace(/\r\n?/g, '\n');
  let records: { record: Record<string, string>; raw: string; info: { lines: number } }[];
  try {
    records = parse(text, { columns: true, skip_empty_lines: true, bom: true, info: true, raw: true });
  } catch (error) {
    const lines = (error as { lines?: unknown }).lines;
    throw bad(
      `${name}${typeof lines === 'number' ? ` line ${lines}` : ''}: not a valid CSV file (${(error as Error).message})`,
    );
  }
  const header = text.replace(/^\uFEFF/, '').split('\n', 1)[0] ?? '';
  const columns = header.trim() === '' ? [] : parseHeader(header, name);
  const seenColumns = new Map<string, number>();
  for (const [n, column] of columns.entries()) {
    if (!(QUESTION_COLUMNS as readonly string[]).includes(column.trim()))
      throw bad(
        `${name} line 1, column ${n + 1} ("${column}"): not a column of a questions file (${FORMAT_HINT})`,
      );
    const first = seenColumns.get(column.trim());
    if (first !== undefined)
      throw bad(
        `${name} line 1, column ${n + 1} ("${column.trim()}"): repeats column ${first} (each column once)`,
      );
    seenColumns.set(column.trim(), n + 1);
  }
  if (header.trim() !== '' && !columns.some((c) => c.trim() === 'question'))
    throw bad(`${name} line 1: the header row has no "question" column (${FORMAT_HINT})`);
  const questions = records.map(({ record, raw, info }) => {
    const inside = raw.replace(/^\n+/, '').replace(/\n$/, '').split('\n').length - 1;
    const line = info.lines - inside;
    const where = `${name} line ${line}`;
    const cell = (column: string) => {
      const key = Object.keys(record).find((k) => k.trim() === column);
      return key === undefined ? '' : (record[key] ?? '');
    };
    if (cell('question').trim() === '')
      throw bad(`${where}, column question: empty (every row asks a question)`);
    checkQuestionLength(cell('question').trim(), `${where}, column question`);
    const contains = cell('expected_answer_contains').trim();
    return makeQuestion({
      question: cell('question'),
      expectedSources: splitSourceList(cell('expected_sources')),
      expectedAnswerContains: contains === '' ? [] : [contains],
      id: cell('id'),
      line,
    });
  });
  return refuseRepeats(questions, name, 'column');
}

function parseHeader(header: string, name: string): string[] {
  try {
    return (parse(header, { bom: true }) as string[][])[0] ?? [];
  } catch (error) {
    throw bad(`${name} line 1: not a valid CSV header (${(error as Error).message})`);
  }
}

/** The questions of a JSONL text (one object per line, blank lines skipped); errors name `name line N, field F`. */
export function parseEvalQuestionsJsonl(content: string, name: string): KbEvalQuestion[] {
  const out: KbEvalQuestion[] = [];
  for (const [n, line] of content
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .entries()) {
    if (line.trim() === '') continue;
    const where = `${name} line ${n + 1}`;
    let value: unknown;
    try {
      value = parseJsonText(line);
    } catch (error) {
      throw bad(`${where}: not JSON${jsonFaultColumn(error)}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw bad(`${where}: expected an object {"question": ..., "expected_sources": [...]} (${FORMAT_HINT})`);
    const fields = value as Record<string, unknown>;
    for (const key of Object.keys(fields))
      if (!(QUESTION_COLUMNS as readonly string[]).includes(key))
        throw bad(`${where}, field ${key}: not a field of a questions file (${FORMAT_HINT})`);
    const question = fields['question'];
    if (typeof question !== 'string' || question.trim() === '')
      throw bad(
        `${where}, field question: ${question === undefined ? 'missing' : 'not a non-empty text'} (every line asks a question)`,
      );
    checkQuestionLength(question.trim(), `${where}, field question`);
    const id = fields['id'];
    if (id !== undefined && id !== null && typeof id !== 'string' && typeof id !== 'number')
      throw bad(`${where}, field id: expected a text or a number`);
    out.push(
      makeQuestion({
        question,
        expectedSources: listField(fields['expected_sources'], where, 'expected_sources', true),
        expectedAnswerContains: listField(
          fields['expected_answer_contains'],
          where,
          'expected_answer_contains',
          false,
        ),
        ...(id === undefined || id === null ? {} : { id: String(id) }),
        line: n + 1,
      }),
    );
  }
  return refuseRepeats(out, name, 'field');
}

/** Reads a questions file (CSV or JSONL by its extension). */
export function readEvalQuestionsFile(path: string): KbEvalQuestion[] {
  const extension = extname(path).toLowerCase();
  if (!['.csv', '.jsonl', '.ndjson'].includes(extension))
    throw bad(`--questions ${path}: give a .csv or .jsonl file (${FORMAT_HINT})`);
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    throw new UsageError(`--questions ${path}: cannot read it (${(error as Error).message})`);
  }
  const content = decodeUtf8(bytes, path);
  const questions =
    extension === '.csv' ? parseEvalQuestionsCsv(content, path) : parseEvalQuestionsJsonl(content, path);
  if (questions.length === 0)
    throw bad(
      `${path}: no questions (the file is empty${extension === '.csv' ? ', or has a header row only' : ''}); ` +
        `give one question a ${extension === '.csv' ? 'row' : 'line'} (${FORMAT_HINT})`,
    );
  return questions;
}

/**
 * The file's text, strictly UTF-8: a file in another encoding (Windows-1251, Latin-1) would be read as
 * replacement characters and asked mangled, so it is refused naming the line of the first invalid byte.
 */
export function decodeUtf8(bytes: Uint8Array, name: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // a line feed is never part of a multi-byte UTF-8 sequence: decode line by line to find the first bad one
    let start = 0;
    for (let line = 1; start <= bytes.length; line++) {
      let end = bytes.indexOf(0x0a, start);
      if (end < 0) end = bytes.length;
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(start, end));
      } catch {
        throw bad(
          `${name} line ${line}: not UTF-8 text (an invalid byte); save the file as UTF-8 and try again`,
        );
      }
      start = end + 1;
    }
    throw bad(`${name}: not UTF-8 text; save the file as UTF-8 and try again`);
  }
}
