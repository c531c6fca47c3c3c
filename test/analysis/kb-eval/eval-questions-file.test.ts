// kb eval's questions file: CSV (quoted commas and newlines, sources separated by | or ;, CRLF) and JSONL
// read into questions, and every bad file refused before anything is asked, naming the file, the line (the
// line the record starts on, also after a multi-line cell) and the column or field at fault.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  MAX_QUESTION_CHARS,
  parseEvalQuestionsCsv,
  parseEvalQuestionsJsonl,
  readEvalQuestionsFile,
} from '../../../src/analysis/kb-eval/read-eval-questions.js';

const dir = mkdtempSync(join(tmpdir(), 'kb-eval-questions-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the questions file', () => {
  it('reads CSV: quoted cells, sources split on | and ;, lines counted from the header', () => {
    const csv =
      'question,expected_sources,expected_answer_contains\n' +
      '"Where, finally, is my order?",returns.md | 12;faq.md,3 days\n' +
      '"two\nlines",,\n' +
      '\n' +
      'Plain,,\n';
    const questions = parseEvalQuestionsCsv(csv, 'q.csv');
    expect(questions).toEqual([
      {
        key: 'Where, finally, is my order?',
        question: 'Where, finally, is my order?',
        expectedSources: ['returns.md', '12', 'faq.md'],
        expectedAnswerContains: ['3 days'],
        line: 2,
      },
      { key: 'two\nlines', question: 'two\nlines', expectedSources: [], expectedAnswerContains: [], line: 3 },
      { key: 'Plain', question: 'Plain', expectedSources: [], expectedAnswerContains: [], line: 6 },
    ]);
  });

  it('reads CRLF CSV with an id column as the key', () => {
    const csv = 'id,question\r\nq1,"a\r\nb"\r\nq2,c\r\n';
    const questions = parseEvalQuestionsCsv(csv, 'q.csv');
    expect(questions.map((q) => [q.key, q.question, q.line])).toEqual([
      ['q1', 'a\nb', 2],
      ['q2', 'c', 4],
    ]);
  });

  it('reads JSONL: arrays of ids and names, a list of expected texts, blank lines skipped', () => {
    const jsonl =
      '{"question":"A?","expected_sources":["returns.md",12],"expected_answer_contains":["30","days"]}\n\n' +
      '{"question":"B?","expected_sources":"x.md|y.md","id":7}\n';
    expect(parseEvalQuestionsJsonl(jsonl, 'q.jsonl')).toEqual([
      {
        key: 'A?',
        question: 'A?',
        expectedSources: ['returns.md', '12'],
        expectedAnswerContains: ['30', 'days'],
        line: 1,
      },
      { key: '7', question: 'B?', expectedSources: ['x.md', 'y.md'], expectedAnswerContains: [], line: 3 },
    ]);
  });

  it('refuses bad CSV naming the line and the column', () => {
    const bad = (csv: string) => () => parseEvalQuestionsCsv(csv, 'q.csv');
    expect(bad('question,expected_source\nA,x\n')).toThrow(
      /q\.csv line 1, column 2 \("expected_source"\): not a column/,
    );
    expect(bad('text\nA\n')).toThrow(/q\.csv line 1, column 1 \("text"\)/);
    expect(bad('question,expected_sources\nA,x\n"multi\nline",y\n ,z\n')).toThrow(
      /q\.csv line 5, column question: empty/,
    );
    expect(bad('question,expected_sources\nA,x,extra\n')).toThrow(/q\.csv line 2: not a valid CSV file/);
    expect(bad('question\n"never closed\n')).toThrow(/q\.csv line 2: not a valid CSV file/);
    expect(bad('question\nA\nB\nA\n')).toThrow(/q\.csv line 4: repeats the question of line 2/);
  });

  it('refuses bad JSONL naming the line and the field', () => {
    const bad = (jsonl: string) => () => parseEvalQuestionsJsonl(jsonl, 'q.jsonl');
    expect(bad('{"question":"A"}\n{"question":\n')).toThrow(/q\.jsonl line 2: not JSON/);
    expect(bad('{"question":"A"}\n\n["B"]\n')).toThrow(/q\.jsonl line 3: expected an object/);
    expect(bad('{"question":""}\n')).toThrow(/q\.jsonl line 1, field question: not a non-empty text/);
    expect(bad('{"text":"A"}\n')).toThrow(/q\.jsonl line 1, field text: not a field/);
    expect(bad('{"question":"A","expected_sources":[true]}\n')).toThrow(
      /q\.jsonl line 1, field expected_sources: item 1 is true/,
    );
    expect(bad('{"question":"A","expected_sources":{"a":1}}\n')).toThrow(
      /q\.jsonl line 1, field expected_sources: expected an array/,
    );
    expect(bad('{"question":"A","expected_answer_contains":5}\n')).toThrow(
      /line 1, field expected_answer_contains/,
    );
  });

  it('reads a file by its extension and refuses others', () => {
    const csv = join(dir, 'q.csv');
    writeFileSync(csv, 'question\nA\n');
    expect(readEvalQuestionsFile(csv).map((q) => q.question)).toEqual(['A']);
    const txt = join(dir, 'q.txt');
    writeFileSync(txt, 'A\n');
    expect(() => readEvalQuestionsFile(txt)).toThrow(/give a \.csv or \.jsonl file/);
    expect(() => readEvalQuestionsFile(join(dir, 'missing.csv'))).toThrow(/cannot read it/);
    try {
      readEvalQuestionsFile(join(dir, 'missing.jsonl'));
    } catch (error) {
      expect((error as { exitCode: number }).exitCode).toBe(2);
    }
  });

  it('refuses a file that is not UTF-8, naming the line of the first invalid byte', () => {
    const path = join(dir, 'cp1251.csv');
    // "Где мой заказ?" in Windows-1251 on line 3: bytes that are no UTF-8
    const cp1251 = Buffer.from([0xc3, 0xe4, 0xe5, 0x20, 0xec, 0xee, 0xe9, 0x3f]);
    writeFileSync(path, Buffer.concat([Buffer.from('question\nÄpfel?\n'), cp1251, Buffer.from('\n')]));
    let thrown: unknown;
    try {
      readEvalQuestionsFile(path);
    } catch (error) {
      thrown = error;
    }
    expect((thrown as Error).message).toMatch(/cp1251\.csv line 3: not UTF-8 text/);
    expect((thrown as { exitCode: number; code: string }).exitCode).toBe(2);
    expect((thrown as { code: string }).code).toBe('kb.bad_questions');
    const jsonl = join(dir, 'latin1.jsonl');
    writeFileSync(
      jsonl,
      Buffer.concat([Buffer.from('{"question":"caf'), Buffer.from([0xe9]), Buffer.from('?"}\n')]),
    );
    expect(() => readEvalQuestionsFile(jsonl)).toThrow(/latin1\.jsonl line 1: not UTF-8 text/);
  });

  it('refuses an empty file, a header-only CSV and an empty JSONL, naming the file', () => {
    for (const [name, content] of [
      ['empty.csv', ''],
      ['header-only.csv', 'question,expected_sources\n'],
      ['empty.jsonl', ''],
      ['blank.jsonl', '\n\n'],
    ] as const) {
      const path = join(dir, name);
      writeFileSync(path, content);
      let thrown: unknown;
      try {
        readEvalQuestionsFile(path);
      } catch (error) {
        thrown = error;
      }
      expect((thrown as Error | undefined)?.message, name).toMatch(
        new RegExp(`${name.replace('.', '\\.')}: no questions`),
      );
      expect((thrown as { exitCode: number }).exitCode).toBe(2);
    }
  });

  it('refuses a repeated column, a repeated id as an id, and a question over the length limit', () => {
    expect(() => parseEvalQuestionsCsv('question,question\nA,B\n', 'q.csv')).toThrow(
      /q\.csv line 1, column 2 \("question"\): repeats column 1/,
    );
    expect(() => parseEvalQuestionsCsv('id,question\nx,A\ny,B\nx,C\n', 'q.csv')).toThrow(
      /q\.csv line 4, column id: repeats the id "x" of line 2/,
    );
    expect(() =>
      parseEvalQuestionsJsonl('{"id":1,"question":"A"}\n{"id":1,"question":"B"}\n', 'q.jsonl'),
    ).toThrow(/q\.jsonl line 2, field id: repeats the id "1" of line 1/);
    const long = 'x'.repeat(MAX_QUESTION_CHARS + 1);
    expect(MAX_QUESTION_CHARS).toBe(4000);
    expect(parseEvalQuestionsCsv(`question\n${'y'.repeat(MAX_QUESTION_CHARS)}\n`, 'q.csv')).toHaveLength(1);
    expect(() => parseEvalQuestionsCsv(`question\nA\n${long}\n`, 'q.csv')).toThrow(
      /q\.csv line 3, column question: 4001 characters, over the limit of 4000/,
    );
    expect(() => parseEvalQuestionsJsonl(`{"question":"${long}"}\n`, 'q.jsonl')).toThrow(
      /q\.jsonl line 1, field question: 4001 characters, over the limit/,
    );
  });
});
