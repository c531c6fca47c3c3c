// Filter operations: the filters of a section (GET filters), checkbox options with frequencies (filter-options,
// paged), numeric bounds (interval-filter-options) and saved filter sets (user-filter-sets). A filter set is
// validated by compileFilters before it is stored, so a stored set can always be replayed.
import { badParameter } from '../api-error.js';
import { compileFilters, FILTER_KEYS } from '../filters.js';
import { requiredString, requireObject } from '../params.js';
import { hex } from '../prng.js';
import { pageOf, type Route, type RouteContext, readRoute } from '../route.js';
import {
  DYNAMIC_OPTION_KEYS,
  filtersOf,
  filterTypeOf,
  isSectionKey,
  SECTIONS,
  type Section,
} from './filters-catalogue.js';
import { filterOptions, messageCountInterval } from './filters-options.js';
import { missing } from './labels-lookup.js';

const INTERVAL_TYPES = ['HOUR', 'DAY', 'WEEK', 'MONTH', 'QUARTER', 'YEAR'];

function sectionOf(ctx: RouteContext): Section {
  const raw = requiredString(ctx.query, 'analyticsSection');
  if (!(SECTIONS as readonly string[]).includes(raw))
    throw badParameter('analyticsSection', `expected one of ${SECTIONS.join(', ')}, got ${raw}`);
  return raw as Section;
}

/** `filterKey` of the section, of one of the `types`. */
function filterKeyOf(ctx: RouteContext, section: Section, types: readonly string[]): string {
  const key = requiredString(ctx.query, 'filterKey');
  if (!(FILTER_KEYS as readonly string[]).includes(key))
    throw badParameter('filterKey', `unknown filter key ${key}`);
  if (!isSectionKey(section, key))
    throw badParameter('filterKey', `${key} is not a filter of the ${section} section`);
  const type = filterTypeOf(key);
  if (!types.includes(type))
    throw badParameter('filterKey', `${key} is a ${type} filter: it has no options of this kind`);
  return key;
}

export function filterRoutes(): Route[] {
  return [
    readRoute('GET', 'filters', 'getAvailableFilters', (ctx) => filtersOf(sectionOf(ctx))),
    readRoute('POST', 'filter-options', 'getFilterOptions', (ctx) => {
      const section = sectionOf(ctx);
      const key = filterKeyOf(ctx, section, ['CHECKBOX', 'TREE']);
      if (!DYNAMIC_OPTION_KEYS.includes(key))
        throw badParameter('filterKey', `this emulator has no options for ${key}`);
      return pageOf(ctx, filterOptions(ctx.project, section, key, ctx.body, ctx.now)).items;
    }),
    readRoute('POST', 'interval-filter-options', 'getIntervalFilterOptions', (ctx) => {
      filterKeyOf(ctx, sectionOf(ctx), ['NUMERIC_RANGE']);
      return messageCountInterval(ctx.project, ctx.body, ctx.now);
    }),
    // a filter set is kept by the project's state, but any token may save one (not a `write`)
    readRoute('POST', 'user-filter-sets/filterSetId', 'createFilterSetId', (ctx) => {
      const p = ctx.project;
      const body = requireObject(ctx.body);
      compileFilters(body);
      // UserFilterSetDto also carries intervalType and step: accepted here as an extension of FiltersDto
      const intervalType = body['intervalType'];
      if (
        intervalType !== undefined &&
        intervalType !== null &&
        (typeof intervalType !== 'string' || !INTERVAL_TYPES.includes(intervalType))
      ) {
        throw badParameter('intervalType', `expected one of ${INTERVAL_TYPES.join(', ')}`);
      }
      const step = body['step'];
      if (
        step !== undefined &&
        step !== null &&
        (typeof step !== 'number' || !Number.isInteger(step) || step < 1)
      ) {
        throw badParameter('step', 'expected a positive integer');
      }
      const n = p.state.newId();
      const filterSetId = `${hex(8, p.seed, n, 400)}-${hex(4, p.seed, n, 401)}-4${hex(3, p.seed, n, 402)}-a${hex(3, p.seed, n, 403)}-${hex(12, p.seed, n, 404)}`;
      const filters = JSON.parse(JSON.stringify(body['filters'] ?? [])) as unknown[];
      p.state.filterSets.set(filterSetId, {
        filterSetId,
        filters,
        ...(typeof intervalType === 'string' ? { intervalType } : {}),
        ...(typeof step === 'number' ? { step } : {}),
      });
      p.state.touch();
      return filterSetId;
    }),
    readRoute('GET', 'user-filter-sets/{filterSetId}', 'getUserFilterSet', (ctx) => {
      const id = ctx.params['filterSetId'] ?? '';
      const set = ctx.project.state.filterSets.get(id);
      if (!set) throw missing('filterSetId', 'user filter set', id);
      return { ...set, filters: JSON.parse(JSON.stringify(set.filters)) };
    }),
  ];
}
