// The parse floor's CSV split (bench/split-csv.ts) reads a file as csv-parse does (the reference): quoted
// fields with commas, line breaks and "" inside, CRLF and LF, a BOM, empty lines skipped, empty fields kept;
// it refuses a quoted field left open and a character after a closing quote.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { splitCsv } from '../../bench/split-csv.js';

function split(text: string): string[][] {
  const records: string[][] = [];
  splitCsv(text, (fields) => records.push(fields));
  return records;
}

const reference = (text: string) =>
  parse(text, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];

describe('splitCsv', () => {
  const cases: Record<string, string> = {
    plain: 'questionId,status\nq1,READ\nq2,\n',
    crlf: 'questionId,status\r\nq1,READ\r\nq2,DELIVERED',
    quoted: 'a,b,c\n"x, y","say ""hi""","line\nbreak"\n"",plain,""\n',
    'quoted crlf inside': 'a,b\r\n"one\r\ntwo",3\r\n',
    bom: '\ufeffquestionId,status\nq1,SENT\n',
    'empty lines': '\n\na,b\n\n\nc,d\n\n',
    'trailing comma': 'a,b,\nc,,\n',
    'no final newline': 'a,"b"',
  };
  for (const [name, text] of Object.entries(cases))
    it(`reads ${name} as csv-parse does`, () => {
      expect(split(text)).toEqual(reference(text));
      expect(splitCsv(text)).toBe(reference(text).length);
    });

  it('reads a generated report file as csv-parse does', () => {
    const rows = ['questionId,sessionId,status,question'];
    for (let n = 0; n < 2_000; n++)
      rows.push(
        `q${n},s${n % 37},${n % 3 ? 'READ' : ''},"text ${n}, with ""quotes""${n % 5 ? '' : '\nand a line'}"`,
      );
    const text = `${rows.join('\r\n')}\r\n`;
    expect(split(text)).toEqual(reference(text));
  });

  it('refuses a quoted field left open or text after a closing quote', () => {
    expect(() => splitCsv('a,"b\nc\n')).toThrow(/unterminated/);
    expect(() => splitCsv('a,"b"c\n')).toThrow(/after a closing quote/);
  });
});
