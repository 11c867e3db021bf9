import type { EnterpriseSettings, Info, SettingsEssentials } from '@palisade/contracts';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import { browserLanguages, detectLanguage, isLanguage, type Language } from '@/i18n/languages';

/** Spec §3 app store: session storage, name `app-store`, version 1, only `language` persisted. */
export interface AppState {
  settings: SettingsEssentials | undefined;
  language: Language;
  appInfo: Info | undefined;
  enterprise_settings: EnterpriseSettings | undefined;
  setSettings: (settings: SettingsEssentials) => void;
  setLanguage: (language: Language) => void;
  setAppInfo: (info: Info) => void;
  setEnterpriseSettings: (settings: EnterpriseSettings) => void;
}

type PersistedApp = Pick<AppState, 'language'>;

export const appStorePartialize = (state: AppState): PersistedApp => ({ language: state.language });

export const useAppStore = create<AppState>()(
  persist(
    (set) => ({
      settings: undefined,
      language: detectLanguage(browserLanguages()),
      appInfo: undefined,
      enterprise_settings: undefined,
      setSettings: (settings) => set({ settings }),
      setLanguage: (language) => set({ language }),
      setAppInfo: (appInfo) => set({ appInfo }),
      setEnterpriseSettings: (enterprise_settings) => set({ enterprise_settings }),
    }),
    {
      name: 'app-store',
      version: 1,
      storage: createJSONStorage(() => sessionStorage),
      partialize: appStorePartialize,
      merge: (persisted, current) => {
        const language = (persisted as Partial<PersistedApp> | undefined)?.language;
        return isLanguage(language) ? { ...current, language } : current;
      },
    },
  ),
);
