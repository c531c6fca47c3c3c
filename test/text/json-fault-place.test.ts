// parseJsonText's place of a fault against JSON.parse, the ground truth: a text is faulty exactly when
// JSON.parse refuses it, and where V8 names the position of the fault, the line and column are that position's.
import { describe, expect, it } from 'vitest';
import { JsonSyntaxError, parseJsonText } from '../../src/text/parse-json-text.js';

/** The line and column parseJsonText's error names, or undefined when the text parses. */
function faultPlace(text: string): { line: number; column: number } | undefined {
  try {
    parseJsonText(text);
    return undefined;
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    return { line: error.line, column: error.column };
  }
}

/** V8's "at position N" when its message has one. */
function v8Position(text: string): number | undefined {
  try {
    JSON.parse(text);
    return undefined;
  } catch (error) {
    const match = /at position (\d+)/.exec((error as Error).message);
    return match ? Number(match[1]) : undefined;
  }
}

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function placeOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** A small deterministic generator (the tests are reproducible). */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

describe('parseJsonText: the place of the fault', () => {
  it('names the line and column of common mistakes in a config file', () => {
    expect(faultPlace('{\n  "projects": [\n    {"token": "x",}\n  ]\n}')).toEqual({
      line: 3,
      column: 19,
    });
    expect(faultPlace('{\n  "a": 1\n  "b": 2\n}')).toEqual({ line: 3, column: 3 });
    expect(faultPlace("{\n  'a': 1\n}")).toEqual({ line: 2, column: 3 });
    expect(faultPlace('{"a": 1')).toEqual({ line: 1, column: 8 });
    expect(faultPlace('')).toEqual({ line: 1, column: 1 });
    expect(faultPlace('{"a": "line\nbreak"}')).toEqual({ line: 1, column: 12 });
    expect(faultPlace('{"a": 1} // comment')).toEqual({ line: 1, column: 10 });
  });

  it('accepts exactly what JSON.parse accepts, and agrees with its positions, over mutated texts', () => {
    const base = JSON.stringify(
      {
        projects: [
          { baseUrl: 'https://app.jaicp.com', token: 'tok\\en "quoted" \u00e9', api: 'v1', n: -12.5e-3 },
          { project: 'второй', durationUnit: 's', flags: [true, false, null], empty: {}, list: [] },
        ],
        schedule: { timeZone: 'Europe/Moscow', big: 1.5e300, zero: 0 },
      },
      null,
      2,
    );
    expect(parses(base)).toBe(true);
    expect(faultPlace(base)).toBeUndefined();
    const next = random(44);
    const pieces = [
      '',
      ',',
      '}',
      ']',
      '"',
      ':',
      '\\',
      '1',
      '-',
      'e',
      '.',
      'tru',
      'null',
      ' ',
      '\n',
      '\u0001',
      '{',
      '[',
    ];
    let checked = 0;
    for (let n = 0; n < 3000; n++) {
      const at = Math.floor(next() * base.length);
      const cut = Math.floor(next() * 3);
      const piece = pieces[Math.floor(next() * pieces.length)]!;
      const text = base.slice(0, at) + piece + base.slice(at + cut);
      const place = faultPlace(text);
      expect(place === undefined, JSON.stringify(text.slice(at - 20, at + 20))).toBe(parses(text));
      const position = v8Position(text);
      if (position !== undefined) {
        expect(place, JSON.stringify(text.slice(at - 20, at + 20))).toEqual(placeOf(text, position));
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(300);
  });
});
