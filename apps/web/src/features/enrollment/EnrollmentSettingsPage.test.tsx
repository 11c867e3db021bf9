import { DEFAULT_SETTINGS, type Settings } from '@palisade/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from '@tanstack/react-router';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, setFetchHandler } from '@/test/fetch-mock';
import { EnrollmentSettingsPage } from './EnrollmentSettingsPage';

let patches: Record<string, unknown>[] = [];

function renderPage(settings: Settings) {
  setFetchHandler(async (request) => {
    if (request.method === 'PATCH') {
      const body = (await request.json()) as Record<string, unknown>;
      patches.push(body);
      return jsonResponse(200, { ...settings, ...body });
    }
    return jsonResponse(200, settings);
  });
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const root = createRootRoute({
    component: () => (
      <QueryClientProvider client={queryClient}>
        <Outlet />
      </QueryClientProvider>
    ),
  });
  const page = createRoute({ getParentRoute: () => root, path: '/enrollment-settings', component: EnrollmentSettingsPage });
  const router = createRouter({
    routeTree: root.addChildren([page]),
    history: createMemoryHistory({ initialEntries: ['/enrollment-settings'] }),
  });
  render(<RouterProvider router={router} />);
}

beforeEach(() => {
  patches = [];
});

describe('Enrollment settings', () => {
  it('previews the welcome message as the enrollment page renders it: script and raw HTML stay text', async () => {
    renderPage({ ...DEFAULT_SETTINGS, enrollment_welcome_message: '# Hello\n\n<script>window.bad = 1</script> [x](javascript:alert(1))' });
    const form = await screen.findByRole('form', { name: 'Enrollment' });
    fireEvent.click(within(form).getAllByRole('button', { name: 'Preview' })[0] as HTMLElement);
    const preview = within(form).getByRole('region', { name: 'Preview of Welcome message' });
    expect(within(preview).getByRole('heading', { name: 'Hello' })).toBeTruthy();
    expect(preview.querySelector('script, a')).toBeNull();
    expect(preview.textContent).toContain('<script>window.bad = 1</script>');
  });

  it('sends only the enrollment fields, with the lifetime as a number and the VPN step made mandatory', async () => {
    renderPage(DEFAULT_SETTINGS);
    const form = await screen.findByRole('form', { name: 'Enrollment' });
    fireEvent.change(within(form).getByLabelText('Welcome message'), { target: { value: 'Welcome to **ACME**' } });
    fireEvent.click(within(form).getByRole('checkbox', { name: 'The VPN device step is optional' }));
    fireEvent.change(within(form).getByLabelText('Enrollment link lifetime (hours)'), { target: { value: '48' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toEqual({
      enrollment_welcome_message: 'Welcome to **ACME**',
      enrollment_welcome_email_subject: '',
      enrollment_welcome_email: '',
      enrollment_use_welcome_message_as_email: true,
      enrollment_vpn_step_optional: false,
      enrollment_token_lifetime_hours: 48,
    });
  });

  it('shows the email body editor only when the welcome message is not reused', async () => {
    renderPage(DEFAULT_SETTINGS);
    const form = await screen.findByRole('form', { name: 'Enrollment' });
    expect(within(form).queryByLabelText('Email body')).toBeNull();
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Use the welcome message as the email' }));
    fireEvent.change(within(form).getByLabelText('Email body'), { target: { value: 'Your VPN is ready.' } });
    fireEvent.change(within(form).getByLabelText(/Email subject/), { target: { value: 'Welcome aboard' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toHaveLength(1));
    expect(patches[0]).toMatchObject({
      enrollment_use_welcome_message_as_email: false,
      enrollment_welcome_email: 'Your VPN is ready.',
      enrollment_welcome_email_subject: 'Welcome aboard',
    });
  });

  it('refuses a lifetime outside 1..720 hours or not a whole number, sending nothing', async () => {
    renderPage(DEFAULT_SETTINGS);
    const form = await screen.findByRole('form', { name: 'Enrollment' });
    const lifetime = within(form).getByLabelText('Enrollment link lifetime (hours)');
    fireEvent.change(lifetime, { target: { value: '721' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByRole('alert')).toBeTruthy();
    fireEvent.change(lifetime, { target: { value: '2.5' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Enter a valid number')).toBeTruthy();
    expect(patches).toEqual([]);
  });
});
