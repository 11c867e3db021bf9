import { act, renderHook, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAppStore } from '@/features/app/app-store';
import { useAuthStore } from '@/features/auth/auth-store';
import { problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { ADMIN_USER } from '@/test/fixtures';
import { languageToReport, useLanguageReport } from './use-language-report';

/** Records every PUT /me/language and answers `status`. */
function recordReports(status = 204) {
  const reports: unknown[] = [];
  setFetchHandler(async (request) => {
    const { pathname } = new URL(request.url);
    if (request.method === 'PUT' && pathname === '/api/v1/me/language') {
      reports.push(await request.json());
      return status === 204 ? new Response(null, { status }) : problemResponse(status, 'auth.unauthenticated');
    }
    return problemResponse(404, 'request.not_found');
  });
  return reports;
}

describe('the console reports its language for the signed-in user', () => {
  beforeEach(() => {
    sessionStorage.clear();
    useAuthStore.getState().reset();
    useAppStore.getState().setLanguage('en');
  });

  it('only when the account holds another language', () => {
    expect(languageToReport(undefined, 'pl')).toBeUndefined();
    expect(languageToReport({ language: 'pl' }, 'pl')).toBeUndefined();
    expect(languageToReport({}, 'en')).toBe('en');
    expect(languageToReport({ language: 'en' }, 'ko')).toBe('ko');
  });

  it('reports the language at sign-in and on every change, once each; nothing while signed out', async () => {
    const reports = recordReports();
    renderHook(() => useLanguageReport());
    act(() => useAppStore.getState().setLanguage('ko'));
    expect(reports).toEqual([]);

    act(() => useAuthStore.getState().setUser(ADMIN_USER));
    await waitFor(() => expect(useAuthStore.getState().user?.language).toBe('ko'));
    expect(reports).toEqual([{ language: 'ko' }]);

    act(() => useAppStore.getState().setLanguage('pl'));
    await waitFor(() => expect(useAuthStore.getState().user?.language).toBe('pl'));
    expect(reports).toEqual([{ language: 'ko' }, { language: 'pl' }]);
  });

  it('a refused report leaves the stored user as it was (no retry loop)', async () => {
    const reports = recordReports(401);
    useAuthStore.getState().setUser({ ...ADMIN_USER, language: 'en' });
    renderHook(() => useLanguageReport());
    act(() => useAppStore.getState().setLanguage('pl'));
    await waitFor(() => expect(reports).toEqual([{ language: 'pl' }]));
    expect(useAuthStore.getState().user?.language).toBe('en');
  });
});
