// Filter operations of the emulator: the filters of each section (FilterInfo with typed settings, supported
// keys marked), filter-options with frequencies against the ground truth, interval-filter-options, and
// saved filter sets (user-filter-sets).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_READONLY_TOKEN } from '../../src/emulator/emulator.js';
import { SUPPORTED_FILTERS } from '../../src/emulator/filters.js';
import type { ProjectData } from '../../src/emulator/project-data.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/server.js';
import { groundTruth } from '../../src/emulator/truth.js';
import { makeCaller, range, TEST_NOW } from '../helpers/emulator-client.js';
import { loadSpec } from '../helpers/openapi-validator.js';

let running: RunningEmulator;
let call: ReturnType<typeof makeCaller>;
let p: ProjectData;
const spec = loadSpec({ dateTime: 'strict' });
const DAY = 86_400_000;

const SETTINGS_SCHEMA: Record<string, string> = {
  TEXT: 'TextFilterSettings',
  DATE_TIME_RANGE: 'DateTimeRangeFilterSettings',
  NUMERIC_RANGE: 'NumericRangeFilterSettings',
  CHECKBOX: 'CheckboxFilterSettings',
  RADIO: 'RadioFilterSettings',
  TREE: 'TreeFilterSettings',
  CUSTOM_FIELDS_IN_RESPONSE: 'CustomFieldsInResponseFilterSettings',
  COMPOSITE_FILTER: 'CompositeFilterSettings',
};

beforeAll(async () => {
  running = await startEmulator({ port: 0, sessions: 300, days: 2, now: TEST_NOW });
  call = makeCaller(running.url);
  p = running.emulator.project('shop-bot');
});
afterAll(() => running.close());

function expectParameter(r: { status: number; body: any }, status: number, parameter: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.body.args?.parameter).toBe(parameter);
  expect(r.body.message).toContain(parameter);
}

const options = (query: string, body?: unknown) =>
  call(`filter-options?${query}`, { method: 'POST', ...(body === undefined ? {} : { body }) });
const asMap = (rows: any[]) => Object.fromEntries(rows.map((o) => [o.value, o.frequency]));

describe('filters', () => {
  it('lists the filters of each section with settings of their type and the supported ones marked', async () => {
    for (const section of ['SESSIONS', 'CLIENTS']) {
      const r = await call(`filters?analyticsSection=${section}`);
      expect(r.status).toBe(200);
      for (const info of r.body) {
        expect(spec.validateNamed(info, 'FilterInfo'), info.key).toEqual([]);
        expect(spec.validateNamed(info.settings, SETTINGS_SCHEMA[info.type]!), info.key).toEqual([]);
        expect(info.settings.key).toBe(info.key);
        expect(info.settings.type).toBe(info.type);
        expect(info.isSupported).toBe(SUPPORTED_FILTERS[info.key] !== undefined);
        if (info.isSupported) expect(info.type).toBe(SUPPORTED_FILTERS[info.key]);
      }
      const keys = r.body.map((f: any) => f.key);
      expect(new Set(keys).size).toBe(keys.length);
      if (section === 'SESSIONS') {
        expect(keys).toEqual(
          expect.arrayContaining(['SESSION_START_TIME', 'MESSAGE_TIME', 'SESSION_LABELS', 'NLP_STATE']),
        );
        expect(keys).not.toContain('CLIENT_JOIN_TIME');
        expect(r.body.find((f: any) => f.key === 'SESSION_START_TIME').isDefault).toBe(true);
        const radio = r.body.find((f: any) => f.key === 'TRANSFER_TO_OPERATOR');
        expect(radio.settings.staticOptions.map((o: any) => o.value)).toEqual([
          'ANY',
          'WITH_TRANSFER',
          'WITHOUT_TRANSFER',
        ]);
      } else {
        expect(keys.sort()).toEqual([
          'BOT_ID',
          'CHANNEL_TYPE',
          'CLIENT_ID_OR_NAME',
          'CLIENT_JOIN_TIME',
          'CLIENT_LAST_ACTIVITY_TIME',
        ]);
      }
    }
    const legacy = await call('filters?analyticsSection=CLIENTS', { generation: 'legacy' });
    expect(legacy.body).toEqual((await call('filters?analyticsSection=CLIENTS')).body);
    expectParameter(await call('filters'), 400, 'analyticsSection');
    expectParameter(await call('filters?analyticsSection=MESSAGES'), 400, 'analyticsSection');
  });
});

describe('filter-options', () => {
  it('answers channel types in lower case with session counts equal to the ground truth', async () => {
    const t = groundTruth(p, { now: TEST_NOW, ids: false });
    const r = await options('filterKey=CHANNEL_TYPE&analyticsSection=SESSIONS');
    expect(r.status).toBe(200);
    for (const o of r.body) expect(spec.validateNamed(o, 'FilterOption')).toEqual([]);
    expect(r.body.every((o: any) => o.value === o.value.toLowerCase() && o.isSelected === false)).toBe(true);
    expect(asMap(r.body)).toEqual(
      Object.fromEntries(Object.entries(t.byChannel).map(([ch, row]) => [ch, row.sessions])),
    );
    const frequencies = r.body.map((o: any) => o.frequency);
    expect(frequencies).toEqual([...frequencies].sort((a, b) => b - a));

    // the other filters narrow the counts; a CHANNEL_TYPE filter in the body only marks the selection
    const from = TEST_NOW - DAY;
    const to = TEST_NOW - DAY / 2;
    const windowed = await options('filterKey=CHANNEL_TYPE&analyticsSection=SESSIONS', {
      filters: [
        range('SESSION_START_TIME', from, to),
        { key: 'CHANNEL_TYPE', type: 'CHECKBOX', options: ['CHAT_WIDGET'] },
      ],
    });
    const tw = groundTruth(p, { now: TEST_NOW, from, to: to + 1, ids: false });
    expect(asMap(windowed.body)).toEqual(
      Object.fromEntries(
        Object.entries(tw.byChannel)
          .filter(([, row]) => row.sessions > 0)
          .map(([ch, row]) => [ch, row.sessions]),
      ),
    );
    expect(windowed.body.filter((o: any) => o.isSelected).map((o: any) => o.value)).toEqual(['chatwidget']);
  });

  it('answers label, bot and NLP class options with frequencies equal to the ground truth', async () => {
    const t = groundTruth(p, { now: TEST_NOW, ids: false });
    const sessionLabels = (await options('filterKey=SESSION_LABELS&analyticsSection=SESSIONS&size=100')).body;
    expect(sessionLabels.map((o: any) => o.label)).toEqual([
      'Успешно',
      'Нужна доработка',
      'Жалоба 😡',
      'Спам',
    ]);
    expect(sessionLabels.map((o: any) => o.value)).toEqual(['1', '2', '3', '4']);
    for (const o of sessionLabels) expect(o.frequency).toBe(t.sessionLabels[o.label] ?? 0);

    const logLabels = (await options('filterKey=LOG_LABELS&analyticsSection=SESSIONS&size=100')).body;
    expect(logLabels).toHaveLength(6);
    for (const o of logLabels) expect(o.frequency).toBe(t.messageLabels[o.label] ?? 0);

    const nlp = (await options('filterKey=NLP_CLASS&analyticsSection=SESSIONS&size=100')).body;
    expect(asMap(nlp)).toEqual(t.nlpClasses);

    const bots = (await options('filterKey=BOT_ID&analyticsSection=SESSIONS', {})).body;
    expect(bots.map((o: any) => o.value).sort()).toEqual([...p.botIds].sort());
    expect(bots.reduce((a: number, o: any) => a + o.frequency, 0)).toBe(t.sessions);

    const results = (
      await call('filter-options?filterKey=SESSION_RESULT&analyticsSection=SESSIONS', {
        method: 'POST',
        generation: 'legacy',
      })
    ).body;
    expect(results.map((o: any) => o.value)).toEqual(['RESOLVED', 'TRANSFERRED', 'ABANDONED']);
    expect(results.reduce((a: number, o: any) => a + o.frequency, 0)).toBe(t.sessions);
    expect(results.find((o: any) => o.value === 'TRANSFERRED').frequency).toBe(t.transferredSessions);

    const clients = (await options('filterKey=CHANNEL_TYPE&analyticsSection=CLIENTS')).body;
    expect(clients.reduce((a: number, o: any) => a + o.frequency, 0)).toBe(t.uniqueClients);
  });

  it('reflects label changes made through the API', async () => {
    const created = await call('logs/labels/sessions', { body: { name: 'Отмечено', priority: 0 } });
    const sessions = (await call('sessions/filter?size=4', { body: {} })).body.sessions;
    for (const s of sessions)
      await call(`session-labels/sessions?sessionId=${s.sessionId}`, { body: { labelId: created.body.id } });
    const labels = (await options('filterKey=SESSION_LABELS&analyticsSection=SESSIONS')).body;
    expect(labels[0]).toEqual({
      value: String(created.body.id),
      label: 'Отмечено',
      isSelected: false,
      frequency: 4,
    });
    expect(groundTruth(p, { now: TEST_NOW, ids: false }).sessionLabels['Отмечено']).toBe(4);
  });

  it('pages the options', async () => {
    const all = (await options('filterKey=NLP_CLASS&analyticsSection=SESSIONS&size=100')).body;
    expect(all.length).toBeGreaterThan(4);
    const first = (await options('filterKey=NLP_CLASS&analyticsSection=SESSIONS&page=0&size=2')).body;
    const second = (await options('filterKey=NLP_CLASS&analyticsSection=SESSIONS&page=1&size=2')).body;
    expect([...first, ...second]).toEqual(all.slice(0, 4));
    expect((await options('filterKey=NLP_CLASS&analyticsSection=SESSIONS&page=99')).body).toEqual([]);
  });

  it('names the parameter at fault', async () => {
    expectParameter(await options('analyticsSection=SESSIONS'), 400, 'filterKey');
    expectParameter(await options('filterKey=NOPE&analyticsSection=SESSIONS'), 400, 'filterKey');
    expectParameter(await options('filterKey=MESSAGE_TEXT&analyticsSection=SESSIONS'), 400, 'filterKey');
    expectParameter(await options('filterKey=NLP_STATE&analyticsSection=SESSIONS'), 400, 'filterKey');
    expectParameter(await options('filterKey=SESSION_LABELS&analyticsSection=CLIENTS'), 400, 'filterKey');
    expectParameter(await options('filterKey=CHANNEL_TYPE'), 400, 'analyticsSection');
    expectParameter(
      await options('filterKey=CHANNEL_TYPE&analyticsSection=SESSIONS', {
        filters: [{ key: 'CHANNEL_TYPE', type: 'TEXT' }],
      }),
      400,
      'filters[0].type',
    );
  });
});

describe('interval-filter-options', () => {
  it('answers the bounds of MESSAGE_COUNT over the matching sessions', async () => {
    const sk = p.skeleton;
    let min = Number.POSITIVE_INFINITY;
    let max = 0;
    for (let i = 0; i < sk.sessionCount && sk.start.get(i) <= TEST_NOW; i++) {
      const n = sk.visibleMessageCount(i, TEST_NOW);
      min = Math.min(min, n);
      max = Math.max(max, n);
    }
    const path = 'interval-filter-options?filterKey=MESSAGE_COUNT&analyticsSection=SESSIONS';
    const r = await call(path, { method: 'POST' });
    expect(r.status).toBe(200);
    expect(spec.validateNamed(r.body, 'IntervalFilterOptions')).toEqual([]);
    expect(r.body).toEqual({ minValue: min, maxValue: max });
    // a MESSAGE_COUNT filter in the body does not narrow its own bounds; other filters do
    const own = await call(path, {
      body: { filters: [{ key: 'MESSAGE_COUNT', type: 'NUMERIC_RANGE', from: 3, to: 4 }] },
    });
    expect(own.body).toEqual({ minValue: min, maxValue: max });
    const nonEmpty = await call(path, {
      body: { filters: [{ key: 'WITHOUT_EMPTY_SESSIONS', type: 'RADIO', option: 'YES' }] },
      generation: 'legacy',
    });
    expect(nonEmpty.body).toEqual({ minValue: Math.max(1, min), maxValue: max });
    const none = await call(path, {
      body: { filters: [range('SESSION_START_TIME', TEST_NOW + DAY, TEST_NOW + 2 * DAY)] },
    });
    expect(none.body).toEqual({ minValue: 0, maxValue: 0 });

    expectParameter(
      await call('interval-filter-options?filterKey=CHANNEL_TYPE&analyticsSection=SESSIONS', {
        method: 'POST',
      }),
      400,
      'filterKey',
    );
    expectParameter(
      await call('interval-filter-options?filterKey=MESSAGE_COUNT&analyticsSection=CLIENTS', {
        method: 'POST',
      }),
      400,
      'filterKey',
    );
    expectParameter(
      await call('interval-filter-options?analyticsSection=SESSIONS', { method: 'POST' }),
      400,
      'filterKey',
    );
  });
});

describe('user-filter-sets', () => {
  it('saves a filter set and reads it back in either generation', async () => {
    const filters = [
      range('SESSION_START_TIME', TEST_NOW - DAY, TEST_NOW),
      { key: 'CHANNEL_TYPE', type: 'CHECKBOX', comparisonType: 'CONTAINS', options: ['telegram', 'vk'] },
    ];
    const created = await call('user-filter-sets/filterSetId', { body: { filters } });
    expect(created.status).toBe(200);
    expect(typeof created.body).toBe('string');
    expect(created.text).toBe(JSON.stringify(created.body));
    const id = created.body as string;

    const got = await call(`user-filter-sets/${id}`, { generation: 'legacy' });
    expect(got.status).toBe(200);
    expect(spec.validateNamed(got.body, 'UserFilterSetDto')).toEqual([]);
    expect(got.body).toEqual({ filterSetId: id, filters });

    // a read-only token may save one too (the vendor marks it a read operation); ids differ
    const second = await call('user-filter-sets/filterSetId', {
      body: { filters: [], intervalType: 'DAY', step: 2 },
      token: DEFAULT_READONLY_TOKEN,
    });
    expect(second.status).toBe(200);
    expect(second.body).not.toBe(id);
    expect((await call(`user-filter-sets/${second.body}`)).body).toEqual({
      filterSetId: second.body,
      filters: [],
      intervalType: 'DAY',
      step: 2,
    });
  });

  it('validates the filters and answers 404 for an unknown set', async () => {
    expectParameter(
      await call('user-filter-sets/filterSetId', {
        body: { filters: [{ key: 'MESSAGE_COUNT', type: 'CHECKBOX' }] },
      }),
      400,
      'filters[0].type',
    );
    expectParameter(await call('user-filter-sets/filterSetId', { body: { filters: 'x' } }), 400, 'filters');
    expectParameter(await call('user-filter-sets/filterSetId', { body: [] }), 400, 'body');
    expectParameter(
      await call('user-filter-sets/filterSetId', { body: { intervalType: 'MINUTE' } }),
      400,
      'intervalType',
    );
    expectParameter(await call('user-filter-sets/no-such-set'), 404, 'filterSetId');
  });
});
