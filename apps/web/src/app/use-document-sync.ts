import { useEffect } from 'react';
import { useAppStore } from '@/features/app/app-store';
import { systemTheme, useThemeStore } from '@/lib/theme-store';

/** Keeps `<html lang>`, `document.title` and the theme attribute in step with the stores. */
export function useDocumentSync() {
  const language = useAppStore((s) => s.language);
  const instanceName = useAppStore((s) => s.settings?.instance_name);
  const theme = useThemeStore((s) => s.theme);

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  useEffect(() => {
    document.title = instanceName || 'Palisade';
  }, [instanceName]);

  useEffect(() => {
    const apply = () => {
      document.documentElement.dataset.theme = theme ?? systemTheme();
    };
    apply();
    if (theme) return;
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    media?.addEventListener('change', apply);
    return () => media?.removeEventListener('change', apply);
  }, [theme]);
}
