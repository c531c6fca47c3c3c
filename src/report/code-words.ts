// A platform code as a reader says it: FAILED_TO_INGEST is "Failed to ingest", NOT_DELIVERED "Not delivered".
// The workbook shows the words; the HTML page shows them too and keeps the code in the cell's title, so that
// the code a support ticket or the API documentation names is one hover away. Anything else is left as is.

const CODE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/;

/** `FAILED_TO_INGEST` → `Failed to ingest`; a value that is not an upper-case code is returned unchanged. */
export function codeInWords(value: string): string {
  if (!CODE.test(value)) return value;
  const words = value.toLowerCase().replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
