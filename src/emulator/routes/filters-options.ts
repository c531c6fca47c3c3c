// Values a checkbox filter can take (filter-options) and the bounds of a numeric one (interval-filter-options),
// over the records that match the request's other filters (a filter with the asked key is left out of the
// selection; its options mark the values as isSelected). frequency counts sessions in the SESSIONS section
// (messages for LOG_LABELS and NLP_CLASS) and clients in the CLIENTS section.
import { badParameter } from '../api-error.js';
import { type CompiledFilters, compileFilterList, compileFilters, normaliseChannel } from '../filters.js';
import type { ProjectData } from '../project-data.js';
import { selectClients, selectMessages, selectSessions } from '../query.js';
import { SESSION_RESULTS } from '../vocabulary.js';
import type { Section } from './filters-catalogue.js';
import { sortedMessageLabels } from './labels-message-catalogue.js';
import { sortedSessionLabels } from './labels-session-catalogue.js';

export interface FilterOption {
  value: string;
  label: string;
  isSelected: boolean;
  frequency: number;
}

const CHANNEL_LABELS: Readonly<Record<string, string>> = {
  telegram: 'Telegram',
  chatwidget: 'Chat widget',
  viber: 'Viber',
  vk: 'VK',
  chatapi: 'Chat API',
  resterisk: 'Telephony',
  wazzup: 'Wazzup',
};

/** The request's filters without those of `key`, compiled, and the option values those named. */
export function otherFilters(
  body: unknown,
  key: string,
): { filters: CompiledFilters; selected: Set<string> } {
  compileFilters(body); // the whole body must be valid, the left-out filter included
  const list = (body as { filters?: unknown } | undefined)?.filters;
  const all = Array.isArray(list) ? (list as Record<string, unknown>[]) : [];
  const selected = new Set<string>();
  const rest = all.filter((f) => {
    if (f['key'] !== key) return true;
    if (Array.isArray(f['options'])) for (const o of f['options']) if (typeof o === 'string') selected.add(o);
    return false;
  });
  return { filters: compileFilterList(rest, 'filters'), selected };
}

function counted(
  counts: Map<string, number>,
  label: (v: string) => string,
  selected: (v: string) => boolean,
): FilterOption[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([value, frequency]) => ({ value, label: label(value), isSelected: selected(value), frequency }));
}

function bump(counts: Map<string, number>, value: string): void {
  counts.set(value, (counts.get(value) ?? 0) + 1);
}

/** Options of a checkbox key, dynamic ones by frequency (ties by value), catalogue ones in catalogue order. */
export function filterOptions(
  p: ProjectData,
  section: Section,
  key: string,
  body: unknown,
  now: number,
): FilterOption[] {
  const { filters, selected } = otherFilters(body, key);
  const isSelected = (v: string) => selected.has(v);
  const channelSelected = new Set([...selected].map(normaliseChannel));
  const channelLabel = (v: string) => CHANNEL_LABELS[v] ?? v;
  const counts = new Map<string, number>();

  if (section === 'CLIENTS') {
    for (const c of selectClients(p, filters, now)) {
      const first = p.skeleton.clientCreator.get(c);
      bump(counts, key === 'CHANNEL_TYPE' ? p.channelOf(first) : p.botIdOf(first));
    }
    return key === 'CHANNEL_TYPE'
      ? counted(counts, channelLabel, (v) => channelSelected.has(normaliseChannel(v)))
      : counted(counts, (v) => v, isSelected);
  }

  if (key === 'LOG_LABELS' || key === 'NLP_CLASS') {
    for (const { i, k } of selectMessages(p, filters, now)) {
      if (key === 'NLP_CLASS') {
        const cls = p.messageFacts(i, k).nlpClass;
        if (cls !== undefined) bump(counts, cls);
      } else for (const id of p.messageLabelIds(i, k, now)) bump(counts, String(id));
    }
    if (key === 'NLP_CLASS') return counted(counts, (v) => v, isSelected);
    return sortedMessageLabels(p).map((l) => ({
      value: String(l.id),
      label: l.name,
      isSelected: isSelected(String(l.id)),
      frequency: counts.get(String(l.id)) ?? 0,
    }));
  }

  const sessions = selectSessions(p, filters, now);
  for (let n = 0; n < sessions.length; n++) {
    const i = sessions[n]!;
    switch (key) {
      case 'CHANNEL_TYPE':
        bump(counts, p.channelOf(i));
        break;
      case 'BOT_ID':
        bump(counts, p.botIdOf(i));
        break;
      case 'SESSION_RESULT':
        bump(counts, p.sessionResult(i));
        break;
      case 'SESSION_LABELS':
        for (const id of p.sessionLabelIds(i, now)) bump(counts, String(id));
        break;
      default:
        throw badParameter('filterKey', `filter ${key} has no options in this emulator`);
    }
  }
  switch (key) {
    case 'CHANNEL_TYPE':
      return counted(counts, channelLabel, (v) => channelSelected.has(normaliseChannel(v)));
    case 'SESSION_RESULT':
      return SESSION_RESULTS.map((value) => ({
        value,
        label: value.charAt(0) + value.slice(1).toLowerCase(),
        isSelected: isSelected(value),
        frequency: counts.get(value) ?? 0,
      }));
    case 'SESSION_LABELS':
      return sortedSessionLabels(p).map((l) => ({
        value: String(l.id),
        label: l.name,
        isSelected: isSelected(String(l.id)),
        frequency: counts.get(String(l.id)) ?? 0,
      }));
    default:
      return counted(counts, (v) => v, isSelected);
  }
}

/** `{minValue, maxValue}` of MESSAGE_COUNT over the sessions matching the other filters ({0, 0} when none). */
export function messageCountInterval(
  p: ProjectData,
  body: unknown,
  now: number,
): { minValue: number; maxValue: number } {
  const { filters } = otherFilters(body, 'MESSAGE_COUNT');
  const sessions = selectSessions(p, filters, now);
  if (sessions.length === 0) return { minValue: 0, maxValue: 0 };
  let minValue = Number.POSITIVE_INFINITY;
  let maxValue = Number.NEGATIVE_INFINITY;
  for (let n = 0; n < sessions.length; n++) {
    const count = p.skeleton.visibleMessageCount(sessions[n]!, now);
    if (count < minValue) minValue = count;
    if (count > maxValue) maxValue = count;
  }
  return { minValue, maxValue };
}
