// Unit tests of the OpenAPI validator: it accepts valid values and catches a missing required field, a
// wrong type, a bad enum value, a bad date-time (with a JSON path), so the contract tests can fail.
import { describe, expect, it } from 'vitest';
import { isDate, isDateTime, loadSpec, OpenApiValidator } from './openapi-validator.js';

const MINI = `
openapi: 3.0.1
paths:
  /things/{id}:
    parameters:
      - $ref: '#/components/parameters/idPath'
    get:
      operationId: getThing
      responses:
        '200':
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Thing'
    delete:
      operationId: deleteThing
      responses:
        200:
          $ref: '#/components/responses/Empty'
components:
  parameters:
    idPath:
      name: id
      in: path
      required: true
      schema: { type: integer, format: int64 }
  responses:
    Empty:
      description: Ok
  schemas:
    Base:
      type: object
      required: [id]
      properties:
        id: { type: integer, format: int64 }
    Thing:
      allOf:
        - $ref: '#/components/schemas/Base'
        - type: object
          required: [name, status, createdAt]
          properties:
            name: { type: string }
            small: { type: integer, format: int32 }
            ratio: { type: number, format: double }
            flag: { type: boolean }
            status: { $ref: '#/components/schemas/Status' }
            createdAt: { type: string, format: date-time }
            day: { type: string, format: date }
            tags: { type: array, items: { type: string } }
            data: { type: object, additionalProperties: { type: string } }
            maybe: { type: string, nullable: true }
            owner:
              required: [id]
              properties:
                id: { type: string }
    Status:
      type: string
      enum: [NEW, DONE]
    Shape:
      type: object
      required: [kind]
      properties:
        kind: { type: string }
        label: { type: string }
      discriminator:
        propertyName: kind
        mapping:
          CIRCLE: '#/components/schemas/Circle'
    Circle:
      allOf:
        - $ref: '#/components/schemas/Shape'
        - type: object
          required: [radius]
          properties:
            radius: { type: number }
    Drawing:
      type: object
      properties:
        shapes: { type: array, items: { $ref: '#/components/schemas/Shape' } }
`;

const v = OpenApiValidator.fromYaml(MINI);
const thing = v.schema('Thing');
const good = () => ({
  id: 7,
  name: 'a',
  small: 3,
  ratio: 0.5,
  flag: true,
  status: 'NEW',
  createdAt: '2026-10-31T12:00:00.000Z',
  day: '2026-10-31',
  tags: ['x'],
  data: { a: 'b' },
  maybe: null,
  owner: { id: 'o1' },
  somethingExtra: { anything: 1 },
});

describe('OpenApiValidator', () => {
  it('accepts a valid value, extra properties included', () => {
    expect(v.validate(good(), thing)).toEqual([]);
  });

  it('catches a missing required field, also one inherited through allOf', () => {
    const { name: _name, id: _id, ...rest } = good();
    expect(v.validate(rest, thing)).toEqual([
      'id: missing required property',
      'name: missing required property',
    ]);
  });

  it('catches wrong types with the JSON path', () => {
    const errors = v.validate(
      {
        ...good(),
        name: 5,
        id: '7',
        small: 1.5,
        flag: 'yes',
        tags: ['x', 3],
        data: { a: 1 },
        owner: { id: 9 },
      },
      thing,
    );
    expect(errors).toEqual(
      expect.arrayContaining([
        'name: expected string, got integer 5',
        'id: expected integer (int64), got string "7"',
        'small: expected integer (int32), got number 1.5',
        'flag: expected boolean, got string "yes"',
        'tags[1]: expected string, got integer 3',
        'data.a: expected string, got integer 1',
        'owner.id: expected string, got integer 9',
      ]),
    );
    expect(errors).toHaveLength(7);
  });

  it('catches null where the schema is not nullable, and an object that is not an object', () => {
    expect(v.validate({ ...good(), name: null }, thing)).toEqual(['name: expected string, got null']);
    expect(v.validate({ ...good(), owner: 'o1' }, thing)).toEqual(['owner: expected object, got string']);
    expect(v.validate([good()], thing)).toEqual(['(root): expected object, got array']);
  });

  it('catches a bad enum value', () => {
    expect(v.validate({ ...good(), status: 'DELETED' }, thing)).toEqual([
      'status: expected one of NEW, DONE, got "DELETED"',
    ]);
  });

  it('catches a bad date-time and a bad date', () => {
    for (const bad of [
      '2026-10-31',
      '2026-10-31 12:00:00.000Z',
      '2026-13-01T00:00:00.000Z',
      '1793635200000',
      'soon',
    ]) {
      expect(v.validate({ ...good(), createdAt: bad }, thing), bad).toEqual([
        `createdAt: expected date-time (ISO 8601), got ${JSON.stringify(bad)}`,
      ]);
    }
    expect(v.validate({ ...good(), createdAt: 1793635200000 }, thing)).toEqual([
      'createdAt: expected string, got integer 1793635200000',
    ]);
    expect(v.validate({ ...good(), day: '2026-02-30' }, thing)).toEqual([
      'day: expected date (yyyy-MM-dd), got "2026-02-30"',
    ]);
  });

  it('accepts ISO date-times by default and only yyyy-MM-ddTHH:mm:ss.SSSZ when strict', () => {
    for (const ok of ['2026-10-31T12:00:00Z', '2026-10-31T12:00:00.123+03:00', '2026-10-31T12:00:00.000Z'])
      expect(isDateTime(ok), ok).toBe(true);
    expect(isDateTime('2026-10-31T12:00:00.000Z', 'strict')).toBe(true);
    expect(isDateTime('2026-10-31T12:00:00Z', 'strict')).toBe(false);
    expect(isDateTime('2026-10-31T12:00:00.000+03:00', 'strict')).toBe(false);
    expect(isDateTime('2026-10-31T24:00:00.000Z')).toBe(false);
    expect(isDate('2024-02-29')).toBe(true);
    expect(isDate('2026-02-29')).toBe(false);
    const strict = OpenApiValidator.fromYaml(MINI, { dateTime: 'strict' });
    expect(strict.validate({ ...good(), createdAt: '2026-10-31T12:00:00Z' }, thing)).toEqual([
      'createdAt: expected date-time (yyyy-MM-ddTHH:mm:ss.SSSZ), got "2026-10-31T12:00:00Z"',
    ]);
  });

  it('lists operations with path-level parameters and resolves response $refs', () => {
    const ops = v.operations();
    expect(ops.map((o) => `${o.method} ${o.path} ${o.operationId}`)).toEqual([
      'GET /things/{id} getThing',
      'DELETE /things/{id} deleteThing',
    ]);
    expect(ops[0]!.parameters.map((p) => p['name'])).toEqual(['id']);
    expect(v.responseSchema(ops[0]!.operation)).toEqual({ $ref: '#/components/schemas/Thing' });
    expect(v.responseSchema(ops[1]!.operation)).toBeUndefined();
    expect(() => v.resolveRef('#/components/schemas/Nope')).toThrow(/unresolved/);
  });

  it('reports paths deep inside the project spec, e.g. sessions[3].client.id', () => {
    const spec = loadSpec({ dateTime: 'strict' });
    const session = (n: number) => ({
      sessionId: `s${n}`,
      projectShortName: 'p',
      channelType: 'telegram',
      botId: 'b',
      client: { id: `c${n}` },
      startTime: '2026-10-31T12:00:00.000Z',
      isLivechat: false,
      sessionData: { a: 'b' },
    });
    const body = {
      paging: { pageNum: 0, pageSize: 20, totalCount: 4 },
      sessions: [0, 1, 2, 3].map(session),
    };
    expect(spec.validateNamed(body, 'SessionsData')).toEqual([]);
    body.sessions[3]!.client.id = 42 as any;
    (body.sessions[1] as any).sessionData = { a: 1 };
    delete (body.sessions[2] as any).startTime;
    expect(spec.validateNamed(body, 'SessionsData')).toEqual([
      'sessions[1].sessionData.a: expected string, got integer 1',
      'sessions[2].startTime: missing required property',
      'sessions[3].client.id: expected string, got integer 42',
    ]);
  });

  it('checks an object against the subtype its discriminator names (unless told to ignore it)', () => {
    const shape = v.schema('Shape');
    expect(v.validate({ kind: 'CIRCLE', radius: 1, label: 'c' }, shape)).toEqual([]);
    expect(v.validate({ kind: 'CIRCLE' }, shape)).toEqual(['radius: missing required property']);
    expect(v.validate({ kind: 'SQUARE' }, shape)).toEqual([
      'kind: unknown discriminator value "SQUARE" (mapping: CIRCLE)',
    ]);
    expect(
      v.validateNamed(
        {
          shapes: [
            { kind: 'CIRCLE', radius: 2 },
            { kind: 'CIRCLE', radius: 'x' },
          ],
        },
        'Drawing',
      ),
    ).toEqual(['shapes[1].radius: expected number, got string "x"']);
    const lax = OpenApiValidator.fromYaml(MINI, { discriminator: 'ignore' });
    expect(lax.validate({ kind: 'CIRCLE' }, shape)).toEqual([]);
    expect(lax.validate({ kind: 'SQUARE' }, shape)).toEqual([]);
  });

  it('reports properties the schema does not list only when asked to', () => {
    const strict = OpenApiValidator.fromYaml(MINI, { extraProperties: 'error' });
    expect(strict.validate(good(), thing)).toEqual(['somethingExtra: property not in the schema']);
    expect(
      strict.validate({ kind: 'CIRCLE', radius: 1, label: 'a', color: 'red' }, v.schema('Shape')),
    ).toEqual(['color: property not in the schema']);
    expect(v.validate({ kind: 'CIRCLE', radius: 1, color: 'red' }, v.schema('Shape'))).toEqual([]);
  });

  it('rejects what ajv let through on the project spec (why this file is not ajv: see its header)', () => {
    const spec = loadSpec();
    // an inheritance discriminator: the subtype TEXT names has required fields, and the tag must be mapped
    expect(spec.validateNamed({ key: 'SESSION_ID', type: 'TEXT' }, 'AnalyticsFilter')).toEqual([
      'values: missing required property',
      'comparisonType: missing required property',
      'isCaseSensitive: missing required property',
    ]);
    expect(spec.validateNamed({ key: 'SESSION_ID', type: 'NOPE' }, 'AnalyticsFilter')[0]).toMatch(
      /^type: unknown discriminator value "NOPE"/,
    );
    // schemas with properties but no `type: object` still want an object
    expect(spec.validateNamed({ paging: 'x', sessions: [] }, 'SessionsData')).toEqual([
      'paging: expected object, got string',
    ]);
    expect(spec.validateNamed('oops', 'ErrorDto')).toEqual(['(root): expected object, got string']);
  });
});
