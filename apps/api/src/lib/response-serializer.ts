import { isDeepStrictEqual } from 'node:util';
import fastJsonStringify from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

/**
 * Response serialization: one fast-json-stringify function per response schema, compiled (on its
 * first use) from the route's zod schema through `z.toJSONSchema` (output side). Like zod's
 * encode, it writes only the properties the schema declares, so whatever else a handler leaves on
 * an object (a password hash, a TOTP secret) never reaches the client (STYLE.md habit 2); unlike
 * it, it neither copies the response nor checks its values, which made it about three times
 * cheaper on the user list (bench/user-list.ts).
 *
 * With `check` on, every response is first encoded by zod as before (a response that breaks its
 * schema still fails with a 500), and the compiled output must equal zod's: every test that goes
 * through the API also proves the two serializers agree. buildApp turns it on unless told
 * otherwise; main.ts turns it off in production.
 *
 * Schemas JSON Schema cannot express faithfully keep zod's path: transforms, dates and other
 * unrepresentable types (z.toJSONSchema throws), and unions (fast-json-stringify picks a branch by
 * validating against it, where an extra field would match no closed branch).
 */
type Serialize = (data: unknown) => string;
type ZodSchema = z.ZodType;

const UNSUPPORTED_KEYWORDS = new Set(['anyOf', 'oneOf', 'not', 'if', 'then', 'else', 'dependentSchemas']);

function usesUnsupportedKeyword(node: unknown): boolean {
  if (node === null || typeof node !== 'object') return false;
  for (const [key, value] of Object.entries(node)) {
    if (UNSUPPORTED_KEYWORDS.has(key) || usesUnsupportedKeyword(value)) return true;
  }
  return false;
}

/** The compiled serializer of a zod schema, or undefined when it must stay on zod's path. */
export function compileJsonSerializer(schema: ZodSchema): Serialize | undefined {
  let json: Record<string, unknown>;
  try {
    json = z.toJSONSchema(schema, { io: 'output', target: 'draft-07' }) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (usesUnsupportedKeyword(json)) return undefined;
  const { $schema: _dialect, ...rest } = json;
  try {
    return fastJsonStringify(rest as unknown as Parameters<typeof fastJsonStringify>[0]) as Serialize;
  } catch {
    // A schema fast-json-stringify refuses stays on zod's path rather than failing its route.
    return undefined;
  }
}

const compiled = new WeakMap<ZodSchema, Serialize | null>();

/** Compiled once per schema object (ProblemSchema serves most routes), shared by every app. */
function compiledFor(schema: ZodSchema): Serialize | undefined {
  let fn = compiled.get(schema);
  if (fn === undefined) {
    fn = compileJsonSerializer(schema) ?? null;
    compiled.set(schema, fn);
  }
  return fn ?? undefined;
}

export class SerializerMismatchError extends Error {
  constructor(method: string, url: string) {
    super(`Response of ${method} ${url}: the compiled serializer and zod disagree`);
    this.name = 'SerializerMismatchError';
  }
}

export function createResponseSerializerCompiler(options: { check: boolean }): FastifySerializerCompiler<ZodSchema> {
  return (route) => {
    const schema = route.schema;
    const viaZod = zodSerializerCompiler(route) as Serialize;
    if (!(schema instanceof z.ZodType)) return viaZod;
    let serialize: Serialize | undefined;
    const fast: Serialize = (data) => {
      serialize ??= compiledFor(schema) ?? viaZod;
      return serialize(data);
    };
    if (!options.check) return fast;
    return (data) => {
      const expected = viaZod(data);
      const output = fast(data);
      if (!isDeepStrictEqual(JSON.parse(output), JSON.parse(expected))) throw new SerializerMismatchError(route.method, route.url);
      return output;
    };
  };
}
