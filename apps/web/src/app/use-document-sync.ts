import { useEffect } from 'react';
import { useAppStore } from '@/features/app/app-store';
import { systemTheme, useThemeStore } from '@/lib/theme-store';

/** Keeps `<html lang>` and the theme attribute in step with the stores (the title: `usePageTitle`). */
export function useDocumentSync() {
  const language = useAppStore((s) => s.language);
  const theme = useThemeStore((s) => s.theme);

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

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
