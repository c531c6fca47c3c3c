// The knowledge base client's JSON parser: integers of 16 digits or more (outside strings) arrive as the
// strings of their digits, exactly; everything else parses as JSON.parse has it. Proved on chosen cases, on
// seeded random documents (their big integers generated as BigInt, so the expected digits are known), and on
// random mutations of those documents (a body that is not JSON stays refused; one that is parses alike).
import { describe, expect, it } from 'vitest';
import { parseJsonBigIntegers, quoteBigIntegers } from '../../src/text/parse-json-big-integers.js';

/** A small seeded PRNG (mulberry32), so a failure is repeatable. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TRICKY_TEXT = [
  '9007199254740993',
  '"',
  '\\',
  '\\"',
  'id: 12345678901234567',
  'é',
  '😀',
  '\n',
  '{[',
  '-',
];

/** A random JSON value as text, and what parseJsonBigIntegers must make of it. */
function randomDocument(next: () => number, depth = 0): { text: string; expected: unknown } {
  const pick = Math.floor(next() * (depth > 3 ? 6 : 8));
  const digits = (n: number) =>
    String(1 + Math.floor(next() * 9)) +
    Array.from({ length: n - 1 }, () => String(Math.floor(next() * 10))).join('');
  switch (pick) {
    case 0: {
      // an integer of 1 to 19 digits, either sign: 16 or more arrive as text
      const text = (next() < 0.3 ? '-' : '') + digits(1 + Math.floor(next() * 19));
      return { text, expected: text.replace('-', '').length >= 16 ? text : Number(text) };
    }
    case 1: {
      const text = `${digits(1 + Math.floor(next() * 18))}.${digits(1 + Math.floor(next() * 18))}`;
      return { text, expected: Number(text) };
    }
    case 2: {
      const text = `${digits(1 + Math.floor(next() * 17))}e${next() < 0.5 ? '-' : '+'}${digits(2)}`;
      return { text, expected: Number(text) };
    }
    case 3: {
      const value = Array.from({ length: Math.floor(next() * 4) }, () =>
        next() < 0.5
          ? TRICKY_TEXT[Math.floor(next() * TRICKY_TEXT.length)]!
          : digits(1 + Math.floor(next() * 20)),
      ).join('');
      return { text: JSON.stringify(value), expected: value };
    }
    case 4:
      return [
        { text: 'true', expected: true },
        { text: 'false', expected: false },
        { text: 'null', expected: null },
      ][Math.floor(next() * 3)]!;
    case 5: {
      const big = BigInt.asIntN(
        64,
        BigInt(
          `0x${Math.floor(next() * 2 ** 32).toString(16)}${Math.floor(next() * 2 ** 32)
            .toString(16)
            .padStart(8, '0')}`,
        ),
      );
      const text = big.toString();
      return { text, expected: text.replace('-', '').length >= 16 ? text : Number(text) };
    }
    case 6: {
      const items = Array.from({ length: Math.floor(next() * 5) }, () => randomDocument(next, depth + 1));
      const space = next() < 0.5 ? ' ' : '';
      return {
        text: `[${space}${items.map((i) => i.text).join(`,${space}`)}${space}]`,
        expected: items.map((i) => i.expected),
      };
    }
    default: {
      const entries = Array.from({ length: Math.floor(next() * 5) }, (_, n) => {
        const key = next() < 0.3 ? `${digits(17)}${n}` : `k${n}"\\${n}`;
        return { key, value: randomDocument(next, depth + 1) };
      });
      return {
        text: `{${entries.map((e) => `${JSON.stringify(e.key)}:\n${e.value.text}`).join(',')}}`,
        expected: Object.fromEntries(entries.map((e) => [e.key, e.value.expected])),
      };
    }
  }
}

/** What JSON.parse gave, against what the parser gave: a quoted long integer may only stand for its number. */
function sameButQuoted(plain: unknown, exact: unknown): boolean {
  if (typeof plain === 'number' && typeof exact === 'string')
    return /^-?[1-9]\d{15,}$/.test(exact) && Number(exact) === plain;
  if (Array.isArray(plain))
    return (
      Array.isArray(exact) &&
      plain.length === exact.length &&
      plain.every((v, i) => sameButQuoted(v, exact[i]))
    );
  if (plain !== null && typeof plain === 'object') {
    if (exact === null || typeof exact !== 'object' || Array.isArray(exact)) return false;
    const keys = Object.keys(plain);
    return (
      keys.length === Object.keys(exact).length &&
      keys.every((k) =>
        sameButQuoted((plain as Record<string, unknown>)[k], (exact as Record<string, unknown>)[k]),
      )
    );
  }
  return Object.is(plain, exact);
}

function outcome(
  parse: (text: string) => unknown,
  text: string,
): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: parse(text) };
  } catch {
    return { ok: false };
  }
}

describe('parseJsonBigIntegers', () => {
  it('keeps ids on both sides of 2^53 exactly, and leaves strings, fractions and exponents alone', () => {
    const text =
      '{"below":9007199254740991,"above":9007199254740993,"max":9223372036854775807,"neg":-9007199254740993,' +
      '"small":7001,"s":"id 9007199254740993 \\" 12345678901234567","f":1234567890123456.5,"e":12345678901234567e2,' +
      '"list":[9007199254740992,1]}';
    expect(parseJsonBigIntegers(text)).toEqual({
      below: '9007199254740991',
      above: '9007199254740993',
      max: '9223372036854775807',
      neg: '-9007199254740993',
      small: 7001,
      s: 'id 9007199254740993 " 12345678901234567',
      f: 1234567890123456.5,
      e: 1.2345678901234568e18,
      list: ['9007199254740992', 1],
    });
    // JSON.parse alone loses the last digit of the id above 2^53
    expect((JSON.parse(text) as { above: number }).above).toBe(9007199254740992);
  });

  it('hands a body without 16 digits in a row back untouched, and refuses what JSON.parse refuses', () => {
    const plain = '{"id": 7001, "name": "support-kb"}';
    expect(quoteBigIntegers(plain)).toBe(plain);
    for (const bad of ['{"id": 01234567890123456789}', '"12345678901234567', '[12345678901234567 1]', ''])
      expect(() => parseJsonBigIntegers(bad), bad).toThrow();
  });

  it('parses 3,000 seeded random documents as expected, big integers as their exact digits', () => {
    const next = random(31);
    for (let n = 0; n < 3000; n++) {
      const doc = randomDocument(next);
      expect(parseJsonBigIntegers(doc.text), doc.text).toEqual(doc.expected);
      expect(sameButQuoted(JSON.parse(doc.text), parseJsonBigIntegers(doc.text)), doc.text).toBe(true);
    }
  });

  it('on 20,000 random mutations refuses what JSON.parse refuses and otherwise agrees with it', () => {
    const next = random(53);
    const alphabet = ['"', '\\', '0', '1', '9', '-', '.', 'e', ',', ':', '[', ']', '{', '}', ' ', 'x'];
    let valid = 0;
    for (let n = 0; n < 20_000; n++) {
      const { text } = randomDocument(next);
      const at = Math.floor(next() * (text.length + 1));
      const change = next();
      const mutated =
        change < 0.4
          ? text.slice(0, at) + text.slice(at + 1)
          : change < 0.8
            ? text.slice(0, at) + alphabet[Math.floor(next() * alphabet.length)]! + text.slice(at)
            : text.slice(0, at);
      const plain = outcome(JSON.parse, mutated);
      const exact = outcome(parseJsonBigIntegers, mutated);
      expect(exact.ok, mutated).toBe(plain.ok);
      if (plain.ok && exact.ok) {
        valid++;
        expect(sameButQuoted(plain.value, exact.value), mutated).toBe(true);
      }
    }
    // both sides of the property are exercised
    expect(valid).toBeGreaterThan(2000);
    expect(valid).toBeLessThan(18_000);
  });
});
