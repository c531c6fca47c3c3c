// Text tables align by the columns a terminal gives each character (the widths below are wcwidth's, written by
// hand): an emoji or a CJK character takes two, a combining mark none. "Жалоба 😡" in a table row used to push
// the rest of its row one column out of line.
import { describe, expect, it } from 'vitest';
import { renderTable } from '../../src/analysis/stats/render-stats-text.js';
import { formatTable } from '../../src/manage/format-table.js';
import { cutToWidth, displayWidth } from '../../src/text/display-width.js';

describe('displayWidth', () => {
  it.each([
    ['abc', 3],
    ['Жалоба', 6],
    ['Жалоба 😡', 9],
    ['👍🏽', 2], // an emoji with a skin tone: one grapheme
    ['👨‍👩‍👧', 2], // a family joined by ZWJ: one grapheme
    ['🇷🇺', 2], // a flag: two regional indicators
    ['❤️', 2], // a text symbol made emoji by U+FE0F
    ['e\u0301', 1], // e + a combining acute
    ['日本語', 6],
    ['ｆｕｌｌ', 8], // fullwidth Latin
    ['', 0],
  ])('%s takes %i columns', (text, width) => {
    expect(displayWidth(text)).toBe(width);
  });

  it('cuts by columns without splitting a grapheme', () => {
    expect(cutToWidth('Жалоба 😡😡', 9)).toBe('Жалоба …');
    expect(cutToWidth('日本語テキスト', 7)).toBe('日本語…');
    expect(cutToWidth('short', 10)).toBe('short');
  });
});

describe('tables with wide characters stay aligned', () => {
  /** The column (in display columns) where `needle` starts on `line`. */
  const columnOf = (line: string, needle: string) => displayWidth(line.slice(0, line.indexOf(needle)));

  it('formatTable', () => {
    const lines = formatTable(
      [
        { label: 'Жалоба 😡', n: 12 },
        { label: 'plain', n: 7 },
      ],
      { columns: ['label', 'n'], indent: '' },
    );
    expect(columnOf(lines[1]!, '12')).toBe(columnOf(lines[0]!, 'n'));
    expect(columnOf(lines[2]!, '7')).toBe(columnOf(lines[0]!, 'n'));
  });

  it('the stats tables', () => {
    const lines = renderTable(
      [
        ['label', 'left'],
        ['sessions', 'right'],
      ],
      [
        ['Жалоба 😡', '3'],
        ['日本', '10'],
      ],
    );
    const end = (line: string) => displayWidth(line);
    expect(end(lines[2]!)).toBe(end(lines[0]!));
    expect(end(lines[3]!)).toBe(end(lines[0]!));
  });
});
