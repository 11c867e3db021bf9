import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ToastIdError, useToastStore } from './toast-store';

describe('toast store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    useToastStore.setState({ toasts: [] });
  });
  afterEach(() => vi.useRealTimers());

  it.each(['', '   '])('refuses a toast without a non-empty id (%j)', (id) => {
    expect(() => useToastStore.getState().push({ id, kind: 'info', message: 'x' })).toThrow(ToastIdError);
    expect(useToastStore.getState().toasts).toHaveLength(0);
  });

  it('dedupes by id: the newer toast replaces the older', () => {
    const { push } = useToastStore.getState();
    push({ id: 'a', kind: 'info', message: 'first' });
    push({ id: 'b', kind: 'success', message: 'other' });
    push({ id: 'a', kind: 'error', message: 'second', subMessage: 'details' });
    expect(useToastStore.getState().toasts.map((t) => [t.id, t.message])).toEqual([
      ['b', 'other'],
      ['a', 'second'],
    ]);
  });

  it('dismisses by id and on its own after a while', () => {
    useToastStore.getState().push({ id: 'a', kind: 'warning', message: 'x' });
    useToastStore.getState().push({ id: 'b', kind: 'success', message: 'y' });
    useToastStore.getState().dismiss('a');
    expect(useToastStore.getState().toasts.map((t) => t.id)).toEqual(['b']);
    vi.advanceTimersByTime(10_000);
    expect(useToastStore.getState().toasts).toHaveLength(0);
  });

  it('keeps a toast with actions until it is dismissed, even when it replaces a timed one', () => {
    useToastStore.getState().push({ id: 'a', kind: 'info', message: 'timed' });
    useToastStore.getState().push({ id: 'a', kind: 'info', message: 'x', actions: [{ label: 'ok', onClick: () => {} }] });
    vi.advanceTimersByTime(60_000);
    expect(useToastStore.getState().toasts.map((t) => t.message)).toEqual(['x']);
    useToastStore.getState().dismiss('a');
    expect(useToastStore.getState().toasts).toHaveLength(0);
  });
});
