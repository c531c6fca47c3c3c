// A CSV cell a spreadsheet will not run (OWASP, "CSV injection"): Excel, LibreOffice and Google Sheets take a
// cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula (`=HYPERLINK(...)`,
// `+cmd|' /C calc'!A0`, `@SUM(...)`), so such a text gets a leading `'`, which a spreadsheet shows as text and
// hides. A plain number (`-5`, `+1.5e3`, a big integer given as text) is left alone: it is no formula, and
// the quote would turn it into text. Only for CSV meant for people; JSON output stays exact.

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** `text` with a leading `'` when a spreadsheet would run it as a formula. */
export function neutraliseCsvFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}
