// JSON text of values holding knowledge base ids (KbId: a number, or a bigint beyond 2^53). JSON.stringify
// refuses a bigint, and a JSON number beyond 2^53 is rounded by most readers, so a bigint id is written as the
// string of its digits: DuckDB's from_json reads it into a BIGINT column exactly, and a person sees every digit.
import type { KbId } from './kb-schemas.js';

/** An id for a JSON answer (`--json`, a summary): a number when it is safe, else the string of its digits. */
export function kbIdForJson(id: KbId): number | string {
  return typeof id === 'bigint' ? id.toString() : id;
}

/** JSON.stringify with every bigint as the string of its digits. */
export function stringifyKbJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
}
