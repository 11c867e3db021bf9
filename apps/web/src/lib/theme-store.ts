import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export type Theme = 'light' | 'dark';

interface ThemeState {
  /** Undefined: follow the operating system (prefers-color-scheme). */
  theme: Theme | undefined;
  setTheme: (theme: Theme) => void;
}

// Kept in session storage like the other client stores (spec §3).
export const useThemeStore = create<ThemeState>()(
  persist((set) => ({ theme: undefined, setTheme: (theme) => set({ theme }) }), {
    name: 'theme-store',
    version: 1,
    storage: createJSONStorage(() => sessionStorage),
  }),
);

export const systemTheme = (): Theme =>
  typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
