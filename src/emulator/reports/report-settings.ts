// ReportSettings of a create request, validated with the vendor's defaults (XLSX, header, ',' and
// 'yyyy-MM-dd HH:mm:ss.SSS'). Invariant: a bad field is a 400 naming it (settings.fileType, settings.delimiter).
import { badParameter } from '../api-error.js';
import { compileDateTimeFormat } from './date-format.js';
import type { FileType, ReportSettings } from './report-types.js';

export const DEFAULT_DATE_TIME_FORMAT = 'yyyy-MM-dd HH:mm:ss.SSS';
const FILE_TYPES: readonly FileType[] = ['XLSX', 'CSV'];

export function defaultReportSettings(): ReportSettings {
  return { fileType: 'XLSX', withHeader: true, delimiter: ',', dateTimeFormat: DEFAULT_DATE_TIME_FORMAT };
}

const absent = (value: unknown): boolean => value === undefined || value === null;

/** Parses `settings` of a CreateReportDto; absent settings are the defaults. */
export function parseReportSettings(raw: unknown, field = 'settings'): ReportSettings {
  const settings = defaultReportSettings();
  if (absent(raw)) return settings;
  if (typeof raw !== 'object' || Array.isArray(raw))
    throw badParameter(field, 'expected an object {fileType, withHeader?, delimiter?, dateTimeFormat?}');
  const body = raw as Record<string, unknown>;
  const fileType = body['fileType'];
  if (absent(fileType)) throw badParameter(`${field}.fileType`, `required, one of ${FILE_TYPES.join(', ')}`);
  if (typeof fileType !== 'string' || !(FILE_TYPES as readonly string[]).includes(fileType)) {
    throw badParameter(
      `${field}.fileType`,
      `expected one of ${FILE_TYPES.join(', ')}, got ${JSON.stringify(fileType)}`,
    );
  }
  settings.fileType = fileType as FileType;
  const withHeader = body['withHeader'];
  if (!absent(withHeader)) {
    if (typeof withHeader !== 'boolean')
      throw badParameter(`${field}.withHeader`, `expected true or false, got ${JSON.stringify(withHeader)}`);
    settings.withHeader = withHeader;
  }
  const delimiter = body['delimiter'];
  if (!absent(delimiter)) {
    if (typeof delimiter !== 'string' || [...delimiter].length !== 1) {
      throw badParameter(
        `${field}.delimiter`,
        `must be exactly one character, got ${JSON.stringify(delimiter)}`,
      );
    }
    if (delimiter === '"' || delimiter === '\r' || delimiter === '\n')
      throw badParameter(`${field}.delimiter`, 'cannot be a quote or a line break');
    settings.delimiter = delimiter;
  }
  const format = body['dateTimeFormat'];
  if (!absent(format)) {
    if (typeof format !== 'string' || format.trim() === '')
      throw badParameter(
        `${field}.dateTimeFormat`,
        'expected a non-empty pattern like yyyy-MM-dd HH:mm:ss.SSS',
      );
    compileDateTimeFormat(format, `${field}.dateTimeFormat`);
    settings.dateTimeFormat = format;
  }
  return settings;
}
