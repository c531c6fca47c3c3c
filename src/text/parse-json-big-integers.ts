// JSON.parse that keeps the knowledge base's int64 ids exact: Node 20's JSON.parse rounds an integer above
// 2^53 before any reviver sees it, so a pre-pass quotes every integer token of 16 digits or more (outside
// strings) and it arrives as the string of its digits; kb-schemas.ts reads it back as a number or a bigint.
// Integers of up to 15 digits, fractions and exponents parse as JSON.parse has them. Only the knowledge base
// client and the webhook receiver (the Prompter's intent ids) use it: the Reporter's hot records never pay for it.

/** A JSON string token (escapes included), or a number token: the whole token, so no digit run is cut. */
const TOKEN = /"[^"\\]*(?:\\[\s\S][^"\\]*)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
/** An integer token of 16 digits or more (a leading zero is left for JSON.parse to refuse): some of 16 digits lose precision. */
const LONG_INTEGER = /^-?[1-9]\d{15,}$/;
/** Any run of 16 digits: without one there is nothing to quote (the common case costs one scan). */
const LONG_DIGIT_RUN = /\d{16}/;

/** The text with every integer token of 16 digits or more outside strings put in quotes. */
export function quoteBigIntegers(text: string): string {
  if (!LONG_DIGIT_RUN.test(text)) return text;
  return text.replace(TOKEN, (token) => (LONG_INTEGER.test(token) ? `"${token}"` : token));
}

/** JSON.parse, long integers (16 digits or more) as the strings of their digits. */
export function parseJsonBigIntegers(text: string): unknown {
  return JSON.parse(quoteBigIntegers(text));
}
