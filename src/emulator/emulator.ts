// The emulated platform: projects with their data, the clock, tokens, faults, report tasks, the Chat API,
// Pushgate and the knowledge base service.
// Independent of HTTP (the server in server.ts exposes it), so tests can read ground truth and script
// faults in-process. It never imports src/platform/reporter: a bug in the client cannot be copied into it.
import { ApiError } from './api-error.js';
import type { ChatApiChannelOptions } from './chatapi/channels.js';
import { ChatApi } from './chatapi/chat-api.js';
import { EmulatorClock } from './clock.js';
import { Faults } from './faults.js';
import { type KbOptions, resolveKbOptions } from './kb/kb-options.js';
import { KbService } from './kb/kb-service.js';
import { hashString } from './prng.js';
import { type NewStatus, ProjectData, type TextLengths } from './project-data.js';
import { DEFAULT_PUSHBACK_ID, Pushgate } from './pushgate/pushgate.js';
import { type RateLimitOptions, ServerRateLimit } from './rate-limit.js';
import { DEFAULT_REPORT_SHAPE, type ReportShape } from './reports/report-shape.js';
import { ReportTasks } from './reports/report-tasks.js';

export interface V1Token {
  token: string;
  projects: string[];
  readOnly?: boolean;
}
export interface LegacyToken {
  token: string;
  project: string;
}

export interface EmulatorOptions {
  seed: number;
  /** Sessions in the history, over all projects. */
  sessions: number;
  days: number;
  messagesPerSession: number;
  /** Lengthened question and answer texts (`{ length: 0, longEvery: 0, longLength: 0 }`: as the vocabulary has them). */
  texts: TextLengths;
  projects: string[];
  /** End of the history and the clock's start (epoch ms). */
  now: number;
  live: boolean;
  /** Live mode: simulated ms per real ms. */
  speed: number;
  /**
   * The most rows a paged operation answers, whatever `size` asks (`paging.pageSize` says what was used):
   * a real server caps pages too (`reporter-etl emulator --max-page-size`).
   */
  maxPageSize: number;
  /** A server-side rate limit on the API (429 with Retry-After beyond it); none by default. */
  rateLimit?: RateLimitOptions;
  /** Real ms every API request waits before it is handled: a platform that far away (default 0; remote.ts). */
  latencyMs: number;
  v1Tokens: V1Token[];
  legacyTokens: LegacyToken[];
  /** Unit of SessionInfo.duration on the wire. */
  durationUnit: 'ms' | 's';
  accountId: number;
  /** How fast report tasks write rows (simulated time of the emulator clock is not used: real time). */
  reportRowsPerSecond: number;
  /** How long a report file URL stays valid, in real ms. */
  reportUrlTtlMs: number;
  /** Where report files are written (a temporary directory by default). */
  filesDir?: string;
  /** Chat API channels (default: one per project, token defaultChatApiToken(project)). */
  chatApiChannels: ChatApiChannelOptions[];
  /** The longest a Chat API events call blocks with nothing to answer, in real ms (default 30 000). */
  chatApiEventsWaitMs: number;
  /** How long one Chat API webhook delivery waits for an answer, in real ms (default 3000). */
  chatApiWebhookTimeoutMs: number;
  /** How many times a failed webhook delivery is sent again (default 3). */
  chatApiWebhookResends: number;
  /** Pause before a webhook resend, in real ms (default 1000). */
  chatApiWebhookRetryDelayMs: number;
  /** Share of sessions whose bot stored a Pushgate pushback id in sessionData `pushbackId` (default 0). */
  pushbackShare: number;
  /**
   * A delivery status the platform added after the documented five (none by default): that share of the
   * status channels' answers (telegram, viber, vk) is given it after SENT and keeps it.
   */
  newStatus?: NewStatus;
  /** Standalone Pushgate pushbacks (default: DEFAULT_PUSHBACK_ID in the first project). */
  pushbacks: { pushbackId: string; project?: string }[];
  /** The knowledge base service at `/kb` (sources, keys, generation pace; see kb/kb-options.ts). */
  kb: Partial<KbOptions>;
  /**
   * How report files are written where the seeds are silent (header names and language, CSV or XLSX only,
   * column order, extra columns, a CSV's BOM and delimiter; reports/report-shape.ts); default the API's names.
   */
  reportShape?: Partial<ReportShape>;
}

/** One API request as received: method, path with query string, raw body (undefined when empty). */
export interface RecordedRequest {
  method: string;
  url: string;
  body?: string;
}

export const DEFAULT_V1_TOKEN = 'emulator-v1-token';
export const DEFAULT_READONLY_TOKEN = 'emulator-readonly-token';
export const defaultLegacyToken = (project: string): string => `emulator-legacy-${project}`;

export function resolveOptions(partial: Partial<EmulatorOptions> = {}): EmulatorOptions {
  const projects = partial.projects && partial.projects.length > 0 ? partial.projects : ['shop-bot'];
  const now = partial.now ?? Math.floor(Date.now() / 3_600_000) * 3_600_000;
  return {
    seed: partial.seed ?? 42,
    sessions: partial.sessions ?? 2000,
    days: partial.days ?? 7,
    messagesPerSession: partial.messagesPerSession ?? 10,
    texts: partial.texts ?? { length: 0, longEvery: 0, longLength: 0 },
    projects,
    now,
    live: partial.live ?? false,
    speed: partial.speed ?? 1,
    maxPageSize: partial.maxPageSize ?? 500,
    latencyMs: partial.latencyMs ?? 0,
    v1Tokens: partial.v1Tokens ?? [
      { token: DEFAULT_V1_TOKEN, projects },
      { token: DEFAULT_READONLY_TOKEN, projects, readOnly: true },
    ],
    legacyTokens:
      partial.legacyTokens ?? projects.map((project) => ({ token: defaultLegacyToken(project), project })),
    durationUnit: partial.durationUnit ?? 'ms',
    accountId: partial.accountId ?? 100500,
    reportRowsPerSecond: partial.reportRowsPerSecond ?? 50_000,
    reportUrlTtlMs: partial.reportUrlTtlMs ?? 3_600_000,
    chatApiChannels: partial.chatApiChannels ?? ChatApi.defaultChannels(projects),
    chatApiEventsWaitMs: partial.chatApiEventsWaitMs ?? 30_000,
    chatApiWebhookTimeoutMs: partial.chatApiWebhookTimeoutMs ?? 3_000,
    chatApiWebhookResends: partial.chatApiWebhookResends ?? 3,
    chatApiWebhookRetryDelayMs: partial.chatApiWebhookRetryDelayMs ?? 1_000,
    pushbackShare: partial.pushbackShare ?? 0,
    pushbacks: partial.pushbacks ?? [{ pushbackId: DEFAULT_PUSHBACK_ID }],
    kb: partial.kb ?? {},
    ...(partial.filesDir === undefined ? {} : { filesDir: partial.filesDir }),
    ...(partial.rateLimit === undefined ? {} : { rateLimit: partial.rateLimit }),
    ...(partial.newStatus === undefined ? {} : { newStatus: partial.newStatus }),
    ...(partial.reportShape === undefined ? {} : { reportShape: partial.reportShape }),
  };
}

export class Emulator {
  readonly options: EmulatorOptions;
  readonly clock: EmulatorClock;
  readonly faults: Faults;
  readonly projects = new Map<string, ProjectData>();
  readonly reports: ReportTasks;
  /** The Chat API channels and what only the Chat API keeps (states, set statuses, cursors, webhooks). */
  readonly chatApi: ChatApi;
  /** Pushgate: the pushbacks and every push received. */
  readonly pushgate: Pushgate;
  /** The knowledge base service (its own projects, sources, keys and generations; served at `/kb`). */
  readonly kb: KbService;
  readonly ApiError = ApiError;
  /** Requests received on the API (control endpoints excluded). */
  requestCount = 0;
  /** The server-side rate limit (options.rateLimit, or set by remote.ts), with when it answered 429. */
  rateLimit: ServerRateLimit | undefined;
  /** Real ms every API request waits (options.latencyMs, or set by remote.ts). */
  latencyMs: number;
  /** How report files are written now (options.reportShape, or set by POST /__emulator/report-shape). */
  reportShape: ReportShape;
  /**
   * When set, every API request (control endpoints excluded) is appended here as it arrives: the
   * benchmark replays exactly the requests of a sync against a fresh emulator (its transfer floor).
   */
  requestLog: RecordedRequest[] | undefined;

  constructor(partial: Partial<EmulatorOptions> = {}) {
    this.options = resolveOptions(partial);
    const o = this.options;
    this.clock = new EmulatorClock(o.now, { live: o.live, speed: o.speed });
    this.faults = new Faults(o.seed);
    this.rateLimit = o.rateLimit ? new ServerRateLimit(o.rateLimit) : undefined;
    this.latencyMs = o.latencyMs;
    this.reportShape = { ...DEFAULT_REPORT_SHAPE, ...o.reportShape };
    const perProject = Math.max(1, Math.round(o.sessions / o.projects.length));
    o.projects.forEach((name) => {
      this.projects.set(
        name,
        new ProjectData({
          name,
          accountId: o.accountId,
          seed: (o.seed * 31 + hashString(name)) >>> 0,
          sessions: perProject,
          days: o.days,
          now: o.now,
          messagesPerSession: o.messagesPerSession,
          texts: o.texts,
          pushbackShare: o.pushbackShare,
          ...(o.newStatus === undefined ? {} : { newStatus: o.newStatus }),
        }),
      );
    });
    this.reports = new ReportTasks(this);
    this.chatApi = new ChatApi(this, o.chatApiChannels, {
      eventsMaxWaitMs: o.chatApiEventsWaitMs,
      timeoutMs: o.chatApiWebhookTimeoutMs,
      resends: o.chatApiWebhookResends,
      retryDelayMs: o.chatApiWebhookRetryDelayMs,
    });
    this.pushgate = new Pushgate(this, o.pushbacks);
    this.kb = new KbService(o.seed, o.now, resolveKbOptions(o.kb));
  }

  /** The clock now; grows every project's data up to it. */
  now(): number {
    const now = this.clock.now();
    for (const project of this.projects.values()) project.skeleton.growTo(now);
    return now;
  }

  project(name: string): ProjectData {
    const project = this.projects.get(name);
    if (!project)
      throw new ApiError(404, 'reporter.not_found.project', `project ${name} not found`, {
        projectShortName: name,
      });
    return project;
  }

  async close(): Promise<void> {
    this.kb.close();
    await this.chatApi.close();
    await this.reports.close();
  }
}
