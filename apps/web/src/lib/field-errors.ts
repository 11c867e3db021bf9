import { ApiError } from '@palisade/api-client';
import type { ZodError } from 'zod';
import type { MessageKey } from '@/i18n/en';
import { isMessageKey, type Translate } from '@/i18n/translate';

/** One field's error: a field code (contracts FIELD_CODES, or a console-only one) and its params. */
export interface FieldIssue {
  code: string;
  params?: Record<string, string | number>;
}
export type FieldIssues = Record<string, FieldIssue>;

/** Server paths may be `username` or `body.username`; forms key fields by their plain name. */
const normalisePath = (path: string) =>
  path
    .replace(/^body[./]/, '')
    .replace(/^\//, '')
    .replace(/\//g, '.');

/** The contracts schemas put the field code in each issue's message (contracts/validation.ts). */
export function issuesFromZod(error: ZodError): FieldIssues {
  const out: FieldIssues = {};
  for (const issue of error.issues) {
    const path = issue.path.map(String).join('.');
    if (out[path]) continue;
    const params: Record<string, string | number> = {};
    if (issue.code === 'too_big' && typeof issue.maximum === 'number') params.max = issue.maximum;
    if (issue.code === 'too_small' && typeof issue.minimum === 'number') params.min = issue.minimum;
    out[path] = { code: issue.message, params };
  }
  return out;
}

/** A 400 problem's `errors[]` → issues per field; undefined when the error has none. */
export function issuesFromProblem(error: unknown): FieldIssues | undefined {
  if (!(error instanceof ApiError) || !error.problem.errors?.length) return undefined;
  const out: FieldIssues = {};
  for (const e of error.problem.errors) {
    const path = normalisePath(e.path);
    if (!out[path]) out[path] = { code: e.code, ...(e.params ? { params: e.params } : {}) };
  }
  return out;
}

/** Codes whose message names a bound (spec §5): the bound's param, and the `_plain` text without it. */
const BOUND_PARAMS: Record<string, 'min' | 'max'> = { max_length: 'max', min_length: 'min', max_value: 'max', min_value: 'min' };

/** Field code → translated message (spec §5 wording), with `{{max}}`/`{{min}}` when known. */
export function fieldMessage(t: Translate, issue: FieldIssue): string {
  const { code, params } = issue;
  const bound = BOUND_PARAMS[code];
  if (bound && params?.[bound] === undefined) return t(`field.${code}_plain` as MessageKey);
  const key = `field.${code}`;
  return isMessageKey(key) ? t(key as MessageKey, params) : t('field.invalid');
}
