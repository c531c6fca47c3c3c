// Help text fitted to 100 columns: a block that fits is kept as written; a longer one is filled again, an
// option row under its description, prose under its indent, a synopsis under its options, a command example
// with ` \` (it still pastes into a shell); no word is cut and no text lost.
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/text/display-width.js';
import { wrapHelp } from '../../src/text/wrap-help.js';

const words = (n: number, word = 'word') => Array.from({ length: n }, (_, i) => `${word}${i}`).join(' ');
const squeeze = (text: string) => text.replace(/ \\\n/g, ' ').replace(/\s+/g, ' ').trim();

function expectFitted(text: string): string[] {
  const out = wrapHelp(text);
  for (const line of out.split('\n')) expect(displayWidth(line), line).toBeLessThanOrEqual(100);
  expect(squeeze(out)).toBe(squeeze(text));
  return out.split('\n');
}

describe('wrapHelp', () => {
  it('keeps a block whose lines fit as written (line breaks included)', () => {
    const text = `short\nsecond line\n${'x'.repeat(100)}\n\n  --a   b\n        c`;
    expect(wrapHelp(text)).toBe(text);
  });

  it('fills an option row and its continuation lines under the description', () => {
    const out = expectFitted(
      `  --tz ZONE        ${words(20)}\n                   ${words(5, 'more')}\n  --next  x`,
    );
    expect(out.slice(1, -1).every((l) => /^ {19}\S/.test(l))).toBe(true);
    expect(out.at(-1)).toBe('  --next  x');
    // the continuation was filled with the row: no short orphan line
    expect(out.slice(0, -2).every((l) => displayWidth(l) > 80)).toBe(true);
  });

  it('fills a prose paragraph under its indent, and leaves the next paragraph alone', () => {
    const out = expectFitted(`${words(20)}\n${words(15, 'w')}\n\nnext paragraph`);
    expect(out.slice(0, -3).every((l) => displayWidth(l) > 80)).toBe(true);
    expect(out.at(-1)).toBe('next paragraph');
  });

  it('continues a list item under its text', () => {
    const out = expectFitted(`  1. ${words(18)}\n     ${words(4, 'more')}\n  2. next`);
    expect(out.slice(1, -1).every((l) => /^ {5}\S/.test(l))).toBe(true);
    expect(out.at(-1)).toBe('  2. next');
  });

  it('continues a synopsis under its options and an example with a backslash', () => {
    const synopsis = expectFitted(`reporter-etl stats ${words(20, '[--x')}`);
    expect(synopsis.slice(1).every((l) => /^ {19}\[--x/.test(l))).toBe(true);
    const example = expectFitted(`Examples:\n  reporter-etl stats ${words(20, '--x')}`);
    expect(example.slice(1, -1).every((l) => / \\$/.test(l))).toBe(true);
    expect(example.slice(2).every((l) => /^ {4}--x/.test(l))).toBe(true);
  });

  it('keeps a word wider than the room whole, and counts wide characters by their columns', () => {
    const long = 'y'.repeat(120);
    expect(wrapHelp(`text ${long} end`).split('\n')).toEqual(['text', long, 'end']);
    expect(expectFitted('😀 '.repeat(40).trim())).toHaveLength(2);
  });
});
