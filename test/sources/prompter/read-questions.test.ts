// The questions file of `prompter ask`: CSV with a header (quoted commas and newlines kept), JSONL, and a row
// without a text refused with where it is (never skipped: it would skew the accuracy).
import { describe, expect, it } from 'vitest';
import { parseQuestionsCsv, parseQuestionsJsonl } from '../../../src/sources/prompter/read-questions.js';

describe('the questions file', () => {
  it('reads CSV with a header, quoted fields and an optional expected intent', () => {
    const csv = 'text,expected_intent\n"Где, наконец, мой заказ?",/Delivery/Status\n"две\nстроки",\n';
    expect(parseQuestionsCsv(csv, 'q.csv')).toEqual([
      { text: 'Где, наконец, мой заказ?', expectedIntent: '/Delivery/Status' },
      { text: 'две\nстроки' },
    ]);
  });

  it('reads JSONL, blank lines skipped', () => {
    const jsonl = '{"text":"Привет","expected_intent":"/Greeting"}\n\n{"text":"ыыы"}\n';
    expect(parseQuestionsJsonl(jsonl, 'q.jsonl')).toEqual([
      { text: 'Привет', expectedIntent: '/Greeting' },
      { text: 'ыыы' },
    ]);
  });

  it('refuses a row without a text, naming its line', () => {
    expect(() => parseQuestionsCsv('text\nПривет\n""\n', 'q.csv')).toThrow(/q\.csv row 3: no text/);
    expect(() => parseQuestionsJsonl('{"text":"a"}\n{"question":"b"}\n', 'q.jsonl')).toThrow(
      /q\.jsonl line 2: no text/,
    );
    expect(() => parseQuestionsJsonl('{"text":\n', 'q.jsonl')).toThrow(/line 1: not JSON/);
  });
});
