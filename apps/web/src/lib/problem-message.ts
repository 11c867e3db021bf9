import { ApiError } from '@palisade/api-client';
import type { MessageKey } from '@/i18n/en';
import { isMessageKey, type Translate } from '@/i18n/translate';

/** STYLE habit 4: the console branches on the problem `code` only and maps it to i18n text. */
export function problemMessageKey(error: unknown): MessageKey {
  if (error instanceof ApiError) {
    const key = `error.${error.code}`;
    return isMessageKey(key) ? key : 'error.generic';
  }
  if (error instanceof TypeError) return 'error.network';
  return 'error.generic';
}

export const problemMessage = (t: Translate, error: unknown): string => t(problemMessageKey(error));

export const hasCode = (error: unknown, ...codes: string[]): boolean => error instanceof ApiError && codes.includes(error.code);
