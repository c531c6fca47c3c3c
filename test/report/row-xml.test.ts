// The XML of a streamed row: column letters, cell references with empty cells left out, numbers with their
// style, booleans, inline text escaped with its spaces kept. Checked on the strings themselves.
import { describe, expect, it } from 'vitest';
import { columnLetters, escapeXmlText, rowXml } from '../../src/report/row-xml.js';

describe('rowXml', () => {
  it('names columns as Excel does', () => {
    expect([1, 2, 26, 27, 52, 53, 702, 703, 16_384].map(columnLetters)).toEqual([
      'A',
      'B',
      'Z',
      'AA',
      'AZ',
      'BA',
      'ZZ',
      'AAA',
      'XFD',
    ]);
  });

  it('writes each kind of cell, skipping empty ones but keeping every reference right', () => {
    const xml = rowXml(
      7,
      [46_000.5, null, ' a < b & c ', true, 3, false],
      ['A', 'B', 'C', 'D', 'E', 'F'],
      [5, 0, 0, 0, 0, 0],
    );
    expect(xml).toBe(
      '<row r="7"><c r="A7" s="5"><v>46000.5</v></c>' +
        '<c r="C7" t="inlineStr"><is><t xml:space="preserve"> a &lt; b &amp; c </t></is></c>' +
        '<c r="D7" t="b"><v>1</v></c><c r="E7"><v>3</v></c><c r="F7" t="b"><v>0</v></c></row>',
    );
  });

  it('escapes only what XML text needs', () => {
    expect(escapeXmlText('plain "quoted" 🙂')).toBe('plain "quoted" 🙂');
    // the same text many times over: a stateful (global) regular expression would let every other one through
    for (let i = 0; i < 5; i += 1) expect(escapeXmlText('x <b>&</b>')).toBe('x &lt;b&gt;&amp;&lt;/b&gt;');
  });
});
