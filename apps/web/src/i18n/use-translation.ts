import { useCallback } from 'react';
import { useAppStore } from '@/features/app/app-store';
import type { MessageKey } from './en';
import { type Translate, type TranslateParams, translate } from './translate';

export function useTranslation(): { t: Translate; language: ReturnType<typeof useAppStore.getState>['language'] } {
  const language = useAppStore((s) => s.language);
  const t = useCallback((key: MessageKey, params?: TranslateParams) => translate(language, key, params), [language]);
  return { t, language };
}

/** Outside React (toasts fired from query callbacks): the current language at call time. */
export const tNow: Translate = (key, params) => translate(useAppStore.getState().language, key, params);
