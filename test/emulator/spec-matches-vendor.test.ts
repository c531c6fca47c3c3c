// Our spec (spec/reporter-api.yaml) against the vendor's published files, when they are at hand
// (`REPORTER_VENDOR_SPEC_DIR`, else ../shared/reference beside the repository): operation by operation and
// schema by schema, with prose (descriptions, summaries, tags) set aside. Skipped, saying so, without them.
// Invariant: the legacy generation of our spec is the vendor's legacy file; v1 is it plus our documented additions.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  loadSpec,
  OpenApiValidator,
  type Schema,
  type SpecOperation,
  VENDOR_ASYNC_SPEC,
  VENDOR_LEGACY_SPEC,
  VENDOR_SPEC_DIR,
} from '../helpers/openapi-validator.js';

const LEGACY_PREFIX = '/api/reporter/p/{token}/';
const V1_PREFIX = '/api/v1/reporter/';
const V1_ASYNC_PREFIX = '/api/v1/async/reporter/';
const TOKEN_PARAM = 'token';
/** Parameters v1 operations have beyond the vendor's legacy ones (docs/emulator.md). */
const V1_ADDED = new Set(['projectShortName', 'needToReturnSessionData', 'endTime', 'sort', 'questionId']);
const PROSE = new Set(['description', 'summary', 'tags', 'example', 'examples', 'title', 'externalDocs']);

const legacyFile = join(VENDOR_SPEC_DIR, VENDOR_LEGACY_SPEC);
const asyncFile = join(VENDOR_SPEC_DIR, VENDOR_ASYNC_SPEC);
const present = existsSync(legacyFile) && existsSync(asyncFile);
const title = present
  ? `our spec matches the vendor's files in ${VENDOR_SPEC_DIR}`
  : `our spec against the vendor's files: SKIPPED, no ${VENDOR_LEGACY_SPEC} and ${VENDOR_ASYNC_SPEC} in ${VENDOR_SPEC_DIR} (set REPORTER_VENDOR_SPEC_DIR)`;

/** A copy without annotations; property names and discriminator mapping keys are data and stay. */
function stripProse(node: unknown, parentKey?: string): unknown {
  if (Array.isArray(node)) return node.map((x) => stripProse(x));
  if (node === null || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    const isName = parentKey === 'properties' || parentKey === 'mapping' || parentKey === 'schemas';
    if (PROSE.has(key) && !isName) continue;
    out[key] = stripProse(value, key);
  }
  return out;
}

/** The JSON paths where `ours` differs from `theirs` (missing, extra or different leaves). */
function differences(theirs: unknown, ours: unknown, path: string, out: string[] = []): string[] {
  if (theirs === ours) return out;
  const bothObjects =
    typeof theirs === 'object' && theirs !== null && typeof ours === 'object' && ours !== null;
  if (!bothObjects || Array.isArray(theirs) !== Array.isArray(ours)) {
    out.push(`${path}: vendor ${JSON.stringify(theirs)}, ours ${JSON.stringify(ours)}`);
    return out;
  }
  const a = theirs as Record<string, unknown>;
  const b = ours as Record<string, unknown>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)]))
    differences(a[key], b[key], `${path}.${key}`, out);
  return out;
}

/** A parameter as a comparable fact: name, in, required and its schema (or its schema's $ref). */
function paramFacts(p: Schema): unknown {
  return stripProse({ name: p['name'], in: p['in'], required: p['required'] ?? false, schema: p['schema'] });
}

function byName(params: Schema[]): Map<string, unknown> {
  return new Map(params.map((p) => [`${p['in']} ${p['name']}`, paramFacts(p)]));
}

/** The request body and 200 response of an operation, with response $refs followed. */
function bodyFacts(spec: OpenApiValidator, op: SpecOperation): unknown {
  const requestBody = spec.deref(op.operation['requestBody']) as Schema | undefined;
  return stripProse({
    requestBody: requestBody && { required: requestBody['required'], content: requestBody['content'] },
    response: spec.responseSchema(op.operation) ?? null,
  });
}

describe.skipIf(!present)(title, () => {
  const ours = loadSpec();
  const vendor = present ? OpenApiValidator.fromYamlFile(legacyFile) : undefined!;
  const vendorAsync = present ? parse(readFileSync(asyncFile, 'utf8')) : undefined;
  const vendorOps = present ? vendor.operations() : [];
  const ourOps = new Map(ours.operations().map((o) => [`${o.method} ${o.path}`, o]));

  it('has every operation of the vendor legacy file, at the same path and method, with its operationId', () => {
    expect(vendorOps.length).toBeGreaterThan(60);
    const wrong = vendorOps
      .filter((v) => ourOps.get(`${v.method} ${v.path}`)?.operationId !== v.operationId)
      .map(
        (v) =>
          `${v.method} ${v.path} ${v.operationId}: ours ${ourOps.get(`${v.method} ${v.path}`)?.operationId}`,
      );
    expect(wrong).toEqual([]);
    const extra = [...ourOps.values()]
      .filter((o) => o.path.startsWith(LEGACY_PREFIX))
      .filter((o) => !vendorOps.some((v) => v.method === o.method && v.path === o.path))
      .map((o) => `${o.method} ${o.path}`);
    expect(extra, 'legacy operations the vendor does not publish').toEqual([]);
  });

  it('has the same parameters, request body and 200 response as the vendor, operation by operation', () => {
    const diffs = vendorOps.flatMap((v) => {
      const o = ourOps.get(`${v.method} ${v.path}`);
      if (!o) return [];
      const at = `${v.method} ${v.path}`;
      return [
        ...differences(
          Object.fromEntries(byName(v.parameters)),
          Object.fromEntries(byName(o.parameters)),
          `${at} parameters`,
        ),
        ...differences(bodyFacts(vendor, v), bodyFacts(ours, o), at),
      ];
    });
    expect(diffs).toEqual([]);
  });

  it('has every schema of the vendor legacy file, field by field (names, types, formats, enums, required)', () => {
    const theirs = stripProse(vendor.doc.components?.['schemas'], 'components') as Record<string, unknown>;
    const mine = ours.doc.components?.['schemas'] ?? {};
    const diffs = Object.keys(theirs).flatMap((name) => differences(theirs[name], mine[name], name));
    expect(diffs).toEqual([]);
  });

  it('has the events operation and the schemas of the vendor async file', () => {
    const events = ourOps.get('GET /api/v1/async/events');
    expect(events?.operationId).toBe(vendorAsync.paths['/api/v1/async/events'].get.operationId);
    const vendorEvents = new OpenApiValidator(vendorAsync).operations()[0]!;
    // the vendor's Authorization header is our bearer security scheme
    const theirParams = vendorEvents.parameters.filter((p) => p['name'] !== 'Authorization');
    expect(events!.operation['security']).toEqual([{ bearer: [] }]);
    expect(Object.fromEntries(byName(events!.parameters))).toEqual(Object.fromEntries(byName(theirParams)));
    expect(bodyFacts(ours, events!)).toEqual(
      stripProse(bodyFacts(new OpenApiValidator(vendorAsync), vendorEvents)),
    );
    const schemas = stripProse(vendorAsync.components.schemas, 'components') as Record<string, unknown>;
    const mine = ours.doc.components?.['schemas'] ?? {};
    expect(Object.keys(schemas).flatMap((name) => differences(schemas[name], mine[name], name))).toEqual([]);
  });

  it('has a v1 counterpart of every vendor operation: the vendor parameters but the token, plus our additions', () => {
    const problems = vendorOps.flatMap((v) => {
      const rest = v.path.slice(LEGACY_PREFIX.length);
      const o =
        ourOps.get(`${v.method} ${V1_PREFIX}${rest}`) ?? ourOps.get(`${v.method} ${V1_ASYNC_PREFIX}${rest}`);
      const at = `${v.method} ${rest}`;
      if (!o) return [`${at}: no v1 operation`];
      const out: string[] = [];
      if (o.operationId !== `${v.operationId}V1`) out.push(`${at}: v1 operationId ${o.operationId}`);
      const theirs = byName(v.parameters.filter((p) => p['name'] !== TOKEN_PARAM));
      const mine = byName(o.parameters);
      for (const [key, facts] of theirs)
        if (JSON.stringify(mine.get(key)) !== JSON.stringify(facts))
          out.push(`${at}: parameter ${key} differs`);
      for (const key of mine.keys())
        if (!theirs.has(key) && !V1_ADDED.has(key.split(' ')[1]!))
          out.push(`${at}: parameter ${key} is not ours to add`);
      const theirBody = (bodyFacts(vendor, v) as { requestBody: unknown }).requestBody;
      const myBody = (bodyFacts(ours, o) as { requestBody: unknown }).requestBody;
      out.push(...differences(theirBody, myBody, `${at} requestBody`));
      return out;
    });
    expect(problems).toEqual([]);
  });
});
