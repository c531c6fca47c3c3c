// A quick reader of an XLSX report file's first worksheet, from its bytes: the zip's parts found by its central
// directory (zip-entries.ts), the sheet inflated chunk by chunk and its <row> elements scanned as text, and only
// the cells the caller wants decoded (a statuses report has twenty columns and the sync wants two: exceljs,
// which builds every cell through a SAX parser, took 20x the time of the CSV). Cells as exceljs's cellText gives
// them (shared and inline strings with their _xHHHH_ escapes, rich text runs joined, booleans `true`/`false`,
// numbers as JavaScript prints them), but an integer of more than 15 digits as written (an int64 id exact).
// Invariant: false before the first row when the file uses what this reader does not (zip64, encryption,
// another compression, no worksheet found): the caller reads it with exceljs then; never a partial answer.
import { StringDecoder } from 'node:string_decoder';
import { entryBytes, entryChunks, type ZipEntry, zipEntries } from './zip-entries.js';

/** The cells a row is reduced to: `slotOf[column]` is the slot of a wanted column, -1 for the others. */
export interface CellPick {
  slotOf: Int32Array;
  slots: number;
}

const XML_ENTITY = /&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g;
const NAMED: Readonly<Record<string, string>> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** XML's escapes undone. */
function unescapeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(XML_ENTITY, (_, name: string) => {
    if (name[0] !== '#') return NAMED[name]!;
    return String.fromCodePoint(name[1] === 'x' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1)));
  });
}

/** The text of a string item (<si> or <is>): its <t> elements joined (phonetic runs left out), as exceljs has it. */
function stringItem(xml: string): string {
  const body = xml.includes('<rPh') ? xml.replace(/<rPh[\s>][\s\S]*?<\/rPh>/g, '') : xml;
  let text = '';
  for (let at = body.indexOf('<t'); at >= 0; at = body.indexOf('<t', at + 2)) {
    const after = body.charCodeAt(at + 2);
    if (after !== 0x3e && after !== 0x20) continue; // <t> or <t xml:space=...>, not <tr...
    const open = body.indexOf('>', at);
    if (body.charCodeAt(open - 1) === 0x2f) continue; // <t/>
    const close = body.indexOf('</t>', open);
    text += body.slice(open + 1, close);
  }
  const plain = unescapeXml(text);
  return plain.includes('_x')
    ? plain.replace(/_x([0-9A-F]{4})_/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    : plain;
}

interface WorkbookParts {
  sheet: ZipEntry;
  sharedStrings: ZipEntry | undefined;
}

/** A relationship's part name: Target is relative to xl/, or absolute from the package's root. */
const partName = (target: string) => (target.startsWith('/') ? target.slice(1) : `xl/${target}`);

/**
 * The first sheet's part (the first <sheet> of workbook.xml, through its relationship) and the shared strings'
 * part; undefined when one is named but absent.
 */
function workbookParts(entries: Map<string, ZipEntry>): WorkbookParts | undefined {
  const workbook = entries.get('xl/workbook.xml');
  const rels = entries.get('xl/_rels/workbook.xml.rels');
  if (!workbook || !rels) return undefined;
  const sheetId = /<sheet\s[^>]*?\s(?:\w+:)?id="([^"]+)"/.exec(entryBytes(workbook).toString('utf8'))?.[1];
  let sheet: ZipEntry | undefined;
  let sharedStrings: ZipEntry | undefined;
  for (const rel of entryBytes(rels)
    .toString('utf8')
    .match(/<Relationship\s[^>]*>/g) ?? []) {
    const target = /\sTarget="([^"]+)"/.exec(rel)?.[1];
    if (target === undefined) continue;
    if (/\sId="([^"]+)"/.exec(rel)?.[1] === sheetId) sheet = entries.get(partName(target));
    else if (/\sType="[^"]*\/sharedStrings"/.test(rel)) {
      sharedStrings = entries.get(partName(target));
      if (!sharedStrings) return undefined;
    }
  }
  return sheet && { sheet, sharedStrings };
}

/** Every shared string, by index (what exceljs's sharedStrings `cache` holds too). */
function sharedStrings(entry: ZipEntry | undefined): string[] {
  if (!entry) return [];
  const xml = entryBytes(entry).toString('utf8');
  const strings: string[] = [];
  for (let at = xml.indexOf('<si'); at >= 0; ) {
    const self = xml.indexOf('>', at);
    if (xml.charCodeAt(self - 1) === 0x2f) {
      strings.push('');
      at = xml.indexOf('<si', self);
      continue;
    }
    const close = xml.indexOf('</si>', self);
    strings.push(stringItem(xml.slice(self + 1, close)));
    at = xml.indexOf('<si', close);
  }
  return strings;
}

/** The 0-based column (A is 0) of the cell reference starting at `at` (its letters), or -1 when none. */
function columnAt(xml: string, at: number): number {
  let n = 0;
  for (let i = at; ; i++) {
    const c = xml.charCodeAt(i);
    if (c < 0x41 || c > 0x5a) return n - 1;
    n = n * 26 + (c - 0x40);
  }
}

/** The value of attribute `name` (given as ` r="`) in the tag [at, tagEnd), or -1: where the value starts. */
function attributeAt(xml: string, name: string, at: number, tagEnd: number): number {
  const found = xml.indexOf(name, at);
  return found >= 0 && found < tagEnd ? found + name.length : -1;
}

/** The text between `<tag ...>` and `</tag>` within [from, to), or undefined. */
function elementText(xml: string, tag: string, from: number, to: number): string | undefined {
  const at = xml.indexOf(`<${tag}`, from);
  if (at < 0 || at >= to) return undefined;
  const open = xml.indexOf('>', at);
  if (xml.charCodeAt(open - 1) === 0x2f) return '';
  return xml.slice(open + 1, xml.indexOf(`</${tag}>`, open));
}

/** A cell's text by its type (t): as exceljs's value would read through cellText. */
function cellValue(
  xml: string,
  type: string | undefined,
  from: number,
  to: number,
  shared: string[],
): string {
  if (type === 'inlineStr') {
    const item = elementText(xml, 'is', from, to);
    return item === undefined ? '' : stringItem(item);
  }
  const v = elementText(xml, 'v', from, to);
  if (v === undefined) return '';
  if (type === 's') return shared[Number(v)] ?? '';
  if (type === 'b') return v === '1' ? 'true' : 'false';
  if (type === 'str' || type === 'e' || type === 'd') return unescapeXml(v);
  // a number: an integer as written (exact beyond 2^53), else as JavaScript prints it
  if (/^-?\d+$/.test(v)) return v.length > 15 ? v : String(Number(v));
  const n = Number(v);
  return Number.isFinite(n) ? String(n) : unescapeXml(v);
}

/** The cells of one row's XML [from, to): every cell (index = column), or the picked slots. */
function rowCells(
  xml: string,
  from: number,
  to: number,
  shared: string[],
  pick: CellPick | undefined,
): string[] {
  const cells: string[] = pick ? new Array<string>(pick.slots).fill('') : [];
  let column = -1;
  for (let at = xml.indexOf('<c', from); at >= 0 && at < to; at = xml.indexOf('<c', at + 2)) {
    const after = xml.charCodeAt(at + 2);
    if (after !== 0x20 && after !== 0x3e && after !== 0x2f) continue;
    const tagEnd = xml.indexOf('>', at);
    const ref = attributeAt(xml, ' r="', at, tagEnd);
    column = ref >= 0 ? columnAt(xml, ref) : column + 1;
    const selfClosed = xml.charCodeAt(tagEnd - 1) === 0x2f;
    const end = selfClosed ? tagEnd : xml.indexOf('</c>', tagEnd);
    const slot = pick ? (column < pick.slotOf.length ? pick.slotOf[column]! : -1) : column;
    if (slot >= 0) {
      const type = attributeAt(xml, ' t="', at, tagEnd);
      const t = type < 0 ? undefined : xml.slice(type, xml.indexOf('"', type));
      const value = selfClosed ? '' : cellValue(xml, t, tagEnd + 1, end, shared);
      if (pick) cells[slot] = value;
      else {
        while (cells.length < column) cells.push('');
        cells[column] = value;
      }
    }
    at = end;
  }
  return cells;
}

/** The start of the next <row> element from `at` (not <rowBreaks>), or -1. */
function nextRow(xml: string, at: number): number {
  for (let open = xml.indexOf('<row', at); open >= 0; open = xml.indexOf('<row', open + 4)) {
    const after = xml.charCodeAt(open + 4);
    if (after === 0x20 || after === 0x3e || after === 0x2f) return open;
  }
  return -1;
}

/**
 * Calls `onRow` with each non-empty row of the first worksheet (every cell, or the cells `pick()` asks for
 * that row); false, before any row, when this reader does not read the file (exceljs then).
 */
export async function readXlsxSheet(
  bytes: Uint8Array,
  onRow: (cells: string[]) => void,
  pick: () => CellPick | undefined = () => undefined,
): Promise<boolean> {
  const entries = zipEntries(bytes);
  const parts = entries && workbookParts(entries);
  if (!parts) return false;
  const shared = sharedStrings(parts.sharedStrings);
  const decoder = new StringDecoder('utf8');
  let xml = '';
  for await (const chunk of entryChunks(parts.sheet)) {
    xml += decoder.write(chunk);
    let at = 0;
    for (;;) {
      const open = nextRow(xml, at);
      const tagEnd = open < 0 ? -1 : xml.indexOf('>', open);
      if (tagEnd < 0) {
        // keep an element cut by the chunk's end (or the last characters, that may start one)
        at = open >= 0 ? open : Math.max(at, xml.length - 5);
        break;
      }
      if (xml.charCodeAt(tagEnd - 1) === 0x2f) {
        at = tagEnd + 1; // <row .../>: an empty row
        continue;
      }
      const close = xml.indexOf('</row>', tagEnd);
      if (close < 0) {
        at = open;
        break;
      }
      const firstCell = xml.indexOf('<c', tagEnd);
      if (firstCell >= 0 && firstCell < close) onRow(rowCells(xml, tagEnd + 1, close, shared, pick()));
      at = close + 6;
    }
    xml = xml.slice(at);
  }
  return true;
}
