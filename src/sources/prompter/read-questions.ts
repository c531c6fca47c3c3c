// The questions `prompter ask` sends, read from a file: CSV with a header row (a `text` column, optionally
// `expected_intent`) or JSONL (one object per line, {text, expected_intent?}); the format goes by the file's
// extension (.csv; .jsonl or .ndjson). A row without a text is refused with its line number: the file is the
// analyst's, and a silently skipped question would skew the accuracy figures.
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { UsageError } from '../../errors.js';
import { jsonFaultColumn as columnOf, parseJsonText } from '../../text/parse-json-text.js';

export interface PrompterQuestion {
  text: string;
  /** The intent (path, e.g. `/Delivery/Status`, or name) the question should get first; undefined: none given. */
  expectedIntent?: string;
}

function bad(message: string): UsageError {
  return new UsageError(message, 'prompter.bad_questions');
}

function question(text: unknown, expected: unknown, where: string): PrompterQuestion {
  if (typeof text !== 'string' || text.trim() === '') throw bad(`${where}: no text`);
  if (expected !== undefined && expected !== null && typeof expected !== 'string')
    throw bad(`${where}: expected_intent is not text`);
  const intent = typeof expected === 'string' ? expected.trim() : '';
  return { text: text.trim(), ...(intent === '' ? {} : { expectedIntent: intent }) };
}

/** The questions of a CSV text (header row with `text`, optionally `expected_intent`). */
export function parseQuestionsCsv(content: string, name: string): PrompterQuestion[] {
  let rows: Record<string, string>[];
  try {
    rows = parse(content, { columns: true, skip_empty_lines: true, bom: true, trim: true });
  } catch (error) {
    throw bad(`${name}: not a CSV file (${(error as Error).message})`);
  }
  if (rows.length > 0 && !('text' in rows[0]!))
    throw bad(`${name}: the header row has no "text" column (columns: text, expected_intent)`);
  return rows.map((row, n) => question(row['text'], row['expected_intent'], `${name} row ${n + 2}`));
}

/** The questions of a JSONL text (one object per line). */
export function parseQuestionsJsonl(content: string, name: string): PrompterQuestion[] {
  const out: PrompterQuestion[] = [];
  for (const [n, line] of content.split(/\r?\n/).entries()) {
    if (line.trim() === '') continue;
    let value: unknown;
    try {
      value = parseJsonText(line);
    } catch (error) {
      throw bad(`${name} line ${n + 1}: not JSON${columnOf(error)}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw bad(`${name} line ${n + 1}: expected an object {"text": ..., "expected_intent": ...}`);
    const fields = value as Record<string, unknown>;
    out.push(question(fields['text'], fields['expected_intent'], `${name} line ${n + 1}`));
  }
  return out;
}

/** Reads a questions file (CSV or JSONL by its extension). */
export function readQuestionsFile(path: string): PrompterQuestion[] {
  const extension = extname(path).toLowerCase();
  if (!['.csv', '.jsonl', '.ndjson'].includes(extension))
    throw bad(`--file ${path}: give a .csv or .jsonl file (columns or fields: text, expected_intent)`);
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--file ${path}: cannot read it (${(error as Error).message})`);
  }
  return extension === '.csv' ? parseQuestionsCsv(content, path) : parseQuestionsJsonl(content, path);
}
