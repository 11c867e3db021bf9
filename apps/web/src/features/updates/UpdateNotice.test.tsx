import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Toaster } from '@/components/Toaster';
import { useToastStore } from '@/components/toast-store';
import { useUpdatesStore } from '@/features/app/updates-store';
import { jsonResponse, problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { UPDATE_TOAST_ID } from './update-toast';
import { UpdateNotice } from './UpdateNotice';

const CRITICAL = { version: '2.0.0', critical: true, release_notes_url: 'https://palisade.dev/releases/2.0.0' };
const MINOR = { version: '1.1.0', critical: false, release_notes_url: 'https://palisade.dev/releases/1.1.0' };

let calls = 0;
function serve(answer: () => Response) {
  calls = 0;
  setFetchHandler(async (request) => {
    if (new URL(request.url).pathname !== '/api/v1/updates') return new Response(null, { status: 404 });
    calls++;
    return answer();
  });
}

/** A fresh page: a new query cache (the store keeps only what sessionStorage would restore). */
function renderPage(isAdmin = true) {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <UpdateNotice isAdmin={isAdmin} />
      <Toaster />
    </QueryClientProvider>,
  );
}

const toast = () => document.querySelector(`[data-toast-id="${UPDATE_TOAST_ID}"]`) as HTMLElement | null;
const stored = () => JSON.parse(sessionStorage.getItem('updates-store') ?? 'null');

describe('UpdateNotice (spec §2, §4, §6)', () => {
  beforeEach(() => {
    useUpdatesStore.setState({ update: undefined, dismissal: undefined });
    useToastStore.setState({ toasts: [] });
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows an admin the version, the critical marker, the release-notes link, more and dismiss', async () => {
    serve(() => jsonResponse(200, CRITICAL));
    renderPage();
    await waitFor(() => expect(toast()).not.toBeNull());
    const t = within(toast() as HTMLElement);
    expect(t.getByText('Palisade 2.0.0 is available.')).toBeTruthy();
    expect(t.getByText('Critical update')).toBeTruthy();
    const notes = t.getByRole('link', { name: 'Release notes' });
    expect(notes.getAttribute('href')).toBe(CRITICAL.release_notes_url);
    expect(notes.getAttribute('rel')).toContain('noopener');
    expect(t.getByRole('button', { name: 'More' })).toBeTruthy();
    expect(t.getByRole('button', { name: 'Dismiss' })).toBeTruthy();
    expect(toast()?.className).toContain('toast--warning');
  });

  it('has no critical marker for a non-critical release', async () => {
    serve(() => jsonResponse(200, MINOR));
    renderPage();
    await waitFor(() => expect(toast()).not.toBeNull());
    expect(within(toast() as HTMLElement).queryByText('Critical update')).toBeNull();
    expect(toast()?.className).toContain('toast--info');
  });

  it('does not check for users who are not admins', async () => {
    serve(() => jsonResponse(200, CRITICAL));
    useUpdatesStore.setState({ update: CRITICAL });
    renderPage(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(calls).toBe(0);
    expect(toast()).toBeNull();
  });

  it('shows nothing when there is no newer version (204), and only logs a failed check', async () => {
    serve(() => new Response(null, { status: 204 }));
    const first = renderPage();
    await waitFor(() => expect(calls).toBe(1));
    expect(toast()).toBeNull();
    first.unmount();

    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    serve(() => problemResponse(500, 'internal'));
    renderPage();
    await waitFor(() => expect(logged).toHaveBeenCalled());
    expect(useToastStore.getState().toasts).toEqual([]);
  });

  it('dismiss stores the version and time; that version never shows again, a newer one does', async () => {
    serve(() => jsonResponse(200, MINOR));
    const first = renderPage();
    await waitFor(() => expect(toast()).not.toBeNull());
    fireEvent.click(within(toast() as HTMLElement).getByRole('button', { name: 'Dismiss' }));
    expect(toast()).toBeNull();
    expect(stored()).toEqual({ state: { dismissal: { version: '1.1.0', dismissedAt: expect.any(String) } }, version: 1 });
    expect(new Date(stored().state.dismissal.dismissedAt).toISOString()).toBe(stored().state.dismissal.dismissedAt);
    first.unmount();

    // A reload: the store comes back from sessionStorage, the same version is announced again and stays hidden.
    const saved = sessionStorage.getItem('updates-store') as string;
    useUpdatesStore.setState({ update: undefined, dismissal: undefined });
    sessionStorage.setItem('updates-store', saved);
    await useUpdatesStore.persist.rehydrate();
    expect(useUpdatesStore.getState().dismissal?.version).toBe('1.1.0');
    calls = 0;
    const second = renderPage();
    await waitFor(() => expect(calls).toBe(1));
    await waitFor(() => expect(useUpdatesStore.getState().update).toEqual(MINOR));
    expect(toast()).toBeNull();
    second.unmount();

    serve(() => jsonResponse(200, CRITICAL));
    renderPage();
    await waitFor(() => expect(toast()).not.toBeNull());
    expect(within(toast() as HTMLElement).getByText('Palisade 2.0.0 is available.')).toBeTruthy();
  });

  it("'more' opens the modal with version, critical marker and notes link, and removes the toast", async () => {
    serve(() => jsonResponse(200, CRITICAL));
    renderPage();
    await waitFor(() => expect(toast()).not.toBeNull());
    fireEvent.click(within(toast() as HTMLElement).getByRole('button', { name: 'More' }));
    expect(toast()).toBeNull();
    const dialog = screen.getByRole('dialog', { name: 'New version available' });
    expect(within(dialog).getByText('Palisade 2.0.0 has been released.')).toBeTruthy();
    expect(within(dialog).getByText('Critical update')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Release notes' }).getAttribute('href')).toBe(CRITICAL.release_notes_url);
    // 'more' is not a dismissal: nothing is stored.
    expect(stored()?.state?.dismissal).toBeUndefined();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(toast()).toBeNull();
  });

  it('keeps one update toast at a time: a newer announcement replaces the older', async () => {
    serve(() => jsonResponse(200, MINOR));
    renderPage();
    await waitFor(() => expect(toast()).not.toBeNull());
    useUpdatesStore.getState().setUpdate(CRITICAL);
    await waitFor(() => expect(within(toast() as HTMLElement).queryByText('Palisade 2.0.0 is available.')).not.toBeNull());
    expect(useToastStore.getState().toasts).toHaveLength(1);
  });
});
