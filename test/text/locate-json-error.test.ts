// locateJsonError against JSON.parse, the ground truth: a text is faulty exactly when JSON.parse refuses it,
// and where V8 names the position of the fault, the line and column are that position's.
import { describe, expect, it } from 'vitest';
import { locateJsonError } from '../../src/text/locate-json-error.js';

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

describe('locateJsonError', () => {
  it('names the line and column of common mistakes in a config file', () => {
    expect(locateJsonError('{\n  "projects": [\n    {"token": "x",}\n  ]\n}')).toEqual({
      line: 3,
      column: 19,
    });
    expect(locateJsonError('{\n  "a": 1\n  "b": 2\n}')).toEqual({ line: 3, column: 3 });
    expect(locateJsonError("{\n  'a': 1\n}")).toEqual({ line: 2, column: 3 });
    expect(locateJsonError('{"a": 1')).toEqual({ line: 1, column: 8 });
    expect(locateJsonError('')).toEqual({ line: 1, column: 1 });
    expect(locateJsonError('{"a": "line\nbreak"}')).toEqual({ line: 1, column: 12 });
    expect(locateJsonError('{"a": 1} // comment')).toEqual({ line: 1, column: 10 });
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
    expect(locateJsonError(base)).toBeUndefined();
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
      const place = locateJsonError(text);
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
