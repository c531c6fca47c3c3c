// The JSON text of an emulator answer. A bigint (an int64 id beyond 2^53 of the knowledge base) is written as
// a JSON number with every digit, as a server in Java writes a long; JSON.stringify refuses a bigint, so only a
// body that holds one takes the slower path (the Reporter API's answers never do).

/** Marks a bigint's digits inside the first text; JSON.stringify escapes the NUL as `\u0000`. */
const MARK = '\u0000bigint:';
const MARKED = /"\\u0000bigint:(-?\d+)"/g;

export function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (!(error instanceof TypeError && /BigInt/i.test(error.message))) throw error;
  }
  const text = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? `${MARK}${v}` : v));
  return text.replace(MARKED, '$1');
}
