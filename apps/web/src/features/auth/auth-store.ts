import type { User } from '@palisade/contracts';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/** Parameters of an OpenID authorization waiting for the user to sign in (consent screen). */
export type OpenIdParams = Record<string, string>;

type LoginListener = (user: User) => void;

/** The login event subject: whoever needs to react to a completed sign-in subscribes here. */
export function createLoginSubject() {
  const listeners = new Set<LoginListener>();
  return {
    next: (user: User) => {
      for (const listener of listeners) listener(user);
    },
    subscribe: (listener: LoginListener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
export type LoginSubject = ReturnType<typeof createLoginSubject>;

/**
 * Spec §3 auth store: session storage, name `auth-store`; persists `user` and `authLocation`
 * (where the visitor was heading before being sent to log in); `reset()` clears user and
 * openIdParams.
 */
export interface AuthState {
  user: User | undefined;
  openIdParams: OpenIdParams | undefined;
  authLocation: string | undefined;
  /** True when the session ended on its own (expired cookie, a 401 from any call), not by logging out. Not persisted. */
  hasSessionEnded: boolean;
  loginSubject: LoginSubject;
  setUser: (user: User) => void;
  setOpenIdParams: (params: OpenIdParams | undefined) => void;
  setAuthLocation: (location: string | undefined) => void;
  reset: () => void;
  /** The session ended without the user asking: reset, and remember it so the login page can say so. */
  endSession: () => void;
}

type PersistedAuth = Pick<AuthState, 'user' | 'authLocation'>;

export const authStorePartialize = (state: AuthState): PersistedAuth => ({
  user: state.user,
  authLocation: state.authLocation,
});

export const useAuthStore = create<AuthState>()(
  persist(
    (set) => ({
      user: undefined,
      openIdParams: undefined,
      authLocation: undefined,
      hasSessionEnded: false,
      loginSubject: createLoginSubject(),
      setUser: (user) => set({ user, hasSessionEnded: false }),
      setOpenIdParams: (openIdParams) => set({ openIdParams }),
      setAuthLocation: (authLocation) => set({ authLocation }),
      reset: () => set({ user: undefined, openIdParams: undefined }),
      endSession: () => set({ user: undefined, openIdParams: undefined, hasSessionEnded: true }),
    }),
    {
      name: 'auth-store',
      storage: createJSONStorage(() => sessionStorage),
      partialize: authStorePartialize,
    },
  ),
);
