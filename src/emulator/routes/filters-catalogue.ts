// The filters each analytics section offers (GET filters): FilterInfo with settings of the filter's type.
// Invariant: a key this emulator evaluates carries the type of SUPPORTED_FILTERS and `isSupported: true`
// (an extension field); the others are listed as the vendor has them, marked unsupported, and a query
// using them is answered 400 by compileFilters.
import { FILTER_KEYS, SUPPORTED_FILTERS } from '../filters.js';
import { SESSION_RESULTS } from '../vocabulary.js';

export const SECTIONS = ['SESSIONS', 'CLIENTS'] as const;
export type Section = (typeof SECTIONS)[number];
type FilterKey = (typeof FILTER_KEYS)[number];

/** Keys of the CLIENTS section: evaluated per client (its join, its last visit, its first session). */
const CLIENT_KEYS: readonly FilterKey[] = [
  'CLIENT_ID_OR_NAME',
  'CLIENT_JOIN_TIME',
  'CLIENT_LAST_ACTIVITY_TIME',
  'CHANNEL_TYPE',
  'BOT_ID',
];
/** Client-time keys are not evaluated on sessions, so the SESSIONS section leaves them out. */
const CLIENT_ONLY_KEYS: readonly FilterKey[] = ['CLIENT_JOIN_TIME', 'CLIENT_LAST_ACTIVITY_TIME'];

/** Type of the keys the emulator does not evaluate, as the vendor's UI shows them. */
const UNSUPPORTED_TYPES: Readonly<Record<string, string>> = {
  SESSION_END_TIME: 'DATE_TIME_RANGE',
  INITIATOR: 'RADIO',
  CALL_TASK_ID: 'TEXT',
  MESSAGE_TYPE: 'CHECKBOX',
  NLP_STATE: 'TREE',
  INTENT: 'TREE',
  CUSTOM_FIELDS_IN_RESPONSE: 'CUSTOM_FIELDS_IN_RESPONSE',
  EXCEPTION_EXISTENCE: 'RADIO',
  SESSION_DATA: 'COMPOSITE_FILTER',
  STATE_ROUTES: 'TREE',
};

const LABELS: Readonly<Record<FilterKey, string>> = {
  SESSION_ID: 'Session ID',
  SESSION_START_TIME: 'Session start',
  SESSION_END_TIME: 'Session end',
  SESSION_LABELS: 'Session labels',
  SESSION_RESULT: 'Session result',
  INITIATOR: 'Initiator',
  CALL_TASK_ID: 'Call task',
  CHANNEL_TYPE: 'Channel',
  BOT_ID: 'Bot',
  CLIENT_ID_OR_NAME: 'Client ID or name',
  CLIENT_JOIN_TIME: 'First visit',
  CLIENT_LAST_ACTIVITY_TIME: 'Last activity',
  MESSAGE_TYPE: 'Message type',
  MESSAGE_TIME: 'Message time',
  MESSAGE_TEXT: 'Message text',
  ANSWER_TEXT: 'Answer text',
  MESSAGE_COUNT: 'Number of messages',
  LOG_LABELS: 'Message labels',
  COMMENT_TEXT: 'Comment',
  NLP_CLASS: 'Intent class',
  NLP_STATE: 'Script state',
  INTENT: 'Intent',
  TRANSFER_TO_OPERATOR: 'Transfer to agent',
  WITHOUT_EMPTY_SESSIONS: 'Hide empty sessions',
  WITHOUT_EMPTY_MESSAGES: 'Hide empty messages',
  CUSTOM_FIELDS_IN_RESPONSE: 'Custom fields in response',
  EXCEPTION_EXISTENCE: 'With errors',
  SESSION_DATA: 'Session data',
  STATE_ROUTES: 'State routes',
};

/** Checkbox keys whose options come from filter-options (they depend on the other filters). */
export const DYNAMIC_OPTION_KEYS: readonly string[] = [
  'CHANNEL_TYPE',
  'BOT_ID',
  'SESSION_LABELS',
  'LOG_LABELS',
  'NLP_CLASS',
  'SESSION_RESULT',
];

const RADIO_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  WITHOUT_EMPTY_SESSIONS: ['NOT_IMPORTANT', 'YES', 'NO'],
  WITHOUT_EMPTY_MESSAGES: ['NOT_IMPORTANT', 'YES', 'NO'],
  EXCEPTION_EXISTENCE: ['NOT_IMPORTANT', 'YES', 'NO'],
  TRANSFER_TO_OPERATOR: ['ANY', 'WITH_TRANSFER', 'WITHOUT_TRANSFER'],
  INITIATOR: ['ANY', 'CLIENT', 'BOT'],
};

const CHECKBOX_COMPARISONS = ['CONTAINS', 'NOT_CONTAINS', 'EXISTS', 'NOT_EXISTS', 'NOT_IMPORTANT'] as const;
const TEXT_COMPARISONS = ['CONTAINS', 'NOT_CONTAINS', 'EQUALS', 'NOT_IMPORTANT'] as const;
const COMPOSITE_COMPARISONS = [
  'CONTAINS',
  'NOT_CONTAINS',
  'EQUALS',
  'NOT_EQUALS',
  'STARTS_WITH',
  'ENDS_WITH',
  'NOT_IMPORTANT',
] as const;

const humanise = (s: string): string => s.charAt(0) + s.slice(1).toLowerCase().replace(/_/g, ' ');

function comparisons(types: readonly string[]): { type: string; label: string; isDefault: boolean }[] {
  return types.map((type, n) => ({ type, label: humanise(type), isDefault: n === 0 }));
}

export function isSectionKey(section: Section, key: string): boolean {
  return section === 'CLIENTS'
    ? (CLIENT_KEYS as readonly string[]).includes(key)
    : !(CLIENT_ONLY_KEYS as readonly string[]).includes(key);
}

/** The filter type of a key: the emulator's own for the keys it evaluates, the vendor's for the others. */
export function filterTypeOf(key: string): string {
  return SUPPORTED_FILTERS[key] ?? UNSUPPORTED_TYPES[key] ?? 'TEXT';
}

function settingsOf(key: FilterKey, type: string, supported: boolean): Record<string, unknown> {
  const dynamic = DYNAMIC_OPTION_KEYS.includes(key) && supported;
  const base: Record<string, unknown> = {
    key,
    type,
    filterDependent: dynamic,
    withFilterInput: type === 'TEXT' || (dynamic && key !== 'SESSION_RESULT'),
  };
  if (!supported)
    base['helpMessage'] = 'Not evaluated by this emulator: a query with this filter is answered 400.';
  const placeholder = `Choose: ${LABELS[key].toLowerCase()}`;
  switch (type) {
    case 'TEXT':
      return {
        ...base,
        placeholder: `Enter: ${LABELS[key].toLowerCase()}`,
        comparisonOptions: comparisons(TEXT_COMPARISONS),
      };
    case 'DATE_TIME_RANGE':
      return { ...base, defaultValue: { offset: 7, unit: 'DAY' } };
    case 'NUMERIC_RANGE':
      return base;
    case 'CHECKBOX': {
      const staticOptions =
        key === 'SESSION_RESULT'
          ? SESSION_RESULTS.map((value) => ({ value, label: humanise(value), isSelected: false }))
          : [];
      return {
        ...base,
        placeholder,
        comparisonOptions: comparisons(CHECKBOX_COMPARISONS),
        defaultPageSizeForOptions: 20,
        staticOptions,
      };
    }
    case 'RADIO': {
      const values = RADIO_OPTIONS[key] ?? [];
      return {
        ...base,
        comparisonOptions: [],
        staticOptions: values.map((value, n) => ({ value, label: humanise(value), isSelected: n === 0 })),
      };
    }
    case 'TREE':
      return {
        ...base,
        placeholder,
        comparisonOptions: comparisons(CHECKBOX_COMPARISONS),
        altClickEnabled: false,
      };
    case 'COMPOSITE_FILTER':
      return {
        ...base,
        placeholder: 'Key',
        popularLabel: 'Popular keys',
        description: 'Values set by $analytics.setSessionData',
        comparisonOptions: COMPOSITE_COMPARISONS.map((t, n) => ({
          type: t,
          label: humanise(t),
          isDefault: n === 0,
          withInputField: t !== 'NOT_IMPORTANT',
        })),
      };
    default:
      return { ...base, placeholder: 'JSON path' };
  }
}

/** FilterInfo[] of a section, in the vendor's key order. */
export function filtersOf(section: Section): Record<string, unknown>[] {
  return FILTER_KEYS.filter((key) => isSectionKey(section, key)).map((key) => {
    const supported = SUPPORTED_FILTERS[key] !== undefined;
    const type = filterTypeOf(key);
    return {
      key,
      type,
      label: LABELS[key],
      isDefault: section === 'SESSIONS' ? key === 'SESSION_START_TIME' : key === 'CLIENT_JOIN_TIME',
      isRequired: false,
      isSupported: supported,
      settings: settingsOf(key, type, supported),
    };
  });
}
