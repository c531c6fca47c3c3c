// Values of the API's enumerated fields that the client does not know (a status the platform added later):
// they are kept as given and loaded; a run counts them per field and value for its summary and run record,
// and warns once per (field, value) so a new value is noticed without a line per record.
import type { Logger } from '../../log.js';
import { CHATAPI_MESSAGE_STATUSES, EXPERIMENT_STATUSES, MESSAGE_STATUSES } from './schemas.js';

/** The enumerated fields a sync stores (the Reporter's and the Chat API history's), with the values the vendor documents. */
export const KNOWN_VALUES = {
  'message.status': new Set<string>(MESSAGE_STATUSES),
  'experiment.status': new Set<string>(EXPERIMENT_STATUSES),
  /** A Chat API history message's status (spec/chat-api.yaml ChatStatus). */
  'chatapi.status': new Set<string>(CHATAPI_MESSAGE_STATUSES),
} as const;
export type EnumField = keyof typeof KNOWN_VALUES;

/** Per field, per unknown value: how many records of the run carried it. */
export type UnknownValueCounts = Record<string, Record<string, number>>;

export class UnknownValues {
  private readonly counts = new Map<string, Map<string, number>>();

  constructor(private readonly log: Logger) {}

  /** Counts `value` when the field does not know it (null and undefined are no value). */
  check(field: EnumField, value: string | null | undefined): void {
    if (value === null || value === undefined || KNOWN_VALUES[field].has(value)) return;
    let values = this.counts.get(field);
    if (!values) {
      values = new Map();
      this.counts.set(field, values);
    }
    const seen = values.get(value);
    values.set(value, (seen ?? 0) + 1);
    if (seen === undefined)
      this.log.warn(
        { field, value },
        `${field} has a value this version does not know (${JSON.stringify(value)}): kept as given`,
      );
  }

  /** The counts so far, fields and values in the order first seen ({} when none). */
  toJSON(): UnknownValueCounts {
    const out: UnknownValueCounts = {};
    for (const [field, values] of this.counts) out[field] = Object.fromEntries(values);
    return out;
  }
}
