import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export interface UpdateInfo {
  version: string;
  critical: boolean;
  release_notes_url: string;
}

export interface UpdateDismissal {
  /** UTC ISO timestamp. */
  dismissedAt: string;
  version: string;
}

/** Spec §3 update store: session storage, name `updates-store`, version 1, only the dismissal persisted. */
export interface UpdatesState {
  update: UpdateInfo | undefined;
  dismissal: UpdateDismissal | undefined;
  setUpdate: (update: UpdateInfo | undefined) => void;
  dismiss: (now?: Date) => void;
}

export const updatesStorePartialize = (state: UpdatesState): Pick<UpdatesState, 'dismissal'> => ({
  dismissal: state.dismissal,
});

/** Spec §4: a toast is due when an update exists and that same version was not dismissed. */
export const isUpdateToastDue = (state: Pick<UpdatesState, 'update' | 'dismissal'>): boolean =>
  state.update !== undefined && state.dismissal?.version !== state.update.version;

export const useUpdatesStore = create<UpdatesState>()(
  persist(
    (set, get) => ({
      update: undefined,
      dismissal: undefined,
      setUpdate: (update) => set({ update }),
      dismiss: (now = new Date()) => {
        const version = get().update?.version;
        if (version) set({ dismissal: { dismissedAt: now.toISOString(), version } });
      },
    }),
    {
      name: 'updates-store',
      version: 1,
      storage: createJSONStorage(() => sessionStorage),
      partialize: updatesStorePartialize,
    },
  ),
);
