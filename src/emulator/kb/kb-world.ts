// The generated starting world of the knowledge base, a pure function of (seed, clock start, options): the
// account's projects, the main project's sources (most indexed long ago, some still queued or processing at
// the clock's start, some failed), integrations (auto-syncing, failed with a stale last success, paused),
// segments (one that lost its sources), API keys (permanent, expiring soon, expired, revoked) and access
// groups (one with no files). The service copies it into its mutable state; the truth regenerates it.
import { pick, pickIndex, unit } from '../prng.js';
import type { KbApiKey, KbIntegration, KbProject, KbSource, SourceType } from './kb-model.js';
import { sha256 } from './kb-model.js';
import type { KbOptions } from './kb-options.js';
import { defaultKbSettings } from './kb-settings.js';
import { knowledgeOf } from './kb-texts.js';
import { topicAnswerSources } from './kb-topic-answers.js';
import type { IndexingRun } from './source-indexing.js';

const MINUTE = 60_000;
const DAY = 86_400_000;

export const KB_MAIN_PROJECT_ID = 7001;
export const KB_OWNER_LOGIN = 'kb-admin@example.com';
/** Key values of the generated keys beside the default project key (see kbWorld().keys). */
export const KB_GENERATED_KEYS = {
  expiringSoon: 'emulator-kb-key-expiring-soon',
  expired: 'emulator-kb-key-expired',
  revoked: 'emulator-kb-key-revoked',
  longLived: 'emulator-kb-key-analytics',
  otherProject: 'emulator-kb-key-hr',
} as const;
/** The segment every generated source lost (it is listed with sourcesCount 0). */
export const KB_ORPHAN_SEGMENT = 'legacy-faq';
/** The access group no source or integration uses any more. */
export const KB_EMPTY_GROUP = 'former-contractors';

export interface KbWorld {
  projects: KbProject[];
  sources: KbSource[];
  integrations: KbIntegration[];
  keys: KbApiKey[];
  /** Account access groups, with their creation time. */
  groups: { id: number; name: string; createdAt: number }[];
}

const SEGMENT_OF_TOPIC: Record<string, string> = {
  delivery: 'regions',
  store: 'regions',
  office: 'regions',
  festival: 'regions',
  warranty: 'products',
  returns: 'products',
  manual: 'products',
  tariff: 'subscriptions',
  bonus: 'subscriptions',
  trial: 'subscriptions',
};

const INDEXING_ERRORS = [
  'unsupported format: a scanned PDF without a text layer',
  'timeout while parsing the document after 300 s',
  'the document is password protected',
];

function project(id: number, name: string, createdAt: number, rpmLimit: number): KbProject {
  return {
    id,
    name,
    createdAt,
    updatedAt: createdAt,
    settings: defaultKbSettings(rpmLimit),
    segmentNames: new Set(),
  };
}

/** The indexing run of generated source `i`: finished long ago, or in flight around the clock's start. */
function generatedRun(
  seed: number,
  i: number,
  createdAt: number,
  now: number,
  type: SourceType,
): IndexingRun {
  const u = unit(seed, i, 0x1d3);
  // a seeded share, plus every 25th source, so even the smallest world has failures and sources in flight
  const fails = i % 25 === 3 || unit(seed, i, 0xfa11) < 0.06;
  const error = fails
    ? type === 'LINK' && unit(seed, i, 0x404) < 0.5
      ? 'download failed: the page answered HTTP 404'
      : pick(INDEXING_ERRORS, seed, i, 0xe77)
    : undefined;
  const withError = error === undefined ? {} : { error };
  if (i % 16 === 9 || u < 0.08) {
    // (re)uploaded in the last ten minutes: queued or processing at the clock's start, done within the hour
    const queuedAt = now - (1 + pickIndex(10, seed, i, 1)) * MINUTE;
    const processingAt = queuedAt + (2 + pickIndex(14, seed, i, 2)) * MINUTE;
    return {
      queuedAt,
      processingAt,
      doneAt: processingAt + (5 + pickIndex(26, seed, i, 3)) * MINUTE,
      ...withError,
    };
  }
  const processingAt = createdAt + (1 + pickIndex(5, seed, i, 4)) * MINUTE;
  return {
    queuedAt: createdAt,
    processingAt,
    doneAt: processingAt + (2 + pickIndex(19, seed, i, 5)) * MINUTE,
    ...withError,
  };
}

function generatedSources(seed: number, now: number, count: number): KbSource[] {
  const sources: KbSource[] = [];
  for (let i = 0; i < count; i++) {
    const k = knowledgeOf(seed, i);
    const type: SourceType = (['FILE', 'FILE', 'LINK', 'TEXT'] as const)[i % 4]!;
    const ext = type === 'LINK' ? 'html' : type === 'TEXT' ? 'txt' : pick(['pdf', 'docx', 'md'], seed, i, 6);
    const name = `${k.topic}-${k.subject.toLowerCase()}.${ext}`;
    const createdAt = now - (1 + pickIndex(60 * 24, seed, i, 7)) * MINUTE * 60;
    const segments = unit(seed, i, 8) < 0.1 ? [] : [SEGMENT_OF_TOPIC[k.topic]!];
    if (segments.length > 0 && unit(seed, i, 9) < 0.3) segments.push('faq');
    const groups: string[] = [];
    if (unit(seed, i, 10) < 0.1) groups.push('staff');
    if (unit(seed, i, 11) < 0.05) groups.push('partners');
    if (k.topic === 'tariff' && unit(seed, i, 12) < 0.3) groups.push('vip-clients');
    const indexing = generatedRun(seed, i, createdAt, now, type);
    const version = indexing.queuedAt > createdAt ? 2 : 1;
    sources.push({
      id: 100_001 + i,
      projectId: KB_MAIN_PROJECT_ID,
      name,
      type,
      segments,
      accessControlAttributes: groups,
      createdAt,
      version,
      text: k.text,
      sizeBytes: Buffer.byteLength(k.text),
      hash: sha256(k.text),
      ...(type === 'LINK' ? { link: `https://help.example.com/${k.topic}/${k.subject.toLowerCase()}` } : {}),
      indexing,
    });
  }
  return sources;
}

function generatedIntegrations(now: number): KbIntegration[] {
  const base = { projectId: KB_MAIN_PROJECT_ID, accessControlAttributes: [] as string[] };
  return [
    {
      ...base,
      id: 3001n,
      name: 'Confluence wiki',
      autoSync: true,
      syncIntervalMinutes: 60,
      settings: { baseUrl: 'https://wiki.example.com', space: 'HELP' },
      createdAt: now - 40 * DAY - 7 * MINUTE,
      state: 'ACTIVE',
      accessControlAttributes: ['staff'],
    },
    {
      ...base,
      // ids on both sides of 2^53 (and int64's largest): a client that reads them as doubles rounds them
      id: 9_007_199_254_740_991n,
      name: 'Helpdesk articles',
      autoSync: true,
      syncIntervalMinutes: 30,
      settings: { baseUrl: 'https://helpdesk.example.com' },
      createdAt: now - 12 * DAY - 13 * MINUTE,
      state: 'ACTIVE',
    },
    {
      ...base,
      id: 3003n,
      name: 'SharePoint documents',
      autoSync: true,
      syncIntervalMinutes: 120,
      settings: { baseUrl: 'https://sharepoint.example.com/sites/support' },
      createdAt: now - 90 * DAY,
      state: 'FAILED',
      lastError: '401 Unauthorized from https://sharepoint.example.com: the integration token expired',
      frozenLastSuccessAt: now - 9 * DAY - 4 * 60 * MINUTE,
      accessControlAttributes: ['partners'],
    },
    {
      ...base,
      id: 9_007_199_254_740_993n,
      name: 'Drive exports',
      autoSync: true,
      syncIntervalMinutes: 60,
      settings: { baseUrl: 'https://drive.example.com/exports' },
      createdAt: now - 30 * DAY,
      state: 'FAILED',
      lastError: '429 Too Many Requests from https://drive.example.com: quota exceeded',
      frozenLastSuccessAt: now - 2 * DAY - 17 * MINUTE,
    },
    {
      ...base,
      id: 9_223_372_036_854_775_807n,
      name: 'Old Zendesk',
      autoSync: false,
      syncIntervalMinutes: 1440,
      settings: { baseUrl: 'https://old.zendesk.example.com' },
      createdAt: now - 200 * DAY,
      state: 'PAUSED',
      frozenLastSuccessAt: now - 120 * DAY,
    },
  ];
}

function generatedKeys(now: number, options: KbOptions): KbApiKey[] {
  const key = (
    id: number,
    projectId: number,
    name: string,
    value: string,
    createdAgo: number,
    extra: Partial<KbApiKey> = {},
  ): KbApiKey => ({
    id,
    projectId,
    name,
    key: value,
    ownerLogin: KB_OWNER_LOGIN,
    createdAt: now - createdAgo,
    updatedAt: now - createdAgo,
    lastUsedAt: now - createdAgo / 3,
    ...extra,
  });
  const main = KB_MAIN_PROJECT_ID;
  return [
    key(4001, main, 'emulator default', options.projectKey, 90 * DAY),
    key(4002, main, 'ci-pipeline', KB_GENERATED_KEYS.expiringSoon, 25 * DAY, {
      expiredAt: now + 20 * MINUTE,
    }),
    key(4003, main, 'old-export', KB_GENERATED_KEYS.expired, 200 * DAY, { expiredAt: now - 3 * DAY }),
    key(4004, main, 'leaked-key', KB_GENERATED_KEYS.revoked, 60 * DAY, {
      revokedAt: now - 10 * DAY,
      updatedAt: now - 10 * DAY,
    }),
    key(4005, main, 'analytics', KB_GENERATED_KEYS.longLived, 5 * DAY, { expiredAt: now + 30 * DAY }),
    key(4006, KB_MAIN_PROJECT_ID + 1, 'hr portal', KB_GENERATED_KEYS.otherProject, 20 * DAY),
  ];
}

export function kbWorld(seed: number, now: number, options: KbOptions): KbWorld {
  const main = project(KB_MAIN_PROJECT_ID, 'support-kb', now - 400 * DAY, options.rpmLimit);
  // the generated sources, then the FAQ answers to some of the unhandled questions' topics
  const sources = [
    ...generatedSources(seed, now, options.sources),
    ...topicAnswerSources(KB_MAIN_PROJECT_ID, 100_001 + options.sources, now),
  ];
  for (const s of sources) for (const g of s.segments) main.segmentNames.add(g);
  main.segmentNames.add(KB_ORPHAN_SEGMENT);
  const groupNames = ['staff', 'partners', 'vip-clients', KB_EMPTY_GROUP];
  return {
    projects: [
      main,
      project(KB_MAIN_PROJECT_ID + 1, 'hr-kb', now - 30 * DAY, options.rpmLimit),
      project(KB_MAIN_PROJECT_ID + 2, 'sales-kb', now - 3 * DAY, options.rpmLimit),
    ],
    sources,
    integrations: generatedIntegrations(now),
    keys: generatedKeys(now, options),
    groups: groupNames.map((name, n) => ({ id: 5001 + n, name, createdAt: now - (300 - n * 50) * DAY })),
  };
}
