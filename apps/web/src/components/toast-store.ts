import { create } from 'zustand';

export type ToastKind = 'success' | 'info' | 'warning' | 'error';

/** A button (`onClick`) or a link opened in a new tab (`href`) inside a toast. */
export interface ToastAction {
  label: string;
  onClick?: () => void;
  href?: string;
}

export interface Toast {
  /** Spec §5: a toast must carry a non-empty custom identifier; a second toast with the same id replaces the first. */
  id: string;
  kind: ToastKind;
  message: string;
  subMessage?: string;
  /** A toast with actions stays until it is removed (one of its actions does that); it has no × of its own. */
  actions?: ToastAction[];
}

interface ToastState {
  toasts: Toast[];
  push: (toast: Toast) => void;
  dismiss: (id: string) => void;
}

export class ToastIdError extends Error {}

const AUTO_DISMISS_MS = 6000;
const timers = new Map<string, ReturnType<typeof setTimeout>>();

export const useToastStore = create<ToastState>()((set, get) => ({
  toasts: [],
  push: (toast) => {
    if (typeof toast.id !== 'string' || toast.id.trim() === '') {
      throw new ToastIdError('A toast needs a non-empty id.');
    }
    set((s) => ({ toasts: [...s.toasts.filter((t) => t.id !== toast.id), toast] }));
    const previous = timers.get(toast.id);
    if (previous) clearTimeout(previous);
    timers.delete(toast.id);
    if (toast.actions?.length) return;
    timers.set(
      toast.id,
      setTimeout(() => get().dismiss(toast.id), toast.kind === 'error' ? AUTO_DISMISS_MS * 2 : AUTO_DISMISS_MS),
    );
  },
  dismiss: (id) => {
    const timer = timers.get(id);
    if (timer) clearTimeout(timer);
    timers.delete(id);
    set((s) => ({ toasts: s.toasts.filter((t) => t.id !== id) }));
  },
}));

export const pushToast = (toast: Toast) => useToastStore.getState().push(toast);
