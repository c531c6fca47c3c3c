// The filters the platform offers and their values: the filters of an analytics section (FilterInfo), the
// options of a checkbox filter with frequencies over the records matching the other filters, the bounds of a
// numeric one, and saved filter sets (user-filter-sets: save filters, get a filterSetId; read one back).
import { z } from 'zod';
import type { ReporterFilter } from './filters.js';
import type { ReporterHttp } from './http.js';
import { parseAnswer } from './parse-answer.js';

export type AnalyticsSection = 'SESSIONS' | 'CLIENTS';

const filterInfo = z.object({
  key: z.string().min(1),
  type: z.string().min(1),
  label: z.string(),
  isDefault: z.boolean().default(false),
  isRequired: z.boolean().default(false),
  settings: z.record(z.string(), z.unknown()).nullish(),
});
export type FilterInfo = z.infer<typeof filterInfo>;

const filterOption = z.object({
  value: z.string(),
  label: z.string(),
  isSelected: z.boolean().default(false),
  frequency: z.number().int().nullish(),
  parentValue: z.string().nullish(),
  childValues: z.array(z.string()).nullish(),
});
export type FilterOption = z.infer<typeof filterOption>;

const intervalOptions = z.object({ minValue: z.number(), maxValue: z.number() });
export type IntervalFilterOptions = z.infer<typeof intervalOptions>;

const userFilterSet = z.object({
  filterSetId: z.string().min(1),
  filters: z.array(z.record(z.string(), z.unknown())).nullish(),
  intervalType: z.string().nullish(),
  step: z.number().int().nullish(),
});
export type UserFilterSet = z.infer<typeof userFilterSet>;

export async function readAvailableFilters(
  http: ReporterHttp,
  analyticsSection: AnalyticsSection,
): Promise<FilterInfo[]> {
  const op = 'filters';
  const answer = await http.json({ method: 'GET', op, query: { analyticsSection } });
  return parseAnswer(op, z.array(filterInfo), answer ?? []);
}

/** One page of the values of a checkbox filter over the records matching `filters` (the others). */
export async function readFilterOptions(
  http: ReporterHttp,
  request: {
    analyticsSection: AnalyticsSection;
    filterKey: string;
    filters?: ReporterFilter[];
    page?: number;
    size?: number;
  },
): Promise<FilterOption[]> {
  const op = 'filter-options';
  const answer = await http.json({
    method: 'POST',
    op,
    query: {
      analyticsSection: request.analyticsSection,
      filterKey: request.filterKey,
      page: request.page ?? 0,
      size: request.size ?? 20,
    },
    body: { filters: request.filters ?? [] },
  });
  return parseAnswer(op, z.array(filterOption), answer ?? []);
}

/** The smallest and largest value of a numeric filter (MESSAGE_COUNT) over the records matching `filters`. */
export async function readIntervalFilterOptions(
  http: ReporterHttp,
  request: { analyticsSection: AnalyticsSection; filterKey: string; filters?: ReporterFilter[] },
): Promise<IntervalFilterOptions> {
  const op = 'interval-filter-options';
  const answer = await http.json({
    method: 'POST',
    op,
    query: { analyticsSection: request.analyticsSection, filterKey: request.filterKey },
    body: { filters: request.filters ?? [] },
  });
  return parseAnswer(op, intervalOptions, answer);
}

/** Saves a filter set; answers its filterSetId (a link to the platform's UI with these filters). */
export async function createFilterSetId(
  http: ReporterHttp,
  request: { filters: ReporterFilter[]; intervalType?: string; step?: number },
): Promise<string> {
  const op = 'user-filter-sets/filterSetId';
  return parseAnswer(op, z.string().min(1), await http.json({ method: 'POST', op, body: request }));
}

export async function readUserFilterSet(http: ReporterHttp, filterSetId: string): Promise<UserFilterSet> {
  const op = `user-filter-sets/${encodeURIComponent(filterSetId)}`;
  return parseAnswer(op, userFilterSet, await http.json({ method: 'GET', op }));
}
