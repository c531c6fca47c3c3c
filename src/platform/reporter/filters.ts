// Builders of Reporter filter objects. The API's date-time ranges are inclusive at both ends, so a
// half-open window [from, to) is sent as [from, to - 1 ms].
export interface ReporterFilter {
  key: string;
  type: string;
  [field: string]: unknown;
}

const iso = (t: number) => new Date(t).toISOString();

export function sessionStartFilter(from: number, to: number): ReporterFilter {
  return { key: 'SESSION_START_TIME', type: 'DATE_TIME_RANGE', from: iso(from), to: iso(to - 1) };
}

export function messageTimeFilter(from: number, to: number): ReporterFilter {
  return { key: 'MESSAGE_TIME', type: 'DATE_TIME_RANGE', from: iso(from), to: iso(to - 1) };
}

export function clientActivityFilter(from: number, to: number): ReporterFilter {
  return { key: 'CLIENT_LAST_ACTIVITY_TIME', type: 'DATE_TIME_RANGE', from: iso(from), to: iso(to - 1) };
}

/** Sessions on any of `channels` (CHANNEL_TYPE options match case-insensitively on the platform). */
export function channelTypeFilter(channels: readonly string[]): ReporterFilter {
  return { key: 'CHANNEL_TYPE', type: 'CHECKBOX', comparisonType: 'CONTAINS', options: [...channels] };
}

/** Records of any of these sessions (EQUALS, case-sensitive: session ids are exact). */
export function sessionIdFilter(ids: readonly string[]): ReporterFilter {
  return {
    key: 'SESSION_ID',
    type: 'TEXT',
    values: [...ids],
    comparisonType: 'EQUALS',
    isCaseSensitive: true,
  };
}
