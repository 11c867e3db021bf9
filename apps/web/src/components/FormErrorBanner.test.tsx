import { ApiError } from '@palisade/api-client';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useAppStore } from '@/features/app/app-store';
import { FormErrorBanner } from './FormErrorBanner';

const forbidden = new ApiError(403, { code: 'auth.forbidden', title: 'Forbidden' });

afterEach(() => {
  cleanup();
  useAppStore.getState().setLanguage('en');
});

describe('FormErrorBanner', () => {
  it('renders nothing while there is no error and no message', () => {
    const { container } = render(
      <>
        <FormErrorBanner error={null} />
        <FormErrorBanner error={undefined}>{undefined}</FormErrorBanner>
        <FormErrorBanner>{''}</FormErrorBanner>
      </>,
    );
    expect(container.innerHTML).toBe('');
  });

  it("shows a problem+json error by its code's text, in the console's language, as one alert banner", () => {
    render(<FormErrorBanner error={forbidden} />);
    const banner = screen.getByRole('alert');
    expect(banner.tagName).toBe('P');
    expect(banner.className).toBe('banner banner--error');
    expect(banner.textContent).toBe('You do not have permission to do this.');
    cleanup();

    useAppStore.getState().setLanguage('pl');
    render(<FormErrorBanner error={forbidden} />);
    expect(screen.getByRole('alert').textContent).toBe('Nie masz uprawnień do wykonania tej operacji.');
  });

  it('says a network failure or an unknown error the way the console always did', () => {
    render(<FormErrorBanner error={new TypeError('Failed to fetch')} />);
    expect(screen.getByRole('alert').textContent).toBe('Could not reach the server. Check your connection and try again.');
    cleanup();
    render(<FormErrorBanner error={new Error('boom')} />);
    expect(screen.getByRole('alert').textContent).toBe('Error has occurred.');
  });

  it("puts the error in the form's own words when given describe, and adds layout classes", () => {
    render(
      <FormErrorBanner error={forbidden} describe={(_t, error) => `described: ${(error as ApiError).code}`} className="form-grid__wide" />,
    );
    const banner = screen.getByRole('alert');
    expect(banner.textContent).toBe('described: auth.forbidden');
    expect(banner.className).toBe('banner banner--error form-grid__wide');
  });

  it("shows the form's own message instead of the error", () => {
    render(<FormErrorBanner error={forbidden}>Fix the rule first</FormErrorBanner>);
    expect(screen.getAllByRole('alert').map((banner) => banner.textContent)).toEqual(['Fix the rule first']);
  });
});
