import type { User } from '@palisade/contracts';
import { useEffect } from 'react';
import { useAppStore } from '@/features/app/app-store';
import { useAuthStore } from '@/features/auth/auth-store';
import { api } from '@/lib/api';
import type { Language } from './languages';

/** The language to tell the API for the signed-in user: the console's, when the account holds another. */
export const languageToReport = (user: Pick<User, 'language'> | undefined, language: Language): Language | undefined =>
  user && user.language !== language ? language : undefined;

/**
 * Mail to a user is written in the user's language (docs/mail.md), which is the console's: whenever
 * a signed-in user's console language is chosen (browser, switcher) or changes, it is stored with
 * `PUT /me/language`. The stored user then carries it, so each language is reported once.
 */
export function useLanguageReport(): void {
  const language = useAppStore((s) => s.language);
  const user = useAuthStore((s) => s.user);
  const report = languageToReport(user, language);
  const userId = user?.id;

  useEffect(() => {
    if (report === undefined || userId === undefined) return;
    let isCurrent = true;
    void api.PUT('/api/v1/me/language', { body: { language: report } }).then(
      ({ error }) => {
        const current = useAuthStore.getState().user;
        if (error === undefined && isCurrent && current?.id === userId) useAuthStore.getState().setUser({ ...current, language: report });
      },
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [report, userId]);
}
