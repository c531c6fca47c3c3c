// The emulated knowledge base service's in-memory state and its changes, independent of HTTP: projects,
// sources (add/replace restart indexing on the emulator clock), segments, integrations, API keys and access
// groups, chats and generation records. Starts from kbWorld(); every change checks the whole request first.
import { ServerRateLimit } from '../rate-limit.js';
import { KbError, kbBadRequest, kbNotFound } from './kb-error.js';
import {
  apiKeyStatus,
  type KbApiKey,
  type KbIntegration,
  type KbProject,
  type KbSource,
  type ProjectStatus,
  type SourceType,
  sha256,
} from './kb-model.js';
import type { KbOptions } from './kb-options.js';
import { type KbQuery, QueryWaits } from './kb-queries.js';
import { addSegmentsTo, removeSegmentsFrom, renameSegmentIn, segmentCounts } from './kb-segments.js';
import { defaultKbSettings, effectiveSettings } from './kb-settings.js';
import { KB_OWNER_LOGIN, kbWorld } from './kb-world.js';
import {
  checkApiKeyRequest,
  checkIntegrationRequest,
  checkSegmentList,
  checkSegmentName,
  checkSourceName,
} from './kb-write-checks.js';
import { apiIndexingRun, indexingProblem, indexingStatusAt } from './source-indexing.js';

export interface KbChat {
  id: number;
  projectId: number;
  name: string;
  settings: Record<string, unknown>;
  /** Its queries, in the order sent. */
  queryIds: number[];
}

export interface KbGroup {
  id: number;
  name: string;
  createdAt: number;
  updatedAt: number;
}

export interface NewSource {
  type: SourceType;
  name?: string;
  text: string;
  /** An uploaded file's bytes (its size and hash are the bytes', its text their UTF-8 reading). */
  content?: Buffer;
  link?: string;
  segments?: string[];
  accessControlAttributes?: string[];
}

export { checkSegmentName } from './kb-write-checks.js';

export class KbService {
  readonly projects = new Map<number, KbProject>();
  readonly sources = new Map<number, KbSource>();
  readonly integrations = new Map<bigint, KbIntegration>();
  readonly keys: KbApiKey[];
  readonly groups = new Map<string, KbGroup>();
  readonly chats = new Map<number, KbChat>();
  readonly queries = new Map<number, KbQuery>();
  readonly waits = new QueryWaits();
  private readonly limits = new Map<number, ServerRateLimit>();
  private nextId = {
    project: 7100,
    source: 200_001,
    integration: 3100n,
    key: 4100,
    group: 5100,
    chat: 9001,
    query: 500_001,
  };

  constructor(
    readonly seed: number,
    readonly startedAt: number,
    readonly options: KbOptions,
  ) {
    const world = kbWorld(seed, startedAt, options);
    for (const p of world.projects) this.projects.set(p.id, p);
    for (const s of world.sources) this.sources.set(s.id, s);
    for (const i of world.integrations) this.integrations.set(i.id, i);
    this.keys = world.keys;
    for (const g of world.groups) this.groups.set(g.name, { ...g, updatedAt: g.createdAt });
  }

  project(id: number): KbProject {
    const p = this.projects.get(id);
    if (!p) throw kbNotFound('project', id);
    return p;
  }

  /** CREATED until the project has a source, ACTIVE after. */
  projectStatus(p: KbProject): ProjectStatus {
    return this.sourcesOf(p.id).length > 0 ? 'ACTIVE' : 'CREATED';
  }

  createProject(name: unknown, now: number): KbProject {
    const checked = this.checkProjectName(name);
    const p: KbProject = {
      id: this.nextId.project++,
      name: checked,
      createdAt: now,
      updatedAt: now,
      settings: defaultKbSettings(this.options.rpmLimit),
      segmentNames: new Set(),
    };
    this.projects.set(p.id, p);
    return p;
  }

  renameProject(id: number, name: unknown, now: number): KbProject {
    const p = this.project(id);
    p.name = this.checkProjectName(name, id);
    p.updatedAt = now;
    return p;
  }

  /** Deletes a project with its sources, integrations, chats and keys (its keys stop working). */
  deleteProject(id: number): void {
    this.project(id);
    this.projects.delete(id);
    for (const [sid, s] of this.sources) if (s.projectId === id) this.sources.delete(sid);
    for (const [iid, i] of this.integrations) if (i.projectId === id) this.integrations.delete(iid);
    for (const [cid, c] of this.chats) if (c.projectId === id) this.chats.delete(cid);
  }

  private checkProjectName(name: unknown, except?: number): string {
    if (typeof name !== 'string' || name.trim() === '' || name.length > 200)
      throw kbBadRequest('name', 'required: 1 to 200 characters');
    for (const p of this.projects.values())
      if (p.id !== except && p.name.toLowerCase() === name.toLowerCase())
        throw new KbError(400, 'kb.bad_request.duplicate_name', `name: a project named ${name} exists`);
    return name;
  }

  setSettings(id: number, settings: Record<string, unknown>, now: number): KbProject {
    const p = this.project(id);
    p.settings = settings;
    p.updatedAt = now;
    this.limits.delete(id);
    return p;
  }

  /** The generation rate limit of a project (its rpmLimit per real minute): Retry-After seconds, or undefined. */
  takeGeneration(projectId: number): number | undefined {
    let limit = this.limits.get(projectId);
    if (!limit) {
      const rpm = effectiveSettings(this.project(projectId).settings).rpmLimit;
      limit = new ServerRateLimit({ requests: rpm, perMs: 60_000 });
      this.limits.set(projectId, limit);
    }
    return limit.take();
  }

  // ---- sources

  sourcesOf(projectId: number): KbSource[] {
    return [...this.sources.values()].filter((s) => s.projectId === projectId).sort((a, b) => a.id - b.id);
  }

  source(projectId: number, id: number): KbSource {
    const s = this.sources.get(id);
    if (!s || s.projectId !== projectId) throw kbNotFound('source', id);
    return s;
  }

  private sourceNamed(projectId: number, name: string): KbSource | undefined {
    return this.sourcesOf(projectId).find((s) => s.name === name);
  }

  addSource(projectId: number, input: NewSource, now: number): KbSource {
    this.project(projectId);
    const id = this.nextId.source;
    const name = checkSourceName(input.name ?? this.defaultName(input, id));
    if (this.sourceNamed(projectId, name))
      throw new KbError(
        400,
        'kb.bad_request.duplicate_name',
        `name: a source named ${name} exists in the project`,
      );
    const segments = (input.segments ?? []).map((s, n) => checkSegmentName(s, `segments[${n}]`));
    const groups = (input.accessControlAttributes ?? []).map((g, n) =>
      checkSegmentName(g, `accessControlAttributes[${n}]`),
    );
    this.nextId.source++;
    for (const g of groups) this.ensureGroup(g, now);
    const source: KbSource = {
      id,
      projectId,
      name,
      type: input.type,
      segments: [...new Set(segments)],
      accessControlAttributes: [...new Set(groups)],
      createdAt: now,
      version: 1,
      text: input.text,
      sizeBytes: input.content?.length ?? Buffer.byteLength(input.text),
      hash: sha256(input.content ?? input.text),
      ...(input.content === undefined ? {} : { content: input.content }),
      ...(input.link === undefined ? {} : { link: input.link }),
      indexing: apiIndexingRun(now, indexingProblem(name, input.text, input.link)),
    };
    this.sources.set(id, source);
    for (const s of source.segments) this.project(projectId).segmentNames.add(s);
    return source;
  }

  /** Replaces the content of the source with this name (404 when there is none); groups are ignored. */
  replaceSource(projectId: number, input: NewSource, now: number): KbSource {
    this.project(projectId);
    if (input.name === undefined) throw kbBadRequest('name', 'required: the name of the source to replace');
    const source = this.sourceNamed(projectId, input.name);
    if (!source)
      throw new KbError(404, 'kb.not_found.source', `no source named ${input.name} in the project`);
    const segments = input.segments?.map((s, n) => checkSegmentName(s, `segments[${n}]`));
    source.type = input.type;
    source.text = input.text;
    source.sizeBytes = input.content?.length ?? Buffer.byteLength(input.text);
    source.hash = sha256(input.content ?? input.text);
    if (input.content === undefined) delete source.content;
    else source.content = input.content;
    source.version++;
    if (input.link === undefined) delete source.link;
    else source.link = input.link;
    if (segments) source.segments = [...new Set(segments)];
    for (const s of source.segments) this.project(projectId).segmentNames.add(s);
    source.indexing = apiIndexingRun(now, indexingProblem(source.name, input.text, input.link));
    return source;
  }

  private defaultName(input: NewSource, id: number): string {
    if (input.link !== undefined) {
      const last = new URL(input.link).pathname.split('/').filter(Boolean).pop() ?? 'page';
      return /\.[A-Za-z0-9]{1,10}$/.test(last) ? last : `${last}.html`;
    }
    return `${input.type.toLowerCase()}-${id}.txt`;
  }

  // ---- segments

  segmentsOf(projectId: number): { name: string; sourcesCount: number }[] {
    return segmentCounts(this.project(projectId), this.sourcesOf(projectId));
  }

  renameSegment(projectId: number, oldName: unknown, newName: unknown): number[] {
    if (typeof oldName !== 'string' || oldName === '') throw kbBadRequest('oldName', 'required');
    return renameSegmentIn(this.project(projectId), this.sourcesOf(projectId), oldName, newName);
  }

  private targetSources(projectId: number, sourceIds: unknown, required: boolean): KbSource[] {
    if (sourceIds === undefined && !required) return this.sourcesOf(projectId);
    if (!Array.isArray(sourceIds) || sourceIds.length === 0 || !sourceIds.every((id) => Number.isInteger(id)))
      throw kbBadRequest('sourceIds', 'expected an array of source ids');
    return sourceIds.map((id) => this.source(projectId, id as number));
  }

  /** Adds segments to the sources (all of the project's when `sourceIds` is absent). */
  addSegments(projectId: number, sourceIds: unknown, segments: unknown): number[] {
    const names = checkSegmentList(segments);
    return addSegmentsTo(this.project(projectId), this.targetSources(projectId, sourceIds, false), names);
  }

  removeSegments(projectId: number, sourceIds: unknown, segments: unknown): number[] {
    const names = checkSegmentList(segments);
    return removeSegmentsFrom(this.targetSources(projectId, sourceIds, true), names);
  }

  // ---- integrations

  integrationsOf(projectId: number): KbIntegration[] {
    return [...this.integrations.values()]
      .filter((i) => i.projectId === projectId)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  integration(projectId: number, id: bigint): KbIntegration {
    const i = this.integrations.get(id);
    if (!i || i.projectId !== projectId) throw kbNotFound('integration', id);
    return i;
  }

  createIntegration(projectId: number, body: Record<string, unknown>, now: number): KbIntegration {
    this.project(projectId);
    const request = checkIntegrationRequest(body);
    for (const g of request.accessControlAttributes) this.ensureGroup(g, now);
    const integration: KbIntegration = {
      id: this.nextId.integration++,
      projectId,
      ...request,
      createdAt: now,
      state: 'ACTIVE',
    };
    this.integrations.set(integration.id, integration);
    return integration;
  }

  // ---- API keys

  keysOf(projectId: number): KbApiKey[] {
    return this.keys.filter((k) => k.projectId === projectId).sort((a, b) => a.id - b.id);
  }

  /** The key record of a bearer value (whatever its status), or undefined. */
  keyByValue(value: string): KbApiKey | undefined {
    return this.keys.find((k) => k.key === value);
  }

  createKey(projectId: number, body: Record<string, unknown>, now: number): KbApiKey {
    this.project(projectId);
    const { name, expiredAt } = checkApiKeyRequest(body, now);
    const id = this.nextId.key++;
    const key: KbApiKey = {
      id,
      projectId,
      name,
      key: `kbk-${id}-${sha256(`${this.seed}:${id}:${name}`).slice(7, 39)}`,
      ownerLogin: KB_OWNER_LOGIN,
      createdAt: now,
      updatedAt: now,
      ...(expiredAt === undefined ? {} : { expiredAt }),
    };
    this.keys.push(key);
    return key;
  }

  revokeKey(projectId: number, keyId: number, now: number): KbApiKey {
    const key = this.keys.find((k) => k.id === keyId && k.projectId === projectId);
    if (!key) throw kbNotFound('apiKey', keyId);
    if (apiKeyStatus(key, now) !== 'REVOKED') {
      key.revokedAt = now;
      key.updatedAt = now;
    }
    return key;
  }

  // ---- access groups

  ensureGroup(name: string, now: number): KbGroup {
    let group = this.groups.get(name);
    if (!group) {
      group = { id: this.nextId.group++, name, createdAt: now, updatedAt: now };
      this.groups.set(name, group);
    }
    return group;
  }

  groupById(id: number): KbGroup {
    const group = [...this.groups.values()].find((g) => g.id === id);
    if (!group) throw kbNotFound('accessGroup', id);
    return group;
  }

  /** Sources carrying a group (of the listed projects when given). */
  groupSources(name: string, projectIds?: number[]): KbSource[] {
    return [...this.sources.values()]
      .filter((s) => s.accessControlAttributes.includes(name))
      .filter((s) => projectIds === undefined || projectIds.includes(s.projectId))
      .sort((a, b) => a.id - b.id);
  }

  groupIntegrations(name: string, projectIds?: number[]): KbIntegration[] {
    return [...this.integrations.values()]
      .filter((i) => i.accessControlAttributes.includes(name))
      .filter((i) => projectIds === undefined || projectIds.includes(i.projectId));
  }

  // ---- searching

  /** Sources INGESTED at `now` that a request's access groups may see (no accessSettings: all of them). */
  searchable(projectId: number, now: number, access?: string[]): KbSource[] {
    return this.sourcesOf(projectId).filter(
      (s) =>
        indexingStatusAt(s.indexing, now) === 'INGESTED' &&
        (access === undefined ||
          s.accessControlAttributes.length === 0 ||
          s.accessControlAttributes.some((g) => access.includes(g))),
    );
  }

  newChatId(): number {
    return this.nextId.chat++;
  }

  newQueryId(): number {
    return this.nextId.query++;
  }

  close(): void {
    this.waits.close();
  }
}
