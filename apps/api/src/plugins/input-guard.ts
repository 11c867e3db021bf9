import type { FieldError } from '@palisade/contracts';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { FIELD_MESSAGES } from '#src/lib/field-messages.js';
import { HttpProblem } from '#src/lib/problem.js';

/** A UTF-16 surrogate without its pair (U+0000 is checked with `includes`). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const isUnstorable = (value: string): boolean => value.includes('\u0000') || LONE_SURROGATE.test(value);
const MAX_REPORTED = 20;

/**
 * Paths of the strings in `value` that PostgreSQL cannot store: text columns refuse U+0000 (the
 * query fails), and a lone surrogate would silently become U+FFFD. Walks iteratively, so deeply
 * nested bodies cannot overflow the stack.
 */
export function findUnstorableStrings(value: unknown, prefix: string[] = []): FieldError[] {
  // Paths are parent links, spelled out only when reported: copying them per level would make
  // a deeply nested (256 KiB of `[`) body cost quadratic time.
  interface Node {
    value: unknown;
    key: string | undefined;
    parent: Node | undefined;
  }
  const pathOf = (node: Node): string => {
    const keys: string[] = [];
    for (let n: Node | undefined = node; n; n = n.parent) if (n.key !== undefined) keys.push(n.key);
    return [...prefix, ...keys.reverse()].join('.') || '(root)';
  };
  const out: FieldError[] = [];
  const stack: Node[] = [{ value, key: undefined, parent: undefined }];
  while (stack.length > 0 && out.length < MAX_REPORTED) {
    const node = stack.pop() as Node;
    const current = node.value;
    if (typeof current === 'string') {
      if (isUnstorable(current)) out.push({ path: pathOf(node), code: 'invalid', message: FIELD_MESSAGES.invalid ?? 'Invalid value' });
    } else if (current !== null && typeof current === 'object') {
      for (const [key, child] of Object.entries(current)) stack.push({ value: child, key, parent: node });
    }
  }
  return out;
}

/** Refuses such strings in params, query and body with a 400 before any handler touches the database. */
export const inputGuardPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    const errors = [
      ...findUnstorableStrings(request.params, ['params']),
      ...findUnstorableStrings(request.query, ['querystring']),
      ...findUnstorableStrings(request.body),
    ];
    if (errors.length > 0) throw new HttpProblem(400, 'validation.failed', 'The request has invalid fields.', errors);
  });
});
