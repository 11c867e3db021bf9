import { ApiError } from '@palisade/api-client';
import type { MessageKey } from '@/i18n/en';
import type { Translate } from '@/i18n/translate';
import { type FieldIssue, issuesFromProblem } from '@/lib/field-errors';
import { problemMessage } from '@/lib/problem-message';

/** The API's key refusals (spec §5), shown under the key field. */
const KEY_CODES = ['auth_key.already_added', 'auth_key.unsupported_format', 'auth_key.private_key', 'auth_key.too_weak'];

/** Where an add failure goes: the key field (spec §5 messages), the name field, or the dialog (spec §8). */
export function addKeyErrors(t: Translate, error: unknown): { key?: string; name?: FieldIssue; form?: string } {
  if (error instanceof ApiError && KEY_CODES.includes(error.code)) return { key: t(`error.${error.code}` as MessageKey) };
  const name = issuesFromProblem(error)?.name;
  if (name) return { name };
  if (error instanceof ApiError && error.status < 500) return { form: problemMessage(t, error) };
  return { form: t('authKeys.addFailed') };
}
