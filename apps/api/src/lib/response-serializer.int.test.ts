import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '#test/helpers.js';
import { createResponseSerializerCompiler } from './response-serializer.js';

/**
 * STYLE.md habit 2 for every route: whatever a handler leaves on a response object beyond its
 * schema (here a secret at every depth) never reaches the client. Uses the serializers as
 * production runs them (no zod check) on every response schema of every registered route.
 */

const SECRET = 'leaked-secret-0x5EC2E7';
type Json = Record<string, unknown>;

interface Sample {
  /** What a handler returns: every declared field plus secrets on every closed object. */
  value: unknown;
  /** What the client must receive. */
  expected: unknown;
}

function resolve(root: Json, node: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const name = ref.replace(/^#\/definitions\//, '');
  return resolve(root, (root.definitions as Record<string, Json>)[name] as Json);
}

/** A value for a JSON schema (output side of z.toJSONSchema): open objects are reported. */
function sampleOf(root: Json, input: Json, path: string, open: string[]): Sample {
  const node = resolve(root, input);
  if (Array.isArray(node.allOf)) {
    const parts = node.allOf.map((part) => sampleOf(root, part as Json, path, open));
    return {
      value: Object.assign({}, ...parts.map((p) => p.value)),
      expected: Object.assign({}, ...parts.map((p) => p.expected)),
    };
  }
  // A nullable or union field: a value of its first alternative.
  const alternatives = (node.anyOf ?? node.oneOf) as Json[] | undefined;
  if (Array.isArray(alternatives) && alternatives[0]) return sampleOf(root, alternatives[0], path, open);
  if ('const' in node) return { value: node.const, expected: node.const };
  if (Array.isArray(node.enum)) return { value: node.enum[0], expected: node.enum[0] };
  const type = Array.isArray(node.type) ? node.type[0] : node.type;
  switch (type) {
    case 'object': {
      const value: Json = {};
      const expected: Json = {};
      for (const [key, child] of Object.entries((node.properties as Record<string, Json> | undefined) ?? {})) {
        const s = sampleOf(root, child, `${path}.${key}`, open);
        value[key] = s.value;
        expected[key] = s.expected;
      }
      const extra = node.additionalProperties;
      if (extra === false) {
        value.password_hash = SECRET;
        value.totp_secret = { value: SECRET };
      } else if (node.properties === undefined && typeof extra === 'object' && extra !== null) {
        // A record: its entries are data.
        const s = sampleOf(root, extra as Json, `${path}.*`, open);
        value.entry = s.value;
        expected.entry = s.expected;
      } else {
        open.push(path || '(root)');
      }
      return { value, expected };
    }
    case 'array': {
      const s = sampleOf(root, (node.items as Json | undefined) ?? {}, `${path}[]`, open);
      return { value: [s.value], expected: [s.expected] };
    }
    case 'integer':
      return { value: 3, expected: 3 };
    case 'number':
      return { value: 2.5, expected: 2.5 };
    case 'boolean':
      return { value: true, expected: true };
    case 'null':
      return { value: null, expected: null };
    default:
      return { value: 'text', expected: 'text' };
  }
}

function responseSchemas(route: RouteOptions): [string, z.ZodType][] {
  const out: [string, z.ZodType][] = [];
  const response = (route.schema?.response ?? {}) as Record<string, unknown>;
  for (const [status, entry] of Object.entries(response)) {
    if (entry instanceof z.ZodType) out.push([status, entry]);
    const content = (entry as { content?: Record<string, { schema: unknown }> }).content;
    for (const [type, { schema }] of Object.entries(content ?? {})) {
      if (schema instanceof z.ZodType) out.push([`${status} ${type}`, schema]);
    }
  }
  return out;
}

/**
 * Responses that pass a library's object through on purpose: the WebAuthn options are built by
 * @simplewebauthn/server from public data only (relying party, user handle and name, challenge,
 * registered credential ids) and handed to the browser's WebAuthn API as they are (the whole body,
 * or one field of it: the VPN session challenge's `webauthn`).
 */
const OPEN_BY_DESIGN = new Map([
  ['POST /api/v1/auth/webauthn/init', '(root)'],
  ['POST /api/v1/auth/webauthn/start', '(root)'],
  ['POST /api/v1/vpn_session/start', '.webauthn'],
]);

describe('response fields of every route', () => {
  const routes: RouteOptions[] = [];
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({}, { onRoute: (route) => void routes.push(route) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('writes only the fields each response schema declares', () => {
    const compile = createResponseSerializerCompiler({ check: false });
    const api = routes.filter((r) => r.url.startsWith('/api/v1') && r.method !== 'HEAD');
    let checked = 0;
    for (const route of api) {
      const method = String(route.method);
      for (const [status, schema] of responseSchemas(route)) {
        const where = `${method} ${route.url} ${status}`;
        const root = z.toJSONSchema(schema, { io: 'output', target: 'draft-07' }) as Json;
        const open: string[] = [];
        const sample = sampleOf(root, root, '', open);
        expect(
          open.filter((o) => OPEN_BY_DESIGN.get(`${method} ${route.url}`) !== o),
          `${where}: objects that pass unknown fields through`,
        ).toEqual([]);
        const serialize = compile({ schema, method, url: route.url, httpStatus: status.split(' ')[0] ?? '' });
        const body = serialize(sample.value);
        expect(body, where).not.toContain(SECRET);
        expect(JSON.parse(body), where).toEqual(sample.expected);
        checked++;
      }
    }
    // Every route has a success response and problem responses; a walk that finds none is broken.
    expect(api.length).toBeGreaterThan(50);
    expect(checked).toBeGreaterThan(api.length);
  });
});
