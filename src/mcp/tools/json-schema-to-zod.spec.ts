import { openApiToJsonSchema, zodFromOpenApi } from './json-schema-to-zod';

describe('openApiToJsonSchema / zodFromOpenApi', () => {
  const schema = {
    type: 'object',
    additionalProperties: false,
    required: ['a', 'b'],
    properties: {
      a: { type: 'integer', nullable: true, minimum: 0 },
      b: { type: 'string', nullable: true, enum: ['x', 'y', null] },
      nullable: { type: 'boolean' },
    },
  };

  it('turns `nullable` into anyOf null, without touching a property that happens to be called nullable', () => {
    expect(openApiToJsonSchema(schema)).toEqual({
      type: 'object',
      additionalProperties: false,
      required: ['a', 'b'],
      properties: {
        a: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] },
        b: { anyOf: [{ type: 'string', enum: ['x', 'y'] }, { type: 'null' }] },
        nullable: { type: 'boolean' },
      },
    });
  });

  it('the zod schema accepts and refuses what the document says', () => {
    const z = zodFromOpenApi(schema);
    expect(z.safeParse({ a: null, b: null }).success).toBe(true);
    expect(z.safeParse({ a: 3, b: 'y', nullable: true }).success).toBe(true);
    expect(z.safeParse({ a: -1, b: 'x' }).success).toBe(false);
    expect(z.safeParse({ a: 1, b: 'z' }).success).toBe(false);
    expect(z.safeParse({ a: 1, b: 'x', extra: 1 }).success).toBe(false);
    expect(z.safeParse({ a: 1 }).success).toBe(false);
  });
});
