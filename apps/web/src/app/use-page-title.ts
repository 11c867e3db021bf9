import { useMatches, useRouterState } from '@tanstack/react-router';
import { useEffect } from 'react';
import { disabledModuleOf, useEssentials } from '@/features/app/modules';
import { useTranslation } from '@/i18n/use-translation';
import { documentTitle, type PageState } from './page-title';

/** Keeps `document.title` at "<page> · <instance name>" as the route, the language or the settings change. */
export function usePageTitle(): void {
  const { t } = useTranslation();
  const settings = useEssentials();
  const matches = useMatches();
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const instance = settings?.instance_name || 'Palisade';
  const isNotFound = matches.some((m) => m.status === 'notFound') || matches.at(-1)?.routeId === '__root__';
  const state: PageState = isNotFound ? 'notFound' : disabledModuleOf(settings, pathname) ? 'moduleDisabled' : 'ok';
  const title = documentTitle(
    t,
    matches.map((m) => ({ routeId: m.routeId, params: m.params as Record<string, string | undefined> })),
    instance,
    state,
  );
  useEffect(() => {
    document.title = title;
  }, [title]);
}
