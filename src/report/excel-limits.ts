// Excel's hard limits and how reports stay inside them: 1,048,576 rows a sheet (one is the header, so a
// sheet holds 1,048,575 data rows and the rest continues on "<name> (2)"), 32,767 characters a cell (longer
// text is cut and ends with a visible marker), sheet names of at most 31 characters without []:*?/\.

export interface SheetLimits {
  /** Data rows per sheet, after the header row. */
  maxDataRows: number;
  /** Characters (UTF-16 code units, as Excel counts them) per cell. */
  maxCellChars: number;
}

export const EXCEL_LIMITS: Readonly<SheetLimits> = Object.freeze({
  maxDataRows: 1_048_575,
  maxCellChars: 32_767,
});

export const MAX_SHEET_NAME = 31;

/** Appended to a cut cell: the reader sees that the text goes on and how long it was. */
export function cutMarker(originalLength: number): string {
  return ` …[cut: ${originalLength} characters in all]`;
}

// XML 1.0 cannot hold these: exceljs would write a file Excel must repair
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const XML_INVALID_ALL = new RegExp(XML_INVALID.source, 'g');

/** Text as a cell may hold it: invalid XML characters replaced, cut to `maxChars` with the marker. */
export function fitCellText(text: string, maxChars: number): string {
  const clean = XML_INVALID.test(text) ? text.replace(XML_INVALID_ALL, '\uFFFD') : text;
  if (clean.length <= maxChars) return clean;
  const marker = cutMarker(clean.length);
  let end = maxChars - marker.length;
  // never split a surrogate pair (an emoji cut in half is an invalid character)
  const code = clean.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end -= 1;
  return clean.slice(0, end) + marker;
}

/** A valid, unique sheet name from `wanted` plus an optional suffix such as " (2)", within 31 characters. */
export function sheetName(wanted: string, taken: ReadonlySet<string>, suffix = ''): string {
  const base =
    wanted
      .replace(/[[\]:*?/\\]/g, ' ')
      .replace(/^'+|'+$/g, '')
      .trim() || 'Sheet';
  const lower = new Set([...taken].map((n) => n.toLowerCase()));
  for (let n = 1; ; n += 1) {
    const extra = n === 1 ? suffix : `${suffix} ${n}`;
    const name = base.slice(0, MAX_SHEET_NAME - extra.length).trimEnd() + extra;
    if (!lower.has(name.toLowerCase())) return name;
  }
}
