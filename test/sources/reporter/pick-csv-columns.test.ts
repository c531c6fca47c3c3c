// The statuses report file's reader (src/sources/reporter/pick-csv-columns.ts) gives the values csv-parse gives (the
// reference) of the columns asked for: quoted fields with commas, line breaks and "" inside, CRLF and LF,
// a BOM, empty lines, empty fields, the wanted columns anywhere in the header; and it refuses what csv-parse
// refuses (a quoted field left open, text after a closing quote, a quote inside an unquoted field, a record
// whose field count is not the header's) and a header without a wanted column, naming the fault; and the values
// it gives are strings of their own, not slices holding the whole file's text in memory.
import v8 from 'node:v8';
import vm from 'node:vm';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { CsvShapeError, pickCsvColumns } from '../../../src/sources/reporter/pick-csv-columns.js';

function pick(text: string, wanted: string[]): string[][] {
  const rows: string[][] = [];
  const count = pickCsvColumns(text, wanted, (values) => rows.push(values));
  expect(count).toBe(rows.length);
  return rows;
}

/** csv-parse's records, the wanted columns picked by the header's names. */
function reference(text: string, wanted: string[]): string[][] {
  const [header, ...records] = parse(text, { bom: true, skip_empty_lines: true }) as string[][];
  const positions = wanted.map((name) => header!.indexOf(name));
  return records.map((record) => positions.map((p) => record[p]!));
}

describe('pickCsvColumns', () => {
  const cases: Record<string, string> = {
    plain: 'questionId,sessionId,status\nq1,s1,READ\nq2,s1,\n',
    crlf: 'questionId,status,text\r\nq1,READ,hi\r\nq2,DELIVERED,there',
    quoted:
      'questionId,question,status,labels\n"q,1","say ""hi""",READ,"a\nb"\n"",,"",""\nq3,"x\r\ny",SENT,\n',
    bom: '\ufeffquestionId,status\nq1,SENT\n',
    'empty lines': '\n\nquestionId,status\n\n\nq1,READ\n\nq2,SENT\n\n',
    'empty lines, crlf': '\r\nquestionId,status\r\n\r\nq1,READ\r\n\r\n',
    'wanted last, trailing empty field': 'a,questionId,status\n1,q1,\n2,q2,READ',
  };
  for (const [name, text] of Object.entries(cases))
    it(`reads ${name} as csv-parse does`, () => {
      expect(pick(text, ['questionId', 'status'])).toEqual(reference(text, ['questionId', 'status']));
    });

  it("reads a generated report file as csv-parse does, in the wanted columns' order", () => {
    const lines = ['questionId,sessionId,timestamp,question,textAnswer,status,labels,comment'];
    for (let n = 0; n < 3_000; n++) {
      const text = n % 4 === 0 ? `"q ${n}, with ""quotes""\nand a line"` : `plain text ${n}`;
      lines.push(
        `q${n},s${n % 41},2026-11-0${1 + (n % 9)},${text},${n % 7 ? 'ok' : ''},${n % 3 ? 'READ' : ''},,`,
      );
    }
    const text = `${lines.join('\r\n')}\r\n`;
    expect(pick(text, ['status', 'questionId'])).toEqual(reference(text, ['status', 'questionId']));
  });

  const faults: [string, string, RegExp][] = [
    ['a quoted field left open', 'questionId,status\nq1,"READ\n', /not closed/],
    ['text after a closing quote', 'questionId,status\n"q1"x,READ\n', /followed by text/],
    ['a quote inside an unquoted field', 'questionId,status\nq"1,READ\n', /quote inside an unquoted field/],
    ['a short record', 'questionId,status,x\nq1,READ,1\nq2,READ\n', /record 3 has 2 fields, the header 3/],
    ['a long record', 'questionId,status\nq1,READ,extra\n', /record 2 has 3 fields, the header 2/],
    ['a header without a wanted column', 'questionId,state\nq1,READ\n', /no status column/],
    ['an empty file', '\n\n', /empty/],
  ];
  for (const [name, text, message] of faults)
    it(`refuses ${name}`, () => {
      expect(() => pickCsvColumns(text, ['questionId', 'status'], () => {})).toThrow(CsvShapeError);
      expect(() => pickCsvColumns(text, ['questionId', 'status'], () => {})).toThrow(message);
      if (!/header|empty/.test(name)) expect(() => parse(text, { skip_empty_lines: true })).toThrow();
    });
});

describe('pickCsvColumns and memory', () => {
  it('the values kept do not keep the whole text alive (V8 slices point into their parent)', () => {
    const collect = gcFunction();
    const kept: string[] = [];
    const heapBefore = heapAfterCollection(collect);
    // read in a function of its own: its frame, which holds the text, is gone when the heap is measured
    const textBytes = pickIdsOfLargeFile(kept);
    const grown = heapAfterCollection(collect) - heapBefore;
    expect(kept).toHaveLength(20_000);
    expect(kept[19_999]).toBe('question-00019999-id');
    // the ids themselves are about 1.5 MB; the text they were read from was 14 MB (two bytes a character)
    expect(textBytes).toBeGreaterThan(10_000_000);
    expect(grown).toBeLessThan(textBytes / 3);
  });
});

/** Picks the ids of a generated 14 MB report file into `kept`; returns the text's size in bytes. */
function pickIdsOfLargeFile(kept: string[]): number {
  const filler = 'ответ оператора, '.repeat(20);
  const lines = ['questionId,text,status'];
  for (let i = 0; i < 20_000; i++)
    lines.push(`question-${String(i).padStart(8, '0')}-id,"${filler}${i}",READ`);
  const text = lines.join('\n');
  pickCsvColumns(text, ['questionId', 'status'], ([id]) => kept.push(id!));
  return text.length * 2;
}

function gcFunction(): () => void {
  if (typeof globalThis.gc === 'function') return globalThis.gc;
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function heapAfterCollection(collect: () => void): number {
  collect();
  collect();
  return process.memoryUsage().heapUsed;
}
