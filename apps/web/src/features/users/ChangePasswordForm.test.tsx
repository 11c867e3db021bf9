import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '@/features/auth/auth-store';
import { problemResponse, setFetchHandler } from '@/test/fetch-mock';
import { ChangePasswordForm } from './ChangePasswordForm';

let answer: () => Response;

function renderForm() {
  setFetchHandler(() => answer());
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <ChangePasswordForm />
    </QueryClientProvider>,
  );
}

function fill(old: string, next: string, repeat = next) {
  fireEvent.change(screen.getByLabelText('Current password'), { target: { value: old } });
  fireEvent.change(screen.getByLabelText('New password'), { target: { value: next } });
  fireEvent.change(screen.getByLabelText('Repeat new password'), { target: { value: repeat } });
}
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Change password' }));

describe('ChangePasswordForm', () => {
  beforeEach(() => {
    useAuthStore.setState({ user: { username: 'anna' } as never });
  });

  it('carries the username for password managers', () => {
    const { container } = renderForm();
    const username = container.querySelector<HTMLInputElement>('input[autocomplete="username"]');
    expect(username?.value).toBe('anna');
    expect(username?.hidden).toBe(true);
  });

  it('a wrong current password shows once, under its field, in words; editing clears it', async () => {
    answer = () => problemResponse(400, 'auth.invalid_password', [{ path: 'old_password', code: 'invalid', message: 'Invalid value' }]);
    renderForm();
    fill('wrong', 'New-Pass1!x');
    submit();
    expect(await screen.findByText('The current password is incorrect.')).toBeTruthy();
    expect(screen.getAllByText('The current password is incorrect.')).toHaveLength(1);
    expect(screen.queryByText('Invalid value')).toBeNull();
    expect(document.querySelector('.banner')).toBeNull();
    fireEvent.change(screen.getByLabelText('Current password'), { target: { value: 'again' } });
    expect(screen.queryByText('The current password is incorrect.')).toBeNull();
  });

  it('a problem naming no field shows one banner, gone on the next submit', async () => {
    answer = () => problemResponse(500, 'internal');
    renderForm();
    fill('old', 'New-Pass1!x');
    submit();
    await waitFor(() => expect(document.querySelector('.banner')?.textContent).toBeTruthy());
    answer = () => problemResponse(400, 'validation.failed', [{ path: 'new_password', code: 'password.digit', message: 'digit' }]);
    submit();
    expect(await screen.findByText('At least one digit required')).toBeTruthy();
    expect(document.querySelector('.banner')).toBeNull();
  });
});
