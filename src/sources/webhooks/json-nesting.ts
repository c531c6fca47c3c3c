// How deep a JSON text nests arrays and objects, found without recursion before it is parsed: a body nested
// thousands of levels deep would overflow the stack of what walks the parsed value (the check of its strings,
// zod) and be answered with "Maximum call stack size exceeded" instead of our reason. Brackets inside a string
// (escapes included) do not count; the text need not be valid JSON (JSON.parse judges that afterwards).

/** Whether `text` opens more than `levels` arrays and objects inside one another. */
export function nestsDeeperThan(text: string, levels: number): boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 0x5c) escaped = true;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > levels) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
