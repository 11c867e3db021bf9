import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { compileJsonSerializer, createResponseSerializerCompiler } from './response-serializer.js';

vi.mock('fast-json-stringify', () => ({
  default: () => {
    throw new Error('schema refused');
  },
}));

describe('a schema fast-json-stringify refuses', () => {
  it("stays on zod's path (which strips) instead of failing its route", () => {
    const schema = z.object({ name: z.string() });
    expect(compileJsonSerializer(schema)).toBeUndefined();
    const serialize = createResponseSerializerCompiler({ check: false })({ schema, method: 'GET', url: '/x', httpStatus: '200' });
    expect(JSON.parse(serialize({ name: 'a', secret: 'hunter2' }))).toEqual({ name: 'a' });
  });
});
