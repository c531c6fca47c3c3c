// Test helper: a small validator of JSON values against the schemas of an OpenAPI 3.0 document (the
// project's spec/reporter-api.yaml), so contract tests check field names and types against the spec.
// Covers $ref, allOf (anyOf/oneOf loosely), required, types, formats, enum, nullable, additionalProperties,
// discriminator mappings; extra properties are allowed by default.
// Errors carry a JSON path: `sessions[3].client.id: expected string, got integer 42`.
//
// Why not ajv (tried ajv 8.20.0 + ajv-formats 3.0.1, `strict: false`, the whole spec added with addSchema):
// - our discriminators are OpenAPI inheritance: a base schema (AnalyticsFilter, FilterSettings) with
//   `discriminator.mapping` to subtypes that `allOf` the base, and no `oneOf`. With `discriminator: true`
//   ajv refuses to compile ("discriminator: mapping is not supported"; it also needs a oneOf); without it
//   the keyword is ignored, so {key, type: 'TEXT'} passes as an AnalyticsFilter without TextFilter's
//   required fields, and an unknown type passes too.
// - 12 schemas (SessionsData, ClientsData, Pagination, ErrorDto, AsyncResponsesDto, ...) list properties
//   without `type: object`: under JSON Schema ajv accepts a string, an array or null for them
//   (`{paging: 'x'}` passes as SessionsData); ajv-formats' int64 accepts 1e300.
// Closing those gaps needs a rewrite pass over the spec (dispatch per tag, implied object types), plus a
// formatter to keep the `sessions[3].client.id: ...` paths the tests assert, and Ajv2019 with
// unevaluatedProperties for `extraProperties: 'error'`: about as much code as this file, plus a dependency.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** The project's own contract of the Reporter API (both generations, async events, seed forms). */
export const SPEC_FILE = fileURLToPath(new URL('../../spec/reporter-api.yaml', import.meta.url));

/**
 * The vendor's published spec files, used only to compare our contract with them when they are at hand:
 * `REPORTER_VENDOR_SPEC_DIR`, else `../shared/reference` beside the repository.
 */
export const VENDOR_SPEC_DIR =
  process.env['REPORTER_VENDOR_SPEC_DIR'] ??
  fileURLToPath(new URL('../../../shared/reference/', import.meta.url));
export const VENDOR_LEGACY_SPEC = 'reporter-api-legacy.openapi.yml';
export const VENDOR_ASYNC_SPEC = 'async-api.openapi.yml';

/** Loads the project's spec (spec/reporter-api.yaml). */
export function loadSpec(options: ValidateOptions = {}): OpenApiValidator {
  return OpenApiValidator.fromYamlFile(SPEC_FILE, options);
}

export type Schema = Record<string, any>;

export interface OpenApiDocument {
  openapi?: string;
  paths?: Record<string, Record<string, any>>;
  components?: Record<string, Record<string, any>>;
  [key: string]: unknown;
}

export interface ValidateOptions {
  /**
   * `iso` (default): any RFC 3339 / ISO 8601 date-time with a zone (`Z` or an offset), optional fraction.
   * `strict`: exactly `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC, the form the emulator promises.
   */
  dateTime?: 'iso' | 'strict';
  /** `apply` (default): an object is also checked against the subtype its discriminator names. */
  discriminator?: 'apply' | 'ignore';
  /** `allow` (default): properties the schema does not list are fine; `error`: each is reported. */
  extraProperties?: 'allow' | 'error';
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

export interface SpecOperation {
  method: string;
  path: string;
  operationId: string | undefined;
  operation: Schema;
  /** Path-level parameters followed by the operation's own ones, $refs resolved. */
  parameters: Schema[];
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-]\d{2}:?\d{2})$/;
const STRICT_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.\d{3}Z$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const INT32 = [-(2 ** 31), 2 ** 31 - 1] as const;

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isFinite(value) && !Number.isInteger(value)) return 'number';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function show(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

function validCalendar(y: string, mo: string, d: string): boolean {
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1) return false;
  const last = new Date(Date.UTC(Number(y), month, 0)).getUTCDate();
  return day <= last;
}

function validTime(h: string, mi: string, s: string): boolean {
  return Number(h) <= 23 && Number(mi) <= 59 && Number(s) <= 59;
}

/** True when `value` is a date-time in the given style with a real calendar date and time of day. */
export function isDateTime(value: string, style: 'iso' | 'strict' = 'iso'): boolean {
  const m = (style === 'strict' ? STRICT_DATE_TIME : ISO_DATE_TIME).exec(value);
  return !!m && validCalendar(m[1]!, m[2]!, m[3]!) && validTime(m[4]!, m[5]!, m[6]!);
}

export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  return !!m && validCalendar(m[1]!, m[2]!, m[3]!);
}

function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  const name = /^[A-Za-z_$][\w$-]*$/.test(key) ? key : JSON.stringify(key);
  return base === '' ? name : `${base}.${name}`;
}

function isObjectSchema(schema: Schema): boolean {
  return (
    schema['type'] === 'object' ||
    (schema['type'] === undefined &&
      (schema['properties'] !== undefined ||
        schema['required'] !== undefined ||
        schema['additionalProperties'] !== undefined))
  );
}

export class OpenApiValidator {
  readonly doc: OpenApiDocument;
  readonly options: Required<ValidateOptions>;

  constructor(doc: OpenApiDocument, options: ValidateOptions = {}) {
    this.doc = doc;
    this.options = {
      dateTime: options.dateTime ?? 'iso',
      discriminator: options.discriminator ?? 'apply',
      extraProperties: options.extraProperties ?? 'allow',
    };
  }

  static fromYamlFile(file: string, options: ValidateOptions = {}): OpenApiValidator {
    return new OpenApiValidator(parse(readFileSync(file, 'utf8')) as OpenApiDocument, options);
  }

  static fromYaml(text: string, options: ValidateOptions = {}): OpenApiValidator {
    return new OpenApiValidator(parse(text) as OpenApiDocument, options);
  }

  /** Resolves a local JSON pointer `#/components/schemas/X` (with ~0 / ~1 escapes). */
  resolveRef(ref: string): Schema {
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`);
    let node: any = this.doc;
    for (const raw of ref.slice(2).split('/')) {
      const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      node = node?.[key];
      if (node === undefined) throw new Error(`unresolved $ref ${ref}`);
    }
    return node as Schema;
  }

  /** Follows $ref chains until a node without $ref. */
  deref<T = Schema>(node: any): T {
    let current = node;
    for (let hops = 0; current && typeof current === 'object' && typeof current.$ref === 'string'; hops++) {
      if (hops > 50) throw new Error(`$ref cycle at ${current.$ref}`);
      current = this.resolveRef(current.$ref);
    }
    return current as T;
  }

  schema(name: string): Schema {
    const schema = this.doc.components?.['schemas']?.[name];
    if (!schema) throw new Error(`no schema ${name} in components.schemas`);
    return schema as Schema;
  }

  /** Every path + method of the document. */
  operations(): SpecOperation[] {
    const out: SpecOperation[] = [];
    for (const [path, item] of Object.entries(this.doc.paths ?? {})) {
      const shared = ((item['parameters'] as unknown[]) ?? []).map((p) => this.deref(p));
      for (const method of HTTP_METHODS) {
        const operation = item[method] as Schema | undefined;
        if (!operation) continue;
        const own = ((operation['parameters'] as unknown[]) ?? []).map((p) => this.deref(p));
        out.push({
          method: method.toUpperCase(),
          path,
          operationId: operation['operationId'],
          operation,
          parameters: [...shared, ...own],
        });
      }
    }
    return out;
  }

  /** The JSON schema of an operation's response (200 by default), or undefined when it declares no body. */
  responseSchema(operation: Schema, status = '200'): Schema | undefined {
    const responses = operation['responses'] ?? {};
    const response = this.deref(responses[status] ?? responses[Number(status)]);
    if (!response) throw new Error(`the operation declares no ${status} response`);
    const content = response['content'] as Record<string, Schema> | undefined;
    if (!content) return undefined;
    const media = content['application/json'] ?? Object.values(content)[0];
    return media?.['schema'] as Schema | undefined;
  }

  /** Validates `value`; returns the errors, each `path: problem` (empty when valid). */
  validate(value: unknown, schema: Schema, path = ''): string[] {
    const errors: string[] = [];
    this.check(value, schema, path, errors, new Set());
    // allOf members may report the same problem twice (e.g. both say "expected object")
    return [...new Set(errors)];
  }

  validateNamed(value: unknown, name: string): string[] {
    return this.validate(value, this.schema(name));
  }

  /**
   * The schema a discriminator selects for `value` (mapping, else the schema of that name), or an error
   * [property, problem]; undefined when the schema has no discriminator or discriminators are ignored.
   */
  private dispatch(
    schema: Schema,
    value: unknown,
  ): { target?: Schema; error?: [string, string] } | undefined {
    const discriminator = schema['discriminator'] as {
      propertyName: string;
      mapping?: Record<string, string>;
    };
    if (!discriminator || this.options.discriminator === 'ignore') return undefined;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    const tag = (value as Record<string, unknown>)[discriminator.propertyName];
    if (typeof tag !== 'string') return undefined; // the base schema reports a missing or mistyped tag
    const mapped = discriminator.mapping?.[tag];
    if (mapped) return { target: this.resolveRef(mapped) };
    const named = this.doc.components?.['schemas']?.[tag] as Schema | undefined;
    if (named) return { target: named };
    const known = Object.keys(discriminator.mapping ?? {}).join(', ');
    return {
      error: [discriminator.propertyName, `unknown discriminator value ${show(tag)} (mapping: ${known})`],
    };
  }

  /** Names a value of `raw` may carry: properties and required names, through allOf and discriminators. */
  private knownNames(raw: Schema, value: unknown, names: Set<string>, seen: Set<Schema>): Set<string> {
    const schema = this.deref(raw);
    if (seen.has(schema)) return names;
    seen.add(schema);
    for (const name of Object.keys(schema['properties'] ?? {})) names.add(name);
    for (const name of (schema['required'] as string[] | undefined) ?? []) names.add(name);
    for (const part of (schema['allOf'] as Schema[] | undefined) ?? [])
      this.knownNames(part, value, names, seen);
    for (const key of ['anyOf', 'oneOf'] as const)
      for (const part of (schema[key] as Schema[] | undefined) ?? [])
        this.knownNames(part, value, names, seen);
    const target = this.dispatch(schema, value)?.target;
    if (target) this.knownNames(target, value, names, seen);
    return names;
  }

  /**
   * `applied` holds the schemas already applied to this same value (allOf parts, discriminator targets):
   * it stops a subtype's allOf from dispatching on its base's discriminator again. Empty at a new value.
   */
  private check(value: unknown, raw: Schema, path: string, errors: string[], applied: Set<Schema>): void {
    const schema = this.deref(raw);
    const top = applied.size === 0;
    if (applied.has(schema)) return;
    applied.add(schema);
    const at = path === '' ? '(root)' : path;
    if (value === null) {
      if (schema['nullable'] === true) return;
      // a schema without any constraint (`{}`) accepts anything, null included
      if (Object.keys(schema).every((k) => k === 'description' || k === 'default')) return;
      const expected = schema['type'] ?? (isObjectSchema(schema) ? 'object' : undefined);
      errors.push(`${at}: expected ${expected ?? 'a value'}, got null`);
      return;
    }
    if (Array.isArray(schema['allOf'])) {
      for (const part of schema['allOf']) this.check(value, part, path, errors, applied);
    }
    for (const key of ['anyOf', 'oneOf'] as const) {
      const branches = schema[key];
      if (!Array.isArray(branches)) continue;
      const results = branches.map((b: Schema) => this.validate(value, b, path));
      if (!results.some((r) => r.length === 0))
        errors.push(`${at}: matches none of ${key} (${results.map((r) => r[0]).join(' | ')})`);
    }
    const dispatched = this.dispatch(schema, value);
    if (dispatched?.error) errors.push(`${joinPath(path, dispatched.error[0])}: ${dispatched.error[1]}`);
    if (dispatched?.target) this.check(value, dispatched.target, path, errors, applied);

    const type = schema['type'] as string | undefined;
    if (type !== undefined && !this.checkType(value, type, schema, at, errors)) return;

    if (Array.isArray(schema['enum']) && !schema['enum'].includes(value)) {
      errors.push(`${at}: expected one of ${schema['enum'].join(', ')}, got ${show(value)}`);
    }

    if (Array.isArray(value) && schema['items']) {
      for (let n = 0; n < value.length; n++)
        this.check(value[n], schema['items'], joinPath(path, n), errors, new Set());
    }

    if (isObjectSchema(schema) || type === undefined) {
      if (typeof value !== 'object' || Array.isArray(value)) {
        if (isObjectSchema(schema)) errors.push(`${at}: expected object, got ${kindOf(value)}`);
        return;
      }
      const record = value as Record<string, unknown>;
      for (const name of (schema['required'] as string[] | undefined) ?? []) {
        if (!(name in record) || record[name] === undefined)
          errors.push(`${joinPath(path, name)}: missing required property`);
      }
      const properties = (schema['properties'] as Record<string, Schema> | undefined) ?? {};
      const additional = schema['additionalProperties'];
      const known =
        top && this.options.extraProperties === 'error' && !additional
          ? this.knownNames(schema, value, new Set(), new Set())
          : undefined;
      for (const [name, item] of Object.entries(record)) {
        if (item === undefined) continue;
        const property = properties[name];
        if (property) this.check(item, property, joinPath(path, name), errors, new Set());
        else if (additional && typeof additional === 'object')
          this.check(item, additional, joinPath(path, name), errors, new Set());
        else if (additional === false) errors.push(`${joinPath(path, name)}: unexpected property`);
        // a schema that names no property at all (ObjectNode) is a free-form object
        else if (known && known.size > 0 && !known.has(name))
          errors.push(`${joinPath(path, name)}: property not in the schema`);
      }
    }
  }

  /** Checks the JSON type and format; false when the type is wrong (no deeper checks then). */
  private checkType(value: unknown, type: string, schema: Schema, at: string, errors: string[]): boolean {
    const format = schema['format'] as string | undefined;
    const fail = (expected: string) => {
      const shown = typeof value === 'object' ? '' : ` ${show(value)}`;
      errors.push(`${at}: expected ${expected}, got ${kindOf(value)}${shown}`);
      return false;
    };
    switch (type) {
      case 'string': {
        if (typeof value !== 'string') return fail('string');
        if (format === 'date-time' && !isDateTime(value, this.options.dateTime)) {
          const style = this.options.dateTime === 'strict' ? 'yyyy-MM-ddTHH:mm:ss.SSSZ' : 'ISO 8601';
          errors.push(`${at}: expected date-time (${style}), got ${show(value)}`);
        }
        if (format === 'date' && !isDate(value))
          errors.push(`${at}: expected date (yyyy-MM-dd), got ${show(value)}`);
        if (typeof schema['maxLength'] === 'number' && value.length > schema['maxLength'])
          errors.push(`${at}: longer than maxLength ${schema['maxLength']}`);
        return true;
      }
      case 'integer': {
        if (typeof value !== 'number' || !Number.isInteger(value))
          return fail(format ? `integer (${format})` : 'integer');
        if (format === 'int32' && (value < INT32[0] || value > INT32[1]))
          errors.push(`${at}: ${value} is out of the int32 range`);
        // an int64 beyond 2^53 is valid on the wire (the knowledge base's ids): JSON.parse rounds it, but not
        // out of the int64 range (2^63 is where int64's largest value rounds to)
        if (format === 'int64' && Math.abs(value) > 2 ** 63)
          errors.push(`${at}: ${value} is out of the int64 range`);
        return true;
      }
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) return fail('number');
        return true;
      case 'boolean':
        if (typeof value !== 'boolean') return fail('boolean');
        return true;
      case 'array':
        if (!Array.isArray(value)) return fail('array');
        return true;
      case 'object':
        if (typeof value !== 'object' || Array.isArray(value)) return fail('object');
        return true;
      default:
        errors.push(`${at}: the schema has an unsupported type ${show(type)}`);
        return false;
    }
  }
}
