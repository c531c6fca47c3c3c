// Help text fitted to a terminal of HELP_WIDTH columns. The text is read as blocks: an option or table row
// (`  --tz ZONE   the zone ...`) with the lines continuing its description, a paragraph of prose (lines of one
// indentation), a synopsis (`reporter-etl x [--a] ...` and its `[...]` lines), a command example. A block
// that fits is kept as written; one with a longer line is filled again: its words continue under the
// description, the indentation or the synopsis's options, and an example continues with ` \` (it still pastes
// into a shell). No word is cut (a word wider than the room stays whole on a line of its own).
import { displayWidth } from './display-width.js';

/** The widest help line: 100 columns fit a split terminal and a code review page. */
export const HELP_WIDTH = 100;

const indentOf = (line: string): number => /^ */.exec(line)![0].length;

/** `  --from ISO [--to ISO]   text`: the column of `text` (after a term and two or more spaces), if any. */
function descriptionColumn(line: string): number | undefined {
  const term = /^( *)(\S+(?: \S+)*?)( {2,})(?=\S)/.exec(line);
  if (!term) return undefined;
  return term[0].length <= 48 ? term[0].length : undefined;
}

/** A shell command of an example: `reporter-etl ...`, `npx ...`, `REPORTER_X=... reporter-etl ...`. */
function isCommandLine(line: string): boolean {
  return /^ {2,}(?:reporter-etl |bin\/reporter-etl\.js |npx |npm |[A-Z][A-Z0-9_]*=\S+ )/.test(line);
}

interface Block {
  lines: string[];
  /** A synopsis: an option in brackets is one word (`[--format xlsx|csv]` is not broken). */
  synopsis?: boolean;
  /** The first line's start (its indentation, or its term column included). */
  head: string;
  /** Where its continuation lines start. */
  hang: number;
  /** ` \` at the end of every line but the last. */
  tail: string;
}

/** Breaks `words` into lines of at most `width` columns: the first after `head`, the rest after `hang` spaces. */
function fill(words: readonly string[], head: string, hang: number, width: number, tail: string): string[] {
  const lines: string[] = [];
  let line = head;
  let empty = true;
  for (const word of words) {
    const candidate = empty ? line + word : `${line} ${word}`;
    if (!empty && displayWidth(candidate) + tail.length > width) {
      lines.push(line + tail);
      line = ' '.repeat(hang) + word;
    } else line = candidate;
    empty = false;
  }
  lines.push(line);
  return lines;
}

/** The block that starts at lines[i], with the lines that continue it. */
function readBlock(lines: readonly string[], i: number): Block {
  const first = lines[i]!;
  const indent = indentOf(first);
  /** The lines after the first indented `hang` (to `hang + deeper`) that pass `test`. */
  const continues = (hang: number, test: (line: string) => boolean, deeper = 0) => {
    const block = [first];
    for (let j = i + 1; j < lines.length; j++) {
      const line = lines[j]!;
      const at = indentOf(line);
      if (line.trim() === '' || at < hang || at > hang + deeper || !test(line)) break;
      block.push(line);
    }
    return block;
  };
  if (first.startsWith('reporter-etl ')) {
    const next = lines[i + 1] ?? '';
    const options = first.search(/ [[<-]/) + 1;
    const hang = /^ +\[/.test(next) ? indentOf(next) : options > 0 && options <= 40 ? options : 4;
    const block = continues(hang, (l) => /^ *[[|]/.test(l));
    return { lines: block, head: '', hang, tail: '', synopsis: true };
  }
  if (isCommandLine(first) || first.endsWith(' \\'))
    return {
      lines: [first],
      head: ' '.repeat(indent),
      hang: indent + 2,
      tail: first.endsWith(' \\') ? '' : ' \\',
    };
  const column = descriptionColumn(first);
  if (column !== undefined) {
    // a description's lines, some indented two more (a sentence continued): filled under the description
    const block = continues(
      column,
      (l) => descriptionColumn(l) === undefined && !l.trimStart().startsWith('→'),
      2,
    );
    return { lines: block, head: first.slice(0, column), hang: column, tail: '' };
  }
  // a list item (`  1. text`, `  - text`): its lines continue under its text
  const marker = /^ *(?:\d+\.|[-*•→]) +/.exec(first);
  const hang = marker ? marker[0].length : indent;
  const block = continues(hang, (l) => descriptionColumn(l) === undefined && !isCommandLine(l));
  return { lines: block, head: ' '.repeat(indent), hang, tail: '' };
}

/** A whole help text fitted to `width` columns. */
export function wrapHelp(text: string, width: number = HELP_WIDTH): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; ) {
    if (lines[i]!.trim() === '') {
      out.push(lines[i]!);
      i++;
      continue;
    }
    const block = readBlock(lines, i);
    i += block.lines.length;
    if (block.lines.every((line) => displayWidth(line) <= width)) {
      out.push(...block.lines);
      continue;
    }
    const body = block.lines.join(' ').slice(block.head.length).trim();
    const words = block.synopsis ? (body.match(/\[[^\]]*\](?:\.\.\.)?|\S+/g) ?? []) : body.split(/ +/);
    out.push(...fill(words, block.head, block.hang, width, block.tail));
  }
  return out.join('\n');
}
